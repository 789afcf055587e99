"""The vISA simulator on IGC's own vISA (tests/visa/igc/tgllp: ocloc's objects for corpus kernels),
with the payload of kernelkit.abi.visa: every kernel gives numpy's results. SIMD16 and SIMD32 code,
goto/join divergence, loops, SLM and barriers, surface (binding table) and SLM messages, atomics."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kernelkit import LocalMemory
from kernelkit.errors import LaunchError
from tests.visa.igc_dump import IGC_DIR
from tests.visa.sim_harness import run_igc

RNG = np.random.default_rng(7)
BUFFER_OFFSETS = {name: facts["buffer_offsets"] for key, kernels in json.loads((IGC_DIR / "inputs.json")
                                                                               .read_text()).items()
                  if key.startswith("tgllp/") for name, facts in (kernels or {}).items() if "buffer_offsets" in facts}


def run(stem, kernel, args, global_size, local_size=None, **kw):
    return run_igc("tgllp", stem, kernel, args, global_size, local_size,
                   buffer_offsets=BUFFER_OFFSETS.get(kernel, ()), **kw)


def test_saxpy_restrict():
    n = 1000
    x, y = RNG.random(n, np.float32), RNG.random(n, np.float32)
    want = np.float32(2.5) * x + y
    run("qualifiers", "saxpy_restrict", [x, y, np.float32(2.5)], [n], [8])
    np.testing.assert_allclose(y, want, rtol=1e-6)


def test_volatile_and_vector_arguments():
    flag, other, out = np.array([5], np.int32), np.array([7], np.int32), np.zeros(64, np.int32)
    run("qualifiers", "volatile_flag", [flag, other, out], [64], [32])
    np.testing.assert_array_equal(out, 12 + np.arange(64))
    k = RNG.random(5, np.float32)
    v = np.array([1, -2, 3, 0.5], np.float32)
    out4 = np.zeros((48, 4), np.float32)
    run("qualifiers", "const_value_args", [np.int32(5), v, k, out4], [48], [16])
    np.testing.assert_allclose(out4, v[None, :] * k[np.arange(48) % 5][:, None], rtol=1e-6)


def _collatz(n: int) -> int:
    steps = 0
    while n != 1 and steps < 1000:
        n = 3 * n + 1 if n & 1 else n // 2
        n &= 0xFFFFFFFF
        steps += 1
    return steps


def test_divergent_loops_and_switch():
    start = RNG.integers(0, 500, 96).astype(np.uint32)
    steps = np.zeros(96, np.int32)
    run("control_flow", "collatz", [start, steps], [96], [32])          # SIMD16, divergent while loop
    np.testing.assert_array_equal(steps, [_collatz(int(s) + 1) for s in start])
    values = RNG.integers(-50, 50, 64).astype(np.int32)
    out = np.zeros(64, np.int32)
    run("control_flow", "classify", [values, out], [64], [32])
    table = {0: lambda v: 100, 1: lambda v: v * 2, 2: lambda v: v * 2, 3: lambda v: -v, 5: lambda v: v + 1,
             6: lambda v: v + 1}
    np.testing.assert_array_equal(out, [table.get(int(v) & 7, lambda v: 0)(int(v)) for v in values])


def test_uniform_loops_with_constant_buffer():
    x = RNG.random(64, np.float32)
    coef = np.array([1.0, -2.0, 0.5, 0.25], np.float32)
    y = np.zeros(64, np.float32)
    run("control_flow", "horner", [x, coef, np.int32(3), y], [64], [32])
    np.testing.assert_allclose(y, ((0.25 * x + 0.5) * x - 2.0) * x + 1.0, rtol=1e-5)
    rows, cols = 5, 24
    m = RNG.random(rows * cols, np.float32)
    out = np.zeros(cols, np.float32)
    run("control_flow", "nested_loops", [m, out, np.int32(rows), np.int32(cols)], [cols], [8])
    grid = m.reshape(rows, cols)
    want = (grid.sum() - grid.sum(0)) * 0.125
    np.testing.assert_allclose(out, want, rtol=1e-5)


def test_slm_reductions_and_barriers():
    data = RNG.random(256, np.float32)
    partial = np.zeros(4, np.float32)
    run("reductions", "reduce_sum", [data, partial, LocalMemory(64 * 4)], [256], [64])
    np.testing.assert_allclose(partial, data.reshape(4, 64).sum(1), rtol=1e-5)
    ints = RNG.integers(-1000, 1000, 128).astype(np.int32)
    out = np.zeros(128, np.int32)
    run("reductions", "reduce_max_static", [ints, out], [128], [64])
    np.testing.assert_array_equal(out, np.repeat(ints.reshape(2, 64).max(1), 64))
    w, h = 32, 48
    a = RNG.random(w * h, np.float32)
    t = np.zeros(w * h, np.float32)
    run("reductions", "transpose_tile", [a, t, np.int32(w), np.int32(h)], [w, h], [16, 16])
    np.testing.assert_array_equal(t.reshape(w, h), a.reshape(h, w).T)


def test_local_pointer_arguments():
    src, dst = RNG.random(128, np.float32), np.zeros(128, np.float32)
    run("address_spaces", "copy_through_local", [src, dst, LocalMemory(32 * 4)], [128], [32])
    np.testing.assert_array_equal(dst, src.reshape(4, 32)[:, ::-1].reshape(-1))
    data = RNG.integers(0, 100, 64).astype(np.int32)
    first = data.reshape(2, 32)[:, :1]
    want = (2 * data.reshape(2, 32) + first).reshape(-1)
    run("address_spaces", "two_local_buffers", [data, LocalMemory(32 * 4), LocalMemory(32 * 16)], [64], [32])
    np.testing.assert_array_equal(data, want)
    table = RNG.integers(0, 1000, 16).astype(np.int32)
    idx = RNG.integers(0, 1 << 20, 64).astype(np.int32)
    out = np.zeros(64, np.int32)
    run("address_spaces", "lookup_constant", [table, idx, out, np.uint32(13)], [64], [16])
    np.testing.assert_array_equal(out, table[idx % 13])


def test_atomics_serialise_conflicting_lanes():
    data = RNG.integers(0, 256, 256).astype(np.uint8)
    bins = np.zeros(16, np.uint32)
    run("atomics", "histogram", [data, bins, LocalMemory(16 * 4)], [256], [64])
    np.testing.assert_array_equal(bins, np.bincount(data & 15, minlength=16))
    values = RNG.integers(-100, 100, 64).astype(np.int32)
    counters = np.array([0, 0, -1 << 31, (1 << 31) - 1, 0, -1, 0, 0], np.int32)
    slots = np.where(np.arange(64) % 2 == 0, 0, 9).astype(np.int32)
    start = slots.copy()
    run("atomics", "atomic_mix", [counters, values, slots], [64], [32])
    bits = np.bitwise_or.reduce(np.left_shift(1, values & 31).astype(np.int64)) & 0xFFFFFFFF
    clear = np.bitwise_or.reduce(np.left_shift(1, values & 7))
    assert counters.tolist() == [values.sum(), -64, values.max(), values.min(), np.int32(np.uint32(bits)),
                                 ~clear, np.bitwise_xor.reduce(values), 128]
    np.testing.assert_array_equal(slots, np.where(start == 0, values, 2 * start))
    counter, tickets = np.zeros(1, np.int32), np.zeros(96, np.int32)
    run("atomics_c11", "c11_counter", [counter, tickets], [96], [32])
    assert counter[0] == 96 and sorted(tickets) == list(range(96))


def test_work_group_collectives():
    data = RNG.integers(-50, 50, 128).astype(np.int32)
    sums, maxes = np.zeros(2, np.int32), np.zeros(2, np.float32)
    run("workgroup_cl20", "wg_reduce", [data, sums, maxes], [128], [64], slm_bytes=65536)
    np.testing.assert_array_equal(sums, data.reshape(2, 64).sum(1))
    np.testing.assert_array_equal(maxes, data.reshape(2, 64).max(1))
    u = RNG.integers(0, 100, 64).astype(np.uint32)
    incl, excl = np.zeros(64, np.uint32), np.zeros(64, np.uint32)
    run("workgroup_cl20", "wg_scan", [u, incl, excl], [64], [32], slm_bytes=65536)
    np.testing.assert_array_equal(incl, np.cumsum(u.reshape(2, 32), 1).reshape(-1))
    np.testing.assert_array_equal(excl, (np.cumsum(u.reshape(2, 32), 1) - u.reshape(2, 32)).reshape(-1))


def test_out_of_bounds_access_names_kernel_work_item_and_address():
    x, y = np.zeros(100, np.float32), np.zeros(64, np.float32)      # y too short for 100 work-items
    with pytest.raises(LaunchError, match=r"kernel saxpy_restrict: work-item \(64, 0, 0\) reads 4 bytes at "
                                          r"address 0x\w+, outside every buffer"):
        run("qualifiers", "saxpy_restrict", [x, y, np.float32(1)], [100], [4])


def test_uneven_global_size_is_refused():
    with pytest.raises(LaunchError, match="not a multiple of local size"):
        run("qualifiers", "saxpy_restrict", [np.zeros(10, np.float32)] * 2 + [np.float32(1)], [10], [4])


@pytest.mark.parametrize("platform,stem,kernel", [("dg2", "reductions", "transpose_tile"),
                                                  ("skl", "control_flow", "collatz")])
def test_other_platforms_objects_from_ocloc(platform, stem, kernel, tmp_path):
    from tests.conftest import require_tool
    from tests.visa.igc_dump import CORPUS, PLATFORMS, corpus_std, ocloc_dump

    require_tool("ocloc")
    found = ocloc_dump(CORPUS / f"{stem}.cl", PLATFORMS[platform], f"-cl-std={corpus_std(stem + '.cl')}")
    text = tmp_path / f"{kernel}.visaasm"
    text.write_text(found[kernel]["visaasm"])
    offsets = found[kernel]["buffer_offsets"]
    if kernel == "collatz":
        start, steps = RNG.integers(0, 300, 64).astype(np.uint32), np.zeros(64, np.int32)
        run_igc(platform, stem, kernel, [start, steps], [64], [16], buffer_offsets=offsets, text_path=text)
        np.testing.assert_array_equal(steps, [_collatz(int(s) + 1) for s in start])
    else:
        a, t = RNG.random(32 * 16, np.float32), np.zeros(32 * 16, np.float32)
        run_igc(platform, stem, kernel, [a, t, np.int32(32), np.int32(16)], [32, 16], [16, 16],
                buffer_offsets=offsets, text_path=text)
        np.testing.assert_array_equal(t.reshape(32, 16), a.reshape(16, 32).T)


def test_unsupported_instruction_is_named():
    from kernelkit.abi.visa import Payload
    from kernelkit.formats.visa import parse_visaasm
    from kernelkit.sim.visa import launch

    text = """.version 4.1
.kernel "k"
.decl A v_type=G type=f num_elts=8 align=GRF
.function "_main_0"
_main_0:
    lrp (M1, 8) A(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0> A(0,0)<1;1,0>
    ret (M1, 1)
"""
    routine = parse_visaasm(text).kernels[0]
    with pytest.raises(LaunchError, match=r"kernel k: instruction #1 \(lrp \(M1, 8\) A\(0,0\)<1> .*\): the vISA "
                                          r"simulator does not execute this instruction"):
        launch(routine, Payload("k", "tgllp", 8, []), [], [8], [8])
