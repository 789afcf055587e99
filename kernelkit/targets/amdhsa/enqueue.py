"""Device-side enqueue on AMDGPU: the block kernels of ``enqueue_kernel`` as clang 22 emits them
for amdgcn (SPIR IR text in, SPIR IR text out; runs on named values, before the address-space
mapping).

* the enqueued kernel gets its block literal by value in its kernarg segment (a ``byref``
  argument of the literal's type: metadata ``by_value``, named ``block_literal``);
* each block kernel has a runtime handle ``@K.runtime.handle`` = {kernel object, private segment
  size, group segment size} in section ``.amdgpu.kernel.runtime.handle``, which the loader fills
  in and LLVM names as the kernel's ``.device_enqueue_symbol`` (``!associated``);
* ``__enqueue_kernel_*`` and ``__get_kernel_*_impl`` receive that handle instead of the kernel's
  address (the device library, ``enqueue.cl``, dispatches through it).
"""

from __future__ import annotations

import re

from kernelkit.errors import CompileError

RUNTIME_HANDLE_SECTION = ".amdgpu.kernel.runtime.handle"
RUNTIME_HANDLE_TYPE = "{ ptr addrspace(1), i32, i32 }"
RUNTIME_HANDLE_SUFFIX = ".runtime.handle"
BLOCK_LITERAL_ARG = "block_literal"
_KERNEL_REF = re.compile(r"addrspacecast \(ptr @([-\w$.]+) to ptr addrspace\(4\)\)")
_DEFINE = re.compile(r"^define [^@\n]*@([-\w$.]+)\(", re.M)


def _functions(text: str) -> dict[str, tuple[int, int]]:
    """name -> (start, end) of each function definition's text."""
    spans = {}
    for m in _DEFINE.finditer(text):
        end = text.find("\n}\n", m.start())
        spans[m.group(1)] = (m.start(), len(text) if end < 0 else end + 3)
    return spans


def _literal_type(text: str, spans: dict[str, tuple[int, int]], kernel: str) -> tuple[str, str]:
    """(IR type, alignment) of the block literal a call passes along with ``kernel``'s address:
    a private copy (an alloca) or, for a block that captures nothing, a constant global."""
    ref = rf"addrspacecast \(ptr @{re.escape(kernel)} to ptr addrspace\(4\)\), ptr addrspace\(4\) "
    for start, end in spans.values():
        body = text[start:end]
        for call in re.finditer(ref + r"(%[-\w$.]+)", body):
            value = call.group(1)
            cast = re.search(rf"^\s*{re.escape(value)} = addrspacecast ptr (%[-\w$.]+) to ptr addrspace\(4\)",
                             body, re.M)
            source = cast.group(1) if cast else value
            alloca = re.search(rf"^\s*{re.escape(source)} = alloca (.+?), align (\d+)", body, re.M)
            if alloca:
                return alloca.group(1), alloca.group(2)
    for call in re.finditer(ref + r"addrspacecast \(ptr addrspace\(1\) @([-\w$.]+) to ptr addrspace\(4\)\)", text):
        glob = re.search(rf"^@{re.escape(call.group(1))} = [^\n]*?\b(?:global|constant) (.+?) (?:\{{|<\{{)"
                         r"[^\n]*, align (\d+)", text, re.M)
        if glob:
            return glob.group(1), glob.group(2)
    raise CompileError(f"amdhsa: cannot find the block literal enqueued with {kernel}")


def _add_metadata(text: str, nodes: list[str]) -> tuple[str, list[int]]:
    ids = [int(n) for n in re.findall(r"^!(\d+) = ", text, flags=re.M)]
    first = max(ids, default=-1) + 1
    new = [first + i for i in range(len(nodes))]
    return text + "".join(f"!{i} = {node}\n" for i, node in zip(new, nodes, strict=True)), new


def for_code_object_v2(text: str) -> str:
    """Code object V2 holds nothing but kernels in .text (each behind its amd_kernel_code_t): the
    block literal's invoke-function field, which no AMDGPU code calls through (the block kernel
    calls the invoke function directly, and it is inlined there), is stored as null, and the block
    kernels lose ``!associated`` (which would put them in a section of their own); the V2 writer
    names the runtime handle (``RuntimeHandle``) from its symbol instead."""
    text = re.sub(r" !associated !\d+", "", text)
    invokes = set(re.findall(r"^define [^@\n]*spir_func [^@\n]*@([-\w$.]+_block_invoke(?:_\d+)?)\(", text, flags=re.M))
    for name in invokes:
        text = text.replace(f"addrspacecast (ptr @{name} to ptr addrspace(4))", "null")
    return text


