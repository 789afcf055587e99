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
