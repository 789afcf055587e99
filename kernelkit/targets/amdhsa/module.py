"""The amdhsa compiler::Module: finalized mux IR -> linked ET_DYN AMDGPU code object.

The code object version (``-mcode-object-version=N``) and the machine options (``-mcumode``,
``-mtgsplit``, ``-mwavefrontsize64``...) are taken out before the options reach the OpenCL
frontend (``options.py``). Kernels get the scheduling attributes clang gives them
(``kernel_attributes.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.tables import DEFAULT_CODE_OBJECT_VERSION
from kernelkit.llvm_binding import in_worker
from kernelkit.mux.module import Module
from kernelkit.targets.amdhsa.options import BackendOptions, split_backend_options


class AmdhsaModule(Module):
    code_object_version = DEFAULT_CODE_OBJECT_VERSION
    backend_options = BackendOptions()
    source_attributes: dict[str, dict[str, str]] = {}

    def take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        self.backend_options, rest = split_backend_options(options)
        self.code_object_version = self.backend_options.code_object_version
        return [], rest

    def compile_opencl_c(self, source: str, options: Sequence[str] = (), **kwargs) -> None:
        from kernelkit.targets.amdhsa.kernel_attributes import amdgpu_source_attributes

        super().compile_opencl_c(source, options, **kwargs)
        rest = self.take_target_options(options)[1]
        self.source_attributes = amdgpu_source_attributes(source, rest, self.target.target_id,
                                                          kwargs.get("filename", "<source>"))

    def create_binary(self) -> bytes:
        from kernelkit.targets.amdhsa.codegen import compile_code_object

        try:   # LLVM in a worker process: its aborting is a CompileError (kernelkit.llvm_binding.in_worker)
            return self._in_worker(compile_code_object)
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise

    def create_assembly(self) -> str:
        """LLVM's assembly text of the module (``kernelkit build --emit asm``)."""
        from kernelkit.targets.amdhsa.codegen import compile_assembly

        return self._in_worker(compile_assembly)

    def _in_worker(self, step):
        """``step`` (codegen.compile_code_object or compile_assembly) of the finalized module with
        clang's attributes (kernel_attributes), in a compiler worker process."""
        from kernelkit.targets.amdhsa.codegen import opt_level
        from kernelkit.targets.amdhsa.kernel_attributes import (
            kernels_without_unknown_calls,
            set_kernel_attributes,
        )

        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        set_kernel_attributes(self.finalized_llvm_module, self.program_info, self.source_attributes,
                              opt_level(self.options))
        no_implicit = kernels_without_unknown_calls(self.finalized_llvm_module) if opt_level(self.options) else frozenset()
        return in_worker(step, str(self.finalized_llvm_module), self.target.target_id,
                         self.code_object_version, self.options,
                         features=self.backend_options.features(self.target.target_id.processor),
                         no_implicit_arg_kernels=no_implicit, target=self.target.device, kernels=self.kernel_names())

    def _create_kernel(self, name: str):
        from kernelkit.targets.amdhsa.kernel import AmdhsaKernel

        return AmdhsaKernel(self, name)
