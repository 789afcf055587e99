"""Metadata records kernelkit writes when AMD's compiler writes them, and what the simulator does
with them: ``;counter:`` (cl_ext_atomic_counters_32 on the GDS append counters), ``;error:``
(the runtime fails the kernel), ``;limitgroupsize`` with its warning (a barrier on 7XX) and
``;lws:`` (launch checks). Oracles: numpy, spec 000's record patterns, AMD's driver block for
alltypes.cl (reference/amdil/catalyst-clo)."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.abi.amdil import LocalArg
from kernelkit.errors import CompileError, LaunchError
from kernelkit.formats.amdil import parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.catalyst import find_metadata_blocks
from kernelkit.mux.registry import build_binary
from kernelkit.sim.amdil import launch

COUNTERS = """
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
kernel void take(global uint *out, counter32_t c) { out[get_global_id(0)] = atomic_inc(c); }
kernel void give(global const uint *in, global uint *out, counter32_t c) {
    size_t i = get_global_id(0);
    if (in[i] & 1) out[i] = atomic_dec(c);
}
"""
BARRIER = """
kernel void rev(global const int *in, global int *out, local int *tmp) {
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[n - 1 - l];
}"""


def kernel_block(text: str, name: str):
    return parse_program(text).find_kernel(name)


@pytest.mark.parametrize("device", ["juniper", "cayman"])
def test_atomic_counters_count_on_the_simulator(device):
    prog = kernelkit.Program(COUNTERS).build(f"amdil:{device}")
    out = np.zeros(512, np.uint32)
    counter = np.array([40], np.uint32)
    prog.take(out, counter, global_size=512, local_size=64)
    # every work-item got a distinct value of the counter, which moved on by the work-items
    np.testing.assert_array_equal(np.sort(out), np.arange(40, 40 + 512))
    assert counter[0] == 40 + 512
    bits = np.random.default_rng(3).integers(0, 2, 512).astype(np.uint32)
    out = np.full(512, 0xDEAD, np.uint32)
    counter = np.array([1000], np.uint32)
    prog.give(bits, out, counter, global_size=512, local_size=128)
    n = int(bits.sum())
    # atomic_dec gives the value after the decrement (cl_ext_atomic_counters_32)
    np.testing.assert_array_equal(np.sort(out[bits == 1]), np.arange(1000 - n, 1000))
    assert (out[bits == 0] == 0xDEAD).all() and counter[0] == 1000 - n


def test_counter_records_follow_the_drivers_numbering(reference):
    text = build_binary(COUNTERS, "amdil:cayman").decode()
    give = kernel_block(text, "give")
    # spec 000 ";counter:ArgName:EleSize:id:ConstNum:ConstOffset", the id counted from 0 per
    # kernel as in AMD's block for alltypes.cl (its one counter32_t: v70 -> id 0, cb 1)
    (ours,) = give.of(r.Counter)
    assert (ours.name, ours.bits, ours.id, ours.cb, ours.offset) == ("c", 32, 0, 1, 32)
    driver = find_metadata_blocks((reference / "amdil" / "catalyst-clo" /
                                   "alltypes.clo").read_bytes())[0].block
    (theirs,) = driver.of(r.Counter)
    assert (theirs.bits, theirs.id, theirs.cb) == (ours.bits, ours.id, ours.cb)
    assert "append_buf_consume_id(0)" in text and "append_buf_alloc_id(0)" in text
    assert not kernel_block(text, "take").of(r.Message)


def test_a_counter_both_incremented_and_decremented_fails_the_build():
    src = COUNTERS + "kernel void both(global uint *o, counter32_t c) " \
                     "{ o[0] = atomic_inc(c); o[1] = atomic_dec(c); }"
    with pytest.raises(CompileError, match=r"both: error E023:"):
        build_binary(src, "amdil:cayman")


def test_the_simulator_refuses_a_kernel_whose_metadata_carries_an_error():
    text = build_binary("kernel void k(global int *o) { o[get_global_id(0)] = 1; }",
                        "amdil:juniper").decode()
    broken = text.replace(";uavid:1\n", ";error:E999:made up\n;uavid:1\n", 1)
    with pytest.raises(LaunchError, match="E999:made up"):
        launch(broken, "k", [np.zeros(4, np.int32)], 4)


def test_a_barrier_on_7xx_limits_the_group_to_a_wavefront():
    inp = np.arange(256, dtype=np.int32)
    for device, wave in (("rv770", 64), ("rv730", 32)):
        prog = kernelkit.Program(BARRIER).build(f"amdil:{device}")
        block = kernel_block(prog.binary.decode(), "rev")
        assert block.first("limitgroupsize") is not None
        (warning,) = block.of(r.Message)
        assert warning.tag == "warning" and warning.message.startswith("W000:")
        assert len(warning.message) <= 5 + 32        # spec 000: code + at most 32 characters
        assert "W000" in prog.build_log
        out = np.zeros(256, np.int32)
        prog.rev(inp, out, kernelkit.LocalMemory(4 * wave), global_size=256, local_size=wave)
        np.testing.assert_array_equal(out, inp.reshape(-1, wave)[:, ::-1].reshape(-1))
        # without a local size the group is one wavefront (the size AMD's runtime gives it)
        stats = launch(prog.binary.decode(), "rev", [inp, out, LocalArg(4 * 256)], 256,
                       device=device)
        assert stats.work_groups == 256 // wave
    # Evergreen has a real barrier: no limit, no warning
    block = kernel_block(build_binary(BARRIER, "amdil:juniper").decode(), "rev")
    assert block.first("limitgroupsize") is None and not block.of(r.Message)


def test_lws_limits_the_launch():
    text = build_binary("kernel void k(global int *o) { o[get_global_id(0)] = 1; }",
                        "amdil:juniper").decode()
    limited = text.replace(";uavid:1\n", ";lws:16\n;uavid:1\n", 1)
    out = np.zeros(64, np.int32)
    launch(limited, "k", [out], 64, 16)
    assert (out == 1).all()
    with pytest.raises(LaunchError, match=r"at most 16 \(lws\)"):
        launch(limited, "k", [out], 64, 32)


SAXPY_LINES = """__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    int i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
"""


def test_g_puts_source_positions_on_the_instructions_as_the_driver_does():
    text = build_binary(SAXPY_LINES, "amdil:juniper", ["-g"]).decode()
    source = SAXPY_LINES.splitlines()
    body = text[text.index("func 1025"):text.index("endfunc ; saxpy")].splitlines()
    marked = [line for line in body if line.startswith("\t") and "; source.cl:" in line]
    assert marked, body
    for line in marked:
        code, _, where = line[1:].partition("; ")
        _, row, col = where.split(":")
        op = code.split()[0]
        at = source[int(row) - 1][int(col) - 1]
        # clang's positions: a store at its '=', a load at its array, the multiply-add at '+'
        expected = {"uav_raw_store_id(1)": "=", "mad": "+"}.get(op)
        if op == "uav_raw_load_id(1)":
            assert at in "xy", line
        elif expected:
            assert at == expected, line
    assert any(line.split()[0] == "uav_raw_store_id(1)" for line in marked)
    assert ";memory:compilerwrite" not in text        # the store is seen through the tab
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, np.float32)
    launch(text, "saxpy", [np.float32(3), x, y], 64, 16)
    np.testing.assert_array_equal(y, 3 * np.arange(64, dtype=np.float32) + 1)


def test_counter_instructions_the_metadata_does_not_bind_are_refused():
    text = build_binary(COUNTERS, "amdil:cayman").decode()
    broken = text.replace("append_buf_alloc_id(0)", "append_buf_alloc_id(5)", 1)
    out, counter = np.zeros(64, np.uint32), np.array([0], np.uint32)
    with pytest.raises(LaunchError, match=r"line \d+: counter 5 is not bound"):
        launch(broken, "take", [out, counter], 64)
    with pytest.raises(LaunchError, match="counter32_t: pass a numpy array"):
        launch(text, "take", [out, 3], 64)


def test_semaphore_arguments_are_numbered_from_one():
    """AMD's front end types semaphores as ``struct _sema_t`` pointers; its AMDIL backend
    (AMDILKernelManager) numbers ``;sema:`` records from 1 in argument order, counters from 0."""
    src = ("#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable\n"
           "typedef struct _sema_t sema_t;\n"
           "kernel void k(global int *o, global sema_t *s, counter32_t c, global sema_t *t) {\n"
           "    o[get_global_id(0)] = atomic_inc(c); }")
    block = kernel_block(build_binary(src, "amdil:cayman").decode(), "k")
    assert [a.to_line() for a in block.arguments] == [
        ";pointer:o:i32:1:1:0:uav:1:4", ";sema:s:1:1:16", ";counter:c:32:0:1:32", ";sema:t:2:1:48"]
