"""llvmlite's binding, initialised once (every target and asm printer: the host's x86 and AMDGPU)."""

from __future__ import annotations

import threading

_LOCK = threading.Lock()
_READY = False


def llvm():
    """``llvmlite.binding`` with every target and asm printer initialised (thread-safe, once)."""
    global _READY
    import llvmlite.binding as binding

    with _LOCK:
        if not _READY:
            binding.initialize_all_targets()
            binding.initialize_all_asmprinters()
            _READY = True
    return binding


def parse_verified(text: str, what: str, target: str):
    """An llvmlite module of IR ``text`` that LLVM parses and verifies; otherwise a CompileError
    ("<target>: IR from <what> does not verify: <LLVM's first line>") with LLVM's whole message."""
    from kernelkit.errors import CompileError

    try:
        module = llvm().parse_assembly(text)
        module.verify()
    except RuntimeError as exc:
        raise CompileError(f"{target}: IR from {what} does not verify: {str(exc).splitlines()[0]}",
                           log=str(exc)) from exc
    return module
