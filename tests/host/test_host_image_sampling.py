"""Image sampling on the host for every image dim: numpy reference samplers written from OpenCL C 3.0
s8.2 (addressing and nearest/linear filtering) and PoCL running the same kernels are the oracles;
sampler-less reads, writes and size queries of every dim against numpy."""

from __future__ import annotations

import functools
import zlib

import numpy as np
import pytest
from pocl_images import run_pocl

import kernelkit

SAMPLE_CL = """
kernel void sample_1d(read_only image1d_t img, sampler_t s, global const float *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_1d_array(read_only image1d_array_t img, sampler_t s, global const float2 *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_2d(read_only image2d_t img, sampler_t s, global const float2 *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_2d_array(read_only image2d_array_t img, sampler_t s, global const float4 *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_3d(read_only image3d_t img, sampler_t s, global const float4 *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_2d_int(read_only image2d_t img, sampler_t s, global const int2 *c, global float4 *out) {
  int i = get_global_id(0); out[i] = read_imagef(img, s, c[i]);
}
kernel void sample_2d_ui(read_only image2d_t img, sampler_t s, global const float2 *c, global uint4 *out) {
  int i = get_global_id(0); out[i] = read_imageui(img, s, c[i]);
}
"""

ACCESS_CL = """
kernel void rw_1d(read_only image1d_t a, write_only image1d_t b) {
  int x = get_global_id(0); write_imagef(b, x, read_imagef(a, x) * 2.0f);
}
kernel void rw_1d_array(read_only image1d_array_t a, write_only image1d_array_t b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(b, p, read_imagef(a, p) * 2.0f);
}
kernel void rw_2d_array(read_only image2d_array_t a, write_only image2d_array_t b) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagei(b, p, read_imagei(a, p) - 3);
}
kernel void sizes(read_only image1d_t a, read_only image1d_array_t b, read_only image2d_array_t c,
                  read_only image3d_t d, global int *out) {
  out[0] = get_image_width(a);
  out[1] = get_image_width(b); out[2] = (int)get_image_array_size(b);
  int2 cd = get_image_dim(c); out[3] = cd.x; out[4] = cd.y; out[5] = (int)get_image_array_size(c);
  int4 dd = get_image_dim(d); out[6] = dd.x; out[7] = dd.y; out[8] = dd.z; out[9] = dd.w;
  out[10] = get_image_depth(d);
}
"""

N = 64
SHAPES = {"1d": (9,), "1d_array": (3, 9), "2d": (5, 7), "2d_array": (3, 5, 7), "3d": (4, 5, 6)}
AXES = {"1d": 1, "1d_array": 1, "2d": 2, "2d_array": 2, "3d": 3}


@functools.cache
def host(source: str) -> kernelkit.Program:
    return kernelkit.Program(source).build()


# --- the numpy reference sampler (OpenCL C 3.0 s8.2), in float32 like the kernel ---------------------

def _nearest(s, size, mode, normalized):
    f32 = np.float32
    if mode == "repeat":
        i = np.floor((s - np.floor(s)) * f32(size)).astype(np.int64)
        return np.where(i > size - 1, i - size, i)
    if mode == "mirrored_repeat":
        m = np.abs(s - f32(2) * np.rint(f32(0.5) * s))
        return np.minimum(np.floor(m * f32(size)).astype(np.int64), size - 1)
    i = np.floor(s * f32(size) if normalized else s).astype(np.int64)
    return np.clip(i, -1, size) if mode == "clamp" else np.clip(i, 0, size - 1)


def _linear(s, size, mode, normalized):
    f32 = np.float32
    if mode == "repeat":
        u = (s - np.floor(s)) * f32(size)
    elif mode == "mirrored_repeat":
        u = np.abs(s - f32(2) * np.rint(f32(0.5) * s)) * f32(size)
    else:
        u = s * f32(size) if normalized else s
    t = u - f32(0.5)
    i0 = np.floor(t).astype(np.int64)
    i1 = i0 + 1
    frac = t - np.floor(t)
    if mode == "repeat":
        i0, i1 = np.where(i0 < 0, i0 + size, i0), np.where(i1 > size - 1, i1 - size, i1)
    elif mode == "clamp":
        i0, i1 = np.clip(i0, -1, size), np.clip(i1, -1, size)
    else:
        i0, i1 = np.clip(i0, 0, size - 1), np.clip(i1, 0, size - 1)
    return i0, i1, frac


