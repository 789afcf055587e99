"""``1.0f / sqrt(x)`` on f32 from the CPU's reciprocal-square-root estimate (``rsqrtps``) refined by
one Newton-Raphson step, where OpenCL's accuracy bounds allow it.

OpenCL C lets ``sqrt`` be 3 ulp and ``/`` 2.5 ulp off (OpenCL C 3.0 s7.4, table "ULP values for
single precision built-in math functions"); clang records the allowances as ``!fpmath`` on the
``llvm.sqrt`` call and on the ``fdiv`` and drops them under ``-cl-fp32-correctly-rounded-divide-sqrt``.
A ``fdiv 1.0, sqrt(x)`` whose two instructions carry at least those allowances becomes

    small = x < 0x1p-126                      (zero, denormal or negative)
    xs    = small ? x * 0x1p24 : x            (denormals scaled into the normal range, exactly)
    y0    = rsqrt_estimate(xs)                (relative error below 1.5 * 2^-12)
    e     = fma(-(xs * y0), y0, 1.0)          (1 - xs * y0^2)
    y1    = fma(0.5 * y0, e, y0)              (one Newton-Raphson step)
    y     = e is NaN ? y0 : y1                (x = +-0, +inf, NaN, negative: the estimate is exact)
    result = small ? y * 0x1p12 : y

which stays within what a 3-ulp square root followed by a 2.5-ulp division may give, for every
input (tests/host/test_fast_rsqrt.py checks all normal mantissas of two binades, which covers every
normal input since both the estimate and the arithmetic scale exactly by powers of four, and the
denormals and special values, against numpy in float64). Under ``-cl-denorms-are-zero`` the scaling
is left out (a denormal input may be taken as zero).

Why: ``vsqrtps`` + ``vdivps`` share one slow unit; the estimate sequence runs on the multiply/add
pipes instead. Build option ``-cl-rsqrt-estimate=never|always``, default never: on the Zen 1 CPU
here (256-bit operations split in two halves, two multiply pipes) the sequence is slower than the
divider (n-body 4096, same process, alternating: 129 ms against 80 ms), and no other CPU has been
measured. ``-cl-fp32-correctly-rounded-divide-sqrt`` turns it off whatever the option says.

Which sites: vector ones (``<N x float>``, from the whole-function vectoriser), and scalar ones
inside a loop of the kernel. A scalar site outside the kernel's loops is left to LLVM's loop
vectoriser across the work-item loop, which cannot widen the estimate intrinsic.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, ValueAsMetadata
from kernelkit.ir.module import Function, Module
from kernelkit.ir.values import (
    ConstantAggregate,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
    Value,
)

# the allowances (ulp) the sequence above keeps within: sqrt, then division (OpenCL C 3.0 s7.4)
SQRT_ULP, DIVIDE_ULP = 3.0, 2.5
OFF_OPTION = "-cl-fp32-correctly-rounded-divide-sqrt"
OPTION = "-cl-rsqrt-estimate="
MODES = ("never", "always")
DAZ_OPTION = "-cl-denorms-are-zero"
SMALLEST_NORMAL = 2.0 ** -126
SCALE_IN, SCALE_OUT = 2.0 ** 24, 2.0 ** 12     # x * 2^24 -> 1/sqrt(x) = 2^12 / sqrt(x * 2^24)
# x86 estimate intrinsics by lane count; wider vectors are split into pieces of the widest one
_ESTIMATES = {8: ("llvm.x86.avx.rsqrt.ps.256", "avx"), 4: ("llvm.x86.sse.rsqrt.ps", "sse")}


def enabled(options) -> bool:
    """Does the build ask for the estimate (the last ``-cl-rsqrt-estimate=``; CompileError for a value
    not in MODES), and not for correctly rounded division and square root?"""
    from kernelkit.frontend.options import choice_option

    return choice_option(options, OPTION, MODES, "never") == "always" and OFF_OPTION not in options


def _fpmath(inst: I.Instruction) -> float:
    """The ulp allowance of ``inst``'s ``!fpmath`` (0: none, correctly rounded)."""
    md = inst.metadata.get("fpmath")
    if not isinstance(md, MDNode) or not md.operands or not isinstance(md.operands[0], ValueAsMetadata):
        return 0.0
    value = md.operands[0].value
    return value.value if isinstance(value, ConstantFP) else 0.0


