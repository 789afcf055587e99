"""vISA arithmetic, logic, comparison and math semantics over numpy arrays (all lanes at once).

Sources are widened first (floats to float64, integers to int64, 64-bit unsigned to uint64), the
operation computes there and ``convert`` narrows to the destination type: float -> integer
conversions truncate and saturate to the type's range (NaN -> 0), integer narrowing wraps unless
``.sat`` clamps, ``.sat`` on a float destination clamps to [0, 1]."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.formats.visa.tables import CMP_OPS

FLOAT_TYPES = frozenset({"f", "hf", "df", "vf"})
UNSIGNED_TYPES = frozenset({"ud", "uw", "ub", "uq", "uv", "bool"})
BITS = {"b": 8, "ub": 8, "w": 16, "uw": 16, "d": 32, "ud": 32, "q": 64, "uq": 64, "f": 32, "hf": 16,
        "df": 64, "v": 16, "uv": 16, "bool": 8}
# source modifier codes (operand tag bits 3-5)
ABS, NEG, NEG_ABS, NOT = 1, 2, 3, 5


def widen(values: np.ndarray, vtype: str) -> np.ndarray:
    if vtype in FLOAT_TYPES:
        return values.astype(np.float64)
    if vtype == "uq":
        return values.astype(np.uint64)
    return values.astype(np.int64)


def modify(values: np.ndarray, mod: int, vtype: str) -> np.ndarray:
    if mod in (ABS, NEG_ABS):
        values = np.abs(values)
    if mod in (NEG, NEG_ABS):
        values = -values if values.dtype != np.uint64 else (0 - values.astype(np.int64)).astype(np.uint64)
    if mod == NOT:
        values = ~values
    return values


def _int_range(vtype: str) -> tuple[int, int]:
    bits = BITS[vtype]
    if vtype in UNSIGNED_TYPES:
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def convert(values: np.ndarray, vtype: str, sat: bool, dtype: np.dtype) -> np.ndarray:
    """Wide ``values`` -> the destination's ``dtype``."""
    if vtype in FLOAT_TYPES:
        out = values.astype(dtype) if values.dtype.kind == "f" else values.astype(np.float64).astype(dtype)
        if sat:
            out = np.clip(np.nan_to_num(out, nan=0.0), 0, 1).astype(dtype)
        return out
    lo, hi = _int_range(vtype)
    if values.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            v = np.trunc(np.nan_to_num(values, nan=0.0, posinf=hi, neginf=lo))
            v = np.clip(v, lo, hi)
        if BITS[vtype] == 64:          # float64 cannot hold 2**63 - 1: clamp in the integer domain
            big = v >= 2.0 ** 63 if vtype == "q" else v >= 2.0 ** 64
            out = v.astype(np.float64).astype(np.int64 if vtype == "q" else np.uint64)
            out[big] = hi
            return out.astype(dtype)
        return v.astype(np.int64).astype(dtype)
    if sat:
        if values.dtype == np.uint64:
            values = np.minimum(values, np.uint64(hi)) if hi < (1 << 64) - 1 else values
            return values.astype(dtype)
        values = np.clip(values, lo, min(hi, (1 << 63) - 1))
    return values.astype(dtype)


def _shift_mask(types: list[str]) -> int:
    return 63 if any(BITS.get(t, 32) == 64 for t in types) else 31


def _as_unsigned(values: np.ndarray, vtype: str) -> np.ndarray:
    bits = BITS[vtype]
    if bits == 64:
        return values.astype(np.uint64)
    return values.astype(np.int64) & ((1 << bits) - 1)


def _as_signed(values: np.ndarray, vtype: str) -> np.ndarray:
    bits = BITS[vtype]
    if bits == 64:
        return values.astype(np.int64)
    v = values.astype(np.int64) & ((1 << bits) - 1)
    return np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)


def _float_or(a, b, f_float, f_int):
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return f_float(a.astype(np.float64), b.astype(np.float64))
    if np.uint64 in (a.dtype, b.dtype) and a.dtype != b.dtype:
        # numpy would promote uint64 with a signed type to float64 (losing low bits of addresses):
        # two's complement arithmetic wraps the same in uint64
        with np.errstate(over="ignore"):
            return f_int(a.astype(np.uint64), b.astype(np.uint64))
    return f_int(a, b)


