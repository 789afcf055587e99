"""``vload_half*`` / ``vstore_half*`` (and the aligned ``vloada``/``vstorea`` forms) on float
data as AMD's compiler lowers them: 16-bit loads/stores of the halves and IL's conversions
``f162f`` and ``f2f16`` — ``f2f16_near`` for the default and ``_rte`` rounding, plain ``f2f16``
(toward zero) for ``_rtz``, ``f2f16_plus_inf`` / ``f2f16_neg_inf`` for ``_rtp`` / ``_rtn``.
Half arithmetic (cl_khr_fp16) is not an extension of these devices."""

from __future__ import annotations

import re

from kernelkit.errors import CompileError

# vload[a]_halfN(offset, p) and vstore[a]_halfN[_rtX](floatN data, offset, p), mangled
HALF_CALL = re.compile(r"_Z\d+(vloada?|vstorea?)_half(\d*)(_rt[enpz])?(f|Dv\d+_f)?j")
ROUNDING = {None: "f2f16_near", "_rte": "f2f16_near", "_rtz": "f2f16",
            "_rtp": "f2f16_plus_inf", "_rtn": "f2f16_neg_inf"}


def is_half_call(name: str) -> bool:
    """A half load/store of float data (the double forms stay with the builtin library)."""
    m = HALF_CALL.match(name)
    return bool(m) and (m.group(1).startswith("vload") or m.group(4) is not None)


class HalfOps:
    def half_call(self, inst, name: str) -> bool:
        m = HALF_CALL.match(name)
        if not m or not is_half_call(name):
            return False
        kind, width, rounding = m.group(1), int(m.group(2) or 1), m.group(3)
        stride = 4 if kind.endswith("a") and width == 3 else width
        em = self.em
        args = inst.args
        offset, pointer = args[-2], args[-1]
        space, base = self.address(pointer)
        off = self.val(offset)[0]
        first = (off * stride * 2) & 0xFFFFFFFF if isinstance(off, int) else \
            em.one("imul", off, stride * 2)
        addr = first if isinstance(base, int) and base == 0 else \
            (base + first) & 0xFFFFFFFF if isinstance(base, int) and isinstance(first, int) else \
            em.one("iadd", base, first)
        if kind.startswith("vload"):
            if rounding:
                raise CompileError(f"amdil: {name}: a load has no rounding mode")
            out = self.result(inst)
            for i, o in enumerate(out):
                raw = em.temp_slots(1)[0]
                self.load_small(space, self.offset(addr, 2 * i), 16, raw)
                em.op("f162f", [o], [raw])
            return True
        values = self.val(args[0])
        for i, v in enumerate(values):
            self.store_small(space, self.offset(addr, 2 * i), 16, em.one(ROUNDING[rounding], v))
        return True
