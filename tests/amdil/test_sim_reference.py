"""The AMD IL simulator runs AMD's own compiler output (reference/amdil/hlc-juniper) and every
kernel gives what its source intends.

The sources are reconstructed from the programs (the ;ARGSTART metadata, the ;DEBUG_VALUE
names and the instructions with their OCL*.cl line numbers); each test's numpy oracle
implements that source, independently of the IL:

clear_memory (OpenCL C):
    __kernel void clear_memory(__global int *dst) { dst[get_global_id(0)] = 0; }

test_thread_dimension_atomic (OpenCL C, the conformance suite's thread-dimension check):
    __kernel void test_thread_dimension_atomic(__global uint *dst, uint final_x_size,
            uint final_y_size, uint final_z_size, ulong start_address, ulong end_address) {
        uint error = 0;
        if (get_global_id(0) >= final_x_size) error = 64;
        if (get_global_id(1) >= final_y_size) error = 128;
        if (get_global_id(2) >= final_z_size) error = 256;
        ulong t_address = (ulong)get_global_id(2) * (ulong)final_y_size * (ulong)final_x_size +
                          (ulong)get_global_id(1) * (ulong)final_x_size + (ulong)get_global_id(0);
        if (t_address >= start_address && t_address < end_address)
            atom_add(&dst[t_address - start_address], 1u);
        if (error)
            atom_or(&dst[t_address - start_address], error);
    }

copyImage2D (OpenCL C, the runtime's image blit; the sampler is the constant of the program's
;sampler:unknown_22 record, integer coordinates: the IL converts them with itof and flr):
    __kernel void copyImage2D(__read_only image2d_t src, __write_only image2d_t dst,
                              int4 srcOrigin, int4 dstOrigin, int4 size) {
        const sampler_t sampler = 22;
        int x = get_global_id(0), y = get_global_id(1);
        if (x >= size.x || y >= size.y) return;
        uint4 texel = read_imageui(src, sampler, (int2)(x + srcOrigin.x, y + srcOrigin.y));
        write_imageui(dst, (int2)(x + dstOrigin.x, y + dstOrigin.y), texel);
    }
"""

from __future__ import annotations

import numpy as np
import pytest

from kernelkit.sim.amdil import SimImage, launch


def programs(reference, stem: str):
    d = reference / "amdil" / "hlc-juniper"
    found = sorted(d.glob(f"{stem}.*.il"))
    assert found
    return found


def test_clear_memory_every_reference_program(reference):
    paths = programs(reference, "clear_memory")
    paths += programs(reference, "test_thread_dimension_atomic")    # they hold clear_memory too
    ran = 0
    for path in paths:
        text = path.read_text()
        if "clear_memory" not in text:
            continue
        dst = np.arange(1, 513, dtype=np.int32)
        dst_tail = np.full(64, 9, np.int32)
        both = np.concatenate([dst, dst_tail])
        launch(text, "clear_memory", [both], 512, 64)
        assert (both[:512] == 0).all(), path.name
        assert (both[512:] == 9).all(), path.name     # nothing beyond the NDRange is written
        ran += 1
    assert ran == 9


def thread_dimension_oracle(global_size, final, start, end, offset=(0, 0, 0)):
    """numpy version of test_thread_dimension_atomic over the whole NDRange."""
    z, y, x = np.meshgrid(*[np.arange(o, o + g, dtype=np.uint64) for g, o in
                            zip(global_size[::-1], offset[::-1], strict=True)], indexing="ij")
    fx, fy, fz = (np.uint64(v) for v in final)
    error = np.zeros(x.shape, np.uint32)
    error = np.where(x >= fx, 64, error)
    error = np.where(y >= fy, 128, error)
    error = np.where(z >= fz, 256, error).astype(np.uint32)
    t = z * fy * fx + y * fx + x
    out = np.zeros(end - start, np.uint32)
    inside = (t >= start) & (t < end)
    np.add.at(out, (t[inside] - np.uint64(start)).astype(np.int64), np.uint32(1))
    flagged = error != 0
    idx = (t[flagged] - np.uint64(start)).astype(np.int64)
    assert ((idx >= 0) & (idx < len(out))).all()
    np.bitwise_or.at(out, idx, error[flagged])
    return out


@pytest.mark.parametrize("case", [
    # global size, local size, final sizes, start, end
    ((16, 4, 2), (8, 2, 1), (16, 4, 2), 0, 128),
    ((8, 8, 4), (4, 4, 2), (8, 6, 3), 0, 256),       # errors 128 and 256 on the edge
    ((8, 4, 4), (8, 1, 1), (8, 4, 4), 32, 96),       # a window of addresses
    ((64, 1, 1), (16, 1, 1), (60, 1, 1), 0, 64),     # x beyond the final size: error 64
])
def test_thread_dimension_atomic(reference, case):
    gsz, lsz, final, start, end = case
    expected = thread_dimension_oracle(gsz, final, start, end)
    for path in programs(reference, "test_thread_dimension_atomic"):
        dst = np.zeros(end - start, np.uint32)
        launch(path.read_text(), "test_thread_dimension_atomic",
               [dst, *final, start, end], gsz, lsz)
        assert np.array_equal(dst, expected), path.name


def test_thread_dimension_atomic_with_a_global_offset(reference):
    path = programs(reference, "test_thread_dimension_atomic")[1]
    gsz, off, final = (8, 4, 2), (8, 0, 1), (16, 4, 3)
    expected = thread_dimension_oracle(gsz, final, 0, 16 * 4 * 3, off)
    dst = np.zeros(16 * 4 * 3, np.uint32)
    launch(path.read_text(), "test_thread_dimension_atomic", [dst, *final, 0, len(dst)], gsz,
           (4, 2, 1), off)
    assert np.array_equal(dst, expected)


def test_copy_image_2d_every_reference_program(reference):
    rng = np.random.default_rng(7)
    src = rng.integers(0, 2**32, (20, 24, 4), dtype=np.uint64).astype(np.uint32)
    src_origin = np.array([3, 2, 0, 0], np.int32)
    dst_origin = np.array([1, 4, 0, 0], np.int32)
    size = np.array([13, 9, 1, 0], np.int32)
    expected = np.full((16, 16, 4), 5, np.uint32)
    ys, xs = np.mgrid[0:size[1], 0:size[0]]
    expected[ys + dst_origin[1], xs + dst_origin[0]] = src[ys + src_origin[1], xs + src_origin[0]]
    for path in programs(reference, "copyImage2D"):
        dst = np.full((16, 16, 4), 5, np.uint32)
        launch(path.read_text(), "copyImage2D",
               [SimImage(src), SimImage(dst), src_origin, dst_origin, size], (16, 16), (8, 8))
        assert np.array_equal(dst, expected), path.name
