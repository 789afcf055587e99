"""The SIMD width of a kernel: the widest of 32, 16, 8 whose estimated register pressure fits the
GRF file (the finalizer fails a kernel that spills: GenX_IR exits 1 on "Spill memory used").

The estimate is the largest number of bytes live at once: every SSA value live at a program point
(backward liveness over the blocks), a varying value taking ``lanes x element bytes x SIMD``, a
uniform one ``lanes x element bytes``."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.abi.visa import GRF_BYTES
from kernelkit.ir import types as T
from kernelkit.ir.analysis import UniformityAnalysis, WorkItemRoots
from kernelkit.targets.visa.vtypes import SIZES, lanes_of, vtype_of

GRF_COUNT = 128
PRESSURE_SHARE = 0.75         # measured: 2852 bytes at SIMD 16 finalize (tiled sgemm), 3200 spill (uint16 ops)


def _bytes(value, uniform: bool, simd: int) -> int:
    if value.type == T.void or isinstance(value.type, T.LabelType | T.TokenType | T.MetadataType):
        return 0
    try:
        size = SIZES[vtype_of(value.type)] * lanes_of(value.type)
    except Exception:                       # (types the code generator refuses: it says so itself)
        return 0
    return size if uniform else size * simd


def _operands(inst) -> list:
    return [v for v in inst.operands if isinstance(v, ir.Instruction | ir.Argument)]


def peak_live_bytes(function, simd: int, uniformity: UniformityAnalysis | None = None) -> int:
    """The most bytes of SSA values live at one point of ``function`` at SIMD ``simd``."""
    uni = uniformity or UniformityAnalysis(function, WorkItemRoots.all_dimensions())
    blocks = list(function.blocks)
    succs = {id(b): [s for s in (b.terminator.successors() if b.terminator else [])] for b in blocks}
    live_in: dict[int, set] = {id(b): set() for b in blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            live = set()
            for s in succs[id(b)]:
                live |= {v for v in live_in[id(s)] if not (isinstance(v, ir.PhiInst) and v.parent is s)}
                for phi in (i for i in s if isinstance(i, ir.PhiInst)):
                    v = phi.value_for(b)
                    if isinstance(v, ir.Instruction | ir.Argument):
                        live.add(v)
            for inst in reversed(list(b)):
                live.discard(inst)
                if not isinstance(inst, ir.PhiInst):
                    live |= set(_operands(inst))
            live |= {i for i in b if isinstance(i, ir.PhiInst)}
            if live != live_in[id(b)]:
                live_in[id(b)] = live
                changed = True
    peak = 0
    for b in blocks:
        live = set()
        for s in succs[id(b)]:
            live |= live_in[id(s)]
        size = sum(_bytes(v, uni.is_uniform(v), simd) for v in live)
        peak = max(peak, size)
        for inst in reversed(list(b)):
            if inst in live:
                live.discard(inst)
                size -= _bytes(inst, uni.is_uniform(inst), simd)
            for v in _operands(inst):
                if v not in live and not isinstance(inst, ir.PhiInst):
                    live.add(v)
                    size += _bytes(v, uni.is_uniform(v), simd)
            peak = max(peak, size)
    return peak


def fits(function, simd: int) -> bool:
    return peak_live_bytes(function, simd) <= PRESSURE_SHARE * GRF_COUNT * GRF_BYTES


def choose_simd(function, widths=(32, 16, 8)) -> int:
    """The widest of ``widths`` that fits (the narrowest when none does)."""
    for simd in widths:
        if fits(function, simd):
            return simd
    return widths[-1]
