"""kernelkit.mux: the ComputeMux compiler API (spec 003) every kernelkit target implements.

``Info`` -> ``Target`` -> ``Module`` -> ``Kernel``; errors are ``MuxError`` carrying a ``Result``.
Targets list their ``Info``s in ``kernelkit/targets/<name>/info.py:get_compilers()``;
``kernelkit.mux.registry`` collects them. Names load lazily so importing is cheap.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "Result": "kernelkit.mux.result",
    "MuxError": "kernelkit.mux.result",
    "MuxCompileError": "kernelkit.mux.result",
    "Context": "kernelkit.mux.context",
    "DeviceInfo": "kernelkit.mux.device",
    "BuiltinCapabilities": "kernelkit.mux.device",
    "Info": "kernelkit.mux.info",
    "Target": "kernelkit.mux.target",
    "Module": "kernelkit.mux.module",
    "ProgramInfo": "kernelkit.mux.module",
    "InputHeader": "kernelkit.mux.module",
    "Kernel": "kernelkit.mux.kernel",
    "NDRangeOptions": "kernelkit.mux.kernel",
    "CompilationOption": "kernelkit.mux.options",
    "parse_compilation_options": "kernelkit.mux.options",
    "validate_compilation_options": "kernelkit.mux.options",
    "get_compilers": "kernelkit.mux.registry",
    "find_compiler": "kernelkit.mux.registry",
    "build_binary": "kernelkit.mux.registry",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kernelkit.mux' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
