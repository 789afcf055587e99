"""kernelkit: GPU kernel compilers and their runtimes, in one Python toolchain.

Importing this package is cheap: clang and LLVM start only when something is compiled.
Heavier names (``Program``, ``LocalMemory``, ...) are loaded on first use.
"""

from __future__ import annotations

from kernelkit.errors import CompileError, FormatError, KernelkitError, LaunchError

__version__ = "0.1.0"

# name -> module that defines it; loaded lazily so `import kernelkit` stays fast.
_LAZY = {
    "Program": "kernelkit.runtime.program",
    "LocalMemory": "kernelkit.runtime.program",
    "Kernel": "kernelkit.runtime.program",
    "Event": "kernelkit.runtime.event",
    "RawBuffer": "kernelkit.runtime.args",
    "Image": "kernelkit.runtime.images",
    "Sampler": "kernelkit.runtime.images",
    "Device": "kernelkit.runtime.devices",
    "devices": "kernelkit.runtime.devices",
    "MuxError": "kernelkit.mux.result",
    "Result": "kernelkit.mux.result",
    "KernelSignature": "kernelkit.abi.signature",
}

__all__ = ["CompileError", "FormatError", "KernelkitError", "LaunchError", *_LAZY]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kernelkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