def block_kernels_to_amdgpu(text: str) -> str:
    defined_kernels = set(re.findall(r"^define [^@\n]*spir_kernel [^@\n]*@([-\w$.]+)\(", text, flags=re.M))
    blocks = sorted({k for k in _KERNEL_REF.findall(text) if k in defined_kernels})
    if not blocks:
        return text
    spans = _functions(text)
    literals = {k: _literal_type(text, spans, k) for k in blocks}
    handles = []
    for kernel in blocks:
        handle = f"@{kernel}{RUNTIME_HANDLE_SUFFIX}"
        ty, align = literals[kernel]
        text = text.replace(f"addrspacecast (ptr @{kernel} to ptr addrspace(4))",
                            f"addrspacecast (ptr addrspace(1) {handle} to ptr addrspace(4))")
        m = re.search(rf"^(define [^@\n]*@{re.escape(kernel)}\()ptr addrspace\(4\)"
                      r"(?:[^%,()]|\([^()]*\))*(%[-\w$.]+)(.*)$", text, flags=re.M)
        if m is None:
            raise CompileError(f"amdhsa: block kernel {kernel} does not take its literal as its first argument")
        arg, rest = m.group(2), m.group(3)
        # the `local void *` parameters of the block (enqueue_kernel's local sizes), named as clang names them
        params = re.split(r"\)\s+(?:#\d|!|\{|local_unnamed_addr|unnamed_addr)", rest)[0]
        n_local = params.count("ptr addrspace(3)")
        local_names = "".join(f', !"local_arg{i}"' for i in range(1, n_local + 1))
        text, (assoc, space, access, type_, qual, name) = _add_metadata(text, [
            f"!{{ptr addrspace(1) {handle}}}", "!{i32 0" + ", i32 3" * n_local + "}",
            '!{!"none"' + ', !"none"' * n_local + "}", '!{!"__block_literal"' + ', !"void*"' * n_local + "}",
            '!{!""' + ', !""' * n_local + "}", f'!{{!"{BLOCK_LITERAL_ARG}"{local_names}}}'])
        extra = "" if "!kernel_arg_addr_space" in rest else (
            f" !kernel_arg_addr_space !{space} !kernel_arg_access_qual !{access} !kernel_arg_type !{type_}"
            f" !kernel_arg_base_type !{type_} !kernel_arg_type_qual !{qual} !kernel_arg_name !{name}")
        rest = re.sub(r"\s*\{\s*$", f" !associated !{assoc}{extra} {{", rest)
        line = f"{m.group(1)}ptr addrspace(2) byref({ty}) align {align} {arg}.kklit{rest}"
        body_start = m.end()
        label = re.match(r"\n([-\w$.]+:)[^\n]*", text[body_start:])
        insert_at = body_start + (label.end() if label else 0)
        text = (text[:m.start()] + line + text[body_start:insert_at]
                + f"\n  {arg} = addrspacecast ptr addrspace(2) {arg}.kklit to ptr addrspace(4)" + text[insert_at:])
        handles.append(f"{handle} = internal addrspace(1) externally_initialized constant {RUNTIME_HANDLE_TYPE} "
                       f'zeroinitializer, section "{RUNTIME_HANDLE_SECTION}"')
    # SPIR's generic pointers (address space 4) become AMDGPU's flat ones
    used = ", ".join(f"ptr addrspace(4) addrspacecast (ptr addrspace(1) @{k}{RUNTIME_HANDLE_SUFFIX} "
                     "to ptr addrspace(4))" for k in blocks)
    handles.append(f'@llvm.used = appending global [{len(blocks)} x ptr addrspace(4)] [{used}], '
                   'section "llvm.metadata"')
    if "@llvm.used = " in text:
        raise CompileError("amdhsa: modules with @llvm.used and device-side enqueue are not supported")
    first_define = _DEFINE.search(text)
    at = first_define.start() if first_define else len(text)
    return text[:at] + "\n".join(handles) + "\n\n" + text[at:]
