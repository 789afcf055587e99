"""The host compiler::Module: finalized mux IR -> host binary (native object + KernelInfo)."""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit import ir
from kernelkit.errors import FormatError
from kernelkit.ir.metadata import md_int_values
from kernelkit.mux.module import Module
from kernelkit.targets.host.binary import HostBinary, HostKernelInfo, read_host_binary


def _md_ints(fn: ir.Function | None, key: str) -> list[int | None]:
    node = fn.metadata.get(key) if fn is not None else None
    return md_int_values(node) if node is not None else []


def _max_work_dim(module: ir.Module | None, kernel: str) -> int:
    values = _md_ints(module.get_function(kernel) if module is not None else None, "max_work_dim")
    return values[0] if len(values) == 1 and values[0] is not None else 3


def fixed_local_size(module: ir.Module | None, kernel: str) -> tuple[int, int, int] | None:
    """The size every work-group of ``kernel`` has: its ``!reqd_work_group_size`` when its groups are
    uniform (the launch checks both), else None."""
    values = _md_ints(module.get_function(kernel) if module is not None else None, "reqd_work_group_size")
    if len(values) != 3 or None in values or not uniform_work_groups(module, kernel):
        return None
    return values[0], values[1], values[2]  # type: ignore[return-value]


def uniform_work_groups(module: ir.Module | None, kernel: str) -> bool:
    """Must the global size be a multiple of the local size? (OpenCL C < 2.0, or
    -cl-uniform-work-group-size, which clang records as "uniform-work-group-size"="true")."""
    from kernelkit.mux.passes.kernel_attributes import opencl_c_version

    fn = module.get_function(kernel) if module is not None else None
    attrs = fn.all_attributes() if fn is not None else []
    if '"uniform-work-group-size"="true"' in attrs:
        return True
    if '"uniform-work-group-size"="false"' in attrs:
        return False
    return module is None or opencl_c_version(module) < (2, 0)


def read_mux_ir(mux_ir: str) -> ir.Module | None:
    """The finalized mux IR as kernelkit.ir (None when it cannot read it: the code generator,
    which reads it too, reports that)."""
    try:
        return ir.parse(mux_ir)
    except FormatError:
        return None


def kernel_reaches(module: ir.Module | None, kernels: list[str]) -> dict[str, list[dict]]:
    """Each kernel's reach (the buffer bytes every work-item touches), for the launch's size checks;
    none for a module kernelkit.ir cannot read."""
    from kernelkit.ir.analysis.reach import kernel_reach

    if module is None:
        return {}
    return {f.name: [r.to_json() for r in kernel_reach(f)] for f in module.functions if f.name in kernels}


def build_host_binary(mux_ir: str, signatures, options, *, check: bool = False,
                      log: list[str] | None = None, work_item_copies: bool = False) -> HostBinary:
    """The host binary of finalized mux IR; build-log lines (vectorisation fallbacks) go to `log`.
    Vectorised kernels with barriers get their work-item copy (for groups whose x size is not a
    multiple of W) only with ``work_item_copies`` (see kernelkit.runtime.launch.needs_work_item_copy)."""
    from kernelkit.llvm_binding import llvm
    from kernelkit.targets.host.codegen import compile_host

    module = read_mux_ir(mux_ir)
    fixed = {sig.name: size for sig in signatures for size in [fixed_local_size(module, sig.name)] if size}
    # what the binary records of each kernel, read before compile_host takes the module over
    reach = kernel_reaches(module, [sig.name for sig in signatures])
    dims = {sig.name: (_max_work_dim(module, sig.name), uniform_work_groups(module, sig.name)) for sig in signatures}
    code = compile_host(mux_ir, check=check, options=options,
                        local_mem={sig.name: sig.static_local_mem for sig in signatures}, local_sizes=fixed,
                        parsed=module, work_item_copies=work_item_copies)
    if log is not None:
        log.extend(code.log)
    kernels = [HostKernelInfo(sig.to_json(), sig.name in code.coroutines, *dims[sig.name], reach.get(sig.name, []),
                              vector_width=code.vectorised.get(sig.name, 1),
                              work_item_copy=sig.name not in code.packets_only)
               for sig in signatures if sig.name in code.kernels]
    return HostBinary(triple=llvm().get_default_triple(), cpu=code.cpu.name, features=list(code.cpu.features),
                      kernels=kernels,
                      object_code=code.object_code, printf_sites=code.printf_sites,
                      local_globals=code.local_globals,
                      shared_globals=code.shared_globals, mux_ir=mux_ir, options=list(options))


