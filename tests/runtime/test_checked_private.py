"""Checked mode bounds private memory (issue 19.3) and names the faulting source line with -g
(issue 15.2, host): private arrays with run-time indices, struct copies and zeroing into private
arrays of structs (llvm.memcpy / llvm.memset), generic pointers straying from a private array into
its neighbours, at -O2 and -O0. A pointer checked mode cannot bound (private pointers loaded from
memory) is refused, never run unchecked.

Oracles: each violation is out of bounds by construction (the index is an argument, the array
sizes are in the source); the faulting line is the source line marked ``BAD-...``; in-bounds
results and the memory left after a refused access come from a Python model of the kernel (the
refused access does nothing)."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""typedef struct { int a[3]; float f; } S;
void put(int *p, int k, int v) {
  p[k] = v;                                                    // BAD-GENERIC
}
kernel void arrays(global int *out, int i, int j) {
  size_t g = get_global_id(0);
  int a[4] = {1, 2, 3, 4};
  int b[4] = {5, 6, 7, 8};
  a[g == 5 ? i : g & 3] = 9;                                   // BAD-WRITE
  out[g] = a[g == 6 ? j : (g + 1) & 3] * 10 + b[g & 3];        // BAD-READ
}
kernel void stray(global int *out, int k) {
  size_t g = get_global_id(0);
  int a[4] = {0, 0, 0, 0};
  int b[4] = {0, 0, 0, 0};
  put(a, g == 2 ? k : g & 3, 7);
  put(b, (g + 1) & 3, 1);
  out[g] = a[g & 3] * 10 + b[g & 3];
}
kernel void structs(global S *out, S s, int i, int j) {
  size_t g = get_global_id(0);
  S t[2];
  t[0] = s;
  t[1] = s;
  t[g == 1 ? i : g & 1] = s;                                   // BAD-MEMCPY
  S z[2] = {s, s};
  z[g == 2 ? j : g & 1] = (S){{0, 0, 0}, 0.0f};                // BAD-MEMSET
  out[g] = g & 1 ? t[1] : z[0];
}
kernel void across_barriers(global int *out, local int *t, int i) {     // private arrays in coroutine frames
  size_t l = get_local_id(0), g = get_global_id(0);
  int p[4] = {1, 2, 3, 4};
  t[l] = p[l & 3];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[g == 9 ? i : l & 3] += t[(l + 1) % 8];                     // BAD-BARRIER
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = p[l & 3] + p[(l + 1) & 3];
}
kernel void struct_across_barriers(global int *out, S s, local int *lb, int k) {
  size_t lid = get_local_id(0);
  lb[lid] = s.a[lid % 3];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = lb[(lid + 1) % 8] + s.a[lid == 5 ? k : 1];   // BAD-BYVAL
}
kernel void table(global int *out, int i) {
  size_t g = get_global_id(0);
  int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {9, 10, 11, 12};
  int *ptrs[3] = {a, b, c};
  out[g] = ptrs[(i + g) % 3][g & 3];
}
"""
LINES = {m.group(1): n for n, line in enumerate(SRC.splitlines(), 1) for m in [re.search(r"// (BAD-\w+)", line)] if m}
S_T = np.dtype({"names": ["a", "f"], "formats": [(np.int32, 3), np.float32]}, align=True)
OPTIONS = {"O2": ["-cl-std=CL2.0", "-g"], "O0": ["-cl-std=CL2.0", "-g", "-cl-opt-disable"]}


@functools.cache
def program(level: str, folder: str) -> kernelkit.Program:
    from pathlib import Path

    path = Path(folder) / "private.cl"
    path.write_text(SRC)
    return kernelkit.Program(path, OPTIONS[level]).build()


@pytest.fixture(scope="module", params=sorted(OPTIONS))
def prog(request, tmp_path_factory):
    return program(request.param, str(tmp_path_factory.mktemp(request.param)))


def _at(prog: kernelkit.Program, marker: str) -> str:
    """``at <file>:<line>:<column>`` of the marked line (the column is checked to lie on it)."""
    return rf" at {re.escape(prog.filename)}:{LINES[marker]}:(\d+): "


def _column_on_line(message: str, marker: str) -> None:
    column = int(re.search(rf":{LINES[marker]}:(\d+): ", message).group(1))
    line = SRC.splitlines()[LINES[marker] - 1]
    assert 1 <= column <= len(line.split("//")[0].rstrip())


def arrays_model(i: int, j: int, n: int = 8) -> np.ndarray:
    out = np.zeros(n, np.int32)
    for g in range(n):
        a, b = [1, 2, 3, 4], [5, 6, 7, 8]
        w = i if g == 5 else g & 3
        if 0 <= w < 4:          # a refused write does nothing
            a[w] = 9
        r = j if g == 6 else (g + 1) & 3
        out[g] = (a[r] if 0 <= r < 4 else 0) * 10 + b[g & 3]
    return out


