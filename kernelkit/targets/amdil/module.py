"""The amdil compiler::Module: finalized mux IR -> a complete AMD IL program (text bytes).

OpenCL C 2.0 and later are refused (R700, Evergreen and Northern Islands run OpenCL 1.2);
``-mattr=...`` (spec 000: mwgs-#d-#1-#2-#3, +cal=N, [+/-]features) is taken from the build
options and checked against the device's family.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kernelkit.errors import CompileError
from kernelkit.frontend.options import parse_options
from kernelkit.llvm_binding import in_worker
from kernelkit.mux.module import Module

_STD = re.compile(r"^-cl-std=(?:CL|cl)?(\d)\.(\d)$")
_MATTR = re.compile(r"^-mattr=(.*)$")


class AmdilModule(Module):
    mattr = ""

    def take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        from kernelkit.targets.amdil.info import parse_mattr

        rest = []
        for opt in options:
            m = _MATTR.match(opt)
            if m:
                self.mattr = m.group(1)
                continue
            s = _STD.match(opt)
            if s and (int(s.group(1)), int(s.group(2))) >= (2, 0):
                raise CompileError(f"amdil: {opt}: OpenCL C {s.group(1)}.{s.group(2)} is not "
                                   f"supported by AMD IL devices ({self.target.device} runs OpenCL 1.2)")
            rest.append(opt)
        self.attributes = parse_mattr(self.mattr, self.target.device)
        return [], rest

    def create_binary(self) -> bytes:
        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        return self.program_bytes(self.finalized_llvm_module, self.program_info.kernels)

    def program_bytes(self, mux_ir, signatures) -> bytes:
        """The AMD IL program of finalized mux IR ``mux_ir`` whose kernels have ``signatures``."""
        from kernelkit.targets.amdil.irpipeline import optimised_ir
        from kernelkit.targets.amdil.writer import Options, write_program

        device = self.target.device_record
        attrs = getattr(self, "attributes", None)
        fp64 = device.hardware_fp64
        if attrs is not None and "fp64" in attrs.features:
            fp64 = attrs.features["fp64"]
        opts = Options(fp64=fp64, max_work_group=attrs.max_work_group_size if attrs else None,
                       metadata30=bool(attrs and attrs.features.get("metadata30")))
        try:
            ir = in_worker(optimised_ir, str(mux_ir), self.options,   # LLVM: in a worker
                           target=f"amdil:{self.target.device}", kernels=[s.name for s in signatures],
                           stage="passes")
            text = write_program(ir, signatures, device, opts,
                                 debug=parse_options(self.options).debug)   # -g, -gdwarf-4, -gdwarf-5
            self._metadata_messages(text)
            return text.encode()
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            # a construct the code generator does not handle: one readable error, not a trace
            message = f"amdil: internal error selecting instructions: {type(exc).__name__}: {exc}"
            self.add_build_error(message)
            raise CompileError(message) from exc

    def _create_kernel(self, name: str):
        from kernelkit.targets.amdil.kernel import AmdilKernel

        return AmdilKernel(self, name)

    def _metadata_messages(self, text: str) -> None:
        """spec 000 "Error Token"/"Warning Token": the runtime logs a kernel's warnings and fails
        the build of a program whose kernel carries an error."""
        from kernelkit.formats.amdil import parse_program
        from kernelkit.formats.amdil import records as r

        errors = []
        for block in parse_program(text).metadata:
            for m in block.of(r.Message):
                line = f"amdil: kernel {block.source_name}: {m.tag} {m.message}"
                if m.tag == "error":
                    errors.append(line)
                else:
                    self.add_diagnostic(line)
        if errors:
            raise CompileError("; ".join(errors))
