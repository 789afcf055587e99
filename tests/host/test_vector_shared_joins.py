"""Divergent regions whose join is also reached from outside them, by a uniform branch (inlined
library code: the layer test of write_image on image arrays returns early, to the block that also
post-dominates the per-work-item texel bounds test). The vectoriser gives such a region a join of its
own (`kernelkit.ir.transforms.divergent_regions.split_shared_joins`) instead of falling back.
Oracles: numpy, and for the linear sampler a scalar build: the whole of images.cl as
tests/host/test_host_images.py and tests/frontend/test_spirv_image_runs.py build it (-cl-std=CL1.2, the
default -cl-wfv=auto, which leaves the loop-free image_sample scalar: asserted), so the compile cache
serves it instead of a build of its own."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from conftest import CORPUS

import kernelkit

SHARED_JOIN = """
kernel void shared_join(global const int *in, global const int *limit, global int *hits, global int *out, int mode) {
  int i = get_global_id(0);
  int v = in[i], r = 7;
  if (mode != 0) {                // uniform: the whole packet skips the divergent if below
    if (v > limit[0]) {           // divergent (the load keeps clang from merging the two tests);
      hits[i] = v;                // its join is the block the uniform branch jumps to
      r = v * 3;
    }
  }
  out[i] = r + mode;
}
"""




def corpus_kernel(file: str, name: str) -> str:
    """The source of one kernel of a corpus file (one kernel per build: the image library is large)."""
    text = (CORPUS / file).read_text()
    start = text.index(f"kernel void {name}(")
    return text[start:text.index("\n}\n", start) + 3]


@functools.cache
def images(name: str, mode: str) -> kernelkit.Program:
    return kernelkit.Program(corpus_kernel("images.cl", name), [f"-cl-wfv={mode}"]).build()


def scalar_images() -> kernelkit.Program:
    """images.cl built as the other image tests build it (one cache entry for all of them)."""
    prog = kernelkit.Program((CORPUS / "images.cl").read_text(), ["-cl-std=CL1.2"]).build()
    assert prog._binary.kernel("image_sample").vector_width == 1     # scalar: auto leaves it so
    return prog


def assert_vectorised(prog: kernelkit.Program, name: str) -> None:
    assert not re.search(rf"kernel {name}: not vectorised", prog.build_log), prog.build_log
    assert prog._binary.kernel(name).vector_width > 1


@pytest.mark.parametrize("mode", [0, 3])
def test_uniform_skip_to_the_join_of_a_divergent_if(mode):
    prog = kernelkit.Program(SHARED_JOIN, ["-cl-wfv=always"]).build()
    assert_vectorised(prog, "shared_join")
    v = np.random.default_rng(mode).integers(0, 21, 64).astype(np.int32)
    hits = np.full(64, -1, np.int32)
    out = np.zeros(64, np.int32)
    prog.kernel("shared_join")(v, np.array([10], np.int32), hits, out, np.int32(mode), global_size=(64,),
                               local_size=(32,))
    taken = (v > 10) & (mode != 0)
    np.testing.assert_array_equal(out, np.where(taken, v * 3, 7) + mode)
    np.testing.assert_array_equal(hits, np.where(taken, v, -1))


def test_image_buffer_and_array_is_vectorised():
    prog = images("image_buffer_and_array", "always")
    assert_vectorised(prog, "image_buffer_and_array")
    rng = np.random.default_rng(1)
    n = 32
    buf = rng.integers(0, 1000, (n, 4), dtype=np.uint32)
    line = (rng.random((n, 4)) * 50).astype(np.float32)
    arr = kernelkit.Image(np.zeros((2, 3, n, 4), np.uint32), dim="2d_array")
    prog.kernel("image_buffer_and_array")(kernelkit.Image(buf, dim="1d_buffer"), arr,
                                          kernelkit.Image(line, dim="1d"), global_size=(n,))
    expect = np.zeros((2, 3, n, 4), np.uint32)
    expect[1, 0] = buf + line.astype(np.uint32)   # layer 1, row 0 (write_imageui(arr, (int4)(i, 0, 1, 0), ...))
    np.testing.assert_array_equal(arr.array, expect)


def test_image_sample_is_vectorised_and_equals_the_scalar_build():
    assert_vectorised(images("image_sample", "always"), "image_sample")
    src = np.random.default_rng(2).random((3, 8, 4), dtype=np.float32)
    outs = []
    for prog in (images("image_sample", "always"), scalar_images()):
        out = np.zeros((2, 32, 4), np.float32)
        kernel = prog.kernel("image_sample")
        kernel(kernelkit.Image(src), kernelkit.Sampler(True, "repeat", "linear"), out,
               np.int32(32), global_size=(32, 2))
        outs.append(out)
    np.testing.assert_array_equal(outs[0], outs[1])
    # row 0.5 of 3 (normalised): texel row 1 exactly; columns interpolate linearly and wrap (repeat)
    u = (np.arange(32) + 0.5) / 32 * 8 - 0.5
    lo = np.floor(u).astype(int)
    a = (u - lo)[:, None]
    expect = (1 - a) * src[1, lo % 8] + a * src[1, (lo + 1) % 8]
    np.testing.assert_allclose(outs[0][0], expect, rtol=1e-2, atol=1e-2)
