"""OpenCL.std extended instructions -> OpenCL C builtin calls with clang's (SPIR) mangling.

The table is the OpenCL Extended Instruction Set Specification 1.0, section 2 ("Math", "Integer",
"Common", "Geometric", "Relational", "Vector data load/store", "Miscellaneous"): number -> name.
An ``s_``/``u_`` prefix gives the signedness of the integer operands; ``fmax_common`` and the like
are the OpenCL C functions named after the prefix is stripped.
"""

from __future__ import annotations

OPENCL_STD: dict[int, str] = {
    0: "acos", 1: "acosh", 2: "acospi", 3: "asin", 4: "asinh", 5: "asinpi", 6: "atan", 7: "atan2",
    8: "atanh", 9: "atanpi", 10: "atan2pi", 11: "cbrt", 12: "ceil", 13: "copysign", 14: "cos", 15: "cosh",
    16: "cospi", 17: "erfc", 18: "erf", 19: "exp", 20: "exp2", 21: "exp10", 22: "expm1", 23: "fabs",
    24: "fdim", 25: "floor", 26: "fma", 27: "fmax", 28: "fmin", 29: "fmod", 30: "fract", 31: "frexp",
    32: "hypot", 33: "ilogb", 34: "ldexp", 35: "lgamma", 36: "lgamma_r", 37: "log", 38: "log2",
    39: "log10", 40: "log1p", 41: "logb", 42: "mad", 43: "maxmag", 44: "minmag", 45: "modf", 46: "nan",
    47: "nextafter", 48: "pow", 49: "pown", 50: "powr", 51: "remainder", 52: "remquo", 53: "rint",
    54: "rootn", 55: "round", 56: "rsqrt", 57: "sin", 58: "sincos", 59: "sinh", 60: "sinpi", 61: "sqrt",
    62: "tan", 63: "tanh", 64: "tanpi", 65: "tgamma", 66: "trunc", 67: "half_cos", 68: "half_divide",
    69: "half_exp", 70: "half_exp2", 71: "half_exp10", 72: "half_log", 73: "half_log2", 74: "half_log10",
    75: "half_powr", 76: "half_recip", 77: "half_rsqrt", 78: "half_sin", 79: "half_sqrt", 80: "half_tan",
    81: "native_cos", 82: "native_divide", 83: "native_exp", 84: "native_exp2", 85: "native_exp10",
    86: "native_log", 87: "native_log2", 88: "native_log10", 89: "native_powr", 90: "native_recip",
    91: "native_rsqrt", 92: "native_sin", 93: "native_sqrt", 94: "native_tan",
    95: "fclamp", 96: "degrees", 97: "fmax_common", 98: "fmin_common", 99: "mix", 100: "radians",
    101: "step", 102: "smoothstep", 103: "sign", 104: "cross", 105: "distance", 106: "length",
    107: "normalize", 108: "fast_distance", 109: "fast_length", 110: "fast_normalize",
    141: "s_abs", 142: "s_abs_diff", 143: "s_add_sat", 144: "u_add_sat", 145: "s_hadd", 146: "u_hadd",
    147: "s_rhadd", 148: "u_rhadd", 149: "s_clamp", 150: "u_clamp", 151: "clz", 152: "ctz",
    153: "s_mad_hi", 154: "u_mad_sat", 155: "s_mad_sat", 156: "s_max", 157: "u_max", 158: "s_min",
    159: "u_min", 160: "s_mul_hi", 161: "rotate", 162: "s_sub_sat", 163: "u_sub_sat", 164: "u_upsample",
    165: "s_upsample", 166: "popcount", 167: "s_mad24", 168: "u_mad24", 169: "s_mul24", 170: "u_mul24",
    171: "vloadn", 172: "vstoren", 182: "shuffle", 183: "shuffle2", 184: "printf", 185: "prefetch", 186: "bitselect",
    187: "select", 201: "u_abs", 202: "u_abs_diff", 203: "u_mul_hi", 204: "u_mad_hi",
}

# names whose OpenCL C function is spelled differently
_RENAMED = {"fclamp": "clamp", "fmax_common": "max", "fmin_common": "min"}


def builtin_name(name: str) -> tuple[str, bool | None]:
    """(OpenCL C function name, integer operands signed? — None when the name does not say)."""
    if name[:2] in ("s_", "u_"):
        return name[2:], name[0] == "s"
    return _RENAMED.get(name, name), None