def test_private_arrays_in_bounds_equal_unchecked(prog):
    for i, j in [(0, 0), (3, 1), (2, 3)]:
        checked, unchecked = np.zeros(8, np.int32), np.zeros(8, np.int32)
        prog.kernel("arrays")(checked, np.int32(i), np.int32(j), global_size=8, check=True)
        prog.kernel("arrays")(unchecked, np.int32(i), np.int32(j), global_size=8, check=False)
        np.testing.assert_array_equal(checked, arrays_model(i, j))
        np.testing.assert_array_equal(unchecked, checked)


@pytest.mark.parametrize("i, offset", [(4, 16), (-1, -4), (100, 400)])
def test_private_array_write_out_of_bounds(prog, i, offset):
    out = np.zeros(8, np.int32)
    with pytest.raises(LaunchError) as info:
        prog.kernel("arrays")(out, np.int32(i), np.int32(0), global_size=8, check=True)
    message = str(info.value)
    assert re.search(r"^arrays: out-of-bounds write of 4 bytes at address 0x[0-9a-f]+ by work-item \(5, 0, 0\) "
                     r"\(global id\) in private memory" + _at(prog, "BAD-WRITE") +
                     rf"offset {offset} of private variable 'a' \(16 bytes\)$", message), message
    _column_on_line(message, "BAD-WRITE")
    # b (next to a on the stack) and everything else is as if the write had not happened
    expected = arrays_model(i, 0)
    np.testing.assert_array_equal(out, expected)


def test_private_array_read_out_of_bounds(prog):
    out = np.zeros(8, np.int32)
    with pytest.raises(LaunchError, match=r"arrays: out-of-bounds read of 4 bytes .* work-item \(6, 0, 0\) "
                                          r"\(global id\) in private memory" + _at(prog, "BAD-READ") +
                                          r"offset 16 of private variable 'a' \(16 bytes\)"):
        prog.kernel("arrays")(out, np.int32(0), np.int32(4), global_size=8, check=True)


def stray_model(k: int, n: int = 8) -> np.ndarray:
    out = np.zeros(n, np.int32)
    for g in range(n):
        a, b = [0] * 4, [0] * 4
        w = k if g == 2 else g & 3
        if 0 <= w < 4:
            a[w] = 7
        b[(g + 1) & 3] = 1
        out[g] = a[g & 3] * 10 + b[g & 3]
    return out


@pytest.mark.parametrize("k, offset", [(1, None), (4, 16), (5, 20), (-4, -16)])
def test_generic_pointer_straying_from_a_private_array(prog, k, offset):
    """Before: a generic pointer anywhere in the work-item's stack was accepted (writing b or
    another variable); now it is bounded by the array it was made from."""
    out = np.zeros(8, np.int32)
    if offset is None:
        prog.kernel("stray")(out, np.int32(k), global_size=8, check=True)
    else:
        with pytest.raises(LaunchError) as info:
            prog.kernel("stray")(out, np.int32(k), global_size=8, check=True)
        message = str(info.value)
        assert re.search(r"^stray: out-of-bounds write of 4 bytes .* by work-item \(2, 0, 0\) \(global id\) in generic "
                         r"memory" + _at(prog, "BAD-GENERIC") + rf"offset {offset} of private variable 'a' "
                         r"\(16 bytes\)$", message), message
    np.testing.assert_array_equal(out, stray_model(k))


def _struct(value: int) -> np.ndarray:
    s = np.zeros(1, S_T)
    s["a"], s["f"] = [value, value + 1, value + 2], value / 2
    return s[0]


def structs_model(i: int, j: int, s) -> np.ndarray:
    out = np.zeros(4, S_T)
    for g in range(4):
        t = [s.copy(), s.copy()]
        z = [s.copy(), s.copy()]
        w = j if g == 2 else g & 1
        if 0 <= w < 2:
            z[w] = np.zeros((), S_T)
        out[g] = t[1] if g & 1 else z[0]
    return out


@pytest.mark.parametrize("i, j, kind, marker, offset, variable", [
    (0, 1, None, None, None, None),
    (2, 0, "write of 16 bytes", "BAD-MEMCPY", 32, "t"),      # struct copy past a private array of structs
    (-1, 0, "write of 16 bytes", "BAD-MEMCPY", -16, "t"),
    (1, 2, "write of 16 bytes", "BAD-MEMSET", 32, "z"),      # zeroing past it (llvm.memset)
])
def test_struct_copies_and_zeroing_into_private_arrays(prog, i, j, kind, marker, offset, variable):
    s = _struct(3)
    out = np.zeros(4, S_T)
    launch = functools.partial(prog.kernel("structs"), out, s, np.int32(i), np.int32(j), global_size=4, check=True)
    if kind is None:
        launch()
    else:
        with pytest.raises(LaunchError, match=rf"structs: out-of-bounds {kind} .* in private memory" +
                           _at(prog, marker) + rf"offset {offset} of private variable '{variable}' \(32 bytes\)"):
            launch()
    expected = structs_model(i, j, s)
    np.testing.assert_array_equal(out["a"], expected["a"])
    np.testing.assert_array_equal(out["f"], expected["f"])


