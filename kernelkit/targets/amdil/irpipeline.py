"""The IR the AMD IL code generator selects from: finalized mux IR (SPIR, 32-bit pointers) with
kernelkit's OpenCL builtin library linked in (``kernelkit.mux.clc``, portable math), every
non-kernel function inlined, optimised by LLVM (llvmlite) without vectorisers, then read back
as ``kernelkit.ir``."""

from __future__ import annotations

import re

from kernelkit.llvm_binding import llvm, parse_verified
from kernelkit.mux.clc import UNMANGLED_BUILTINS

SPIR32 = "spir-unknown-unknown"
LIBRARY_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                   "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")
_BUILTIN_CALL = re.compile(r"@(_Z[\w$.]+|" + "|".join(UNMANGLED_BUILTINS) + r")\(")


def _parse(text: str, what: str):
    return parse_verified(text, what, "amdil")


def with_builtin_library(ir_text: str, options) -> str:
    defined = set(re.findall(r"^define\b[^@]*@([-\w$.]+)\(", ir_text, flags=re.M))
    called = {n for n in _BUILTIN_CALL.findall(ir_text) if n not in defined}
    if not called:
        return ir_text
    from kernelkit.mux.clc import defined_builtins, library_ir
    from kernelkit.targets.amdil.halfs import is_half_call

    # half loads/stores of float data are selected as IL conversions, not linked
    available = {n for n in called & defined_builtins(SPIR32, portable_math=True)
                 if not is_half_call(n)}
    if not available:
        return ir_text
    lib = library_ir(SPIR32, opts=[o for o in options if o in LIBRARY_OPTIONS],
                     only=sorted(available), portable_math=True)
    main = _parse(ir_text, "the frontend")
    main.link_in(_parse(lib, "the builtin library"))
    return str(main)


def _opt_level(options) -> int:
    for o in reversed(list(options)):
        if re.fullmatch(r"-O[0-3]", o):
            return int(o[2])
    return 2


_DEFINE = re.compile(r"^define [^@]*@([-\w$.]+)\(.*\)(.*)$")


def noinline_functions(text: str) -> set[str]:
    """The program's own non-kernel functions marked noinline (and not optnone, which -O0 puts
    on every function): they become IL functions of their own."""
    groups = {m.group(1): m.group(2) for m in
              re.finditer(r"^attributes #(\d+) = \{(.*)\}$", text, flags=re.M)}
    out = set()
    for line in text.split("\n"):
        m = _DEFINE.match(line)
        if not m or "spir_kernel" in line:
            continue
        attrs = m.group(2) + " ".join(groups.get(g, "") for g in re.findall(r"#(\d+)", m.group(2)))
        if re.search(r"\bnoinline\b", attrs) and not re.search(r"\boptnone\b", attrs):
            out.add(m.group(1))
    return out


def _inline_everything(text: str, keep: frozenset[str] = frozenset()) -> str:
    """Non-kernel definitions become internal and alwaysinline, except those in ``keep``
    (internal and noinline: IL functions of their own)."""
    out = []
    kept_lines = []
    for line in text.split("\n"):
        if line.startswith("define ") and "spir_kernel" not in line:
            line = re.sub(r"^define (?:(?:linkonce_odr|weak_odr|weak|linkonce|internal|"
                          r"available_externally|hidden|dso_local|protected) )*", "define internal ",
                          line)
            line = re.sub(r"\bnoinline\b", "", line)
            m = _DEFINE.match(line)
            if m and m.group(1) in keep:
                kept_lines.append(len(out))
        out.append(line)
    text = "\n".join(out)
    groups = {m.group(1): m.group(2) for m in
              re.finditer(r"^attributes #(\d+) = \{(.*)\}$", text, flags=re.M)}
    extra = []
    lines = text.split("\n")
    for k, index in enumerate(kept_lines):
        line = lines[index]
        attrs = " ".join(groups.get(g, "") for g in re.findall(r"#(\d+)", line.split(")")[-1]))
        attrs = re.sub(r"\b(alwaysinline|optnone|inlinehint)\b", "", attrs)
        gid = 90000 + k
        lines[index] = re.sub(r"(\)[^)]*?)(?: #\d+)+", rf"\1 #{gid}", line, count=1) \
            if re.search(r"#\d+", line.split(")")[-1]) else line.rstrip(" {") + f" #{gid} {{"
        extra.append(f"attributes #{gid} = {{ noinline {attrs.strip()} }}")
    if keep:
        # call sites share the groups that get alwaysinline below: calls to kept functions
        # lose their (optional) call-site group
        call = re.compile(r"\bcall\b.*@(" + "|".join(re.escape(k) for k in keep) + r")\(")
        lines = [re.sub(r"( #\d+)+(?=(,|$))", "", ln) if call.search(ln) else ln for ln in lines]
    text = "\n".join(lines)
    # attribute groups: every function attribute group gets alwaysinline (kernels too is harmless)
    text = re.sub(r"^(attributes #\d+ = \{)", r"\1 alwaysinline", text, flags=re.M) \
        .replace("alwaysinline  alwaysinline", "alwaysinline")
    return text + ("\n" + "\n".join(extra) + "\n" if extra else "")


_OPTIMISED: dict[tuple[str, tuple[str, ...]], str] = {}


def optimised_ir(mux_ir: str, options=()):
    """kernelkit.ir.Module ready for instruction selection (the optimised text is kept per
    process: it does not depend on the device, so one program built for several AMD IL devices
    is optimised once). noinline functions stay out of line when they can be IL functions of
    their own (``functions.out_of_line_problem``), else they are inlined too."""
    from kernelkit.ir import parse
    from kernelkit.targets.amdil.functions import out_of_line_problem

    key = (mux_ir, tuple(options))
    text = _OPTIMISED.get(key)
    if text is None:
        keep = frozenset(noinline_functions(mux_ir))
        while True:
            text = _optimise(mux_ir, options, keep)
            if not keep:
                break
            module = parse(text)
            bad = {f.name for f in module.functions
                   if f.name in keep and f.blocks and out_of_line_problem(f, module)}
            if not bad:
                break
            keep = keep - bad
        if len(_OPTIMISED) > 32:
            _OPTIMISED.clear()
        _OPTIMISED[key] = text
    return parse(text)


def _optimise(mux_ir: str, options, keep: frozenset[str] = frozenset()) -> str:
    b = llvm()
    text = with_builtin_library(mux_ir, options)
    text = re.sub(r"\bnoinline\b|\boptnone\b", "", text)
    text = _inline_everything(text, keep)
    main = _parse(text, "the builtin library link")
    tm = b.Target.from_default_triple().create_target_machine(opt=2)
    pto = b.create_pipeline_tuning_options(speed_level=max(1, _opt_level(options)))
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    return str(main)
