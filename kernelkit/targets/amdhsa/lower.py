"""SPIR IR (the frontend's, after the mux passes) -> AMDGPU IR text.

* address spaces (spec 001 "Address Spaces"): SPIR private 0 -> 5, global 1 -> 1, constant 2 -> 4,
  local 3 -> 3, generic 4 -> 0; in pointer types, global variables, allocas and the ``.pN``
  suffixes of intrinsic names;
* calling conventions: ``spir_kernel`` -> ``amdgpu_kernel``, ``spir_func`` -> default;
* OpenCL handle types: images and samplers -> ``ptr addrspace(4)``, queues, pipes and
  device events -> ``ptr addrspace(1)`` (what clang gives them on amdgcn);
* SPIR sync scopes -> AMDGPU's (``device`` -> ``agent``, ``subgroup`` -> ``wavefront``);
* triple, data layout and the ``amdhsa_code_object_version`` module flag.
"""

from __future__ import annotations

import re

# spec 001 "AMDGPU Address Spaces" vs the SPIR numbering the frontend uses
SPIR_TO_AMDGPU_ADDRESS_SPACE: dict[int, int] = {0: 5, 1: 1, 2: 4, 3: 3, 4: 0}
# OpenCL handle types: SPIR target extension type name -> AMDGPU IR type
HANDLE_TYPES: dict[str, str] = {"spirv.Image": "ptr addrspace(4)", "spirv.Sampler": "ptr addrspace(4)",
                                "spirv.Queue": "ptr addrspace(1)", "spirv.Pipe": "ptr addrspace(1)",
                                "spirv.DeviceEvent": "ptr addrspace(1)", "spirv.ReserveId": "ptr addrspace(1)",
                                "spirv.Event": "ptr addrspace(5)"}
# SPIR memory scopes -> AMDHSA LLVM sync scopes (spec 001 "AMDHSA LLVM Sync Scopes")
SYNC_SCOPES: dict[str, str] = {"device": "agent", "subgroup": "wavefront", "workgroup": "workgroup",
                               "singlethread": "singlethread", "all_svm_devices": ""}
AMDGPU_TRIPLE = "amdgcn-amd-amdhsa"

_STRING = re.compile(r'("[^"]*")')
_PTR = re.compile(r"(?<![\w.$%@-])ptr(?:\s+addrspace\((\d+)\))?(?![\w.$-])|(?<![\w.$%@-])addrspace\((\d+)\)")
_TARGET_TYPE = re.compile(r'target\("(spirv\.[A-Za-z]+)"[^()]*\)')
_INTRINSIC = re.compile(r"@llvm\.[\w.]+")
_SUFFIX = re.compile(r"(?<=\.)p(\d+)(?=\.|$)")
_SYNCSCOPE = re.compile(r'syncscope\("([\w-]+)"\)\s*')


def _map_as(n: int) -> int:
    return SPIR_TO_AMDGPU_ADDRESS_SPACE.get(n, n)


def _ptr(m: re.Match) -> str:
    if m.group(0).startswith("ptr"):
        n = _map_as(int(m.group(1) or 0))
        return "ptr" if n == 0 else f"ptr addrspace({n})"
    return f"addrspace({_map_as(int(m.group(2)))})"


def _intrinsic(m: re.Match) -> str:
    return _SUFFIX.sub(lambda s: f"p{_map_as(int(s.group(1)))}", m.group(0))


def _scope(m: re.Match) -> str:
    new = SYNC_SCOPES.get(m.group(1), m.group(1))
    return f'syncscope("{new}") ' if new else ""


def _line(line: str) -> str:
    # handle types first (their names are quoted), as placeholders the remap below leaves alone
    handles: list[str] = []

    def hold(m: re.Match) -> str:
        handles.append(HANDLE_TYPES.get(m.group(1), "ptr addrspace(5)"))
        return f"\x00{len(handles) - 1}\x00"

    line = _TARGET_TYPE.sub(hold, line)
    out = []
    for i, piece in enumerate(_STRING.split(line)):
        if i % 2:           # a quoted string or name
            out.append(piece)
            continue
        piece = _PTR.sub(_ptr, piece)
        piece = _INTRINSIC.sub(_intrinsic, piece)
        piece = re.sub(r"\bspir_kernel\b", "amdgpu_kernel", piece)
        piece = re.sub(r"\bspir_func\s+", "", piece)
        out.append(piece)
    text = "".join(out)
    if handles:
        text = re.sub(r"\x00(\d+)\x00", lambda m: handles[int(m.group(1))], text)
    if "syncscope(" in text:
        text = _SYNCSCOPE.sub(_scope, text)
    if re.match(r"\s*%[\w.$-]+ = alloca\b", text):
        head, sep, tail = text.partition(", !")
        if not re.search(r",\s*addrspace\(\d+\)\s*$", head):
            text = head + ", addrspace(5)" + (sep + tail if sep else "")
    return text


