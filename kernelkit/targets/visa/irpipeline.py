"""The IR the vISA code generator selects from: the frontend's SPIR64 IR with kernelkit's OpenCL
builtin library (``kernelkit.mux.clc``, portable math: no C library call) linked in for the
builtins the code generator does not emit itself, every non-kernel function inlined (the code
generator emits no vISA subroutines), optimised by LLVM (llvmlite) without vectorisers.

The float builtins that library computes in double come, where written, from
``float_geometric.cl``, ``float_math.cl``, ``float_exact.cl``, ``float_arc.cl``, ``float_pi.cl``,
``float_powers.cl``, ``float_erf.cl`` and ``float_gamma.cl`` (float only; fmod in double from
``double_math.cl``),
linked first (the library's definitions
of the same names become declarations): platforms without fp64 cannot run the double code, and
SKL's finalizer lacks the f64 operations it needs (reduce.fmax, rnd* on df)."""

from __future__ import annotations

import functools
from pathlib import Path

from kernelkit import ir
from kernelkit.llvm_binding import llvm, parse_verified

SPIR64 = "spir64-unknown-unknown"
LIBRARY_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                   "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")
NOT_INLINED = ("noinline", "optnone")
FLOAT_LIBRARY = tuple(Path(__file__).with_name(n) for n in ("float_geometric.cl", "float_math.cl", "float_exact.cl", "float_arc.cl",
                                                             "float_pi.cl", "float_powers.cl", "float_erf.cl", "float_gamma.cl",
                                                             "double_math.cl"))
FLOAT_PREFIX = "kkv_"          # the float library's names: kkv_<builtin>


@functools.cache
def float_library_text() -> str:
    """float_library() as IR text (compiled once per process)."""
    return str(float_library())


def float_library() -> ir.Module:
    """The float library (float_geometric.cl, float_math.cl; double_math.cl: the double builtins
    whose library versions need instructions GenX_IR lacks) as IR, its kkv_<name> definitions
    renamed to the builtins' mangled names."""
    from kernelkit.frontend import compile_opencl

    source = "\n".join(p.read_text() for p in FLOAT_LIBRARY)
    module = ir.parse(compile_opencl(source, [], filename="visa_float_library.cl").ir_text)
    for fn in module.functions:
        digits = len(fn.name) - len(fn.name[2:].lstrip("0123456789")) - 2
        length = int(fn.name[2:2 + digits]) if fn.name.startswith("_Z") and digits else 0
        base = fn.name[2 + digits:2 + digits + length]
        if not fn.is_declaration and base.startswith(FLOAT_PREFIX):
            name = base[len(FLOAT_PREFIX):]
            fn.name = f"_Z{len(name)}{name}{fn.name[2 + digits + length:]}"
    return module


def _declaring(module: ir.Module, names: set[str]) -> ir.Module:
    """``module`` with its definitions of ``names`` turned into declarations (the float library's
    definitions replace them; the library's vector/half overloads call the scalar ones)."""
    for fn in module.functions:
        if fn.name in names and not fn.is_declaration:
            fn.blocks = []
            fn.linkage = ""
    return module


def _called_builtins(module: ir.Module, handled) -> set[str]:
    """Declared functions the module calls that ``handled(name)`` does not claim."""
    return {f.name for f in module.functions if f.is_declaration and not handled(f.name)}


def _inline_everything(module: ir.Module) -> None:
    """Non-kernel definitions become internal + alwaysinline (the kernels keep their linkage)."""
    for fn in module.functions:
        if fn.is_declaration:
            continue
        attrs = _inlinable(fn.attributes)
        if fn.calling_conv != "spir_kernel":
            fn.linkage = "internal"
            attrs.append("alwaysinline")
        fn.attributes = attrs
        for block in fn.blocks:
            for inst in block:
                if isinstance(inst, ir.CallInst):
                    inst.attributes = _inlinable(inst.attributes)


def _inlinable(attributes: list) -> list:
    """``attributes`` (strings and attribute groups) without noinline/optnone."""
    out = []
    for a in attributes:
        if isinstance(a, ir.AttributeGroup):
            a = ir.AttributeGroup(x for x in a.attributes if x not in NOT_INLINED)
        elif a in NOT_INLINED:
            continue
        out.append(a)
    return out


def with_builtin_library(module: ir.Module, options, handled, float_only: bool = False) -> ir.Module:
    """``module`` with the library's definitions of the builtins it calls (but those ``handled``),
    everything inlined and optimised (LLVM's O2 pipeline, no loop or SLP vectoriser); with
    ``float_only``, float_geometric.cl's definitions first."""
    from kernelkit.mux.clc import defined_builtins, library_ir, subset
    from kernelkit.mux.clc.build import defined_names

    floated: frozenset[str] = frozenset()
    library = defined_builtins(SPIR64, portable_math=True)
    called = _called_builtins(module, handled)
    needed: set[str] = set()
    wanted = called & library
    lib = ""
    if float_only:
        floated = defined_names(float_library_text())
        needed = called & floated
        wanted -= floated
    while True:          # the two libraries call each other (the library's vector and half forms call the
        grown = False    # scalar float builtins, whose code calls library builtins such as floor)
        if needed:
            more = _called_builtins(ir.parse(subset(float_library_text(), sorted(needed))), handled) & library
            grown |= not more <= wanted | floated
            wanted |= more - floated
        if wanted:
            lib = library_ir(SPIR64, opts=[o for o in options if o in LIBRARY_OPTIONS], only=sorted(wanted),
                             portable_math=True)
            if defined_names(lib) & floated:
                lib = str(_declaring(ir.parse(lib), floated))
            more = _called_builtins(ir.parse(lib), handled) & floated
            grown |= not more <= needed
            needed |= more
        if not grown:
            break
    if needed:
        main = parse_verified(str(module), "the frontend", "visa")
        main.link_in(parse_verified(subset(float_library_text(), sorted(needed)), "the float builtin library", "visa"))
        module = ir.parse(str(main))
    helpers = any(not f.is_declaration and f.calling_conv != "spir_kernel" for f in module.functions)
    if not wanted and not helpers:
        return module
    b = llvm()
    main = parse_verified(str(module), "the frontend", "visa")
    if wanted:
        main.link_in(parse_verified(lib, "the builtin library", "visa"))
    linked = ir.parse(str(main))
    _inline_everything(linked)
    main = parse_verified(str(linked), "the builtin library link", "visa")
    tm = b.Target.from_default_triple().create_target_machine(opt=2)
    pto = b.create_pipeline_tuning_options(speed_level=2)
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    return ir.parse(str(main))
