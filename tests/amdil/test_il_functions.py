"""noinline OpenCL functions as IL functions of their own (``call N`` / ``func N`` …
``endfunc``) with AMD's register calling convention, run on the simulator against numpy, their
structure against the driver's kernel-body functions (reference/amdil/hlc-juniper)."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.errors import CompileError
from kernelkit.formats.amdil import link, parse_program
from kernelkit.ir import types as T
from kernelkit.mux.registry import build_binary
from kernelkit.mux.result import MuxError
from kernelkit.targets.amdil.functions import assign

SOURCE = """
__attribute__((noinline)) float scale(float x, int k, long w) { return x * (float)k + (float)w; }
__attribute__((noinline)) float4 twice(float4 v) { return v + v; }
__attribute__((noinline)) int collatz(int n) {          /* loops, several returns */
    int steps = 0;
    while (n != 1) {
        if (steps > 200) return -1;
        n = (n & 1) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}
__attribute__((noinline)) int outer(int n) { return collatz(n) + collatz(n + 1) + (int)get_global_id(0); }
__attribute__((noinline)) void put(global int *p, local int *tmp, int v) {
    tmp[get_local_id(0)] = v;
    p[get_global_id(0)] = tmp[get_local_id(0)] * 2;
}
kernel void a(global float *o, global const float *x, int k, global int *steps, local int *tmp) {
    size_t i = get_global_id(0);
    o[i] = scale(x[i], k, (long)i);
    put(steps, tmp, outer((int)i + 1));
}
kernel void b(global float4 *o, global const float4 *x) {
    size_t i = get_global_id(0);
    o[i] = twice(x[i]) + (float4)(scale(x[i].x, 2, -3L));
}
"""


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        if steps > 200:
            return -1
        n = 3 * n + 1 if n & 1 else n // 2
        steps += 1
    return steps


@pytest.mark.parametrize("device", ["rv770", "juniper", "cayman"])
def test_il_functions_compute_what_numpy_does(device):
    prog = kernelkit.Program(SOURCE).build(f"amdil:{device}")
    n = 256
    x = np.linspace(-3, 3, n).astype(np.float32)
    o = np.zeros(n, np.float32)
    steps = np.zeros(n, np.int32)
    prog.a(o, x, np.int32(5), steps, kernelkit.LocalMemory(4 * 64), global_size=n, local_size=64)
    i = np.arange(n)
    np.testing.assert_array_equal(o, x * np.float32(5) + i.astype(np.float32))
    want = [2 * (collatz(k + 1) + collatz(k + 2) + k) for k in range(n)]
    np.testing.assert_array_equal(steps, want)
    x4 = np.random.default_rng(0).standard_normal((64, 4)).astype(np.float32)
    o4 = np.zeros_like(x4)
    prog.b(o4, x4, global_size=64, local_size=16)
    np.testing.assert_array_equal(o4, 2 * x4 + (x4[:, :1] * np.float32(2) - np.float32(3)))


def test_functions_have_the_drivers_shape_and_link_per_kernel(reference):
    text = build_binary(SOURCE, "amdil:juniper").decode()
    program = parse_program(text)
    ids = {b.source_name: b.uniqueid for b in program.metadata}
    for name in ("scale", "twice", "collatz", "outer", "put"):
        fid = ids[name]
        assert f"\nfunc {fid} ; {name}\n" in text and f"\nendfunc ; {name}\n" in text
    # the driver's kernel-body functions: func N ; name ... ret_dyn, endfunc, then a block of
    # uniqueid and memory records (plus ;function: for what it calls)
    driver = parse_program((reference / "amdil" / "hlc-juniper" /
                            "clear_memory.01.linked.il").read_text())
    body = next(b for b in driver.metadata if not b.is_kernel)
    kinds = [rec.kind for rec in body.records]
    for name in ("scale", "collatz"):
        block = next(b for b in program.metadata if b.source_name == name)
        assert [rec.kind for rec in block.records] == kinds
    outer = next(b for b in program.metadata if b.source_name == "outer")
    assert outer.id_list("function") == [ids["collatz"]]
    assert f"call {ids['collatz']} ; collatz" in text
    # the runtime's link step keeps what a kernel reaches through ;function: records
    linked = link(text, "b")
    kept = {line.split(" ; ")[1] for line in linked.splitlines() if line.startswith("func ")}
    assert kept == {"__OpenCL_b_kernel", "b", "twice", "scale"}


def test_the_calling_convention_fills_registers_as_amds_lists_do():
    """AMDILCallingConv.td: 32-bit values from r1.x, r1.y, …; 64-bit values and two-element
    vectors from the xy/zw halves; four-element vectors whole registers; each list skips what
    an earlier argument took (LLVM's CCAssignToReg)."""
    i32, i64, f4 = T.IntType(32), T.IntType(64), T.VectorType(T.FloatType("float"), 4)
    got = assign([i32, i64, i32, f4, i32, i64, i32])
    text = [[f"r{s.num}.{'xyzw'[s.comp]}" for s in slots] for slots in got]
    assert text == [["r1.x"], ["r1.z", "r1.w"], ["r1.y"], ["r2.x", "r2.y", "r2.z", "r2.w"],
                    ["r3.x"], ["r3.z", "r3.w"], ["r3.y"]]


def test_recursion_is_refused():
    src = """__attribute__((noinline)) int f(int n) { return n < 2 ? n : f(n - 1) + f(n - 2); }
    kernel void k(global int *o) { o[0] = f(o[0]); }"""
    with pytest.raises((CompileError, MuxError), match="recursive"):
        build_binary(src, "amdil:cayman")


PRIVATE = """
__attribute__((noinline)) int median5(int a, int b, int c, int d, int e) {
    int v[5] = {a, b, c, d, e};                 /* a private array of the function's own */
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) { int t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return v[2];
}
__attribute__((noinline)) int pick(int n, int k) {
    int w[7];
    for (int i = 0; i < 7; i++) w[i] = (n * (i + 3)) % 11;
    return median5(w[k % 7], w[(k + 1) % 7], w[(k + 2) % 7], w[(k + 3) % 7], w[(k + 4) % 7]);
}
kernel void m(global const int *in, global int *out) {
    int mine[4];
    size_t i = get_global_id(0);
    for (int j = 0; j < 4; j++) mine[j] = in[(4 * i + j * 5) % 256];
    out[i] = pick(mine[in[i] & 3], (int)i) + median5(mine[0], mine[1], mine[2], mine[3], in[i]);
}
"""


@pytest.mark.parametrize("device", ["rv770", "cayman"])
def test_functions_with_private_arrays_sit_above_their_callers_frames(device):
    prog = kernelkit.Program(PRIVATE).build(f"amdil:{device}")
    text = prog.binary.decode()
    assert "\nfunc " in text and " ; median5\n" in text and " ; pick\n" in text
    inp = np.random.default_rng(2).integers(0, 1000, 256).astype(np.int32)
    out = np.zeros(256, np.int32)
    prog.m(inp, out, global_size=256, local_size=64)
    want = []
    for i in range(256):
        mine = [int(inp[(4 * i + j * 5) % 256]) for j in range(4)]
        n, k = mine[inp[i] & 3], i
        w = [(n * (j + 3)) % 11 for j in range(7)]
        picked = sorted(w[(k + d) % 7] for d in range(5))[2]
        want.append(picked + sorted(mine + [int(inp[i])])[2])
    np.testing.assert_array_equal(out, want)