def _int_div(a, b, rem: bool):
    with np.errstate(divide="ignore", invalid="ignore"):
        safe = np.where(b == 0, 1, b)
        if a.dtype == np.uint64 or b.dtype == np.uint64:
            qa, qb = a.astype(np.uint64), safe.astype(np.uint64)
            res = qa % qb if rem else qa // qb
        else:
            quot = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
            res = a - quot * safe if rem else quot
    return np.where(b == 0, 0 if rem else -1, res)


def _div(a, b, _t):
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return a.astype(np.float64) / b.astype(np.float64)
    return _int_div(a, b, False)


def _mod(a, b, _t):
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return np.fmod(a.astype(np.float64), b.astype(np.float64))
    return _int_div(a, b, True)


def _minmax(a, b, is_max: bool):
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        a, b = a.astype(np.float64), b.astype(np.float64)
        return np.fmax(a, b) if is_max else np.fmin(a, b)
    if a.dtype != b.dtype:
        a, b = a.astype(np.int64), b.astype(np.int64)
    return np.maximum(a, b) if is_max else np.minimum(a, b)


def _shl(s, t):
    return s[0] << (s[1].astype(np.int64) & _shift_mask(t)).astype(s[0].dtype)


def _shr(s, t):
    u = _as_unsigned(s[0], t[0])
    return u >> (s[1].astype(np.int64) & _shift_mask(t)).astype(u.dtype)


def _asr(s, t):
    v = _as_signed(s[0], t[0])
    return v >> (s[1].astype(np.int64) & _shift_mask(t))


def _rotate(s, t, left: bool):
    bits = BITS[t[0]]
    u = _as_unsigned(s[0], t[0]).astype(np.uint64)
    n = (s[1].astype(np.int64) % bits).astype(np.uint64)
    mask = np.uint64((1 << bits) - 1) if bits < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    back = (np.uint64(bits) - n) % np.uint64(bits)
    if left:
        out = ((u << n) | (u >> back)) & mask
    else:
        out = ((u >> n) | (u << back)) & mask
    return out


def _bit_count(s, t):
    u = _as_unsigned(s[0], t[0]).astype(np.uint64)
    count = np.zeros(u.shape, np.int64)
    for bit in range(BITS[t[0]]):
        count += ((u >> np.uint64(bit)) & np.uint64(1)).astype(np.int64)
    return count


def _lzd(s, t):
    u = _as_unsigned(s[0], t[0]).astype(np.uint64)
    bits = BITS[t[0]]
    out = np.full(u.shape, bits, np.int64)
    for bit in range(bits):
        hit = ((u >> np.uint64(bit)) & np.uint64(1)).astype(bool)
        out = np.where(hit, bits - 1 - bit, out)
    return out


def _fbl(s, t):
    u = _as_unsigned(s[0], t[0]).astype(np.uint64)
    out = np.full(u.shape, 0xFFFFFFFF, np.int64)
    for bit in reversed(range(32)):
        hit = ((u >> np.uint64(bit)) & np.uint64(1)).astype(bool)
        out = np.where(hit, bit, out)
    return out


def _fbh(s, t):
    v = s[0].astype(np.int64)
    if t[0] in UNSIGNED_TYPES:
        lz = _lzd([v], ["ud"])
        return np.where(lz == 32, 0xFFFFFFFF, lz)
    u = np.where(v < 0, ~v, v) & 0xFFFFFFFF
    lz = _lzd([u], ["ud"])
    return np.where(lz == 32, 0xFFFFFFFF, lz - 1)


def _bfrev(s, t):
    u = _as_unsigned(s[0], t[0]).astype(np.uint64)
    out = np.zeros(u.shape, np.uint64)
    for bit in range(32):
        out |= ((u >> np.uint64(bit)) & np.uint64(1)) << np.uint64(31 - bit)
    return out


def _bfe(s, t):
    width, offset = s[0].astype(np.int64) & 31, s[1].astype(np.int64) & 31
    value = s[2]
    if t[2] in UNSIGNED_TYPES:
        u = _as_unsigned(value, t[2])
        out = (u >> offset) & ((1 << width) - 1)
    else:
        v = _as_signed(value, t[2])
        shifted = _as_signed(v << (32 - width - offset), "d")
        out = shifted >> (32 - width)
    return np.where(width == 0, 0, out)


def _bfi(s, t):
    width, offset = s[0].astype(np.int64) & 31, s[1].astype(np.int64) & 31
    mask = ((1 << width) - 1) << offset
    return (((s[2].astype(np.int64) << offset) & mask) | (s[3].astype(np.int64) & ~mask)) & 0xFFFFFFFF