def test_private_pointer_loaded_from_memory_is_refused_not_run_unchecked(prog):
    """``ptrs[n][k]``: a private pointer read back from a private array with a run-time index;
    checked mode cannot know which array it points to, so it refuses the access (even in bounds)."""
    out = np.zeros(8, np.int32)
    with pytest.raises(LaunchError, match=r"table: out-of-bounds read of 4 bytes .* in (private|generic) memory.*"
                                          r"checked mode cannot bound it; run this kernel unchecked"):
        prog.kernel("table")(out, np.int32(1), global_size=8, check=True)
    prog.kernel("table")(out, np.int32(1), global_size=8, check=False)
    arrays = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    g = np.arange(8)
    np.testing.assert_array_equal(out, arrays[(1 + g) % 3, g & 3])


def test_without_debug_information_the_error_has_no_source_location():
    prog = kernelkit.Program(SRC, ["-cl-std=CL2.0"]).build()
    with pytest.raises(LaunchError) as info:
        prog.kernel("arrays")(np.zeros(8, np.int32), np.int32(4), np.int32(0), global_size=8, check=True)
    message = str(info.value)
    assert "in private memory: offset 16 of private array ([4 x i32]) (16 bytes)" in message, message


def barrier_model(i: int) -> np.ndarray:
    out = np.zeros(16, np.int32)
    for g in range(16):
        lid = g % 8
        p = [1, 2, 3, 4]
        w = i if g == 9 else lid & 3
        if 0 <= w < 4:
            p[w] += [1, 2, 3, 4][((lid + 1) % 8) & 3]
        out[g] = p[lid & 3] + p[(lid + 1) & 3]
    return out


@pytest.mark.parametrize("i, offset", [(3, None), (4, 16), (-2, -8)])
def test_private_arrays_of_kernels_with_barriers(prog, i, offset):
    out = np.zeros(16, np.int32)
    launch = functools.partial(prog.kernel("across_barriers"), out, kernelkit.LocalMemory(32), np.int32(i),
                               global_size=16, local_size=8, check=True)
    if offset is None:
        launch()
    else:
        with pytest.raises(LaunchError, match=r"across_barriers: out-of-bounds read of 4 bytes .* work-item \(9, 0, 0\) "
                                              r"\(global id\) in private memory" + _at(prog, "BAD-BARRIER") +
                                              rf"offset {offset} of private variable 'p' \(16 bytes\)"):
            launch()
    np.testing.assert_array_equal(out, barrier_model(i))


def test_global_access_names_its_source_line(prog):
    out = np.zeros(7, np.int32)      # work-item 7 writes one element past the end
    with pytest.raises(LaunchError, match=r"arrays: out-of-bounds write of 4 bytes .* work-item \(7, 0, 0\) "
                                          r"\(global id\) in global memory" + _at(prog, "BAD-READ") +
                                          r"offset 28: 0 bytes past the end of argument 0 'out' \(int\*, 28 bytes\)"):
        prog.kernel("arrays")(out, np.int32(0), np.int32(0), global_size=8, check=True)
    np.testing.assert_array_equal(out, arrays_model(0, 0)[:7])


@pytest.mark.parametrize("k", [0, 2, 4, -1])
def test_by_value_struct_in_a_kernel_with_barriers(prog, k):
    """The struct argument lives across a barrier (in the coroutine frame). Before, this kernel
    made LLVM abort in checked mode (lifetime markers left on frame reloads)."""
    s = _struct(10)
    out = np.zeros(16, np.int32)
    launch = functools.partial(prog.kernel("struct_across_barriers"), out, s, kernelkit.LocalMemory(32),
                               np.int32(k), global_size=16, local_size=8, check=True)
    lid = np.arange(16) % 8
    a = np.array([10, 11, 12])
    if 0 <= k < 3:
        launch()
        np.testing.assert_array_equal(out, a[((lid + 1) % 8) % 3] + a[np.where(lid == 5, k, 1)])
    else:
        with pytest.raises(LaunchError, match=r"struct_across_barriers: out-of-bounds read of 4 bytes .* in private "
                                              r"memory" + _at(prog, "BAD-BYVAL") + rf"offset {4 * k} of .*\(16 bytes\)$"):
            launch()