_LINKAGE = r"(?:private|internal|external|extern_weak|available_externally|linkonce|linkonce_odr|weak|weak_odr|common|appending)"


def _visibility(line: str) -> str:
    """clang's amdgcn visibility: kernels and program-scope variables protected (the loader finds
    them), other functions hidden; the bodies clang outlines from kernels become internal."""
    if line.startswith("define "):
        if re.match(rf"define\s+(?:{_LINKAGE}\s)", line) or re.search(r"\b(?:hidden|protected)\b", line.split("@")[0]):
            return line
        head, at, tail = line.partition("@")
        head = re.sub(r"\bdso_local\s+", "", head)
        if tail.startswith("__clang_ocl_kern_imp_"):
            return head.replace("define ", "define internal ", 1) + at + tail
        vis = "protected" if "amdgpu_kernel" in head else "hidden"
        return head.replace("define ", f"define {vis} ", 1) + at + tail
    m = re.match(r"(@[-\w$.]+ = )(.*)$", line)
    if m and re.search(r"\b(?:global|constant)\b", m.group(2)) and \
            not re.match(rf"(?:{_LINKAGE})\b", m.group(2)) and not re.match(r"(?:hidden|protected)\b", m.group(2)):
        rest = re.sub(r"^dso_local\s+", "", m.group(2))
        return m.group(1) + "protected " + rest
    return line


def kernel_byval_to_byref(ir_text: str) -> str:
    """Kernel aggregates arrive by reference into the kernarg segment on AMDGPU (clang's
    ``byref`` in the constant address space); the SPIR IR passes them ``byval``. Needs named
    values (run LLVM's instruction namer first): the kernel gets ``%x.kkarg`` and copies it
    into a private ``%x`` at entry."""
    out = []
    lines = ir_text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("define ") and "spir_kernel" in line and "byval(" in line:
            copies = []

            def repl(m: re.Match, copies: list = copies) -> str:
                before, ty, rest, name = m.group(1), m.group(2), m.group(3), m.group(4)
                align = re.search(r"align (\d+)", rest)
                copies.append((ty, name, align.group(1) if align else "1"))
                rest = re.sub(r"\s*captures\(none\)", "", rest)
                return f"ptr addrspace(2){before} byref({ty}){rest}%{name}.kkarg"

            line = re.sub(r"ptr((?: [\w]+)*?) byval\(([^()]+)\)((?: [\w()]+)*? )%([-\w$.]+)", repl, line)
            out.append(line)
            if copies and lines[i + 1].rstrip().endswith(":"):
                i += 1
                out.append(lines[i])
            for ty, name, align in copies:
                out.append(f"  %{name} = alloca {ty}, align {align}")
                out.append(f"  %{name}.kkval = load {ty}, ptr addrspace(2) %{name}.kkarg, align {align}")
                out.append(f"  store {ty} %{name}.kkval, ptr %{name}, align {align}")
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out) + "\n"


def spir_to_amdgpu(ir_text: str, datalayout: str, code_object_version: int) -> str:
    lines = []
    functions = set(re.findall(r"^(?:define|declare)\b[^@]*@([-\w$.]+)\(", ir_text, flags=re.M))
    for line in ir_text.splitlines():
        if line.startswith("target datalayout"):
            lines.append(f'target datalayout = "{datalayout}"')
            continue
        if line.startswith("target triple"):
            lines.append(f'target triple = "{AMDGPU_TRIPLE}"')
            continue
        lines.append(_visibility(_line(line)))
    text = "\n".join(lines) + "\n"
    # functions live in address space 0 (the program address space) on AMDGPU (a function's
    # address, not the private pointer a call or definition returns: ``ptr addrspace(5) @f(``)
    if functions:
        text = re.sub(r"ptr addrspace\(5\) @([-\w$.]+)(?![-\w$.(])",
                      lambda m: f"ptr @{m.group(1)}" if m.group(1) in functions else m.group(0), text)
        # SPIR casts function addresses to generic (4): on AMDGPU both are address space 0
        text = re.sub(r"addrspacecast \(ptr (@[-\w$.]+) to ptr\)", r"\1", text)
    return add_module_flag(text, "amdhsa_code_object_version", code_object_version * 100)


