"""``1.0f / sqrt(x)`` on f32 from the CPU's reciprocal-square-root estimate (``rsqrtps``) refined by
one Newton-Raphson step, where OpenCL's accuracy bounds allow it.

OpenCL C lets ``sqrt`` be 3 ulp and ``/`` 2.5 ulp off (OpenCL C 3.0 s7.4, table "ULP values for
single precision built-in math functions"); clang records the allowances as ``!fpmath`` on the
``llvm.sqrt`` call and on the ``fdiv`` and drops them under ``-cl-fp32-correctly-rounded-divide-sqrt``.
A ``fdiv 1.0, sqrt(x)`` whose two instructions carry at least those allowances becomes

    y0 = rsqrt_estimate(x)                    (relative error below 1.5 * 2^-12)
    e  = fma(-(x * y0), y0, 1.0)              (1 - x * y0^2)
    y1 = fma(0.5 * y0, e, y0)                 (one Newton-Raphson step)
    if any lane of y1 has its sign bit set:   (rare: a branch, no per-lane selects on the way)
        y1 = sign(y1) ? 1.0 / sqrt(x) : y1    (the original instructions, in a block of their own)

For every normal x, y1 is positive and within what a 3-ulp square root followed by a 2.5-ulp
division may give (tests/host/test_fast_rsqrt.py checks all normal mantissas of two binades, which
covers every normal input since both the estimate and the arithmetic scale exactly by powers of
four). Every other x that needs another answer makes y1 x86's default NaN, which is negative
(Intel SDM, RSQRTPS: +-0 -> +-inf, a denormal is taken as 0 of its sign, +inf -> 0, a negative
value -> the default NaN; then x * y0 is 0 * inf, inf * 0 or NaN): those packets take the exact
path. A NaN x gives itself, a NaN, as the division would. So the fast path costs the estimate, four
multiply/FMA operations and one ``vorps`` + ``vtestps`` per packet.

Without a branch (AVX-512). On a CPU with AVX-512 (``avx512f``; ``avx512vl`` for 8- and 4-lane
vectors) a vector site becomes

    y0 = vrsqrt14ps(x)                        (relative error below 2^-14; a denormal x is estimated,
                                               not taken as 0, unless MXCSR.DAZ is set)
    y1 = the Newton-Raphson step above
    r  = vfixupimmps(y1, x, FIXUP_TABLE)      (by the class of x: +-0 -> +-inf, +inf -> +0, -inf and
                                               x < 0 -> the default NaN, a NaN -> itself quieted,
                                               +1 -> +1, any other x > 0 -> y1)

so no lane needs the divider and no packet a test or a branch: one more operation than the
sequence above without its ``vorps`` + ``vtestps`` (Intel SDM, VRSQRT14PS and VFIXUPIMMPS).

Build option ``-cl-rsqrt-estimate=never|auto|always``, default auto: always rewrites every vector site
and the scalar sites inside a loop of the kernel (a scalar site outside the kernel's loops is left to
LLVM's loop vectoriser across the work-item loop, which cannot widen the estimate intrinsic); auto
only the vector sites that take the AVX-512 form (nothing on a CPU without AVX-512, so there the
build is never's). ``-cl-fp32-correctly-rounded-divide-sqrt`` turns it off whatever the option says.

Why auto: on the AMD EPYC of session 10 (Zen 4, family 0x19 model 0x11, AVX-512) the n-body j loop
(benchmarks/host_vs_peers.py; its machine code timed by benchmarks/nbody_loop_cycles.py, 16 lanes,
cycles from a dependent-``imul`` clock in the same run, about 3.65 GHz) runs at 17.1-17.5 cycles per
iteration with ``vsqrtps`` + ``vdivps`` zmm (10 + 6 cycles of the divider: a 16-cycle floor) and at
16.2-16.5 in the AVX-512 form (15.1-15.3 without the ``vfixupimmps``; with ``vorps`` + ``vtestps`` and
the branch instead, 17.1-17.5); the kernel on one thread 4.82 ms against 5.07 (5.38 against 5.61 in a
second run, same process, interleaved). Software-pipelined, the AVX-512 form is slower (17.1 cycles;
5.27 and 5.88 ms): loop_pipelining leaves its loops alone.

Why not the form with a branch by default: on the AMD EPYC of session 9 (Zen 1, AVX2) it does not
beat ``vsqrtps`` + ``vdivps`` in n-body, although it is cheaper on its own. Session 9 timed the j loop's own machine code (llvm-objdump
of the built kernel, run in a C harness, 16 lanes, shortest of 3000 alternating runs, cycles from a
dependent-FMA clock in the same run: the core runs at about 3.0 GHz with one busy core and about
2.5 GHz with both, against a 2.0 GHz TSC; earlier sessions' "cycles at 2.2 GHz" were CPU times times
2.2 GHz): divider 41.5-42.4 cycles per 16-lane iteration, this sequence 48.8-49.1, pipelined
(loop_pipelining) 45.8-46.0, at 8 lanes (no spills) pipelined in two stages 51-52 and in three 50
per 16 lanes, the square root by the divider and the division by ``rcpps`` + Newton 48.4, half of the lanes by each
unit 49.9. The causes, measured on the same harness:
  - The divider (one per core, 128 bits wide): ``vsqrtps`` ymm 10 cycles, ``vdivps`` ymm 8, xmm and
    scalar ``sqrtss``/``divss`` 5 and 4. A 16-lane iteration needs 36-38 cycles of it; the loop runs
    at 90 % of that.
  - Without the divider the loop is bound by the floating-point side of the out-of-order window
    (scheduler and register file, counted in 128-bit micro-ops): the same instructions with their
    dependencies cut run at 30.3 cycles, with them at 49; 48 more integer instructions per
    iteration cost nothing, 12 more 1-cycle ymm logic operations off the critical path 7.6 cycles.
    A chain of about 58 cycles per iteration (pos[j] load to the accumulating FMA) with 76 micro-ops
    cannot be overlapped enough, and pipelining it in two or three stages moves it only to 46-50.
  - ``vorps`` + ``vtestps`` (the exact-path test) costs 2.2-2.8 cycles per iteration of those loops;
    without it they are still at 43-47.
PoCL runs the same loop in scalar code bound by the same divider (9 cycles per interaction, 10.3
measured): per lane, scalar costs 9 divider cycles and 16 lanes 2.25, so code that keeps the
divider tops out at about 4x PoCL on this CPU (3.93x measured, loop against loop).
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import BasicBlock, Function, Module
from kernelkit.ir.transforms.editing import split_block
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
MODES = ("never", "auto", "always")
DEFAULT_MODE = "auto"
# x86 estimate intrinsics by lane count; wider vectors are split into pieces of the widest one
_ESTIMATES = {8: ("llvm.x86.avx.rsqrt.ps.256", "avx"), 4: ("llvm.x86.sse.rsqrt.ps", "sse")}
# sign bits of a register of that many lanes, as an integer (movmskps)
_SIGN_MASKS = {8: "llvm.x86.avx.movmsk.ps.256", 4: "llvm.x86.sse.movmsk.ps"}
# AVX-512 (see "Without a branch" above), by lane count: (rsqrt14 estimate, fixupimm, feature, mask type)
_AVX512 = {16: ("llvm.x86.avx512.rsqrt14.ps.512", "llvm.x86.avx512.mask.fixupimm.ps.512", "avx512f", T.i16),
           8: ("llvm.x86.avx512.rsqrt14.ps.256", "llvm.x86.avx512.mask.fixupimm.ps.256", "avx512vl", T.i8),
           4: ("llvm.x86.avx512.rsqrt14.ps.128", "llvm.x86.avx512.mask.fixupimm.ps.128", "avx512vl", T.i8)}
# vfixupimmps response of each class of x (token j: bits 4j..4j+3; Intel SDM, VFIXUPIMMPS): QNaN, SNaN ->
# x quieted (2); +-0 -> +-inf (6: inf with the sign of x); +1 -> +1 (0xA); -inf and x < 0 -> the default
# NaN (3); +inf -> +0 (8); x > 0 (normal or denormal) -> the Newton-Raphson result (0)
FIXUP_TABLE = 0x0383A622


def mode(options) -> str:
    """The build's mode: the last ``-cl-rsqrt-estimate=`` (CompileError for a value not in MODES),
    DEFAULT_MODE without one, never under -cl-fp32-correctly-rounded-divide-sqrt."""
    from kernelkit.frontend.options import choice_option

    chosen = choice_option(options, OPTION, MODES, DEFAULT_MODE)
    return "never" if OFF_OPTION in options else chosen


def avx512_piece(lanes: int, features) -> int | None:
    """The register width (lanes) of the AVX-512 form for a site of ``lanes`` float lanes on a CPU
    with ``features`` (LLVM names); None: no AVX-512 form (scalar site, or no such registers)."""
    if lanes <= 1:
        return None
    return next((p for p, form in sorted(_AVX512.items(), reverse=True) if form[2] in features and lanes % p == 0),
                None)


def site_form(inst: I.Instruction, features, chosen: str) -> str | None:
    """What the build (mode ``chosen``) makes of ``inst``: "avx512" (the form without a branch),
    "branch" (the estimate with the exact path) or None (left alone: not a site, or not rewritten).
    (Scalar sites are rewritten only inside loops, where callers look.)"""
    if chosen == "never" or site_sqrt(inst) is None:
        return None
    if avx512_piece(_float_lanes(inst.type) or 1, features) is not None:
        return "avx512"
    return "branch" if chosen == "always" else None


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
        sqrt = site_sqrt(inst)
        if sqrt is None:
            continue
        if _float_lanes(inst.type) == 1 and (in_loops is None or inst.parent not in in_loops):
            continue
        out.append((inst, sqrt))
    return out


def site_sqrt(inst: I.Instruction) -> I.CallInst | None:
    """The ``sqrt`` of ``inst`` when ``inst`` is a ``1.0 / sqrt(x)`` division with both allowances."""
    if not (isinstance(inst, I.BinaryOp) and inst.opcode == "fdiv" and _is_one(inst.operands[0])):
        return None
    sqrt = _sqrt_call(inst.operands[1])
    if _float_lanes(inst.type) is None or sqrt is None or _fpmath(inst) < DIVIDE_ULP or _fpmath(sqrt) < SQRT_ULP:
        return None
    return sqrt


class _Lowering:
    def __init__(self, module: Module, features: set[str]) -> None:
        self.module = module
        self.features = features
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
        return _concatenate(parts, b)

    def _pieces(self, v: Value, lanes: int, piece: int, b: IRBuilder) -> list[Value]:
        """``v`` (<lanes x float>) as registers of ``piece`` lanes; missing lanes are 1.0."""
        if lanes < piece:
            return [b.shuffle_vector(v, self._splat(v.type, 1.0), _mask(list(range(lanes)) + [lanes] * (piece - lanes)))]
        if lanes == piece:
            return [v]
        return [b.shuffle_vector(v, ConstantSimple(v.type, "poison"), _mask(list(range(start, start + piece))))
                for start in range(0, lanes, piece)]

    def _any_negative(self, y: Value, lanes: int, b: IRBuilder) -> Value:
        """Is the sign bit of any lane of ``y`` (<lanes x float>) set? The registers are or'ed and
        tested with one movmskps (an ``icmp`` on <16 x i32> makes LLVM pack the mask to bytes)."""
        piece = next((p for p in self.pieces if lanes % p == 0), self.pieces[-1])
        reg, ints = T.VectorType(T.float32, piece), T.VectorType(T.i32, piece)
        acc = None
        for part in self._pieces(y, lanes, piece, b):
            m = b.bitcast(part, ints)
            acc = m if acc is None else b.or_(acc, m)
        signs = self._intrinsic(_SIGN_MASKS[piece], T.i32, [b.bitcast(acc, reg)], b)
        return b.icmp("ne", signs, ConstantInt(T.i32, 0))

    def _newton(self, x: Value, lanes: int, b: IRBuilder) -> Value:
        """The estimate of 1/sqrt(x) and one Newton-Raphson step (x: float or <lanes x float>)."""
        fma = f"llvm.fma.{'f32' if lanes == 1 else f'v{lanes}f32'}"
        y0 = self._estimate(x, lanes, b)
        e = self._intrinsic(fma, x.type, [b.fneg(b.fmul(x, y0)), y0, self._splat(x.type, 1.0)], b)
        return self._intrinsic(fma, x.type, [b.fmul(y0, self._splat(x.type, 0.5)), e, y0], b)

    def rewrite_without_branch(self, fdiv: I.Instruction, sqrt: I.CallInst, piece: int) -> None:
        """The AVX-512 form: rsqrt14 + one Newton-Raphson step, special classes of x by vfixupimmps."""
        x, ty = sqrt.args[0], fdiv.type
        lanes = _float_lanes(ty) or 1
        rsqrt14, fixup, _, mask_ty = _AVX512[piece]
        reg, ints = T.VectorType(T.float32, piece), T.VectorType(T.i32, piece)
        b = IRBuilder().position_before(fdiv)
        table = ConstantSplat(ints, [ConstantInt(T.i32, FIXUP_TABLE)])
        every = ConstantInt(mask_ty, -1)
        parts = []
        for v in self._pieces(x, lanes, piece, b):
            y0 = self._intrinsic(rsqrt14, reg, [v, self._splat(reg, 0.0), every], b)
            e = self._intrinsic("llvm.fma." + f"v{piece}f32", reg, [b.fneg(b.fmul(v, y0)), y0, self._splat(reg, 1.0)], b)
            y1 = self._intrinsic("llvm.fma." + f"v{piece}f32", reg, [b.fmul(y0, self._splat(reg, 0.5)), e, y0], b)
            extra = [ConstantInt(T.i32, 4)] if piece == 16 else []   # (512 bits: rounding, 4 = the current mode)
            parts.append(self._intrinsic(fixup, reg, [y1, v, table, ConstantInt(T.i32, 0), every, *extra], b))
        fdiv.replace_all_uses_with(_concatenate(parts, b))
        fdiv.erase()
        if not sqrt.uses:
            sqrt.erase()

    def rewrite(self, fdiv: I.Instruction, sqrt: I.CallInst) -> None:
        x = sqrt.args[0]
        ty = fdiv.type
        lanes = _float_lanes(ty) or 1
        piece = avx512_piece(lanes, self.features)
        if piece is not None:
            self.rewrite_without_branch(fdiv, sqrt, piece)
            return
        b = IRBuilder().position_before(fdiv)
        y1 = self._newton(x, lanes, b)
        # y1 < 0 (sign bit set) exactly on the lanes the estimate does not serve: x = +-0 (estimate
        # +-inf, x * y0 = NaN), a denormal x (taken as 0 by rsqrtps), x = +inf (estimate 0) and a
        # negative x give x86's default NaN, which is negative; every normal x gives y1 > 0 and a
        # NaN x gives itself (a NaN, as it should)
        as_int = T.i32 if lanes == 1 else T.VectorType(T.i32, lanes)
        any_special = b.icmp("slt", b.bitcast(y1, T.i32), ConstantInt(T.i32, 0)) if lanes == 1 else \
            self._any_negative(y1, lanes, b)
        # fast block ... br any_special, exact, join; exact: sqrt + fdiv for the special lanes
        fast = fdiv.parent
        join = split_block(fdiv, "rsqrt.join")
        exact = fast.parent.add_block(BasicBlock("rsqrt.exact"), after=fast)
        fast.terminator.erase()
        branch = IRBuilder().position_at_end(fast).cbr(any_special, exact, join)
        branch.metadata["prof"] = MDNode([MDString("branch_weights"), ValueAsMetadata(ConstantInt(T.i32, 1)),
                                          ValueAsMetadata(ConstantInt(T.i32, 1 << 20))])
        result = IRBuilder().position_at_start(join).phi(ty)
        fdiv.replace_all_uses_with(result)
        if len(sqrt.uses) == 1 and sqrt.parent is fast:
            exact.append(sqrt)
        exact.append(fdiv)
        be = IRBuilder().position_at_end(exact)
        zero = ConstantInt(T.i32, 0) if lanes == 1 else ConstantSplat(as_int, [ConstantInt(T.i32, 0)])
        fixed = be.select(be.icmp("slt", be.bitcast(y1, as_int), zero), fdiv, y1)
        be.br(join)
        result.add_incoming(y1, fast)
        result.add_incoming(fixed, exact)


def _concatenate(parts: list[Value], b: IRBuilder) -> Value:
    """One vector of ``parts`` (registers of one width, a power of two of them), pairwise."""
    while len(parts) > 1:
        n = parts[0].type.count  # type: ignore[attr-defined]
        parts = [b.shuffle_vector(parts[i], parts[i + 1], _mask(list(range(2 * n)))) for i in range(0, len(parts), 2)]
    return parts[0]


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


def lower_reciprocal_sqrts(module: Module, functions: list[str], features, chosen: str = "always") -> int:
    """Rewrite the ``1.0f / sqrt(x)`` sites of ``functions`` that mode ``chosen`` rewrites (see the
    module docstring); returns how many. ``features``: the target CPU's (LLVM names); without SSE
    nothing changes."""
    lowering = _Lowering(module, set(features))
    if not lowering.pieces:
        return 0
    count = 0
    for name in functions:
        f = module.get_function(name)
        if f is None or f.is_declaration:
            continue
        sites = [(fdiv, sqrt) for fdiv, sqrt in reciprocal_sqrt_sites(f, _loop_blocks(f))
                 if site_form(fdiv, lowering.features, chosen) is not None]
        for fdiv, sqrt in sites:
            lowering.rewrite(fdiv, sqrt)
        count += len(sites)
    return count


def lower_module(module: Module, functions: list[str], features, options=()) -> int:
    """:func:`lower_reciprocal_sqrts` with the build options' :func:`mode` when the module calls
    ``llvm.sqrt``; returns how many sites it rewrote."""
    chosen = mode(options)
    if chosen == "never" or not any(f.name.startswith("llvm.sqrt.") for f in module.functions):
        return 0
    return lower_reciprocal_sqrts(module, functions, features, chosen)


def lower_module_text(text: str, functions: list[str], features, options=()) -> str:
    """:func:`lower_module` on module text (for callers holding text)."""
    from kernelkit.ir import parse

    module = parse(text)
    return str(module) if lower_module(module, functions, features, options) else text
