"""The IR the AMD IL code generator selects from: finalized mux IR (SPIR, 32-bit pointers) with
kernelkit's OpenCL builtin library linked in (``kernelkit.mux.clc``, portable math), every
non-kernel function inlined, optimised by LLVM (llvmlite) without vectorisers, then read back
as ``kernelkit.ir``."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.llvm_binding import llvm, parse_verified

SPIR32 = "spir-unknown-unknown"
LIBRARY_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                   "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")


def _parse(text: str, what: str):
    return parse_verified(text, what, "amdil")


def with_builtin_library(ir_text: str, options) -> tuple[str, frozenset[str] | None]:
    """``ir_text`` linked by LLVM with the library's definitions of the builtins it declares, and
    the names of the functions the program itself defines; (``ir_text``, None) when it needs none."""
    from kernelkit.mux.clc import defined_builtins, library_ir
    from kernelkit.targets.amdil.halfs import is_half_call

    main = _parse(ir_text, "the frontend")
    # half loads/stores of float data are selected as IL conversions, not linked
    library = defined_builtins(SPIR32, portable_math=True)
    available = {f.name for f in main.functions
                 if f.is_declaration and f.name in library and not is_half_call(f.name)}
    if not available:
        return ir_text, None
    own = frozenset(f.name for f in main.functions if not f.is_declaration)
    lib = library_ir(SPIR32, opts=[o for o in options if o in LIBRARY_OPTIONS],
                     only=sorted(available), portable_math=True)
    main.link_in(_parse(lib, "the builtin library"))
    return str(main), own


def _opt_level(options) -> int:
    for o in reversed(list(options)):
        if len(o) == 3 and o[:2] == "-O" and o[2] in "0123":
            return int(o[2])
    return 2


def noinline_functions(module: ir.Module, own: frozenset[str] | None = None) -> set[str]:
    """The program's own (``own``: those named, else all) non-kernel functions marked noinline
    (and not optnone, which -O0 puts on every function): they become IL functions of their own."""
    out = set()
    for f in module.functions:
        if f.is_declaration or f.calling_conv == "spir_kernel" or (own is not None and f.name not in own):
            continue
        attrs = f.all_attributes()
        if "noinline" in attrs and "optnone" not in attrs:
            out.add(f.name)
    return out


def _inline_everything(module, keep: frozenset[str] = frozenset()) -> None:
    """Non-kernel definitions become internal and alwaysinline, except those in ``keep``
    (internal and noinline: IL functions of their own); nothing is noinline or optnone else."""
    from kernelkit.ir.instructions import CallInst
    from kernelkit.ir.module import AttributeGroup
    from kernelkit.ir.transforms.inlining import drop_function_attributes, group_attributes, with_own_group

    drop_function_attributes(module, keep_empty_groups=True)   # all get alwaysinline below
    kept = []
    for f in module.functions:
        if f.is_declaration:
            continue
        if f.calling_conv != "spir_kernel":
            f.linkage, f.preemption, f.visibility = "internal", "", ""
            if f.name in keep:
                kept.append(f)
        for inst in f.instructions():   # calls of kept functions lose their call-site groups
            callee = inst.called_function if isinstance(inst, CallInst) else None
            if callee is not None and callee.name in keep:
                inst.attributes = [a for a in inst.attributes if not isinstance(a, AttributeGroup)]
    # every attribute group gets alwaysinline (kernels' too, which is harmless) ...
    for group in module.attribute_groups:
        if "alwaysinline" not in group.attributes:
            group.attributes.insert(0, "alwaysinline")
    # ... but those of the kept functions, which get a noinline group of their own
    for f in kept:
        attrs = [a for a in group_attributes(f.attributes) if a not in ("alwaysinline", "inlinehint")]
        with_own_group(f, ["noinline", *attrs])


_OPTIMISED: dict[tuple[str, tuple[str, ...]], str] = {}


def optimised_ir(mux_ir: str, options=()):
    """kernelkit.ir.Module ready for instruction selection (the optimised text is kept per
    process: it does not depend on the device, so one program built for several AMD IL devices
    is optimised once). noinline functions stay out of line when they can be IL functions of
    their own (``functions.out_of_line_problem``), else they are inlined too."""
    from kernelkit.targets.amdil.functions import out_of_line_problem

    key = (mux_ir, tuple(options))
    text = _OPTIMISED.get(key)
    if text is None:
        linked, own = with_builtin_library(mux_ir, options)
        module: ir.Module | None = ir.parse(linked)
        keep = frozenset(noinline_functions(module, own))
        optimised = None
        while True:
            text = _optimise(module or ir.parse(linked), options, keep)
            module = optimised = None
            if not keep:
                break
            optimised = ir.parse(text)
            bad = {f.name for f in optimised.functions
                   if f.name in keep and f.blocks and out_of_line_problem(f, optimised)}
            if not bad:
                break
            keep = keep - bad
        if len(_OPTIMISED) > 32:
            _OPTIMISED.clear()
        _OPTIMISED[key] = text
        if optimised is not None:
            return optimised
    return ir.parse(text)


def _optimise(module: ir.Module, options, keep: frozenset[str] = frozenset()) -> str:
    """The optimised text of ``module`` (program and library linked), which this edits."""
    b = llvm()
    _inline_everything(module, keep)
    main = _parse(str(module), "the builtin library link")
    tm = b.Target.from_default_triple().create_target_machine(opt=2)
    pto = b.create_pipeline_tuning_options(speed_level=max(1, _opt_level(options)))
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    return str(main)
