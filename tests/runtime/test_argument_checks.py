"""Launch mistakes are LaunchErrors naming the argument, never a crash (issue 16.2), and the
PyOpenCL/numpy-style API (issue 16.7). Oracles: the kernel signature's types (OpenCL C 6.1 sizes,
numpy dtypes of the same width), OpenCL's error names for clEnqueueNDRangeKernel/clSetKernelArg."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import kernelkit
from kernelkit import LaunchError

SRC = r"""
typedef struct { float x; int n; } pair;
kernel void scale(global float *y, float a) { y[get_global_id(0)] *= a; }
kernel void vec(global float4 *v) { v[get_global_id(0)] += (float4)(1, 2, 3, 4); }
kernel void pairs(global pair *p) { p[get_global_id(0)].n += 1; }
kernel void bytes(global void *p) { }
kernel void dim3(global long *a) { a[0] = get_global_id(2); }
kernel void tile(global int *out, local int *t) { t[get_local_id(0)] = 1; out[get_global_id(0)] = t[0]; }
"""


@functools.cache
def prog() -> kernelkit.Program:
    return kernelkit.Program(SRC).build("host", options=["-cl-std=CL1.2"])


def test_pointer_arguments_take_arrays_of_the_pointee_type_only():
    k = prog().kernel("scale")
    for wrong in (np.float64, np.int32, np.float16):
        with pytest.raises(LaunchError, match=rf"argument 0 \(y: float\*\) points to float: pass a numpy float32 "
                                              rf"array, got {np.dtype(wrong)}"):
            k(np.ones(8, wrong), np.float32(2), global_size=8)
    with pytest.raises(TypeError, match=r"None is not a buffer.*CL_INVALID_MEM_OBJECT"):
        k(None, np.float32(2), global_size=8)
    y = np.ones(8, np.float32)
    k(y, np.float32(2), global_size=8)
    np.testing.assert_array_equal(y, 2)
    # untyped bytes only when asked for: 8 floats' worth of uint32 bit patterns
    raw = np.ones(8, np.float32).view(np.uint32)
    k(kernelkit.RawBuffer(raw), np.float32(3), global_size=8)
    np.testing.assert_array_equal(raw.view(np.float32), 3)


def test_vector_and_struct_pointees():
    v = np.zeros((4, 4), np.float32)
    prog().kernel("vec")(v, global_size=4)
    np.testing.assert_array_equal(v, np.tile([1, 2, 3, 4], (4, 1)))
    with pytest.raises(LaunchError, match=r"24 bytes is not a whole number of float4 \(16 bytes each\)"):
        prog().kernel("vec")(np.zeros(6, np.float32), global_size=1)
    pair = np.dtype([("x", np.float32), ("n", np.int32)], align=True)
    p = np.zeros(3, pair)
    prog().kernel("pairs")(p, global_size=3)
    np.testing.assert_array_equal(p["n"], 1)
    with pytest.raises(LaunchError, match=r"points to pair \(8 bytes\): pass a numpy structured array"):
        prog().kernel("pairs")(np.zeros(6, np.int32), global_size=3)
    prog().kernel("bytes")(np.zeros(3, np.int16), global_size=1)   # void*: any array


def test_sizes_accept_numpy_integers_and_refuse_what_size_t_cannot_hold():
    y = np.ones(8, np.float32)
    prog().kernel("scale")(y, np.float32(2), global_size=np.int64(8), local_size=(np.uint32(4),))
    np.testing.assert_array_equal(y, 2)
    k = prog().kernel("scale")
    with pytest.raises(LaunchError, match="does not fit in size_t"):
        k(y, np.float32(1), global_size=2**64 + 1)
    with pytest.raises(LaunchError, match="more than size_t holds.*CL_INVALID_GLOBAL_WORK_SIZE"):
        prog().kernel("dim3")(np.zeros(1, np.int64), global_size=(2**32, 2**32, 2))
    with pytest.raises(LaunchError, match="CL_INVALID_GLOBAL_OFFSET"):
        k(y, np.float32(1), global_size=8, global_offset=2**64 - 4)
    with pytest.raises(LaunchError, match="must be an integer"):
        k(y, np.float32(1), global_size=8.0)


def test_local_memory_beyond_the_device_is_refused():
    device = kernelkit.devices()[0]
    with pytest.raises(LaunchError, match=rf"exceed the device's {device.local_memory} \(CL_OUT_OF_RESOURCES\)"):
        prog().kernel("tile")(np.zeros(4, np.int32), kernelkit.LocalMemory(device.local_memory + 4), global_size=4)
    with pytest.raises(LaunchError, match="positive size"):
        kernelkit.LocalMemory(0)


def test_devices_describe_the_host_device():
    import os

    (host,) = kernelkit.devices()
    assert host.target == "host" and host.type == "cpu" and host.address_bits == 64
    assert host.compute_units == (os.cpu_count() or 1) and host.sub_group_sizes == (1,)
    assert host.max_work_group_size == 4096 and host.local_memory == 1 << 20