def reference_sample(texels: np.ndarray, coords: np.ndarray, sampler: kernelkit.Sampler,
                     border: np.ndarray) -> np.ndarray:
    """read_imagef of (depth, height, width, 4) float texels at float coords (N, axes)."""
    sizes = texels.shape[2::-1][:coords.shape[1]]

    def fetch(idx):
        full = list(idx) + [np.zeros(len(coords), np.int64)] * (3 - len(idx))
        inside = np.all([(i >= 0) & (i < n) for i, n in zip(idx, sizes, strict=True)], axis=0)
        safe = [np.clip(i, 0, n - 1) for i, n in zip(full, texels.shape[2::-1], strict=True)]
        return np.where(inside[:, None], texels[safe[2], safe[1], safe[0]], border)

    axes = [coords[:, k] for k in range(coords.shape[1])]
    if sampler.filter == "nearest":
        return fetch([_nearest(s, n, sampler.addressing, sampler.normalized) for s, n in zip(axes, sizes, strict=True)])
    parts = [_linear(s, n, sampler.addressing, sampler.normalized) for s, n in zip(axes, sizes, strict=True)]
    out = np.zeros((len(coords), 4), np.float32)
    for corner in range(1 << len(parts)):
        weight = np.ones(len(coords), np.float32)
        idx = []
        for k, (i0, i1, a) in enumerate(parts):
            hi = corner >> k & 1
            idx.append(i1 if hi else i0)
            weight = weight * (a if hi else np.float32(1) - a)
        out += weight[:, None] * fetch(idx)
    return out


def _layers(coords, count):
    return np.clip(np.rint(coords), 0, count - 1).astype(np.int64)


def _reference(dim: str, texels: np.ndarray, coords: np.ndarray, sampler, border) -> np.ndarray:
    """The reference read of an image of ``dim`` (arrays: each layer sampled on its own)."""
    if dim == "1d":
        return reference_sample(texels[None, None], coords, sampler, border)
    if dim == "2d":
        return reference_sample(texels[None], coords, sampler, border)
    if dim == "3d":
        return reference_sample(texels, coords[:, :3], sampler, border)
    layer_axis = 1 if dim == "1d_array" else 2
    layers = _layers(coords[:, layer_axis], texels.shape[0])
    out = np.zeros((len(coords), 4), np.float32)
    for layer in np.unique(layers):
        pick = layers == layer
        inner = texels[layer][None] if dim == "2d_array" else texels[layer][None, None]
        out[pick] = reference_sample(inner, coords[pick][:, :layer_axis], sampler, border)
    return out


def _coords(dim: str, sampler, rng) -> np.ndarray:
    shape = SHAPES[dim]
    sizes = shape[::-1][:AXES[dim]] if dim not in ("1d_array", "2d_array") else shape[1:][::-1]
    cols = []
    for n in sizes:
        if sampler.addressing == "none":   # a texel out of range is undefined: stay half a texel inside
            span = (0.5 / n, 1 - 0.5 / n) if sampler.normalized else (0.5, n - 0.5)
        else:
            span = (-1.5, 2.5) if sampler.normalized else (-3.0, n + 3.0)
        cols.append(rng.uniform(*span, N))
    if dim in ("1d_array", "2d_array"):
        cols.append(rng.uniform(-1.0, shape[0] + 0.9, N))   # the layer (rounded, clamped)
    width = {"1d": 1, "1d_array": 2, "2d": 2}.get(dim, 4)
    while len(cols) < width:
        cols.append(np.zeros(N))
    return np.stack(cols, axis=1).astype(np.float32).reshape(N, width) if width > 1 else \
        np.asarray(cols[0], np.float32)


SAMPLERS = [(True, mode, filt) for mode in ("none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat")
            for filt in ("nearest", "linear")] + \
           [(False, mode, filt) for mode in ("none", "clamp_to_edge", "clamp") for filt in ("nearest", "linear")]


