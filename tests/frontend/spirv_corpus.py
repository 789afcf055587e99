"""SPIR-V of the corpus kernels made by clang 22 (``-target spirv64``), checked by spirv-val."""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from conftest import require_tool

from kernelkit.frontend.opencl import BASE_HEADER

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@functools.cache
def clang_spirv(file: str, cl_std: str, names: bool = False, extensions: str = "") -> bytes:
    """clang 22's SPIR-V for a corpus file (``names``: keeping value names, so parameters get
    OpName; ``extensions``: clang's ``--spirv-ext`` list); the module must pass spirv-val unless
    extensions are asked for (clang's printf SPIR-V does not, see test_spirv_corpus_runs)."""
    spirv_val = require_tool("spirv-val")
    with tempfile.TemporaryDirectory(prefix="kk-spirv-") as tmp:
        out = Path(tmp) / "k.spv"
        subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", f"-cl-std={cl_std}", "-target",
                        "spirv64", *(["-fno-discard-value-names"] if names else []),
                        *(["-mllvm", f"--spirv-ext={extensions}"] if extensions else []), "-cl-no-stdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include",
                        str(BASE_HEADER), "-c", str(CORPUS / file), "-o", str(out)], check=True,
                       capture_output=True)
        if not extensions:
            subprocess.run([spirv_val, str(out)], check=True, capture_output=True)
        return out.read_bytes()


def signed_view(value):
    """SPIR-V integers carry no signedness: an unsigned buffer or scalar as its signed twin."""
    if isinstance(value, np.ndarray | np.generic) and value.dtype.kind == "u":
        signed = np.dtype(value.dtype.str.replace("u", "i"))
        return value.view(signed) if isinstance(value, np.ndarray) else value.astype(signed)
    return value


def assert_runs_like_source(spirv, source, case, make_args) -> None:
    """Corpus ``case`` launched from the SPIR-V program and from the OpenCL C program on the same inputs
    gives the same outputs (byte for byte; floats to rtol 1e-6; sorted when the case is unordered)."""
    from_spirv, outs_spirv = make_args(case)
    from_source, outs_source = make_args(case)
    from_spirv = [signed_view(v) for v in from_spirv]
    launch = {"global_size": case.run["global"], "local_size": case.run.get("local")}
    spirv.kernel(case.name)(*from_spirv, **launch)
    source.kernel(case.name)(*from_source, **launch)
    for (i, _), (_, want) in zip(outs_spirv, outs_source, strict=True):
        got = from_spirv[i].view(want.dtype)
        if case.run.get("unordered"):
            got, want = np.sort(got), np.sort(want)
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)
        else:
            assert got.tobytes() == want.tobytes(), case.kernel["args"][i]["name"]
