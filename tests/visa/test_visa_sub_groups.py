"""Sub-group builtins in the vISA target (tests/visa/cl/sub_groups.cl): on the vISA simulator at SIMD
8, 16 and 32 on TGLLP and DG2 against numpy, the definition of OpenCL 2.1 s6.13.15 / cl_khr_subgroups
(and cl_khr_subgroup_shuffle[_relative], Intel's intel_sub_group_shuffle*) at the reported sub-group
size: a sub-group is the work-items of consecutive local linear ids ``k x SIMD ..`` (the last one of a
work-group partial); lanes masked off by divergence take no part. GenX_IR finalizes every object."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from tests.visa.finalizer import finalize_binary

SOURCE = (Path(__file__).parent / "cl" / "sub_groups.cl").read_text()
LOCAL, GROUPS = 40, 2                      # 40 = 5 x 8 = 16 + 16 + 8 = 32 + 8: partial sub-groups at 16, 32
N = LOCAL * GROUPS
BUILDS = [("tgllp", 8), ("tgllp", 16), ("tgllp", 32), ("dg2", 8), ("dg2", 16), ("dg2", 32)]
TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "float": np.float32}


@pytest.fixture(scope="module", params=BUILDS, ids=[f"{p}-simd{s}" for p, s in BUILDS])
def built(request):
    platform, simd = request.param
    program = kernelkit.Program(SOURCE, ["-cl-std=CL2.0", f"--simd={simd}"]).build(f"visa:{platform}")
    return platform, simd, program


def _sub_groups(simd: int) -> list[np.ndarray]:
    """The global ids of each sub-group."""
    return [np.arange(g * LOCAL + s, g * LOCAL + min(s + simd, LOCAL))
            for g in range(GROUPS) for s in range(0, LOCAL, simd)]


def _extremes(dt) -> tuple:
    if dt == np.float32:
        return np.float32(np.inf), np.float32(-np.inf)
    return np.iinfo(dt).max, np.iinfo(dt).min


def _shifted(values: np.ndarray, first) -> np.ndarray:
    """An exclusive scan from an inclusive one: ``first`` then all but the last."""
    return np.concatenate([np.array([first], values.dtype), values[:-1]])


def test_collectives(built):
    _platform, simd, program = built
    rng = np.random.default_rng(simd)
    lane = 5 % simd
    for name, dt in TYPES.items():
        if dt == np.float32:                # integer-valued: every summation order gives the same sum
            x = rng.integers(-1000, 1000, N).astype(np.float32)
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min // 4, info.max // 4, N, dtype=dt)
        out = np.zeros(11 * N, dt)
        getattr(program, f"collectives_{name}")(x, out, np.uint32(lane), global_size=N, local_size=LOCAL)
        got = out.reshape(11, N)
        high, low = _extremes(dt)
        for ids in _sub_groups(simd):
            v = x[ids]
            with np.errstate(over="ignore"):
                total, running = v.sum(dtype=dt), np.cumsum(v, dtype=dt)
            want = [np.full(len(v), total), np.full(len(v), v.min()), np.full(len(v), v.max()),
                    running, np.minimum.accumulate(v), np.maximum.accumulate(v),
                    _shifted(running, 0), _shifted(np.minimum.accumulate(v), high),
                    _shifted(np.maximum.accumulate(v), low), np.full(len(v), v[1]), np.full(len(v), v[lane])]
            for row, expected in enumerate(want):
                np.testing.assert_array_equal(got[row][ids], expected, err_msg=f"{name} result {row} at {ids[0]}")


def test_work_item_functions(built):
    _platform, simd, program = built
    out = np.zeros(6 * N, np.uint32)
    program.ids(out, global_size=N, local_size=LOCAL)
    want = np.zeros((6, N), np.uint32)
    for ids in _sub_groups(simd):
        want[:, ids] = np.array([len(ids), simd, -(-LOCAL // simd), ids[0] % LOCAL // simd, 0,
                                 -(-LOCAL // simd)])[:, None]
        want[4, ids] = np.arange(len(ids))
    np.testing.assert_array_equal(out.reshape(6, N), want)


def test_divergent_lanes_are_excluded(built):
    _platform, simd, program = built
    x = np.random.default_rng(3).integers(-100, 100, N).astype(np.int32)
    untouched = 12345
    out = np.full(7 * N, untouched, np.int32)
    program.divergent(x, out, global_size=N, local_size=LOCAL)
    got = out.reshape(7, N)
    want = np.full((7, N), untouched, np.int64)
    for ids in _sub_groups(simd):
        v = x[ids]
        want[0, ids], want[1, ids] = (v > 90).any(), (v > -90).all()
        odd = (v & 1) == 1
        on, w = ids[odd], v[odd]
        if len(on):
            want[2, on], want[3, on], want[4, on] = w.sum(), np.maximum.accumulate(w), np.cumsum(w) - w
            want[5, on], want[6, on] = (w > 90).any(), (w > -90).all()
    for row in (0, 1, 5, 6):             # any/all: non-zero for true
        written = want[row] != untouched
        got[row][written] = got[row][written] != 0
    np.testing.assert_array_equal(got, want)


def test_shuffles(built):
    _platform, simd, program = built
    rng = np.random.default_rng(4)
    x = rng.integers(-1000, 1000, N).astype(np.int32)
    c = rng.integers(0, simd, N).astype(np.uint32)
    delta = 3
    out = np.zeros(8 * N, np.int32)
    program.shuffles(x, c, out, np.uint32(delta), global_size=N, local_size=LOCAL)
    got = out.reshape(8, N)
    for ids in _sub_groups(simd):
        v, m, s = x[ids], len(ids), c[ids]
        lanes = np.arange(m)
        checks = [(0, v, s), (1, v, lanes ^ s), (2, v, lanes - delta), (3, v, lanes + delta), (4, v, s),
                  (5, v, lanes ^ 3)]
        if m == simd:                        # Intel's two-operand forms read past the sub-group
            checks += [(6, np.concatenate([v, -v]), lanes + delta), (7, np.concatenate([-v, v]), lanes + simd - delta)]
        for row, source, index in checks:
            defined = (index >= 0) & (index < len(source))     # other lanes: undefined results
            np.testing.assert_array_equal(got[row][ids][defined], source[index[defined]],
                                          err_msg=f"shuffle result {row} at {ids[0]}")


def test_genx_ir_finalizes(built):
    require_tool("GenX_IR")
    platform, _simd, program = built
    finalize_binary(program.binary, platform.upper())


def test_double_collectives_on_skl():
    """double sub-group reductions and scans where the platform has fp64 (SKL), at SIMD 16; GenX_IR
    finalizes them."""
    source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + \
        SOURCE[SOURCE.index("#define COLLECTIVES"):SOURCE.index("COLLECTIVES(int)")] + "COLLECTIVES(double)\n"
    program = kernelkit.Program(source, ["-cl-std=CL2.0", "--simd=16"]).build("visa:skl")
    x = np.random.default_rng(9).integers(-10**6, 10**6, N).astype(np.float64)   # sums exact in any order
    out = np.zeros(11 * N)
    program.collectives_double(x, out, np.uint32(7), global_size=N, local_size=LOCAL)
    got = out.reshape(11, N)
    for ids in _sub_groups(16):
        v = x[ids]
        want = [np.full(len(v), v.sum()), np.full(len(v), v.min()), np.full(len(v), v.max()), np.cumsum(v),
                np.minimum.accumulate(v), np.maximum.accumulate(v), _shifted(np.cumsum(v), 0),
                _shifted(np.minimum.accumulate(v), np.inf), _shifted(np.maximum.accumulate(v), -np.inf),
                np.full(len(v), v[1]), np.full(len(v), v[7])]
        for row, expected in enumerate(want):
            np.testing.assert_array_equal(got[row][ids], expected, err_msg=f"double result {row} at {ids[0]}")
    require_tool("GenX_IR")
    finalize_binary(program.binary, "SKL")
