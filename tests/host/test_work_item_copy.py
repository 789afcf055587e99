"""A vectorised kernel with barriers is built without its work-item copy (one coroutine per work-item,
for groups whose x size is not a multiple of the vector width W); a launch that has such a group
runs a binary with the copy, built then from the binary's mux IR. Oracle: numpy, for every kind of
local size, from a fresh build, from the specialised builds and from a saved binary loaded in
another process (with an empty cache: the copy is rebuilt from what the binary records)."""

from __future__ import annotations

import os
import subprocess
import sys

import msgpack
import numpy as np
import pytest

import kernelkit
from kernelkit.errors import FormatError
from kernelkit.targets.host.binary import MAGIC, read_host_binary

SOURCE = r"""
__kernel void rotate_sum(__global const int *in, __global int *out, __global int *sums, __local int *tmp)
{
    size_t lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
    tmp[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = 3 * tmp[(lid + 1) % n] + (int)lid;
    if (lid == 0) {
        int s = 0;
        for (size_t i = 0; i < n; i++)
            s += tmp[i];
        sums[get_group_id(0)] = s;
    }
}
"""
OPTIONS = ["-cl-std=CL2.0"]   # non-uniform work-groups


def reference(a: np.ndarray, local: int) -> tuple[np.ndarray, np.ndarray]:
    out, sums = np.empty_like(a), []
    for start in range(0, a.size, local):
        group = a[start:start + local]
        out[start:start + group.size] = 3 * np.roll(group, -1) + np.arange(group.size, dtype=a.dtype)
        sums.append(group.sum(dtype=a.dtype))
    return out, np.array(sums, a.dtype)


def run(kernel, global_size: int, local_size: int, **kw) -> None:
    a = np.random.default_rng(global_size * 131 + local_size).integers(-1000, 1000, global_size, dtype=np.int32)
    out = np.zeros_like(a)
    sums = np.zeros(-(-global_size // local_size), np.int32)
    kernel(a, out, sums, kernelkit.LocalMemory(4 * local_size), global_size=global_size, local_size=local_size,
           **kw)
    ref_out, ref_sums = reference(a, local_size)
    np.testing.assert_array_equal(out, ref_out, err_msg=f"global {global_size} local {local_size}")
    np.testing.assert_array_equal(sums, ref_sums, err_msg=f"global {global_size} local {local_size}")


@pytest.fixture(scope="module")
def program():
    return kernelkit.Program(SOURCE, OPTIONS).build("host")


@pytest.fixture(scope="module")
def width(program) -> int:
    info = program.kernel("rotate_sum").info
    assert info.coroutine and info.vector_width > 1
    assert not info.work_item_copy     # the built binary has the packets only
    return info.vector_width


def test_whole_packets_run_without_the_copy(program, width):
    kernel = program.kernel("rotate_sum")
    for global_size, local_size in [(4 * width, width), (4 * width, 2 * width), (3 * width, 2 * width)]:
        run(kernel, global_size, local_size, specialise=False)   # (the last: a non-uniform group of W)
    assert not any(isinstance(key, tuple) and "work-items" in key for key in program._executables)


def test_every_local_size_runs(program, width):
    kernel = program.kernel("rotate_sum")
    sizes = [(3 * width, width), (9, 3), (2 * (width + 1), width + 1), (3 * (width - 1), width - 1), (5, 1),
             (2 * width + 5, width), (2 * width + 5, 2 * width), (7, width)]
    for global_size, local_size in sizes:
        run(kernel, global_size, local_size, specialise=False)
    assert (False, "work-items") in program._executables


def test_specialised_builds_run_every_local_size(program, width):
    kernel = program.kernel("rotate_sum")
    for local_size in (width, 3, width + 1):
        run(kernel, 2 * local_size, local_size, specialise=True)


def test_saved_binary_runs_every_local_size_in_another_process(program, width, tmp_path):
    path = tmp_path / "rotate.khost"
    subprocess.run([sys.executable, "-m", "kernelkit", "build", "-t", "host", "-o", str(path),
                    "--cl-std", "CL2.0", str(_source_file(tmp_path))], check=True,
                   capture_output=True, text=True)
    assert not read_host_binary(path.read_bytes()).kernel("rotate_sum").work_item_copy
    script = (
        "import sys, numpy as np, kernelkit\n"
        f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
        "from test_work_item_copy import run\n"
        f"kernel = kernelkit.Program.from_binary(open({str(path)!r}, 'rb').read()).kernel('rotate_sum')\n"
        f"for g, lsz in [({width * 2}, {width}), (9, 3), ({width * 2 + 3}, {width})]:\n"
        "    run(kernel, g, lsz, specialise=False)\n"
        "print('ok')\n")
    env = {**os.environ, "KERNELKIT_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def _source_file(tmp_path):
    src = tmp_path / "rotate.cl"
    src.write_text(SOURCE)
    return src


def test_reader_rejects_a_work_item_copy_that_is_not_a_boolean(program):
    body = msgpack.unpackb(program.binary[len(MAGIC):], raw=False)
    body["kernels"][0]["work_item_copy"] = 1
    with pytest.raises(FormatError, match="work_item_copy"):
        read_host_binary(MAGIC + msgpack.packb(body, use_bin_type=True))
    del body["kernels"][0]["work_item_copy"]    # (binaries without the field have the copy)
    assert read_host_binary(MAGIC + msgpack.packb(body, use_bin_type=True)).kernel("rotate_sum").work_item_copy


def test_program_scope_variables_are_shared_by_every_launch():
    """A program with mutable program-scope variables runs every launch in one executable: not in a
    specialised one (from the third launch with a local size) nor in one with the work-item copies."""
    src = r"""
    global int total = 0;
    kernel void add(global const int *v, local int *t) {
        t[get_local_id(0)] = v[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0)
            for (size_t i = 0; i < get_local_size(0); i++)
                atomic_add(&total, t[i]);
    }
    kernel void read(global int *out) { out[0] = total; }
    """
    program = kernelkit.Program(src, OPTIONS).build("host")
    values = np.arange(48, dtype=np.int32)
    sizes = [16, 16, 16, 16, 3, 3, 3]        # (the third launch with a size would run specialised)
    for local_size in sizes:
        program.kernel("add")(values, kernelkit.LocalMemory(4 * local_size), global_size=48, local_size=local_size)
    out = np.zeros(1, np.int32)
    program.kernel("read")(out, global_size=1)
    assert out[0] == len(sizes) * values.sum()
