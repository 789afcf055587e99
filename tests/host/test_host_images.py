"""Images on the host device: the corpus's image kernels and every channel order and data type PoCL
supports run on the host with PoCL's results; launches check image and sampler arguments."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from pocl_images import run_pocl

import kernelkit
from kernelkit.abi.image_formats import ORDER_BY_NAME, TYPE_BY_NAME

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
IMAGES_CL = (CORPUS / "images.cl").read_text()
IMAGES_CL20 = (CORPUS / "images_cl20.cl").read_text()
# images.cl built with the options tests/frontend/test_spirv_image_runs.py gives it (CL1.2, the default
# -cl-std spelled out): one build in the session's compile cache serves both files
IMAGES_CL_OPTIONS = ("-cl-std=CL1.2",)
# the two kernels the checked launches run (images.cl up to image_3d_query): checked mode compiles every
# kernel of a program, and the others' image builtins would only make that build slower
COPY_AND_SAMPLE_CL = IMAGES_CL.split("kernel void image_3d_query")[0]

FORMATS_CL = """
kernel void read_f(read_only image2d_t img, global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagef(img, (int2)(x, y));
}
kernel void read_i(read_only image2d_t img, global int4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagei(img, (int2)(x, y));
}
kernel void read_ui(read_only image2d_t img, global uint4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imageui(img, (int2)(x, y));
}
kernel void write_f(write_only image2d_t img, global const float4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), in[y * get_image_width(img) + x]);
}
kernel void write_i(write_only image2d_t img, global const int4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(img, (int2)(x, y), in[y * get_image_width(img) + x]);
}
kernel void write_ui(write_only image2d_t img, global const uint4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imageui(img, (int2)(x, y), in[y * get_image_width(img) + x]);
}
kernel void format_of(read_only image2d_t img, global int *out) {
  out[0] = get_image_channel_order(img);
  out[1] = get_image_channel_data_type(img);
  int2 d = get_image_dim(img);
  out[2] = d.x;
  out[3] = d.y;
}
"""

# the channel orders and data types PoCL 3.1 supports for 2D images here (clGetSupportedImageFormats)
POCL_ORDERS = ("R", "A", "RGBA", "BGRA", "ARGB")
ALL_TYPES = ("SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16", "SIGNED_INT8", "SIGNED_INT16",
             "SIGNED_INT32", "UNSIGNED_INT8", "UNSIGNED_INT16", "UNSIGNED_INT32", "HALF_FLOAT", "FLOAT")
POCL_FOUR_CHANNEL_ONLY = ("SNORM_INT16", "UNORM_INT16", "SIGNED_INT16", "UNSIGNED_INT16", "SIGNED_INT32",
                          "UNSIGNED_INT32", "HALF_FLOAT", "FLOAT")   # for BGRA/ARGB: UNORM_INT8 and the 8-bit ones
KIND = {"SIGNED_INT8": "i", "SIGNED_INT16": "i", "SIGNED_INT32": "i", "UNSIGNED_INT8": "ui",
        "UNSIGNED_INT16": "ui", "UNSIGNED_INT32": "ui"}
H, W = 5, 7
# OpenCL C 3.0 s8.3 / API s5.3.1.1: the (r, g, b, a) components each order stores; the others read as
# 0 (r, g, b) and 1 (a)
STORED = {"R": "r", "A": "a", "RGBA": "rgba", "BGRA": "rgba", "ARGB": "rgba"}


@functools.cache
def host(source: str, options: tuple[str, ...] = ()) -> kernelkit.Program:
    return kernelkit.Program(source, list(options)).build()


def _texels(dtype: np.dtype, shape, rng) -> np.ndarray:
    if dtype.kind == "f":
        return (rng.random(shape) * 4 - 2).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)


def _formats():
    for order in POCL_ORDERS:
        for ctype in ALL_TYPES:
            if order in ("BGRA", "ARGB") and ctype in POCL_FOUR_CHANNEL_ONLY:
                continue
            if order in ("R", "A") and ctype == "HALF_FLOAT":   # PoCL 3.1 misreads them (see below)
                continue
            yield order, ctype


def _image(order: str, ctype: str, rng, shape=(H, W)) -> kernelkit.Image:
    channels = ORDER_BY_NAME[order].channels
    dtype = np.dtype(TYPE_BY_NAME[ctype].dtype)
    return kernelkit.Image(_texels(dtype, (*shape, channels), rng), order=order, channel_type=ctype)


def test_image_copy_like_pocl_and_the_source(pocl_env):
    rng = np.random.default_rng(7)
    for ctype in ("FLOAT", "UNORM_INT8"):
        src = _image("RGBA", ctype, rng, (6, 9))
        dst = kernelkit.Image(np.zeros_like(src.array), order="RGBA", channel_type=ctype)
        theirs = run_pocl(IMAGES_CL, "image_copy", [src, dst], (9, 6))
        host(IMAGES_CL, IMAGES_CL_OPTIONS).kernel("image_copy")(src, dst, global_size=(9, 6))
        np.testing.assert_array_equal(dst.array, src.array)           # a copy, texel for texel
        np.testing.assert_array_equal(dst.array, theirs[1].array)


@pytest.mark.parametrize("addressing", ["clamp_to_edge", "clamp", "repeat", "mirrored_repeat"])
@pytest.mark.parametrize("filt", ["nearest", "linear"])
def test_image_sample_like_pocl(addressing, filt, pocl_env):
    rng = np.random.default_rng(3)
    src = _image("RGBA", "FLOAT", rng, (3, 8))
    smp = kernelkit.Sampler(normalized=True, addressing=addressing, filter=filt)
    width = 5    # u = (x + 0.5) / 5 over 12 work-items: past the right edge, for the addressing modes
    out = np.zeros((2, 12, 4), np.float32)
    theirs = run_pocl(IMAGES_CL, "image_sample", [src, smp, out, np.int32(width)], (12, 1))
    host(IMAGES_CL, IMAGES_CL_OPTIONS).kernel("image_sample")(src, smp, out, np.int32(width), global_size=(12, 1))
    np.testing.assert_allclose(out, theirs[2], rtol=1e-6, atol=1e-6)


def test_image_3d_query_like_pocl(pocl_env):
    vol = kernelkit.Image(np.zeros((3, 5, 7, 1), np.uint8), order="R", channel_type="UNORM_INT8", dim="3d")
    dims = np.zeros(4, np.int32)
    theirs = run_pocl(IMAGES_CL, "image_3d_query", [vol, dims], (1,))
    host(IMAGES_CL, IMAGES_CL_OPTIONS).kernel("image_3d_query")(vol, dims, global_size=(1,))
    assert dims[:3].tolist() == [7, 5, 3]        # width, height, depth of a (3, 5, 7) array
    np.testing.assert_array_equal(dims, theirs[1])


def test_image_buffer_and_array_like_pocl(pocl_env):
    rng = np.random.default_rng(5)
    n = 16
    buf = kernelkit.Image(rng.integers(0, 1000, (n, 4), dtype=np.uint32), "RGBA", "UNSIGNED_INT32", dim="1d_buffer")
    line = kernelkit.Image((rng.random((n, 4)) * 50).astype(np.float32), "RGBA", "FLOAT", dim="1d")
    arr = kernelkit.Image(np.zeros((2, 3, n, 4), np.uint32), "RGBA", "UNSIGNED_INT32", dim="2d_array")
    theirs = run_pocl(IMAGES_CL, "image_buffer_and_array", [buf, arr, line], (n,))
    host(IMAGES_CL, IMAGES_CL_OPTIONS).kernel("image_buffer_and_array")(buf, arr, line, global_size=(n,))
    expect = np.zeros_like(arr.array)
    expect[1, 0] = buf.array + line.array.astype(np.uint32)     # convert_uint4 rounds toward zero
    np.testing.assert_array_equal(arr.array, expect)
    np.testing.assert_array_equal(arr.array, theirs[1].array)


def test_read_write_image_in_place_like_pocl(pocl_env):
    """images_cl20.cl image_inplace: a read_write image read, fenced and written by every work-item.
    (Its neighbour depth_read needs depth images, which PoCL 3.1 neither offers (no CL_DEPTH format) nor
    links (no _cl_read_imagef for image2d_depth_t): numpy checks it in tests/frontend/test_spirv_image_runs.py.)"""
    texels = np.random.default_rng(6).random((4, 8, 4), dtype=np.float32)
    img = kernelkit.Image(texels.copy())
    without_depth = IMAGES_CL20.split("kernel void depth_read")[0]   # PoCL cannot link depth image reads
    theirs = run_pocl(without_depth, "image_inplace", [img], (8, 4), options=("-cl-std=CL2.0",))
    host(IMAGES_CL20, ("-cl-std=CL2.0",)).kernel("image_inplace")(img, global_size=(8, 4))
    np.testing.assert_array_equal(img.array, texels * 2)
    np.testing.assert_array_equal(img.array, theirs[0].array)


@pytest.mark.parametrize("order,ctype", list(_formats()), ids=lambda v: v)
def test_reads_and_writes_of_each_format_like_pocl(order, ctype, pocl_env):
    rng = np.random.default_rng(11)
    kind = KIND.get(ctype, "f")
    img = _image(order, ctype, rng)
    vec = {"f": np.float32, "i": np.int32, "ui": np.uint32}[kind]
    out = np.zeros((H * W, 4), vec)
    theirs = run_pocl(FORMATS_CL, f"read_{kind}", [img, out], (W, H))
    host(FORMATS_CL).kernel(f"read_{kind}")(img, out, global_size=(W, H))
    if kind == "f":   # s8.3.1.1: normalized integer -> float within 1.5 ulp (PoCL multiplies by 1/127)
        np.testing.assert_array_max_ulp(out, theirs[1], maxulp=2)
    else:
        # the spec's table: an unmapped alpha reads as 1 for read_imagei/ui too; PoCL 3.1 returns 0 there
        stored = np.array([c in STORED[order] for c in "rgba"])
        np.testing.assert_array_equal(out[:, stored], theirs[1][:, stored])
        np.testing.assert_array_equal(out[:, ~stored], np.broadcast_to([0, 0, 0, 1], out.shape)[:, ~stored])
    # writes: values beyond each type's range (saturation), and rounding cases for normalized types
    if kind == "f":
        values = (rng.random((H * W, 4)) * 3 - 1.5).astype(np.float32)
        values[:4] = np.array([[0.5 / 255, 1.5 / 255, 2.5 / 255, -0.0]], np.float32)
    else:
        values = rng.integers(-(1 << 31), (1 << 31) - 1, (H * W, 4), dtype=np.int64).astype(vec)
        values[:2] = np.array([[0, 1, 127, 128], [255, 256, 65535, 65536]]).astype(vec)
    target = kernelkit.Image(np.zeros_like(img.array), order=order, channel_type=ctype)
    theirs = run_pocl(FORMATS_CL, f"write_{kind}", [target, values], (W, H))
    host(FORMATS_CL).kernel(f"write_{kind}")(target, values, global_size=(W, H))
    np.testing.assert_array_equal(target.array, theirs[0].array)


@pytest.mark.parametrize("order", ["R", "A"])
def test_single_channel_half_images_like_numpy(order):
    """PoCL 3.1 reads single-channel HALF_FLOAT texels as 234.0 and writes them as 0: numpy is the oracle."""
    rng = np.random.default_rng(4)
    img = _image(order, "HALF_FLOAT", rng)
    out = np.zeros((H * W, 4), np.float32)
    host(FORMATS_CL).kernel("read_f")(img, out, global_size=(W, H))
    expect = np.zeros_like(out)
    expect[:, 3] = 1
    expect[:, "rgba".index(STORED[order])] = img.array.reshape(-1).astype(np.float32)
    np.testing.assert_array_equal(out, expect)
    values = (rng.random((H * W, 4)) * 100 - 50).astype(np.float32)
    target = kernelkit.Image(np.zeros_like(img.array), order=order, channel_type="HALF_FLOAT")
    host(FORMATS_CL).kernel("write_f")(target, values, global_size=(W, H))
    # s8.3.2: float -> half rounds to nearest even, as numpy's astype
    np.testing.assert_array_equal(target.array.reshape(-1), values[:, "rgba".index(STORED[order])].astype(np.float16))


def test_format_queries_like_pocl(pocl_env):
    rng = np.random.default_rng(2)
    for order, ctype in (("R", "UNORM_INT8"), ("BGRA", "SNORM_INT8"), ("RGBA", "HALF_FLOAT")):
        img = _image(order, ctype, rng)
        out = np.zeros(4, np.int32)
        theirs = run_pocl(FORMATS_CL, "format_of", [img, out], (1,))
        host(FORMATS_CL).kernel("format_of")(img, out, global_size=(1,))
        assert out[2:].tolist() == [W, H]
        np.testing.assert_array_equal(out, theirs[1])


def test_image_arguments_are_checked():
    prog = host(IMAGES_CL, IMAGES_CL_OPTIONS)
    copy = prog.kernel("image_copy")
    ok = kernelkit.Image(np.zeros((2, 2, 4), np.float32))
    with pytest.raises(kernelkit.LaunchError, match=r"image_copy: argument 0 \(src: image2d_t\) needs a 2d image, "
                                                    r"got a 3d Image"):
        copy(kernelkit.Image(np.zeros((2, 2, 2, 4), np.float32)), ok, global_size=(2, 2))
    with pytest.raises(kernelkit.LaunchError, match=r"argument 1 \(dst: image2d_t\) is an image: pass kernelkit.Image"):
        copy(ok, 5, global_size=(2, 2))
    frozen = np.zeros((2, 2, 4), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(kernelkit.LaunchError, match="write_only: the image's array is read-only"):
        copy(ok, kernelkit.Image(frozen), global_size=(2, 2))
    sample = prog.kernel("image_sample")
    out = np.zeros((2, 4), np.float32)
    with pytest.raises(kernelkit.LaunchError, match=r"0x40 is not a sampler"):
        sample(ok, 0x40, out, np.int32(2), global_size=(2, 1))
    with pytest.raises(kernelkit.LaunchError, match=r"argument 1 \(smp: sampler_t\) is a sampler"):
        sample(ok, "linear", out, np.int32(2), global_size=(2, 1))


def test_images_are_validated_when_made():
    with pytest.raises(kernelkit.LaunchError, match=r"UNORM_INT8 needs a numpy uint8 array, got float32"):
        kernelkit.Image(np.zeros((2, 2, 4), np.float32), channel_type="UNORM_INT8")
    with pytest.raises(kernelkit.LaunchError, match=r"a 2d RG image needs an array of 2 axes plus 2 channel"):
        kernelkit.Image(np.zeros((2, 2, 4), np.float32), order="RG")
    with pytest.raises(kernelkit.LaunchError, match="unknown channel order 'RGBZ'"):
        kernelkit.Image(np.zeros((2, 2, 4), np.float32), order="RGBZ")
    with pytest.raises(kernelkit.LaunchError, match="unknown addressing mode 'wrap'"):
        kernelkit.Sampler(addressing="wrap")
    # single-channel images may leave the channel axis out; the kernel still writes the caller's array
    plain = np.zeros((3, 4), np.float32)
    assert kernelkit.Image(plain, order="R").array.base is plain
    assert kernelkit.Sampler.from_bits(0x1 | 0x6 | 0x20).addressing == "repeat"


def test_checked_launches_let_kernels_touch_their_images_only():
    """check=True: the texels and descriptor of an image argument are memory the kernel may read and
    write; the results are the unchecked launch's."""
    rng = np.random.default_rng(13)
    src = rng.random((4, 8, 4), dtype=np.float32)
    dst = np.zeros_like(src)
    program = host(COPY_AND_SAMPLE_CL, IMAGES_CL_OPTIONS)
    assert program.kernel_names == ["image_copy", "image_sample"]    # the corpus's kernels, as they are there
    program.kernel("image_copy")(kernelkit.Image(src), kernelkit.Image(dst), global_size=(8, 4), check=True)
    np.testing.assert_array_equal(dst, src)
    outs = []
    for check in (True, False):
        out = np.zeros((1, 12, 4), np.float32)
        program.kernel("image_sample")(kernelkit.Image(src), kernelkit.Sampler(True, "repeat", "linear"), out,
                                       np.int32(5), global_size=(12, 1), check=check)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], outs[1])
    with pytest.raises(kernelkit.LaunchError, match=r"out-of-bounds write .* by work-item \(12, 0, 0\)"):
        program.kernel("image_sample")(kernelkit.Image(src), kernelkit.Sampler(), out, np.int32(12),
                                       global_size=(13, 1), check=True)
