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


def _inline_everything(text: str) -> str:
    """Non-kernel definitions become internal and alwaysinline (IL calls are not generated
    for OpenCL functions yet: each kernel body is one IL function)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("define ") and "spir_kernel" not in line:
            line = re.sub(r"^define (?:(?:linkonce_odr|weak_odr|weak|linkonce|internal|"
                          r"available_externally|hidden|dso_local|protected) )*", "define internal ",
                          line)
            line = re.sub(r"\bnoinline\b", "", line)
        out.append(line)
    text = "\n".join(out)
    # attribute groups: every function attribute group gets alwaysinline (kernels too is harmless)
    return re.sub(r"^(attributes #\d+ = \{)", r"\1 alwaysinline", text, flags=re.M) \
        .replace("alwaysinline  alwaysinline", "alwaysinline")


_OPTIMISED: dict[tuple[str, tuple[str, ...]], str] = {}


def optimised_ir(mux_ir: str, options=()):
    """kernelkit.ir.Module ready for instruction selection (the optimised text is kept per
    process: it does not depend on the device, so one program built for several AMD IL devices
    is optimised once)."""
    from kernelkit.ir import parse

    key = (mux_ir, tuple(options))
    text = _OPTIMISED.get(key)
    if text is None:
        text = _optimise(mux_ir, options)
        if len(_OPTIMISED) > 32:
            _OPTIMISED.clear()
        _OPTIMISED[key] = text
    return parse(text)


def _optimise(mux_ir: str, options) -> str:
    b = llvm()
    text = with_builtin_library(mux_ir, options)
    text = _inline_everything(text)
    text = re.sub(r"\bnoinline\b|\boptnone\b", "", text)
    main = _parse(text, "the builtin library link")
    tm = b.Target.from_default_triple().create_target_machine(opt=2)
    pto = b.create_pipeline_tuning_options(speed_level=max(1, _opt_level(options)))
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    return str(main)
