"""The CPU a host binary is compiled for, named as clang and LLVM name them (``-mcpu=``).

``native`` (the default) is the CPU of this machine, with the features LLVM detects on it.
``x86-64``, ``x86-64-v2``, ``x86-64-v3``, ``x86-64-v4`` (the x86-64 psABI microarchitecture levels)
and every other LLVM CPU name (``skylake-avx512``, ``znver3``...) get their features from clang's
driver: the ISA features of ``clang -march=NAME`` are the ones whose feature-test macro
(``__AVX2__``, ``__SSE4_2__``...) it predefines, in LLVM's spelling (the names LLVM's host-CPU
detection reports). The code generator targets the CPU by name (LLVM enables its features), the
binary records the name and the features, and a launch on a CPU that lacks one is refused.
"""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from kernelkit.errors import CompileError, LaunchError

NATIVE = "native"
MCPU_OPTION = "-mcpu="
CLANG_X86_TARGET = "x86_64-unknown-linux-gnu"
# LLVM features whose presence clang shows by a macro not spelled __<FEATURE>__ (clang's X86 target info)
FEATURE_MACROS = {"cx16": "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16", "sahf": "__LAHF_SAHF__"}


@dataclass(frozen=True)
class HostCPU:
    """A CPU to compile for: its LLVM name and its ISA features (LLVM names, sorted)."""

    name: str
    features: tuple[str, ...]
    native: bool = False

    def feature_string(self) -> str:
        """LLVM's ``+a,+b`` form (what ``host_vector_width`` and target machines read)."""
        return ",".join(f"+{f}" for f in self.features)

    def target_machine_args(self) -> tuple[str, str]:
        """(cpu, features) for ``Target.create_target_machine``: this machine's detected feature
        set for ``native``, the CPU's own defaults (empty feature string) for a named CPU."""
        if self.native:
            from kernelkit.llvm_binding import llvm

            return self.name, llvm().get_host_cpu_features().flatten()
        return self.name, ""


def cpu_option(options: Sequence[str]) -> str:
    """The CPU named by the last ``-mcpu=`` of the build options (``native`` when absent)."""
    name = NATIVE
    for opt in options:
        if opt.startswith(MCPU_OPTION):
            name = opt[len(MCPU_OPTION):]
            if not name:
                raise CompileError("build option -mcpu= needs a CPU name (native, x86-64, x86-64-v3, ...)")
    return name


def split_cpu_options(options: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the ``-mcpu=`` options, the others): the OpenCL frontend never sees ``-mcpu=``."""
    mine = [o for o in options if o.startswith(MCPU_OPTION)]
    return mine, [o for o in options if not o.startswith(MCPU_OPTION)]


@functools.cache
def _host_features() -> dict[str, bool]:
    from kernelkit.llvm_binding import llvm

    return dict(llvm().get_host_cpu_features())


@functools.cache
def host_cpu() -> HostCPU:
    """This machine's CPU (LLVM's host detection)."""
    from kernelkit.llvm_binding import llvm

    return HostCPU(llvm().get_host_cpu_name(), tuple(sorted(f for f, on in _host_features().items() if on)),
                   native=True)


def _macro(feature: str) -> str:
    return FEATURE_MACROS.get(feature) or "__" + feature.upper().replace(".", "_").replace("-", "_") + "__"


@functools.cache
def resolve_cpu(name: str) -> HostCPU:
    """The HostCPU called ``name``; CompileError (clang's list of valid names) for an unknown one."""
    if name == NATIVE:
        return host_cpu()
    from kernelkit.frontend.clang import clang_command

    try:
        done = subprocess.run([*clang_command(), f"--target={CLANG_X86_TARGET}", f"-march={name}", "-E", "-dM",
                               "-x", "c", "-"], input=b"", capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CompileError(f"-mcpu={name}: cannot run clang to read the CPU's features: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = "; ".join(line.removeprefix("error: ").removeprefix("note: ") for line in message[:2])
        raise CompileError(f"-mcpu={name}: {detail or 'clang refused the CPU name'}")
    defined = {line.split()[1] for line in done.stdout.decode("utf-8", "replace").splitlines()
               if line.startswith("#define ")}
    features = tuple(sorted(f for f in _host_features() if _macro(f) in defined))
    return HostCPU(name, features)


def selected_cpu(options: Sequence[str]) -> HostCPU:
    """The CPU the build options choose (``-mcpu=``, default native)."""
    return resolve_cpu(cpu_option(options))


def missing_features(features: Sequence[str]) -> list[str]:
    """The features of ``features`` this machine's CPU lacks (ones LLVM's host detection does not know,
    e.g. recorded by another LLVM, are not counted)."""
    host = _host_features()
    return sorted(f for f in features if f in host and not host[f])


def require_cpu(cpu: str, features: Sequence[str]) -> None:
    """LaunchError if a binary compiled for ``cpu`` with ``features`` cannot run on this CPU."""
    missing = missing_features(features)
    if missing:
        raise LaunchError(f"the host binary was compiled for CPU {cpu}, whose features this CPU "
                          f"({host_cpu().name}) lacks: {', '.join(missing)} (rebuild with -mcpu=native, or for "
                          f"a CPU this one covers, e.g. -mcpu=x86-64-v2)")
