"""kernelkit.frontend: OpenCL C -> SPIR-flavoured LLVM IR (clang 22 from the ziglang wheel).

``compile_opencl(source, options, *, filename, triple, use_cache) -> CompiledSource``.
"""

from __future__ import annotations

from kernelkit.frontend.opencl import (
    BASE_HEADER,
    DEFAULT_TRIPLE,
    CompiledSource,
    compile_opencl,
    compile_opencl_file,
)
from kernelkit.frontend.options import BuildOptions, parse_options

__all__ = ["BASE_HEADER", "DEFAULT_TRIPLE", "BuildOptions", "CompiledSource", "compile_opencl",
           "compile_opencl_file", "parse_options"]
