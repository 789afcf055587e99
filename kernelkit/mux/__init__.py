"""kernelkit.mux: the ComputeMux compiler API (spec 003) every kernelkit target implements.

``Info`` -> ``Target`` -> ``Module`` -> ``Kernel``; errors are ``MuxError`` carrying a ``Result``.
Targets list their ``Info``s in ``kernelkit/targets/<name>/info.py:get_compilers()``;
``kernelkit.mux.registry`` collects them. These modules are light: clang and LLVM load only
when a module is compiled or finalized.

Implementing a target (each hook's base raises ``FEATURE_UNSUPPORTED`` or returns the default):
  Info:   fields (device_info, compilation_options, ...), ``_create_target``; optionally
          ``devices``, ``accepts_device``, ``parse_target``.
  Target: ``_create_module``; optionally ``frontend_options``, ``scheduling_parameters`` (runs
          kernelkit.mux.passes.scheduling), ``dma_event_type`` (default ``ptr``), ``late_passes``.
  Module: ``create_binary`` (reads ``finalized_llvm_module``/``program_info``), ``_create_kernel``.
  Kernel: the ``_``-prefixed query hooks; the public methods check arguments first (spec 003).
``Module.finalize`` runs kernelkit.mux.passes.pipeline: lower OpenCL builtins to ``__mux_*``,
retype DMA events, mark kernels (``mux-kernel``, ``!max_work_dim``, ``mux-local-mem-usage``...),
``mux-no-subgroups``, scheduling parameters, then ``Target.late_passes()``.
"""

from __future__ import annotations

from kernelkit.mux.context import Context
from kernelkit.mux.device import BuiltinCapabilities, DeviceInfo
from kernelkit.mux.info import Info
from kernelkit.mux.kernel import Kernel, NDRangeOptions
from kernelkit.mux.module import InputHeader, Module, ProgramInfo
from kernelkit.mux.options import CompilationOption, parse_compilation_options, validate_compilation_options
from kernelkit.mux.registry import build_binary, find_compiler, get_compilers
from kernelkit.mux.result import MuxCompileError, MuxError, Result
from kernelkit.mux.target import Target

__all__ = [
    "BuiltinCapabilities", "CompilationOption", "Context", "DeviceInfo", "InputHeader", "Info", "Kernel",
    "Module", "MuxCompileError", "MuxError", "NDRangeOptions", "ProgramInfo", "Result", "Target",
    "build_binary", "find_compiler", "get_compilers", "parse_compilation_options",
    "validate_compilation_options",
]
