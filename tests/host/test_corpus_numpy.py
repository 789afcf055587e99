"""Corpus kernels on the host target against numpy references written from the OpenCL C sources
(and, for printf, the output OpenCL 1.2 s6.12.13 prescribes)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from corpus_harness import Case, cases, make_args

import kernelkit

BY_NAME = {c.name: c for c in cases()}


@functools.cache
def program(file: str, cl_std: str) -> kernelkit.Program:
    return kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}"]).build()


def run(name: str, values=None):
    case = BY_NAME[name]
    vals, _ = make_args(case)
    if values is not None:
        vals = [values.get(a["name"], v) for a, v in zip(case.kernel["args"], vals, strict=True)]
    inputs = [v.copy() if isinstance(v, np.ndarray) else v for v in vals]
    out = program(case.file, case.cl_std).kernel(name)(*vals, global_size=case.run["global"],
                                                       local_size=case.run.get("local"))
    return dict(zip([a["name"] for a in case.kernel["args"]], vals, strict=True)), \
        dict(zip([a["name"] for a in case.kernel["args"]], inputs, strict=True)), out


def test_scalar_args():
    out, _, _ = run("scalar_args")
    acc = np.float32(-3 + 200 - 1000 + 60000 - 70000 + 4000000000 - 5000000000 + 9000000000 + 0.5)
    np.testing.assert_allclose(out["out"], acc * np.arange(64, dtype=np.float32), rtol=1e-6)


def test_copy_through_local_reverses_each_group():
    out, inp, _ = run("copy_through_local")
    np.testing.assert_array_equal(out["dst"], inp["src"].reshape(4, 16)[:, ::-1].reshape(-1))


def test_two_local_buffers():
    out, inp, _ = run("two_local_buffers")
    d = inp["data"].reshape(4, 8)
    np.testing.assert_array_equal(out["data"], (2 * d + d[:, :1]).reshape(-1))


def test_collatz_and_classify():
    out, inp, _ = run("collatz")

    def steps(n: int) -> int:
        k = 0
        while n != 1 and k < 1000:
            n = 3 * n + 1 if n & 1 else n // 2
            k += 1
        return k
    assert list(out["steps"]) == [steps(int(s) + 1) for s in inp["start"]]
    out, inp, _ = run("classify")
    table = {0: lambda v: 100, 1: lambda v: 2 * v, 2: lambda v: 2 * v, 3: lambda v: -v, 5: lambda v: v + 1,
             6: lambda v: v + 1}
    assert list(out["out"]) == [table.get(int(v) & 7, lambda v: 0)(int(v)) for v in inp["in"]]


def test_reductions():
    out, inp, _ = run("reduce_sum")
    np.testing.assert_allclose(out["partial"], inp["in"].reshape(4, 64).sum(1), rtol=1e-5)
    out, inp, _ = run("reduce_max_static")
    np.testing.assert_array_equal(out["out"], np.repeat(inp["in"].reshape(2, 64).max(1), 64))


def test_transpose_tile():
    case = BY_NAME["transpose_tile"]
    vals, _ = make_args(case)
    w, h = int(vals[2]), int(vals[3])
    out, inp, _ = run("transpose_tile")
    np.testing.assert_array_equal(out["out"][: w * h].reshape(w, h), inp["in"][: w * h].reshape(h, w).T)


def test_atomics_across_threads():
    out, inp, _ = run("histogram")
    np.testing.assert_array_equal(out["bins"], np.bincount(inp["data"] & 15, minlength=16))
    out, inp, _ = run("atomic_mix")
    v = inp["values"].astype(np.int64)
    c = out["counters"]
    assert c[0] == v.sum() and c[1] == -64 and c[2] == max(0, v.max()) and c[3] == min(1000, v.min())
    assert int(c[4]) & 0xFFFFFFFF == np.bitwise_or.reduce(1 << (v & 31)) and c[7] == 128
    assert c[5] == np.bitwise_and.reduce(~(1 << (v & 7)) & 0xFFFFFFFF) - (1 << 32)
    assert c[6] == np.bitwise_xor.reduce(v)
    np.testing.assert_array_equal(out["slots"], inp["values"])  # slot = old(0) + xchg(v)


def test_c11_atomics():
    out, _, _ = run("c11_counter")
    assert out["counter"][0] == 64
    np.testing.assert_array_equal(np.sort(out["tickets"]), np.arange(64))
    out, inp, _ = run("c11_flags")
    assert out["word"][0] == np.bitwise_or.reduce(1 << (inp["values"].astype(np.int64) & 31))
    assert out["maxv"][0] == inp["values"].max()
    out, inp, _ = run("c11_exchange")
    gid = np.arange(32)
    won = inp["slots"] == 0
    np.testing.assert_array_equal(out["old"], np.where(won, -1, inp["slots"]))
    np.testing.assert_array_equal(out["slots"], np.where(won, gid + 1, inp["slots"]) * 2)


def test_work_group_collectives():
    out, inp, _ = run("wg_reduce")
    groups = inp["in"].reshape(-1, 32)
    np.testing.assert_array_equal(out["sums"], groups.sum(1))
    np.testing.assert_array_equal(out["maxes"], groups.max(1).astype(np.float32))
    out, inp, _ = run("wg_scan")
    g = inp["in"].reshape(-1, 16)
    incl = np.cumsum(g, axis=1, dtype=np.uint32)
    np.testing.assert_array_equal(out["incl"], incl.reshape(-1))
    np.testing.assert_array_equal(out["excl"], (incl - g).reshape(-1))
    out, inp, _ = run("wg_vote_broadcast")
    g = inp["in"].reshape(-1, 16)
    expect = g[:, :1] + 10 * (g < 0).any(1, keepdims=True) + 100 * (g >= 0).all(1, keepdims=True)
    np.testing.assert_array_equal(out["out"], np.broadcast_to(expect, g.shape).reshape(-1))


def test_generic_pointers_and_program_globals():
    out, inp, _ = run("generic_pointers")
    lid = np.arange(32) % 8
    np.testing.assert_allclose(out["g"], inp["g"] * 2 + np.array([0.5, 1, 1.5, 2], np.float32)[lid % 4])
    first, _, _ = run("count_calls")
    second, _, _ = run("count_calls")
    assert second["out"][0] == first["out"][0] + 1   # program-scope variables persist across launches


@pytest.mark.parametrize("name,expected", [
    ("hello", "hello from kernel 42\n"),
    ("print_values", "v[0] = 1.500 (pos)\nv[1] = -2.250 (neg)\nv[2] = 1.500 (pos)\n"),
    ("print_vector", "1.000000,2.500000,-3.000000,4.000000 1234567890123 kbeef\n"),
])
def test_printf(name, expected, capsys):
    _, _, output = run(name)
    assert output == expected
    assert capsys.readouterr().out == expected


STRUCT_CASES = {
    "scale_by_params": (
        np.dtype({"names": ["count", "scale"], "formats": [np.int32, np.float32]}, align=True),
        lambda out, inp: np.testing.assert_allclose(
            out["data"], np.where(np.arange(64) < 48, inp["data"] * np.float32(2.5), inp["data"]))),
    "move_particle": (
        np.dtype({"names": ["pos", "vel", "id", "flag"],   # float4 is 16-byte aligned (OpenCL C 6.3.5)
                  "formats": [(np.float32, 4), (np.float32, 4), np.int32, np.int8],
                  "offsets": [0, 16, 32, 36], "itemsize": 48}),
        lambda out, inp: np.testing.assert_allclose(
            out["out"].reshape(16, 4),
            np.array([1, 2, 3, 4], np.float32) + np.array([0.5, 0.25, 0, -1], np.float32) * np.float32(0.125)
            * (np.arange(16, dtype=np.float32)[:, None] + 8), rtol=1e-6)),
    "packed_sum": (
        np.dtype({"names": ["tag", "value", "extra"], "formats": [np.int8, np.int32, np.int16],
                  "offsets": [0, 1, 5], "itemsize": 7}),
        lambda out, inp: np.testing.assert_array_equal(out["out"], 3 + 100000 - 7)),
    "union_bits": (
        np.dtype({"names": ["f"], "formats": [np.float32], "itemsize": 4}),
        lambda out, inp: np.testing.assert_array_equal(out["out"], 0x3F800000 + 0 + np.arange(8))),
    "nested_struct": (
        np.dtype({"names": ["count", "scale", "weight", "code"],
                  "formats": [np.int32, np.float32, np.float64, (np.int16, 3)],
                  "offsets": [0, 4, 8, 16], "itemsize": 24}),
        lambda out, inp: np.testing.assert_array_equal(out["out"], 3.0 * 0.5 + 2 + 1 + 2 + 3)),
}


@pytest.mark.parametrize("name", sorted(STRUCT_CASES))
def test_struct_arguments(name):
    dt, check = STRUCT_CASES[name]
    spec = BY_NAME[name].run["args"]
    struct_arg = next(a for a in BY_NAME[name].kernel["args"] if a["kind"] in ("struct", "union"))
    fields = dict(spec[struct_arg["name"]])
    if "p" in fields:
        fields = {**fields.pop("p"), **fields}
    value = np.zeros((), dtype=dt)
    for f in dt.names:
        value[f] = fields[f]
    out, inp, _ = run(name, {struct_arg["name"]: value[()]})
    check(out, inp)


VEC_KERNELS = ["vec_char", "vec_uchar", "vec_short", "vec_ushort", "vec_int", "vec_uint", "vec_long",
               "vec_ulong", "vec_float", "vec_double", "vec_half"]


@pytest.mark.parametrize("name", VEC_KERNELS)
def test_vector_arguments(name):
    """r = e; r.s01 += a; r.s234 += b; r.s4567 += c; r.s89abcdef += d (vector_types.cl)."""
    out, inp, _ = run(name)
    case = BY_NAME[name]
    a, b, c, d, e = (inp[x] for x in "abcde")
    r = e.copy()   # element-wise in the element type (integers wrap, as in OpenCL C)
    r[0:2] += a[:2]
    r[2:5] += b[:3]
    r[4:8] += c[:4]
    r[8:16] += d[:8]
    expect = np.tile(r, case.run["args"]["out"]["count"])
    np.testing.assert_array_equal(out["out"], expect)


def test_half_and_double_scalars():
    out, _, _ = run("half_double_args")
    np.testing.assert_array_equal(out["out"], 1.5 + 2.25 + np.arange(16))