def _is_one(v: Value) -> bool:
    if isinstance(v, ConstantFP):
        return v.value == 1.0
    if isinstance(v, ConstantSplat):
        return _is_one(v.operands[0])
    if isinstance(v, ConstantAggregate):
        return all(_is_one(op) for op in v.operands)
    return False


def _sqrt_call(v: Value) -> I.CallInst | None:
    if isinstance(v, I.CallInst) and v.called_function is not None and \
            v.called_function.name.startswith("llvm.sqrt.") and len(v.args) == 1:
        return v
    return None


def _float_lanes(ty: T.Type) -> int | None:
    """1 for float, N for <N x float>, None otherwise."""
    if ty == T.float32:
        return 1
    if isinstance(ty, T.VectorType) and ty.element == T.float32 and not ty.scalable:
        return ty.count
    return None


def reciprocal_sqrt_sites(f: Function, in_loops: set | None = None) -> list[tuple[I.Instruction, I.CallInst]]:
    """The ``(fdiv, sqrt)`` pairs of ``f`` the rewrite applies to (see the module docstring);
    ``in_loops``: the blocks inside loops (scalar sites elsewhere are left alone)."""
    out = []
    for inst in f.instructions():
        if not (isinstance(inst, I.BinaryOp) and inst.opcode == "fdiv" and _is_one(inst.operands[0])):
            continue
        lanes = _float_lanes(inst.type)
        sqrt = _sqrt_call(inst.operands[1])
        if lanes is None or sqrt is None or _fpmath(inst) < DIVIDE_ULP or _fpmath(sqrt) < SQRT_ULP:
            continue
        if lanes == 1 and (in_loops is None or inst.parent not in in_loops):
            continue
        out.append((inst, sqrt))
    return out


