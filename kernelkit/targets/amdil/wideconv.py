"""64-bit integer -> float conversion, correctly rounded (IL has only 32-bit ``itof``/``utof``):
the magnitude is normalised so that its top 32 significant bits form one word, the bits shifted
out are kept as a sticky bit in that word's lowest bit (below utof's rounding position), utof
rounds once, and a multiplication by 2^shift (exact) puts the exponent back."""

from __future__ import annotations

from kernelkit.targets.amdil.emitter import Operand
from kernelkit.targets.amdil.regs import Slot


def i64_to_f32(sel, lo: Operand, hi: Operand, signed: bool) -> Slot:
    em = sel.em
    negative = None
    if signed:
        negative = em.one("ilt", hi, 0)
        neg_lo = em.one("inegate", lo)
        neg_hi = em.one("iadd", em.one("inot", hi), em.one("iand", em.one("ieq", lo, 0), 1))
        lo = em.one("cmov_logical", negative, neg_lo, lo)
        hi = em.one("cmov_logical", negative, neg_hi, hi)
    nz = sel.count_leading_zeros(hi)                    # 32 when hi == 0
    n = em.one("iadd", em.one("inegate", nz), 32)       # significant bits of hi
    top = em.one("ishl", hi, nz)
    low = em.one("cmov_logical", em.one("ieq", nz, 0), 0, em.one("ushr", lo, n))
    sticky = em.one("iand", em.one("ine", em.one("ishl", lo, nz), 0), 1)
    mant = em.one("ior", em.one("ior", top, low), sticky)
    scale = em.one("ishl", em.one("iadd", n, 127), 23)  # the float 2^n
    wide = em.one("mul", em.one("utof", mant), scale)
    out = em.one("cmov_logical", em.one("ieq", hi, 0), em.one("utof", lo), wide)
    if negative is not None:
        out = em.one("ixor", out, em.one("iand", negative, 0x80000000))
    return out
