"""Semantics of AMD IL's component-wise ALU instructions on numpy arrays.

Every operand is a uint32 array (components x lanes, or broadcastable); every result too. Float
instructions reinterpret the bits as IEEE-754 binary32; comparisons give 0xFFFFFFFF or 0 as the
hardware does. 64-bit instructions (doubles, i64/u64) work on component pairs (lo in x/z, hi in
y/w) and live in ``PAIR_OPS``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kernelkit.sim.amdil.halfconv import F16_UNARY

U32 = np.uint32
ONES = U32(0xFFFFFFFF)


def f(a: np.ndarray) -> np.ndarray:
    return a.view(np.float32)


def s(a: np.ndarray) -> np.ndarray:
    return a.view(np.int32)


def u(a) -> np.ndarray:
    return np.asarray(a).view(np.uint32)


def mask_of(cond: np.ndarray) -> np.ndarray:
    return np.where(cond, ONES, U32(0))


def _udiv(a, b):
    with np.errstate(divide="ignore"):
        q = np.where(b == 0, ONES, a // np.where(b == 0, U32(1), b))
    return q.astype(U32)


def _umod(a, b):
    return np.where(b == 0, ONES, a % np.where(b == 0, U32(1), b)).astype(U32)


def _fdiv(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return u(f(a) / f(b))


def _funary(fn) -> Callable:
    def op(a):
        with np.errstate(all="ignore"):
            return u(fn(f(a)).astype(np.float32))
    return op


def _ftoi(a):
    x = np.nan_to_num(f(a), nan=0.0)
    x = np.clip(np.trunc(x), -2147483648.0, 2147483520.0)
    return u(x.astype(np.int32))


def _ftou(a):
    x = np.nan_to_num(f(a), nan=0.0)
    x = np.clip(np.trunc(x), 0.0, 4294967040.0)
    return x.astype(np.uint32)


def _shift(b):
    return b & U32(31)


# component-wise instructions: opcode -> function of the source arrays
UNARY: dict[str, Callable] = {
    "mov": lambda a: a,
    "inegate": lambda a: (U32(0) - a).astype(U32),
    "inot": lambda a: ~a,
    "itof": lambda a: u(s(a).astype(np.float32)),
    "utof": lambda a: u(a.astype(np.float32)),
    "ftoi": _ftoi,
    "ftou": _ftou,
    "flr": _funary(np.floor),
    "round_neginf": _funary(np.floor),
    "round_plusinf": _funary(np.ceil),
    "round_z": _funary(np.trunc),
    "round_nearest": _funary(np.rint),
    "frc": _funary(lambda x: x - np.floor(x)),
    "abs": _funary(np.abs),
    "sqrt_vec": _funary(np.sqrt),
    "sqrt": _funary(np.sqrt),
    "rsq_vec": _funary(lambda x: 1.0 / np.sqrt(x)),
    "rcp": _funary(lambda x: np.float32(1.0) / x),
    "exp_vec": _funary(np.exp2),
    "log_vec": _funary(np.log2),
    "sin_vec": _funary(np.sin),
    "cos_vec": _funary(np.cos),
    "firstbit": lambda a: np.where(a == 0, ONES, U32(31) - np.floor(np.log2(np.maximum(a, 1)))
                                   .astype(U32)).astype(U32),
    "icbits": lambda a: np.array([bin(int(v)).count("1") for v in a.ravel()], U32).reshape(a.shape),
    **F16_UNARY,
}

BINARY: dict[str, Callable] = {
    "iadd": lambda a, b: a + b,
    "imul": lambda a, b: a * b,
    "umul": lambda a, b: a * b,
    "umul_high": lambda a, b: ((a.astype(np.uint64) * b.astype(np.uint64)) >> 32).astype(U32),
    "imul_high": lambda a, b: u(((s(a).astype(np.int64) * s(b).astype(np.int64)) >> 32)
                                .astype(np.int32)),
    "ishl": lambda a, b: a << _shift(b),
    "ishr": lambda a, b: u(s(a) >> s(_shift(b))),
    "ushr": lambda a, b: a >> _shift(b),
    "iand": lambda a, b: a & b,
    "ior": lambda a, b: a | b,
    "ixor": lambda a, b: a ^ b,
    "ieq": lambda a, b: mask_of(a == b),
    "ine": lambda a, b: mask_of(a != b),
    "ilt": lambda a, b: mask_of(s(a) < s(b)),
    "ige": lambda a, b: mask_of(s(a) >= s(b)),
    "ult": lambda a, b: mask_of(a < b),
    "uge": lambda a, b: mask_of(a >= b),
    "imin": lambda a, b: u(np.minimum(s(a), s(b))),
    "imax": lambda a, b: u(np.maximum(s(a), s(b))),
    "umin": np.minimum,
    "umax": np.maximum,
    "udiv": _udiv,
    "umod": _umod,
    "add": lambda a, b: u(f(a) + f(b)),
    "sub": lambda a, b: u(f(a) - f(b)),
    "mul": lambda a, b: u(f(a) * f(b)),
    "div": _fdiv,
    "eq": lambda a, b: mask_of(f(a) == f(b)),
    "ne": lambda a, b: mask_of(f(a) != f(b)),
    "lt": lambda a, b: mask_of(f(a) < f(b)),
    "ge": lambda a, b: mask_of(f(a) >= f(b)),
    "min": lambda a, b: u(np.fmin(f(a), f(b))),
    "max": lambda a, b: u(np.fmax(f(a), f(b))),
}

TERNARY: dict[str, Callable] = {
    "cmov_logical": lambda c, a, b: np.where(c != 0, a, b),
    "mad": lambda a, b, c: u(f(a) * f(b) + f(c)),
    "imad": lambda a, b, c: a * b + c,
    "umad": lambda a, b, c: a * b + c,
    "umad24": lambda a, b, c: (a & U32(0xFFFFFF)) * (b & U32(0xFFFFFF)) + c,
    "imad24": lambda a, b, c: u(((s(a) << 8) >> 8) * ((s(b) << 8) >> 8)) + c,
    "ubit_extract": lambda w, o, a: np.where((w & 31) == 0, U32(0),
                                             (a >> (o & 31)) & ((U32(1) << (w & 31)) - U32(1))),
    "bfi": lambda m, a, b: (a & m) | (b & ~m),
}


# --- 64-bit instructions on component pairs --------------------------------------------------

def join64(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def split64(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    v = v.astype(np.uint64)
    return (v & np.uint64(0xFFFFFFFF)).astype(U32), (v >> np.uint64(32)).astype(U32)


def d(v: np.ndarray) -> np.ndarray:
    return v.view(np.float64)


def _i(v):
    return v.view(np.int64)


def _dbin(fn):
    def op(a, b):
        with np.errstate(all="ignore"):
            return u64(fn(d(a), d(b)))
    return op


def u64(v) -> np.ndarray:
    return np.asarray(v).astype(v.dtype, copy=False).view(np.uint64)


def _cmp64(fn):
    return lambda a, b: np.where(fn(a, b), np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64(0))


# opcode -> (number of 64-bit sources, function on uint64 arrays, result is 64 bits)
PAIR_OPS: dict[str, tuple[int, Callable, bool]] = {
    "dadd": (2, _dbin(np.add), True),
    "dmul": (2, _dbin(np.multiply), True),
    "ddiv": (2, _dbin(np.divide), True),
    "dmad": (3, lambda a, b, c: u64(d(a) * d(b) + d(c)), True),
    "dmin": (2, _dbin(np.fmin), True),
    "dmax": (2, _dbin(np.fmax), True),
    "deq": (2, _cmp64(lambda a, b: d(a) == d(b)), False),
    "dne": (2, _cmp64(lambda a, b: d(a) != d(b)), False),
    "dlt": (2, _cmp64(lambda a, b: d(a) < d(b)), False),
    "dge": (2, _cmp64(lambda a, b: d(a) >= d(b)), False),
    "dsqrt": (1, lambda a: u64(np.sqrt(d(a))), True),
    "dfrac": (1, lambda a: u64(d(a) - np.floor(d(a))), True),
    "i64add": (2, lambda a, b: a + b, True),
    "i64negate": (1, lambda a: np.uint64(0) - a, True),
    "i64mul": (2, lambda a, b: a * b, True),
    "i64shl": (2, lambda a, b: a << (b & np.uint64(63)), True),
    "i64shr": (2, lambda a, b: (_i(a) >> _i(b & np.uint64(63))).view(np.uint64), True),
    "u64shr": (2, lambda a, b: a >> (b & np.uint64(63)), True),
    "i64eq": (2, _cmp64(lambda a, b: a == b), False),
    "i64ne": (2, _cmp64(lambda a, b: a != b), False),
    "i64lt": (2, _cmp64(lambda a, b: _i(a) < _i(b)), False),
    "i64ge": (2, _cmp64(lambda a, b: _i(a) >= _i(b)), False),
    "u64lt": (2, _cmp64(lambda a, b: a < b), False),
    "u64ge": (2, _cmp64(lambda a, b: a >= b), False),
    "i64min": (2, lambda a, b: np.minimum(_i(a), _i(b)).view(np.uint64), True),
    "i64max": (2, lambda a, b: np.maximum(_i(a), _i(b)).view(np.uint64), True),
    "u64min": (2, np.minimum, True),
    "u64max": (2, np.maximum, True),
}
# conversions between one 32-bit component and a 64-bit pair: opcode -> (source is 64-bit, fn)
CONVERT_OPS: dict[str, tuple[bool, Callable]] = {
    "f2d": (False, lambda a: u64(f(a).astype(np.float64))),
    "d2f": (True, lambda a: u(d(a).astype(np.float32))),
    "i2d": (False, lambda a: u64(s(a).astype(np.float64))),
    "u2d": (False, lambda a: u64(a.astype(np.float64))),
    "d2i": (True, lambda a: u(np.clip(np.trunc(np.nan_to_num(d(a))), -2**31, 2**31 - 1)
                              .astype(np.int32))),
    "d2u": (True, lambda a: np.clip(np.trunc(np.nan_to_num(d(a))), 0, 2**32 - 1).astype(U32)),
}