class _Lowering:
    def __init__(self, module: Module, features: set[str], denormals: bool) -> None:
        self.module = module
        self.denormals = denormals
        self.pieces = sorted((n for n, (_, feature) in _ESTIMATES.items() if feature in features), reverse=True)

    def _splat(self, ty: T.Type, value: float) -> Value:
        c = ConstantFP(T.float32, value)
        return ConstantSplat(ty, [c]) if isinstance(ty, T.VectorType) else c

    def _intrinsic(self, name: str, ty: T.Type, args: list[Value], b: IRBuilder) -> Value:
        fnty = T.FunctionType(ty, tuple(a.type for a in args))
        return b.call(self.module.declare_function(name, fnty), args, function_type=fnty)

    def _estimate(self, x: Value, lanes: int, b: IRBuilder) -> Value:
        """rsqrt estimate of every lane of ``x`` (a float or <lanes x float>)."""
        piece = next((p for p in self.pieces if lanes % p == 0), self.pieces[-1])
        if lanes == 1 or lanes < piece:
            # widen into one estimate register (the extra lanes are poison and unused)
            wide = T.VectorType(T.float32, piece)
            if lanes == 1:
                v = b.insert_element(ConstantSimple(wide, "poison"), x, ConstantInt(T.i32, 0))
                r = self._intrinsic(_ESTIMATES[piece][0], wide, [v], b)
                return b.extract_element(r, ConstantInt(T.i32, 0))
            v = b.shuffle_vector(x, ConstantSimple(x.type, "poison"), _mask(list(range(lanes)) + [-1] * (piece - lanes)))
            r = self._intrinsic(_ESTIMATES[piece][0], wide, [v], b)
            return b.shuffle_vector(r, ConstantSimple(wide, "poison"), _mask(list(range(lanes))))
        parts = []
        for start in range(0, lanes, piece):
            v = x if lanes == piece else b.shuffle_vector(x, ConstantSimple(x.type, "poison"),
                                                         _mask(list(range(start, start + piece))))
            parts.append(self._intrinsic(_ESTIMATES[piece][0], T.VectorType(T.float32, piece), [v], b))
        while len(parts) > 1:   # concatenate pairwise
            n = parts[0].type.count  # type: ignore[attr-defined]
            parts = [b.shuffle_vector(parts[i], parts[i + 1], _mask(list(range(2 * n))))
                     for i in range(0, len(parts), 2)]
        return parts[0]

    def rewrite(self, fdiv: I.Instruction, sqrt: I.CallInst) -> None:
        x = sqrt.args[0]
        ty = fdiv.type
        lanes = _float_lanes(ty) or 1
        b = IRBuilder().position_before(fdiv)
        fma = f"llvm.fma.{'f32' if lanes == 1 else f'v{lanes}f32'}"
        xs, small = x, None
        if self.denormals:
            small = b.fcmp("olt", x, self._splat(ty, SMALLEST_NORMAL))
            xs = b.select(small, b.fmul(x, self._splat(ty, SCALE_IN)), x)
        y0 = self._estimate(xs, lanes, b)
        r = b.fmul(xs, y0)
        e = self._intrinsic(fma, ty, [b.fneg(r), y0, self._splat(ty, 1.0)], b)
        y1 = self._intrinsic(fma, ty, [b.fmul(y0, self._splat(ty, 0.5)), e, y0], b)
        y = b.select(b.fcmp("uno", e, self._splat(ty, 0.0)), y0, y1)
        if small is not None:
            y = b.select(small, b.fmul(y, self._splat(ty, SCALE_OUT)), y)
        fdiv.replace_all_uses_with(y)
        fdiv.erase()
        if not sqrt.uses:
            sqrt.erase()


def _mask(values: list[int]) -> Value:
    ty = T.VectorType(T.i32, len(values))
    return ConstantAggregate(ty, [ConstantSimple(T.i32, "poison") if v < 0 else ConstantInt(T.i32, v)
                                  for v in values])


def _loop_blocks(f: Function) -> set:
    from kernelkit.ir.analysis import CFG, LoopForest

    blocks: set = set()
    for loop in LoopForest(CFG(f)):
        blocks |= set(loop.blocks)
    return blocks


def lower_reciprocal_sqrts(module: Module, functions: list[str], features, options=()) -> int:
    """Rewrite the ``1.0f / sqrt(x)`` sites of ``functions`` (see the module docstring); returns how
    many. ``features``: the target CPU's (LLVM names); without SSE nothing changes. (The build
    options are checked by :func:`lower_module`; here only -cl-denorms-are-zero counts.)"""
    lowering = _Lowering(module, set(features), DAZ_OPTION not in options)
    if not lowering.pieces:
        return 0
    count = 0
    for name in functions:
        f = module.get_function(name)
        if f is None or f.is_declaration:
            continue
        sites = reciprocal_sqrt_sites(f, _loop_blocks(f))
        for fdiv, sqrt in sites:
            lowering.rewrite(fdiv, sqrt)
        count += len(sites)
    return count


def lower_module(module: Module, functions: list[str], features, options=()) -> int:
    """:func:`lower_reciprocal_sqrts` when the build options ask for it and the module calls
    ``llvm.sqrt``; returns how many sites it rewrote."""
    if not enabled(options) or not any(f.name.startswith("llvm.sqrt.") for f in module.functions):
        return 0
    return lower_reciprocal_sqrts(module, functions, features, options)


def lower_module_text(text: str, functions: list[str], features, options=()) -> str:
    """:func:`lower_module` on module text (for callers holding text)."""
    from kernelkit.ir import parse

    module = parse(text)
    return str(module) if lower_module(module, functions, features, options) else text