def _mulh(s, t):
    a, b = s[0], s[1]
    if t[0] in UNSIGNED_TYPES and t[1] in UNSIGNED_TYPES:
        return (_as_unsigned(a, t[0]).astype(np.uint64) * _as_unsigned(b, t[1]).astype(np.uint64)) >> np.uint64(32)
    return (_as_signed(a, t[0]) * _as_signed(b, t[1])) >> 32


def _bfn(s, t, ctrl: int):
    a, b, c = (x.astype(np.int64) for x in s)
    out = np.zeros(a.shape, np.int64)
    for k in range(8):
        if ctrl >> k & 1:
            out |= (a if k & 4 else ~a) & (b if k & 2 else ~b) & (c if k & 1 else ~c)
    return out


def _float(fn: Callable) -> Callable:
    def run(s, _t):
        with np.errstate(all="ignore"):
            return fn(*(x.astype(np.float64) for x in s))
    return run


def _rnd(fn: Callable) -> Callable:
    def run(s, _t):
        x = s[0]
        return fn(x) if x.dtype.kind == "f" else x
    return run


def _bitwise(fn: Callable) -> Callable:
    def run(s, _t):
        a = s[0]
        if a.dtype.kind == "f":
            raise TypeError("logic operation on float")
        return fn(*s) if len(s) > 1 else fn(a)
    return run


# mnemonic -> f(sources, source types) -> wide result
OPERATIONS: dict[str, Callable] = {
    "mov": lambda s, t: s[0],
    "movs": lambda s, t: s[0],
    "add": lambda s, t: _float_or(s[0], s[1], np.add, np.add),
    "add3": lambda s, t: s[0] + s[1] + s[2] if all(x.dtype.kind != "f" for x in s) else
    s[0].astype(np.float64) + s[1] + s[2],
    "mul": lambda s, t: _float_or(s[0], s[1], np.multiply, np.multiply),
    "mad": lambda s, t: (s[0].astype(np.float64) * s[1] + s[2]) if any(x.dtype.kind == "f" for x in s)
    else s[0] * s[1] + s[2],
    "avg": lambda s, t: (s[0] + s[1] + 1) >> 1,
    "div": lambda s, t: _div(s[0], s[1], t),
    "divm": lambda s, t: _div(s[0], s[1], t),
    "mod": lambda s, t: _mod(s[0], s[1], t),
    "and": _bitwise(lambda a, b: a & b),
    "or": _bitwise(lambda a, b: a | b),
    "xor": _bitwise(lambda a, b: a ^ b),
    "not": _bitwise(lambda a: ~a),
    "shl": _shl, "shr": _shr, "asr": _asr,
    "rol": lambda s, t: _rotate(s, t, True), "ror": lambda s, t: _rotate(s, t, False),
    "cbit": _bit_count, "lzd": _lzd, "fbl": _fbl, "fbh": _fbh, "bfrev": _bfrev, "bfe": _bfe, "bfi": _bfi,
    "mulh": _mulh,
    "frc": _float(lambda x: x - np.floor(x)),
    "rndd": _rnd(np.floor), "rndu": _rnd(np.ceil), "rnde": _rnd(np.rint), "rndz": _rnd(np.trunc),
    "sqrt": _float(np.sqrt), "sqrtm": _float(np.sqrt), "rsqrt": _float(lambda x: 1 / np.sqrt(x)),
    "inv": _float(lambda x: 1 / x), "exp": _float(np.exp2), "log": _float(np.log2),
    "sin": _float(np.sin), "cos": _float(np.cos), "pow": _float(np.power),
}


def compare(relation: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype != b.dtype and a.dtype.kind != "f" and b.dtype.kind != "f":
        a, b = a.astype(np.int64), b.astype(np.int64)
    op = CMP_OPS[relation & 7]
    with np.errstate(invalid="ignore"):
        result = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
                  "lt": np.less, "le": np.less_equal}[op](a, b)
    if relation & 0x80:                                   # cmpn: NaN compares true for ne
        nan = np.isnan(a) | np.isnan(b) if a.dtype.kind == "f" or b.dtype.kind == "f" else False
        result = result | nan
    return result


def minmax(is_max: bool, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _minmax(a, b, is_max)


def bfn(ctrl: int, sources: list[np.ndarray], types: list[str]) -> np.ndarray:
    return _bfn(sources, types, ctrl)
