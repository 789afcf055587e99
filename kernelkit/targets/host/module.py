"""The host compiler::Module: finalized mux IR -> host binary (native object + KernelInfo)."""

from __future__ import annotations

import re

from kernelkit.mux.module import Module
from kernelkit.targets.host.binary import HostBinary, HostKernelInfo, read_host_binary


def _kernel_attributes(ir_text: str, kernel: str) -> str:
    """The text of the attribute groups a kernel's definition references."""
    m = re.search(rf"^define [^\n]*@{re.escape(kernel)}\(([^\n]*)$", ir_text, flags=re.M)
    if not m:
        return ""
    groups = re.findall(r"#(\d+)", m.group(1))
    out = []
    for g in groups:
        a = re.search(rf"^attributes #{g} = \{{([^\n]*)\}}", ir_text, flags=re.M)
        if a:
            out.append(a.group(1))
    return " ".join(out)


def _opencl_version(ir_text: str) -> tuple[int, int]:
    m = re.search(r"^!opencl\.ocl\.version = !\{!(\d+)", ir_text, flags=re.M)
    if m:
        v = re.search(rf"^!{m.group(1)} = !\{{i32 (\d+), i32 (\d+)\}}", ir_text, flags=re.M)
        if v:
            return int(v.group(1)), int(v.group(2))
    return (1, 2)


def _max_work_dim(ir_text: str, kernel: str) -> int:
    m = re.search(rf"^define [^\n]*@{re.escape(kernel)}\([^\n]*!max_work_dim !(\d+)", ir_text, flags=re.M)
    if m:
        v = re.search(rf"^!{m.group(1)} = !\{{i32 (\d+)\}}", ir_text, flags=re.M)
        if v:
            return int(v.group(1))
    return 3


def uniform_work_groups(ir_text: str, kernel: str) -> bool:
    """Must the global size be a multiple of the local size? (OpenCL C < 2.0, or
    -cl-uniform-work-group-size, which clang records as "uniform-work-group-size"="true")."""
    attrs = _kernel_attributes(ir_text, kernel)
    if '"uniform-work-group-size"="true"' in attrs:
        return True
    if '"uniform-work-group-size"="false"' in attrs:
        return False
    return _opencl_version(ir_text) < (2, 0)


def kernel_reaches(mux_ir: str, kernels: list[str]) -> dict[str, list[dict]]:
    """Each kernel's reach (the buffer bytes every work-item touches), for the launch's size checks;
    none for a module kernelkit.ir cannot read."""
    from kernelkit import ir
    from kernelkit.errors import FormatError
    from kernelkit.ir.analysis.reach import kernel_reach

    try:
        module = ir.parse(mux_ir)
    except FormatError:
        return {}
    return {f.name: [r.to_json() for r in kernel_reach(f)] for f in module.functions if f.name in kernels}


def build_host_binary(mux_ir: str, signatures, options, *, check: bool = False,
                      log: list[str] | None = None) -> HostBinary:
    """The host binary of finalized mux IR; build-log lines (vectorisation fallbacks) go to `log`."""
    from kernelkit.llvm_binding import llvm
    from kernelkit.targets.host.codegen import compile_host

    code = compile_host(mux_ir, check=check, options=options,
                        local_mem={sig.name: sig.static_local_mem for sig in signatures})
    if log is not None:
        log.extend(code.log)
    reach = kernel_reaches(mux_ir, [sig.name for sig in signatures])
    kernels = [HostKernelInfo(sig.to_json(), sig.name in code.coroutines, _max_work_dim(mux_ir, sig.name),
                              uniform_work_groups(mux_ir, sig.name), reach.get(sig.name, []),
                              vector_width=code.vectorised.get(sig.name, 1))
               for sig in signatures if sig.name in code.kernels]
    return HostBinary(triple=llvm().get_default_triple(), cpu=llvm().get_host_cpu_name(), kernels=kernels,
                      object_code=code.object_code, printf_sites=code.printf_sites,
                      local_globals=code.local_globals,
                      shared_globals=code.shared_globals, mux_ir=mux_ir, options=list(options))


def host_binary_and_log(mux_ir: str, signatures, options, check: bool) -> tuple[HostBinary, list[str]]:
    log: list[str] = []
    return build_host_binary(mux_ir, signatures, options, check=check, log=log), log


class HostModule(Module):
    """compiler::Module for ``host``; ``create_binary`` gives a :class:`HostBinary`'s bytes."""

    def create_binary(self, *, check: bool = False) -> bytes:
        return self.create_host_binary(check=check).to_bytes()

    def create_host_binary(self, *, check: bool = False) -> HostBinary:
        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        from kernelkit.llvm_binding import in_worker

        # LLVM in a worker process: its aborting is a CompileError, not the caller's end
        binary, log = in_worker(host_binary_and_log, str(self.finalized_llvm_module), self.program_info.kernels,
                                self.options, check, target="host", kernels=self.kernel_names())
        for line in log:
            self.add_diagnostic(line)
        return binary

    def _create_kernel(self, name: str):
        from kernelkit.targets.host.kernel import HostKernel

        return HostKernel(self, name)

    @staticmethod
    def load_binary(data: bytes) -> HostBinary:
        """Read a host binary (raises FormatError on a malformed one)."""
        return read_host_binary(data)
