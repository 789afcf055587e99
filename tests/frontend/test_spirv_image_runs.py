"""Issue #14 item 1 for the corpus's image kernels: clang 22's SPIR-V (``-target spirv64``, valid under
spirv-val) of images.cl and images_cl20.cl builds and runs on the host with the OpenCL C source's
results, and both give numpy's (PoCL checks the source builds in tests/host/test_host_images.py)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from conftest import corpus_manifest
from spirv_corpus import CORPUS, clang_spirv

import kernelkit
from kernelkit.abi.image_formats import ORDER_BY_NAME

FILES = {"images.cl": "CL1.2", "images_cl20.cl": "CL2.0"}


@functools.cache
def programs(file: str) -> tuple[kernelkit.Program, kernelkit.Program]:
    std = FILES[file]
    spirv = kernelkit.Program(clang_spirv(file, std)).build("host")
    opencl_c = kernelkit.Program((CORPUS / file).read_text(), [f"-cl-std={std}"]).build("host")
    return spirv, opencl_c


def _image_copy(rng):
    src = rng.random((6, 9, 4), dtype=np.float32)
    args = [kernelkit.Image(src), kernelkit.Image(np.zeros_like(src))]
    return args, (9, 6), {1: src}


def _image_sample(rng):
    src = rng.random((3, 8, 4), dtype=np.float32)
    sampler = kernelkit.Sampler(True, "repeat", "linear")
    return [kernelkit.Image(src), sampler, np.zeros((2, 12, 4), np.float32), np.int32(5)], (12, 2), {2: None}


def _image_3d_query(rng):
    vol = kernelkit.Image(rng.random((3, 5, 7, 2), dtype=np.float32), order="RG", dim="3d")
    return [vol, np.zeros(4, np.int32)], (1,), {1: np.array([7, 5, 3, ORDER_BY_NAME["RG"].value], np.int32)}


def _image_buffer_and_array(rng):
    n = 16
    buf = rng.integers(0, 1000, (n, 4), dtype=np.uint32)
    line = (rng.random((n, 4)) * 50).astype(np.float32)
    arr = np.zeros((2, 3, n, 4), np.uint32)
    expect = arr.copy()
    expect[1, 0] = buf + line.astype(np.uint32)
    args = [kernelkit.Image(buf, dim="1d_buffer"), kernelkit.Image(arr, dim="2d_array"),
            kernelkit.Image(line, dim="1d")]
    return args, (n,), {1: expect}


def _image_inplace(rng):
    img = rng.random((4, 8, 4), dtype=np.float32)
    return [kernelkit.Image(img.copy())], (8, 4), {0: img * 2}


def _depth_read(rng):
    depth = rng.random((4, 8), dtype=np.float32)
    sampler = kernelkit.Sampler(False, "clamp_to_edge", "nearest")
    return [kernelkit.Image(depth, order="DEPTH"), sampler, np.zeros(32, np.float32)], (8, 4), {2: depth.reshape(-1)}


CASES = {("images.cl", "image_copy"): _image_copy, ("images.cl", "image_sample"): _image_sample,
         ("images.cl", "image_3d_query"): _image_3d_query,
         ("images.cl", "image_buffer_and_array"): _image_buffer_and_array,
         ("images_cl20.cl", "image_inplace"): _image_inplace, ("images_cl20.cl", "depth_read"): _depth_read}


def _output(value):
    return value.array if isinstance(value, kernelkit.Image) else value


def test_every_image_kernel_of_the_corpus_has_a_case():
    manifest = corpus_manifest()["files"]
    kernels = {(f, k["name"]) for f, fd in manifest.items() if fd.get("images") for k in fd["kernels"]}
    assert kernels == set(CASES)


@pytest.mark.parametrize("file,kernel", list(CASES), ids=lambda v: v)
def test_image_kernel_from_spirv_runs_like_the_opencl_c_source(file, kernel):
    spirv, opencl_c = programs(file)
    results = []
    for program in (spirv, opencl_c):
        args, size, outputs = CASES[file, kernel](np.random.default_rng(21))
        program.kernel(kernel)(*args, global_size=size)
        results.append(([_output(args[i]) for i in outputs], list(outputs.values())))
    (from_spirv, expected), (from_source, _) = results
    for got, want, numpy_result in zip(from_spirv, from_source, expected, strict=True):
        assert got.tobytes() == want.tobytes()
        if numpy_result is not None:
            np.testing.assert_array_equal(got, numpy_result)
