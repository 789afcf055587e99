"""kernelkit.Image and kernelkit.Sampler also drive the AMD IL simulator (issue #14: one image API for
every device that runs kernels), with numpy as the oracle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import kernelkit

# the corpus's image_copy kernel alone (the simulator build of the whole file is slow)
IMAGES_CL = (Path(__file__).resolve().parents[1] / "corpus" / "images.cl").read_text().split("kernel void image_sample")[0]


def test_image_copy_on_the_amdil_simulator_takes_kernelkit_images():
    prog = kernelkit.Program(IMAGES_CL).build("amdil:juniper")
    src = np.random.default_rng(9).random((6, 8, 4), dtype=np.float32)
    dst = np.zeros_like(src)
    prog.kernel("image_copy")(kernelkit.Image(src), kernelkit.Image(dst), global_size=(8, 6))
    np.testing.assert_array_equal(dst, src)
    with pytest.raises(kernelkit.LaunchError, match="the simulator takes 2d and 3d images of FLOAT or integer"):
        prog.kernel("image_copy")(kernelkit.Image(np.zeros((6, 8, 4), np.uint8), channel_type="UNORM_INT8"),
                                  kernelkit.Image(dst), global_size=(8, 6))
