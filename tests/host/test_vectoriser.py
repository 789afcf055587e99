"""Whole-function vectorisation (issue 10, point 2): every runnable corpus kernel built with
`-cl-wfv=always` (vectorised where the packetiser can) and with `-cl-wfv=never` (scalar) gives the
same results on the same inputs; kernels it cannot vectorise fall back with a reason in the build
log and `!codeplay_ca_vecz.base.fail`; vectorised kernels carry `!codeplay_ca_vecz.base`/`.derived`.
Also the packetiser's own cases at sizes that leave a scalar tail, against numpy."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from corpus_harness import Case, assert_same_outputs, cases

import kernelkit
from kernelkit.targets.host.passes.vectorise import host_vector_width, packet_width, wfv_mode

# (kernels taking structs by value get their inputs built per kernel in test_corpus_numpy; the
# vectoriser sees them all: their struct parameters are uniform)
CASES = [c for c in cases() if not c.run.get("stdout")
         and not any(a["kind"] in ("struct", "union") for a in c.kernel["args"])]
_vectorised: set[str] = set()


@functools.cache
def program(file: str, cl_std: str, mode: str) -> kernelkit.Program:
    return kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}", f"-cl-wfv={mode}"]).build()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_vectorised_equals_scalar(case: Case):
    assert_same_outputs(case, program(case.file, case.cl_std, "never"), program(case.file, case.cl_std, "always"))
    prog = program(case.file, case.cl_std, "always")
    info = prog._binary.kernel(case.name)
    failed = re.search(rf"kernel {case.name}: not vectorised \(-cl-wfv=always\): .+", prog.build_log)
    if info.vector_width > 1:
        _vectorised.add(case.id)
        assert not failed
    else:   # a fallback says why (kernels with barriers too: they are vectorised per packet)
        assert failed, f"{case.id}: scalar without a reason in the build log"


def test_fallback_reasons_and_metadata():
    prog = program("reductions.cl", "CL1.2", "always")
    # kernels with barriers are vectorised (one coroutine per packet): nothing logged for reduce_sum
    assert "reduce_sum" not in prog.build_log and prog._binary.kernel("reduce_sum").vector_width > 1
    src = """kernel void early_exit(global const int *a, global int *out, int n) {
      int i = 0;
      while (i < n && a[i] != get_global_id(0)) ++i;
      out[get_global_id(0)] = i;
    }"""
    p = kernelkit.Program(src, ["-cl-wfv=always"]).build()
    # a divergent loop: vectorised with loop masks (transforms.loop_masks)
    assert "early_exit" not in p.build_log and p._binary.kernel("early_exit").vector_width > 1
    a = np.array([5, 3, 1, 0, 2, 4, 7, 6], np.int32)
    out = np.zeros(8, np.int32)
    p.kernel("early_exit")(a, out, np.int32(8), global_size=(8,))
    np.testing.assert_array_equal(out, np.argsort(a))
    src = """kernel void irreducible(global int *out, int n) {
      int gid = get_global_id(0); int i = 0;
      if (gid & 1) goto second;
    first: i += 1; if (i > n) goto done;
    second: i += 2 + (gid & 3); if (i < 3 * n) goto first;
    done: out[gid] = i;
    }"""
    p = kernelkit.Program(src, ["-cl-wfv=always"]).build()
    assert re.search(r"kernel irreducible: not vectorised \(-cl-wfv=always\): irreducible control flow", p.build_log)
    out = np.zeros(16, np.int32)
    p.kernel("irreducible")(out, np.int32(10), global_size=(16,))
    expected = []
    for gid in range(16):
        i, at = 0, "second" if gid & 1 else "first"
        while at != "done":
            if at == "first":
                i += 1
                at = "done" if i > 10 else "second"
            else:
                i += 2 + (gid & 3)
                at = "first" if i < 30 else "done"
        expected.append(i)
    np.testing.assert_array_equal(out, expected)


def test_metadata_names_the_vector_kernel():
    from kernelkit.frontend import compile_opencl
    from kernelkit.targets.host.codegen import _LAST_IR, compile_host

    src = "kernel void s(global float *y, int n) { float a = 0; for (int k = 0; k < n; ++k) a += k; " \
          "y[get_global_id(0)] = a; }"
    mux = kernelkit.Program(src, ["-cl-wfv=always"])
    mux.build()
    ir = compile_opencl(src, ["-cl-std=CL1.2"]).ir_text
    assert "codeplay_ca_vecz" not in ir
    w = host_vector_width()
    assert w in (4, 8, 16)
    text = mux._binary.mux_ir
    code = compile_host(text, options=["-cl-wfv=always"], keep_ir=True)
    w = packet_width(w, has_barriers=False, uses_sub_groups=False, has_loops=True)   # (s has a loop)
    assert code.vectorised == {"s": w}
    last = _LAST_IR["text"]
    assert re.search(r"define [^\n]*@s\([^\n]*!codeplay_ca_vecz\.base ", last)
    assert re.search(rf"define internal [^\n]*@__vecz_v{w}_s\([^\n]*!codeplay_ca_vecz\.derived ", last)


def test_option_values():
    assert wfv_mode(["-O2"]) == "auto"
    assert wfv_mode(["-cl-wfv=never", "-cl-wfv=always"]) == "always"
    with pytest.raises(kernelkit.CompileError, match="-cl-wfv=never\\|auto\\|always"):
        kernelkit.Program("kernel void k() {}", ["-cl-wfv=sometimes"]).build()
    assert host_vector_width("+avx512f,+avx2") == 16 and host_vector_width("+avx,-avx512f") == 8
    assert host_vector_width("+sse4.2") == 4


SHAPES = """
kernel void tail(global const float *x, global float *y, int n) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += x[(i + k) % get_global_size(0)] * (float)k;
  if (i % 3 == 0)
    y[i] = acc;
  else if (i % 3 == 1)
    y[i] = -acc;
  else
    y[i] = acc / (float)(i % 7 + 1);
}
kernel void nested(global const int *x, global int *y, int n) {
  int i = get_global_id(0);
  int v = x[i];
  int r = 0;
  for (int k = 0; k < n; ++k) r += k;
  if (i >= n * 10) return;
  if (v > 50) {
    if (v % 2) r += v / (v - 51 + 1);
    else r -= 7;
  } else {
    switch (v % 4) {
      case 0: r += 100; break;
      case 1: r *= 3; break;
      case 3: r = y[i] + 1; break;
      default: r ^= 5;
    }
  }
  y[i] = r;
}
kernel void strided(global const float2 *in, global float *out, global const int *idx) {
  int i = get_global_id(0);
  float2 v = in[idx[i]];
  out[2 * i] = v.y;
  out[2 * i + 1] = v.x + (float)get_local_id(0);
}
"""


@functools.cache
def shapes_program() -> kernelkit.Program:
    return kernelkit.Program(SHAPES, ["-cl-wfv=always", "-cl-std=CL2.0"]).build()


@pytest.mark.parametrize("sizes", [(37, 37), (64, 16), (100, None), (8, 8)], ids=str)
def test_packetiser_shapes_against_numpy(sizes):
    n, local = sizes
    p = shapes_program()
    assert "not vectorised" not in p.build_log, p.build_log
    rng = np.random.default_rng(n)
    x = rng.random(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    p.kernel("tail")(x, y, np.int32(5), global_size=(n,), local_size=(local,) if local else None)
    i = np.arange(n)
    acc = sum(x[(i + k) % n].astype(np.float64) * k for k in range(5))
    expected = np.where(i % 3 == 0, acc, np.where(i % 3 == 1, -acc, acc / (i % 7 + 1)))
    np.testing.assert_allclose(y, expected, rtol=1e-5)
    inp = rng.random((n, 2), dtype=np.float32)
    idx = rng.permutation(n).astype(np.int32)
    out = np.zeros(2 * n, np.float32)
    p.kernel("strided")(inp, out, idx, global_size=(n,), local_size=(local,) if local else None)
    lid = i % local if local else None
    if lid is not None:
        np.testing.assert_array_equal(out[0::2], inp[idx, 1])
        np.testing.assert_allclose(out[1::2], inp[idx, 0] + lid, rtol=1e-6)


@pytest.mark.parametrize("sizes", [(64, 16), (37, None), (200, 8)], ids=str)
def test_nested_divergence_switch_and_early_return(sizes):
    """Nested divergent ifs, a divergent switch, a load and a division under divergent control and
    an early return, linearised with masks, against numpy."""
    n, local = sizes
    p = shapes_program()
    assert p._binary.kernel("nested").vector_width > 1
    rng = np.random.default_rng(n)
    x = rng.integers(0, 100, n).astype(np.int32)
    y0 = rng.integers(0, 100, n).astype(np.int32)
    y = y0.copy()
    p.kernel("nested")(x, y, np.int32(3), global_size=(n,), local_size=(local,) if local else None)
    r = 0 + 1 + 2
    expected = y0.copy()
    for i in range(min(n, 30)):
        v = int(x[i])
        if v > 50:
            expected[i] = r + v // (v - 50) if v % 2 else r - 7
        else:
            expected[i] = {0: r + 100, 1: r * 3, 3: int(y0[i]) + 1, 2: r ^ 5}[v % 4]
    np.testing.assert_array_equal(y, expected)


def test_most_corpus_kernels_vectorise():
    """Runs after the differential tests: the packetiser covers most of the corpus."""
    assert len(_vectorised) >= len(CASES) // 2, sorted(_vectorised)
    assert any(program(c.file, c.cl_std, "never")._binary.kernel(c.name).vector_width == 1 for c in CASES)
