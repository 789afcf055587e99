"""Exact IEEE-754 rounding of rationals, as the oracle for OpenCL C conversions
(OpenCL C 3.0 s6.4.3.2: rte, rtz, rtp, rtn; IEEE-754 overflow rules)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

# format: (precision bits p, emin, emax, numpy dtype)
FORMATS = {
    "half": (11, -14, 15, np.float16),
    "float": (24, -126, 127, np.float32),
    "double": (53, -1022, 1023, np.float64),
}


def round_exact(value: Fraction, fmt: str, mode: str) -> float:
    """value rounded to fmt in mode ('rte', 'rtz', 'rtp', 'rtn'), as a Python float."""
    p, emin, emax, _ = FORMATS[fmt]
    if value == 0:
        return 0.0
    sign = -1 if value < 0 else 1
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    unit = Fraction(2) ** (e - (p - 1))
    m = a / unit
    fl = math.floor(m)
    rem = m - fl
    if mode == "rte":
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1)
    elif mode == "rtz":
        up = False
    elif mode == "rtp":
        up = rem != 0 and sign > 0
    else:
        up = rem != 0 and sign < 0
    r = (fl + 1 if up else fl) * unit
    max_finite = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if r > max_finite:
        to_inf = mode == "rte" or (mode == "rtp" and sign > 0) or (mode == "rtn" and sign < 0)
        return sign * math.inf if to_inf else sign * float(max_finite)
    return sign * float(r)


def round_to_integral(x: float, mode: str) -> float:
    """Rounding a float to an integral value (OpenCL C conversion to integer types)."""
    if mode == "rte":
        return float(np.rint(x))
    if mode == "rtz":
        return float(math.trunc(x))
    if mode == "rtp":
        return float(math.ceil(x))
    return float(math.floor(x))
