"""The Python API: ``Program(source, options).build("host").kernel(name)(*args, global_size=...)``."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from kernelkit.errors import KernelkitError, LaunchError
from kernelkit.runtime.args import LocalMemory, pack_arguments
from kernelkit.runtime.event import Event
from kernelkit.runtime.launch import (
    PRINTF_BUFFER_BYTES,
    LaunchState,
    NativeLaunch,
    environ_value,
    new_printf_buffer,
)
from kernelkit.runtime.ndrange import make_ndrange

__all__ = ["Event", "Kernel", "LocalMemory", "Program"]


def _signature_from_json(d: dict):
    from kernelkit.abi.signature import KernelSignature

    return KernelSignature.from_json(d)


def _check_env() -> bool:
    return environ_value("KERNELKIT_CHECK") not in (None, "", "0")


class Program:
    """An OpenCL C program for the host target."""

    def __init__(self, source: str | bytes | os.PathLike, options: Sequence[str] | str = (), *,
                 filename: str | None = None):
        self.spirv = bytes(source) if isinstance(source, bytes | bytearray) else None
        if self.spirv is not None:   # a SPIR-V module (kernelkit.frontend.spirv)
            self.source, self.filename = "", filename or "<spirv>"
        elif isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                                and source.endswith(".cl") and os.path.exists(source)):
            path = Path(source)
            self.source = path.read_text()
            self.filename = filename or str(path)
        else:
            self.source = str(source)
            self.filename = filename or "<source>"
        self.options = options.split() if isinstance(options, str) else list(options)
        self._binary = None
        self._simulated = None
        self._executables: dict[object, object] = {}
        self._launch_counts: dict[tuple[str, tuple[int, int, int]], int] = {}
        self._kernels: dict[str, tuple[object, Kernel]] = {}   # name -> (the binary it is of, the Kernel)
        self._lock = threading.Lock()
        self.build_log = ""

    # -- building ----------------------------------------------------------------------------
    def build(self, target: str = "host", options: Sequence[str] | str | None = None, *,
              spec_constants: dict[int, object] | None = None, cpu: str | None = None) -> Program:
        """Compile for ``target`` (see ``kernelkit.devices()``); ``options`` (OpenCL build options,
        e.g. ``["-cl-std=CL2.0", "-DN=4"]``) are added to those given to the constructor;
        ``spec_constants`` (SpecId -> value) specialises a SPIR-V program. The build
        comes from the whole-binary cache, else from a compiler worker process: LLVM aborting is a
        CompileError, never the end of this process. ``cpu`` (host): the CPU to compile for, as clang's
        ``-mcpu=`` names it (``native`` by default, ``x86-64``, ``x86-64-v3``, ``skylake-avx512``...)."""
        from kernelkit.builder import build
        from kernelkit.targets.host.binary import read_host_binary

        if options:
            self.options = self.options + (options.split() if isinstance(options, str) else list(options))
        if cpu is not None:
            self.options = [*self.options, f"-mcpu={cpu}"]
        if spec_constants and self.spirv is None:
            raise KernelkitError("spec_constants apply to SPIR-V programs only")
        if target != "host":    # a simulated device (runtime.simulated.SIMULATORS)
            from kernelkit.runtime.simulated import build_simulated

            if spec_constants:
                raise KernelkitError("spec_constants are applied on the host target only")
            self._simulated = build_simulated(self.source, self.options, target, self.filename, self.spirv)
            self.build_log = self._simulated.log
            return self
        result = build(self.source, "host", self.options, filename=self.filename, spirv=self.spirv,
                       spec_constants=spec_constants)
        self.build_log = result.log
        self._binary = read_host_binary(result.binary)
        return self

    def build_many(self, targets: Sequence[str], *, workers: int | None = None) -> dict[str, bytes]:
        """Binaries of this program for several targets, built in parallel worker processes; the
        first failure is raised. Building for ``host`` also makes this Program runnable."""
        from kernelkit.builder import BuildJob, build_many
        from kernelkit.targets.host.binary import read_host_binary

        jobs = [BuildJob(self.source, t, self.options, self.filename) for t in targets]
        results = build_many(jobs, workers=workers)
        for outcome in results:
            if isinstance(outcome, BaseException):
                raise outcome
        binaries = {}
        for job, outcome in zip(jobs, results, strict=True):
            binaries[job.target] = outcome.binary
            if job.target == "host":
                self._binary = read_host_binary(outcome.binary)
                self.build_log = outcome.log
        return binaries

    @classmethod
    def from_binary(cls, data: bytes) -> Program:
        """A built program from a host binary (``Program.binary``), without recompiling."""
        from kernelkit.targets.host.binary import read_host_binary

        prog = cls("")
        prog._binary = read_host_binary(data)
        prog.options = list(prog._binary.options)
        return prog

    @property
    def binary(self) -> bytes:
        if self._simulated is not None:
            return self._simulated.binary
        return self._require_built().to_bytes()

    def _require_built(self):
        if self._binary is None:
            raise KernelkitError("the program is not built: call .build('host') first")
        return self._binary

    @property
    def kernel_names(self) -> list[str]:
        if self._simulated is not None:
            return self._simulated.kernel_names
        return [k.name for k in self._require_built().kernels]

    def kernel(self, name: str) -> Kernel:
        if self._simulated is not None:
            from kernelkit.runtime.simulated import SimulatedKernel

            return SimulatedKernel(self._simulated, name)    # type: ignore[return-value]
        binary = self._require_built()
        known = self._kernels.get(name)
        if known is not None and known[0] is binary:   # (one Kernel per name: its launch plans last)
            return known[1]
        try:
            info = binary.kernel(name)
        except KeyError:
            raise KernelkitError(f"no kernel named {name!r} (kernels: {', '.join(self.kernel_names)})") from None
        kernel = Kernel(self, info)
        self._kernels[name] = (binary, kernel)
        return kernel

    def __getattr__(self, name: str) -> Kernel:
        if name.startswith("_") or (self._binary is None and self._simulated is None):
            raise AttributeError(name)
        try:
            return self.kernel(name)
        except KernelkitError:
            raise AttributeError(name) from None

    def executable(self, check: bool, work_item_copies: bool = False):
        """The loaded binary; ``work_item_copies``: one with every kernel's work-item copy (built from
        the binary's mux IR when a launch first needs it; checked binaries have them anyway)."""
        from kernelkit.targets.host.binary import HostBinary
        from kernelkit.targets.host.cpu import require_cpu

        key = (check, "work-items") if work_item_copies and not check else check
        with self._lock:
            exe = self._executables.get(key)
            if exe is not None:
                return exe
            binary: HostBinary = self._require_built()
            require_cpu(binary.cpu, binary.features)   # LaunchError on a CPU without the binary's features
            if check:   # compiled in a worker process too (kernelkit.builder), and cached
                from kernelkit.builder import build_checked_host

                binary = build_checked_host(binary)
            elif work_item_copies:
                from kernelkit.builder import build_full_host

                binary = build_full_host(binary)
            exe = self._executables[key] = _load(binary)
            return exe

    def specialised_executable(self, kernel: str, local_size: tuple[int, int, int], check: bool):
        """The executable of ``kernel`` compiled for uniform work-groups of ``local_size`` (spec 003
        createSpecializedKernel; kernelkit.builder.build_specialised_host), made once per size."""
        from kernelkit.builder import build_checked_host, build_specialised_host
        from kernelkit.targets.host.cpu import require_cpu

        key = (kernel, tuple(local_size), check)
        with self._lock:
            exe = self._executables.get(key)
            if exe is None:
                built = self._require_built()
                require_cpu(built.cpu, built.features)
                binary = build_specialised_host(built, kernel, tuple(local_size))
                exe = self._executables[key] = _load(build_checked_host(binary) if check else binary)
            return exe

    def _launched(self, kernel: str, local_size: tuple[int, int, int]) -> int:
        """How many launches of ``kernel`` with ``local_size`` this one is (1 for the first)."""
        with self._lock:
            key = (kernel, tuple(local_size))
            self._launch_counts[key] = self._launch_counts.get(key, 0) + 1
            return self._launch_counts[key]