def add_module_flag(text: str, name: str, value: int) -> str:
    ids = [int(n) for n in re.findall(r"^!(\d+) = ", text, flags=re.M)]
    new_id = max(ids, default=-1) + 1
    node = f'!{new_id} = !{{i32 1, !"{name}", i32 {value}}}'
    m = re.search(r"^!llvm\.module\.flags = !\{(.*)\}$", text, flags=re.M)
    if m:
        inner = m.group(1).strip()
        repl = f"!llvm.module.flags = !{{{inner + ', ' if inner else ''}!{new_id}}}"
        text = text[:m.start()] + repl + text[m.end():]
    else:
        text += f"!llvm.module.flags = !{{!{new_id}}}\n"
    return text + node + "\n"


def force_inline(text: str) -> str:
    """Code object V2 needs each kernel's code in one piece after its amd_kernel_code_t: every
    other function becomes internal and always-inline (``__kk_*``/``__printf_alloc`` are left
    alone until LLVM has added the calls to them)."""
    out = []
    for line in text.splitlines():
        if line.startswith("define ") and "amdgpu_kernel" not in line.split("@")[0] and \
                not re.search(r"@(?:__kk_\w+|__printf_alloc)\(", line) or \
                (line.startswith("define internal ") and "amdgpu_kernel" not in line.split("@")[0]):
            head, at, tail = line.partition("@")
            head = re.sub(r"^define\s+(?:(?:internal|private|linkonce_odr|linkonce|weak_odr|weak|hidden|protected|"
                          r"dso_local|external|local_unnamed_addr|unnamed_addr)\s+)*", "define internal ", head)
            line = head + at + tail
            if "alwaysinline" not in line:
                if re.search(r"\)[^(]* #\d+", line):
                    line = re.sub(r"(\)[^(]*? #\d+)", r"\1 alwaysinline", line, count=1)
                else:
                    line = re.sub(r"(\)[^()]*?)(\s+!|\s*\{\s*$)", r"\1 alwaysinline\2", line, count=1)
        elif line.startswith("attributes #"):
            line = re.sub(r"\s(?:noinline|optnone)(?=[\s}])", "", line)
        out.append(line)
    return "\n".join(out) + "\n"


def keep_implicit_args(text: str, but: frozenset[str] = frozenset()) -> str:
    """The kernels (all but those in ``but``) keep all their hidden (implicit) arguments, as
    clang's kernels that call external builtins have them: the implicit argument pointer is handed
    to an empty inline asm statement, so LLVM cannot prove it unused and size the kernarg segment
    without it. The statement touches no memory, so loads stay scalar where LLVM can prove
    them unclobbered."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        if line.startswith("define ") and "amdgpu_kernel" in line.split("@")[0] and line.rstrip().endswith("{") \
                and _defined_name(line) not in but:
            if i + 1 < len(lines) and re.match(r"^[-\w$.]+:", lines[i + 1]):
                i += 1
                out.append(lines[i])
            out.append("  %kk.implicitarg = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()")
            out.append('  call void asm sideeffect "", "s"(ptr addrspace(4) %kk.implicitarg) memory(none)')
        i += 1
    text = "\n".join(out) + "\n"
    if "declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()" not in text and "%kk.implicitarg" in text:
        text += "declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()\n"
    return text


def _defined_name(define_line: str) -> str:
    m = re.search(r'@("(?:[^"\\]|\\.)*"|[-\w$.]+)\(', define_line)
    return m.group(1).strip('"') if m else ""


_ATTRIBUTE_GROUP = re.compile(r"^(attributes #\d+ = \{)(.*)(\})\s*$", re.M)


def with_attribute_everywhere(text: str, key: str, value: str) -> str:
    """Every attribute group of the module says ``"key"="value"`` (e.g. the f32 denormal mode, which
    all functions must share for the inliner to inline them into each other)."""
    setting = f'"{key}"="{value}"'
    own = re.compile(r'\s*"' + re.escape(key) + r'"="[^"]*"')
    return _ATTRIBUTE_GROUP.sub(lambda m: f"{m.group(1)}{own.sub('', m.group(2)).rstrip()} {setting} {m.group(3)}",
                                text)