@pytest.mark.parametrize("dim", list(SHAPES))
@pytest.mark.parametrize("normalized,addressing,filt", SAMPLERS, ids=lambda v: str(v))
def test_read_imagef_with_a_sampler_like_numpy_and_pocl(dim, normalized, addressing, filt, pocl_env):
    rng = np.random.default_rng(zlib.crc32(repr((dim, normalized, addressing, filt)).encode()))
    texels = rng.random((*SHAPES[dim], 4), dtype=np.float32)
    image = kernelkit.Image(texels, dim=dim)
    sampler = kernelkit.Sampler(normalized, addressing, filt)
    coords = _coords(dim, sampler, rng)
    out = np.zeros((N, 4), np.float32)
    host(SAMPLE_CL).kernel(f"sample_{dim}")(image, sampler, coords, out, global_size=(N,))
    expect = _reference(dim, texels, coords.reshape(N, -1), sampler, np.zeros(4, np.float32))
    theirs = run_pocl(SAMPLE_CL, f"sample_{dim}", [image, sampler, coords, out.copy()], (N,))[3]
    if normalized and dim in ("1d_array", "2d_array"):
        # PoCL 3.1 scales the layer coordinate by the array size under normalized samplers (the spec:
        # clamp(rint(layer), 0, size - 1), never normalized): compare the rows where both pick one layer
        layer = coords.reshape(N, -1)[:, 1 if dim == "1d_array" else 2]
        same = _layers(layer, SHAPES[dim][0]) == _layers(layer * np.float32(SHAPES[dim][0]), SHAPES[dim][0])
        assert same.sum() >= N // 4
        out, expect, theirs = out[same], expect[same], theirs[same]
    if filt == "nearest":
        np.testing.assert_array_equal(out, expect)
        np.testing.assert_array_equal(out, theirs)
    else:
        np.testing.assert_allclose(out, expect, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("order,border", [("RGBA", [0, 0, 0, 0]), ("R", [0, 0, 0, 1])])
@pytest.mark.parametrize("addressing", ["clamp", "clamp_to_edge"])
def test_integer_coordinates_and_the_border_colour(order, border, addressing, pocl_env):
    """s8.2: CLAMP reads outside the image give the border colour, (0,0,0,0) with an alpha channel and
    (0,0,0,1) without; CLAMP_TO_EDGE the nearest edge texel."""
    rng = np.random.default_rng(8)
    channels = 4 if order == "RGBA" else 1
    texels = rng.random((5, 7, channels), dtype=np.float32)
    image = kernelkit.Image(texels, order=order)
    sampler = kernelkit.Sampler(False, addressing, "nearest")
    coords = rng.integers(-3, 10, (N, 2)).astype(np.int32)
    out = np.zeros((N, 4), np.float32)
    host(SAMPLE_CL).kernel("sample_2d_int")(image, sampler, coords, out, global_size=(N,))
    full = np.zeros((5, 7, 4), np.float32)
    full[..., 3] = 1
    full[..., :channels] = texels
    x, y = coords[:, 0], coords[:, 1]
    inside = (x >= 0) & (x < 7) & (y >= 0) & (y < 5)
    edge = full[np.clip(y, 0, 4), np.clip(x, 0, 6)]
    expect = edge if addressing == "clamp_to_edge" else np.where(inside[:, None], edge, np.float32(border))
    np.testing.assert_array_equal(out, expect)
    theirs = run_pocl(SAMPLE_CL, "sample_2d_int", [image, sampler, coords, out.copy()], (N,))[3]
    if order == "R" and addressing == "clamp":   # PoCL 3.1's border is (0, 0, 0, 0) for R too
        np.testing.assert_array_equal(out[inside], theirs[inside])
        np.testing.assert_array_equal(out[~inside, :3], theirs[~inside, :3])
    else:
        np.testing.assert_array_equal(out, theirs)


def test_read_imageui_with_float_coordinates_is_nearest(pocl_env):
    rng = np.random.default_rng(12)
    texels = rng.integers(0, 60000, (5, 7, 4), dtype=np.uint16)
    image = kernelkit.Image(texels, channel_type="UNSIGNED_INT16")
    sampler = kernelkit.Sampler(True, "repeat", "nearest")
    coords = rng.uniform(-2, 2, (N, 2)).astype(np.float32)
    out = np.zeros((N, 4), np.uint32)
    host(SAMPLE_CL).kernel("sample_2d_ui")(image, sampler, coords, out, global_size=(N,))
    x, y = _nearest(coords[:, 0], 7, "repeat", True), _nearest(coords[:, 1], 5, "repeat", True)
    np.testing.assert_array_equal(out, texels[y, x].astype(np.uint32))
    theirs = run_pocl(SAMPLE_CL, "sample_2d_ui", [image, sampler, coords, out.copy()], (N,))[3]
    np.testing.assert_array_equal(out, theirs)


def test_sampler_less_reads_and_writes_of_each_dim_like_numpy():
    rng = np.random.default_rng(1)
    prog = host(ACCESS_CL)
    for dim, size in (("1d", (11,)), ("1d_array", (3, 11))):
        a = rng.random((*size, 4), dtype=np.float32)
        b = np.zeros_like(a)
        prog.kernel(f"rw_{dim}")(kernelkit.Image(a, dim=dim), kernelkit.Image(b, dim=dim), global_size=size[::-1])
        np.testing.assert_array_equal(b, a * 2)
    a = rng.integers(-100, 100, (3, 4, 5, 2), dtype=np.int16)
    b = np.zeros_like(a)
    prog.kernel("rw_2d_array")(kernelkit.Image(a, "RG", dim="2d_array"), kernelkit.Image(b, "RG", dim="2d_array"),
                               global_size=(5, 4, 3))
    np.testing.assert_array_equal(b, a - 3)


def test_size_queries_of_each_dim_like_numpy_and_pocl(pocl_env):
    images = [kernelkit.Image(np.zeros((13, 4), np.float32), dim="1d"),
              kernelkit.Image(np.zeros((3, 11, 4), np.float32), dim="1d_array"),
              kernelkit.Image(np.zeros((2, 5, 7, 4), np.float32), dim="2d_array"),
              kernelkit.Image(np.zeros((4, 5, 6, 4), np.float32), dim="3d")]
    out = np.zeros(11, np.int32)
    host(ACCESS_CL).kernel("sizes")(*images, out, global_size=(1,))
    assert out.tolist() == [13, 11, 3, 7, 5, 2, 6, 5, 4, 0, 4]   # the arrays' shapes
    theirs = run_pocl(ACCESS_CL, "sizes", [*images, np.zeros(11, np.int32)], (1,))[4]
    np.testing.assert_array_equal(out, theirs)


HALF_CL = """
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void halves(read_only image2d_t src, sampler_t s, global const float2 *c, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  half4 v = read_imageh(src, s, c[y * get_global_size(0) + x]);
  write_imageh(dst, (int2)(x, y), v * (half)2.0f + read_imageh(src, (int2)(x, y)));
}
"""


def test_read_imageh_and_write_imageh_like_numpy():
    """read_imageh is read_imagef rounded to half; write_imageh stores halves as write_imagef does (PoCL
    builds no fp16 here: numpy is the oracle)."""
    rng = np.random.default_rng(17)
    texels = rng.random((4, 6, 4), dtype=np.float32)
    coords = rng.uniform(-0.5, 1.5, (24, 2)).astype(np.float32)
    sampler = kernelkit.Sampler(True, "mirrored_repeat", "nearest")
    dst = np.zeros((4, 6, 4), np.float16)
    prog = kernelkit.Program(HALF_CL).build()
    prog.kernel("halves")(kernelkit.Image(texels), sampler, coords, kernelkit.Image(dst), global_size=(6, 4))
    sampled = reference_sample(texels[None], coords, sampler, np.zeros(4, np.float32)).astype(np.float16)
    expect = sampled.reshape(4, 6, 4) * np.float16(2) + texels.astype(np.float16)
    np.testing.assert_array_equal(dst, expect)
