"""The visa compiler::Target and Module: OpenCL C -> vISA object (``.isa``) for one platform.
``--simd=N`` (or ``--simd N``) in the build options picks the SIMD width of every kernel."""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit.mux.module import Module, ProgramInfo
from kernelkit.mux.result import MuxError, Result
from kernelkit.mux.target import Target


def split_simd_option(options: Sequence[str]) -> tuple[int | None, list[str]]:
    """(SIMD width from ``--simd=N`` / ``--simd N``, the other options)."""
    simd, rest, items = None, [], list(options)
    i = 0
    while i < len(items):
        item = items[i]
        if item == "--simd" and i + 1 < len(items):
            value, i = items[i + 1], i + 2
        elif item.startswith("--simd="):
            value, i = item.split("=", 1)[1], i + 1
        else:
            rest.append(item)
            i += 1
            continue
        if not value.isdigit():
            raise MuxError(Result.INVALID_COMPILER_OPTIONS, f"--simd takes 8, 16 or 32, not {value!r}")
        simd = int(value)
    return simd, rest


class VisaTarget(Target):
    def _create_module(self):
        return VisaModule(self)


class VisaModule(Module):
    """Compiles straight from the frontend's IR (kernelkit.targets.visa.codegen works on the OpenCL
    builtins as clang emits them)."""

    def compile_opencl_c(self, source: str, options: Sequence[str] = (), **kwargs) -> None:
        self.simd, rest = split_simd_option(options)
        self.source, self.filename = source, kwargs.get("filename", "<source>")
        super().compile_opencl_c(source, rest, **kwargs)
        self.frontend_options = rest

    def compile_spirv(self, code, spirv_device_info=None, spirv_spec_info=None, *, options=()):
        """SPIR-V goes through the SPIR-V frontend's IR (the same shape as the OpenCL C frontend's)."""
        simd, rest = split_simd_option(options)
        result = super().compile_spirv(code, spirv_device_info, spirv_spec_info, options=rest)
        self.source, self.simd, self.frontend_options, self.filename = None, simd, rest, "<spirv>"
        return result

    def finalize(self) -> ProgramInfo:
        from kernelkit.abi.signature import signatures_from_ir

        if self.llvm_module is None:
            raise MuxError(Result.INVALID_VALUE, "finalize needs a compiled module")
        self.program_info = ProgramInfo(signatures_from_ir(self.llvm_module))
        self.state = self.FINALIZED
        return self.program_info

    def create_binary(self) -> bytes:
        return self.visa_binary().isa()

    def _create_kernel(self, name: str):
        from kernelkit.targets.visa.kernel import VisaDeferredKernel

        return VisaDeferredKernel(self, name)

    def visa_binary(self, program_ir=None):
        """The program's VisaBinary; ``program_ir`` (frontend IR) stands for the module's program."""
        from kernelkit.errors import CompileError
        from kernelkit.llvm_binding import in_worker
        from kernelkit.targets.visa.module import compile_visa, compile_visa_ir_text

        # the program is OpenCL C source, or (from SPIR-V) the frontend's IR
        build, program = (compile_visa, self.source) if self.source is not None and program_ir is None else \
            (compile_visa_ir_text, str(program_ir if program_ir is not None else self.llvm_module))
        try:   # LLVM (the optimiser) in a worker process: its aborting is a CompileError
            return in_worker(build, program, self.target.device, self.frontend_options, simd=self.simd,
                             filename=self.filename, target=f"visa:{self.target.device}",
                             kernels=self.kernel_names() if program_ir is None else
                             [f.name for f in program_ir.functions if f.calling_conv == "spir_kernel"])
        except CompileError as exc:
            self.add_build_error(str(exc))
            raise MuxError(Result.FINALIZE_PROGRAM_FAILURE, str(exc)) from exc
