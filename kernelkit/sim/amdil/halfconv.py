"""AMD IL's float16 conversions: ``f162f`` (the low 16 bits of each component, a binary16, to
binary32) and ``f2f16`` with its rounding modes (plain: toward zero, ``_near``: to nearest even,
``_neg_inf``/``_plus_inf``: down/up), the result in the low 16 bits."""

from __future__ import annotations

import numpy as np

U32 = np.uint32


def f16_to_f32(a: np.ndarray) -> np.ndarray:
    return (a & U32(0xFFFF)).astype(np.uint16).view(np.float16).astype(np.float32).view(U32)


def _f32_to_f16(a: np.ndarray, mode: str) -> np.ndarray:
    x = a.view(np.float32)
    with np.errstate(all="ignore"):
        h = x.astype(np.float16)            # round to nearest even
        back = h.astype(np.float32)
    bits = h.view(np.uint16).astype(np.int64)
    if mode != "near":
        finite = np.isfinite(x)
        positive = x > 0
        if mode == "zero":
            step = np.where(finite & (np.abs(back) > np.abs(x)), -1, 0)
        elif mode == "plus_inf":
            step = np.where(finite & (back < x), np.where(positive, 1, -1), 0)
        else:   # neg_inf
            step = np.where(finite & (back > x), np.where(positive, -1, 1), 0)
        # the step moves the magnitude (sign bit untouched): toward or away from zero
        bits = bits + step
    return (bits & 0xFFFF).astype(U32)


F16_UNARY = {
    "f162f": f16_to_f32,
    "f2f16": lambda a: _f32_to_f16(a, "zero"),
    "f2f16_near": lambda a: _f32_to_f16(a, "near"),
    "f2f16_neg_inf": lambda a: _f32_to_f16(a, "neg_inf"),
    "f2f16_plus_inf": lambda a: _f32_to_f16(a, "plus_inf"),
}