HOT_LAUNCHES = 3   # the launch (of one kernel with one local size) from which it runs specialised


def _load(binary):
    from kernelkit.targets.host.loader import Executable

    # static __local variables need a copy of the module per thread, which program-scope
    # __global variables must not get: a module with both runs one launch at a time, on one thread
    both = bool(binary.local_globals) and bool(binary.shared_globals)
    exe = Executable(binary.object_code, per_thread_globals=bool(binary.local_globals) and not both, serial=both)
    exe.binary = binary
    return exe


class Kernel:
    """A kernel of a built Program; call it to launch."""

    def __init__(self, program: Program, info):
        self.program = program
        self.info = info
        self.signature = _signature_from_json(info.signature)
        self.name = self.signature.name
        # (imported here: the IR's analyses are not needed to build a program, only to run its kernels)
        from kernelkit.ir.analysis.reach import Reach

        self.reach = [Reach.from_json(r) for r in getattr(info, "reach", [])]
        self._reach_memo: dict = {}   # launches check_reach found in bounds
        from kernelkit.runtime.launch_plan import LaunchPlans

        self._plans = LaunchPlans()    # what repeated launches reuse (runtime.launch_plan)
        self.last_output = ""

    def __repr__(self) -> str:
        args = ", ".join(f"{a.type_name} {a.name}" for a in self.signature.args)
        return f"<kernelkit.Kernel {self.name}({args})>"

    def __call__(self, *args, global_size, local_size=None, global_offset=None, check: bool | None = None,
                 threads: int | None = None, timeout: float | None = None, specialise: bool | None = None) -> str:
        """Run the kernel over the NDRange and wait for it; returns (and prints) its printf output.

        ``timeout`` (seconds) stops a kernel still running by then with a LaunchError; Ctrl-C
        stops it too (KeyboardInterrupt). See :meth:`launch` for the other parameters."""
        return self._launch(args, global_size, local_size, global_offset, check, threads, timeout, specialise,
                            True).wait()

    hot_launches = HOT_LAUNCHES

    def may_specialise(self, nd, local_size, specialise: bool | None) -> bool | None:
        """Run launches of this shape with the kernel compiled for their local size? Only with uniform
        groups of a size the caller gave; ``specialise`` True/False decides; None (the answer): from the
        HOT_LAUNCHES-th launch with that size (KERNELKIT_SPECIALISE=0 turns that off)."""
        if specialise is False or local_size is None:
            return False
        if any(g % lsz for g, lsz in zip(nd.global_size, nd.local_size, strict=True)):
            return False
        if self.signature.reqd_work_group_size and self.info.uniform_work_groups:
            return False   # its loops have constant bounds already
        if self.program._require_built().shared_globals:
            return False   # program-scope variables live in the one executable every launch shares
        if specialise:
            return True
        if environ_value("KERNELKIT_SPECIALISE") == "0":
            return False
        return None

    def _specialise(self, nd, local_size, specialise: bool | None) -> bool:
        """Run this launch with the kernel compiled for its local size (see may_specialise)?"""
        may = self.may_specialise(nd, local_size, specialise)
        if may is None:
            return self.program._launched(self.name, nd.local_size) >= HOT_LAUNCHES
        return may

    def launch(self, *args, global_size, local_size=None, global_offset=None, check: bool | None = None,
               threads: int | None = None, timeout: float | None = None, specialise: bool | None = None) -> Event:
        """Start the kernel over the NDRange and return at once; ``event.wait()`` finishes it.

        Buffers belong to the kernel until then. Launches from several Python threads (or several
        outstanding events) run at the same time, each with its own ``__local`` memory.

        With ``local_size`` given and uniform work-groups, the kernel runs compiled for that local size
        (a constant of its code: loops over the group unroll, the vector loop's tail goes) when
        ``specialise`` is True, or by default from its third launch with that size.

        A launch repeating an earlier one's NDRange, options and argument kinds runs from that launch's
        plan (:mod:`kernelkit.runtime.launch_plan`): the same checks, without redoing what cannot change."""
        return self._launch(args, global_size, local_size, global_offset, check, threads, timeout, specialise, False)

    def _launch(self, args, global_size, local_size, global_offset, check, threads, timeout, specialise,
                private: bool) -> Event:
        """``launch``; ``private``: the caller waits for the Event at once and lets no one else see it."""
        from kernelkit.targets.host.info import host_device_info

        check = _check_env() if check is None else bool(check)
        if timeout is not None and not (isinstance(timeout, int | float) and timeout > 0):
            raise LaunchError(f"{self.name}: timeout must be a positive number of seconds, got {timeout!r}")
        key = None if check else self._plans.key(global_size, local_size, global_offset, threads, specialise)
        plan = None if key is None else self._plans.get(key)
        if plan is not None:
            event = plan.launch(args, timeout, private)
            if event is not None:
                return event
        nd = make_ndrange(self.name, global_size, local_size, global_offset,
                          reqd_work_group_size=self.signature.reqd_work_group_size,
                          max_work_dim=self.info.max_work_dim, uniform_required=self.info.uniform_work_groups,
                          has_barriers=self.info.coroutine)
        packed = pack_arguments(self.name, self.signature.args, args,
                                local_memory_limit=host_device_info().local_memory_size,
                                static_local_bytes=self.signature.static_local_mem or 0)
        if not check:   # (checked mode catches the access itself, naming the address and work-item)
            from kernelkit.runtime.reach import check_reach

            check_reach(self.name, self.signature, self.reach, args, nd, self._reach_memo)
        if self._specialise(nd, local_size, specialise):
            exe = self.program.specialised_executable(self.name, nd.local_size, check)
        else:
            exe = self.program.executable(check, self.info.needs_work_item_copy(nd.global_size[0], nd.local_size[0]))
        sites = exe.binary.printf_sites
        printf, printf_data = new_printf_buffer() if sites else (None, None)
        checker = None
        if check:
            from kernelkit.runtime.checked import Checker

            checker = Checker(self.name, self.signature, packed)
        state = LaunchState(printf, printf_data, checker.table if checker else None)
        native = NativeLaunch.from_packed(exe, self.name, packed, nd, state, threads,
                                          prepare=checker.prepare if checker else None)
        if key is not None and plan is None:
            from kernelkit.runtime.launch_plan import LaunchPlan

            self._plans.add(key, LaunchPlan(self, nd, local_size, specialise, threads, packed, args))
        return self.event(native, self.finisher(sites, state, checker), timeout)

    def event(self, native: NativeLaunch, finish, timeout: float | None, recycle=None) -> Event:
        return Event(self.name, native, finish, timeout, recycle)

    def finisher(self, sites, state: LaunchState, checker=None):
        """What ends a launch once its threads are done: checked mode's verdict, the printf output
        (written to stdout, returned, kept as ``last_output``)."""
        def finish() -> str:
            if checker is not None:
                checker.raise_if_violated()
            output = ""
            printf = state.printf
            if printf is not None:
                from kernelkit.runtime.printf import decode_printf_buffer

                used = printf.offset
                data = ctypes.string_at(state.printf_data, min(used, PRINTF_BUFFER_BYTES))
                output, problems = decode_printf_buffer(data, used, sites)
                if used > printf.capacity:
                    output += "[kernelkit: printf buffer full, output truncated]\n"
                if output:
                    sys.stdout.write(output)
                    sys.stdout.flush()
                for problem in problems:   # once per launch, however many work-items met it
                    sys.stderr.write(f"kernelkit: {self.name}: printf: {problem}\n")
            self.last_output = output
            return output

        return finish
