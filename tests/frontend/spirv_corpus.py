"""SPIR-V of the corpus kernels made by clang 22 (``-target spirv64``), checked by spirv-val."""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import require_tool

from kernelkit.frontend.opencl import BASE_HEADER

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@functools.cache
def clang_spirv(file: str, cl_std: str, names: bool = False) -> bytes:
    """clang 22's SPIR-V for a corpus file (``names``: keeping value names, so parameters get
    OpName); the module must pass spirv-val."""
    spirv_val = require_tool("spirv-val")
    with tempfile.TemporaryDirectory(prefix="kk-spirv-") as tmp:
        out = Path(tmp) / "k.spv"
        subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", f"-cl-std={cl_std}", "-target",
                        "spirv64", *(["-fno-discard-value-names"] if names else []), "-cl-no-stdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include",
                        str(BASE_HEADER), "-c", str(CORPUS / file), "-o", str(out)], check=True,
                       capture_output=True)
        subprocess.run([spirv_val, str(out)], check=True, capture_output=True)
        return out.read_bytes()
