"""The amdhsa compiler::Module: finalized mux IR -> linked ET_DYN AMDGPU code object.

The code object version comes from the build option ``-mcode-object-version=N`` (2..6,
default 6 like clang 22); it is taken out before the options reach the OpenCL frontend.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.tables import CODE_OBJECT_VERSIONS, DEFAULT_CODE_OBJECT_VERSION
from kernelkit.mux.module import Module
from kernelkit.mux.result import MuxCompileError, Result

_COV = re.compile(r"^-mcode-object-version=(\S+)$")


def split_code_object_version(options: Sequence[str]) -> tuple[int, list[str]]:
    version = DEFAULT_CODE_OBJECT_VERSION
    rest = []
    for opt in options:
        m = _COV.match(opt)
        if not m:
            rest.append(opt)
            continue
        if not m.group(1).isdigit() or int(m.group(1)) not in CODE_OBJECT_VERSIONS:
            raise CompileError(f"build option {opt}: code object version must be one of "
                               f"{', '.join(map(str, CODE_OBJECT_VERSIONS))}")
        version = int(m.group(1))
    return version, rest


class AmdhsaModule(Module):
    code_object_version = DEFAULT_CODE_OBJECT_VERSION

    def compile_opencl_c(self, source: str, options: Sequence[str] = (), **kwargs) -> None:
        try:
            self.code_object_version, rest = split_code_object_version(options)
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise MuxCompileError(Result.COMPILE_PROGRAM_FAILURE, exc) from exc
        super().compile_opencl_c(source, rest, **kwargs)

    def create_binary(self) -> bytes:
        from kernelkit.targets.amdhsa.codegen import compile_code_object

        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        try:
            return compile_code_object(str(self.finalized_llvm_module), self.target.target_id,
                                       self.code_object_version, self.options)
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise

    def _create_kernel(self, name: str):
        from kernelkit.targets.amdhsa.kernel import AmdhsaKernel

        return AmdhsaKernel(self, name)