def host_binary_and_log(mux_ir: str, signatures, options, check: bool,
                        work_item_copies: bool = False) -> tuple[HostBinary, list[str]]:
    log: list[str] = []
    return build_host_binary(mux_ir, signatures, options, check=check, log=log,
                             work_item_copies=work_item_copies), log


def specialised_binary_and_log(mux_ir: str, signature, options, local_size) -> tuple[bytes, list[str]]:
    log: list[str] = []
    return build_specialised_binary(mux_ir, signature, options, local_size, log=log).to_bytes(), log


def build_specialised_binary(mux_ir: str, signature, options, local_size, *, check: bool = False,
                             log: list[str] | None = None) -> HostBinary:
    """The host binary of one kernel of finalized mux IR for uniform work-groups of ``local_size``
    (``kernelkit.mux.passes.local_size``): the local size is a constant of its code."""
    from kernelkit import ir
    from kernelkit.mux.passes.local_size import specialise_local_size

    module, _ = specialise_local_size(ir.parse(mux_ir), signature.name, local_size)
    return build_host_binary(str(module), [signature], options, check=check, log=log)


class HostModule(Module):
    """compiler::Module for ``host``; ``create_binary`` gives a :class:`HostBinary`'s bytes.

    The build option ``-mcpu=NAME`` (see :mod:`kernelkit.targets.host.cpu`) is taken out before the
    OpenCL frontend sees it and kept in the module's options for the code generator."""

    def take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        from kernelkit.targets.host.cpu import selected_cpu, split_cpu_options

        cpu_options, rest = split_cpu_options(options)
        selected_cpu(cpu_options)   # an unknown CPU name fails the build here, with clang's list
        return cpu_options, rest

    _generic: HostBinary | None = None
    _full: HostBinary | None = None

    def create_binary(self, *, check: bool = False) -> bytes:
        return self.create_host_binary(check=check).to_bytes()

    def late_module_passes(self, module) -> None:
        """__mux_isftz/usefast/isembeddedprofile from the build options; constant memory barriers as
        fences, work-group and sub-group ones ordering only the compiler (a work-group runs on one thread)."""
        from kernelkit.mux.device import FloatingPointCapabilities
        from kernelkit.mux.names import MemScope
        from kernelkit.mux.passes.fences import lower_mem_barriers
        from kernelkit.mux.passes.option_builtins import define_option_builtins

        denormals = self.target.info.device_info.float_capabilities & FloatingPointCapabilities.DENORM
        define_option_builtins(module, self.options, flushes_denormals=not denormals)
        lower_mem_barriers(module, (MemScope.WORK_GROUP, MemScope.SUB_GROUP))

    def generic_host_binary(self) -> HostBinary:
        """The module's binary for any launch (made once; deferred kernels read it)."""
        if self._generic is None:
            self._generic = self.create_host_binary()
        return self._generic

    def full_host_binary(self) -> HostBinary:
        """The module's binary with every kernel's work-item copy (for launches whose groups are not
        whole packets), made once, when a launch first needs it."""
        if self._full is None:
            generic = self.generic_host_binary()
            needed = any(not k.work_item_copy for k in generic.kernels)
            self._full = self.create_host_binary(work_item_copies=True) if needed else generic
        return self._full

    def create_host_binary(self, *, check: bool = False, work_item_copies: bool = False) -> HostBinary:
        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        from kernelkit.llvm_binding import in_worker

        # LLVM in a worker process: its aborting is a CompileError, not the caller's end
        binary, log = in_worker(host_binary_and_log, str(self.finalized_llvm_module), self.program_info.kernels,
                                self.options, check, work_item_copies, target="host", kernels=self.kernel_names())
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
