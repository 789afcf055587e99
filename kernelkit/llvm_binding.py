"""llvmlite's binding, initialised once (every target and asm printer: the host's x86 and AMDGPU),
and ``in_worker``: LLVM work of the low-level API run where LLVM aborting cannot end the caller.

llvmlite's LLVM is an assertions build: a backend assertion or ``report_fatal_error`` ends the
process. ``Program.build`` and the CLI compile whole programs in a build worker process
(``kernelkit.builder``). The ComputeMux API (``Module.create_binary``, ``mux.registry.build_binary``)
drives the compiler in the caller's process, so its targets call ``in_worker(f, *args, target=...,
kernels=...)`` where ``f`` runs LLVM's optimiser or code generator: outside a worker the call goes to
a reusable worker (``kernelkit.builder.pool``) and an abort there becomes a CompileError naming the
kernels, the target and LLVM's message; in a worker (or with ``KERNELKIT_BUILD_IN_PROCESS=1``) ``f``
is simply called. ``f`` must be a module-level function; arguments and result travel pickled, between
this process and its own child over a pipe.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

R = TypeVar("R")

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


# Big texts (kernelkit's own libraries: the AMDGPU __mux_* library is ~2 MB of IR, 0.3-0.4 s to parse
# and verify) are kept parsed: a copy is handed out (LLVM's clone, ~3x cheaper than parsing). Policy:
# SECOND_SIGHT (default) keeps a text from the second time it is parsed (a worker that builds many
# programs), KEEP from the first (the build server, whose forked children inherit the modules),
# USE_ONCE hands a kept module out without copying it (a forked child that builds one program).
SECOND_SIGHT, KEEP, USE_ONCE = "second-sight", "keep", "use-once"
parse_memo_policy = SECOND_SIGHT
_MEMO_MIN_SIZE = 1 << 18
_MEMO_ENTRIES = 4
_parsed: dict[bytes, object] = {}
_seen: set[bytes] = set()


def parse_verified(text: str, what: str, target: str):
    """An llvmlite module of IR ``text`` that LLVM parses and verifies (the caller owns it: it may
    change it); otherwise a CompileError ("<target>: IR from <what> does not verify: <LLVM's first
    line>") with LLVM's whole message."""
    from kernelkit.errors import CompileError

    key = None
    if len(text) >= _MEMO_MIN_SIZE:
        import hashlib

        key = hashlib.sha256(text.encode()).digest()
        with _LOCK:
            kept = _parsed.pop(key, None)
            if kept is not None:
                if parse_memo_policy != USE_ONCE:
                    _parsed[key] = kept.clone()
                return kept
    try:
        module = llvm().parse_assembly(text)
        module.verify()
    except RuntimeError as exc:
        raise CompileError(f"{target}: IR from {what} does not verify: {str(exc).splitlines()[0]}",
                           log=str(exc)) from exc
    if key is not None and parse_memo_policy != USE_ONCE:
        with _LOCK:
            if parse_memo_policy == KEEP or key in _seen:
                while len(_parsed) >= _MEMO_ENTRIES:
                    _parsed.pop(next(iter(_parsed)))
                _parsed[key] = module.clone()
            _seen.add(key)
    return module


def in_worker(function: Callable[..., R], *args, target: str, kernels: Sequence[str] = (),
              source_name: str = "<source>", stage: str = "codegen", **kwargs) -> R:
    """``function(*args, **kwargs)`` in a build worker unless this process is one; ``target``,
    ``kernels``, ``source_name`` and ``stage`` name what was being compiled if LLVM aborts (so
    ``function`` cannot take keyword arguments of these names)."""
    from kernelkit.builder.pool import raise_reply, run_request, runs_here

    if runs_here():
        return function(*args, **kwargs)
    from kernelkit.builder import request_env

    reply = run_request({"kind": "call", "call": pickle.dumps((function, args, kwargs), pickle.HIGHEST_PROTOCOL),
                         "target": target, "kernels": [str(k) for k in kernels], "filename": source_name,
                         "stage": stage, "env": request_env(), "cwd": os.getcwd()})
    if reply.get("ok"):
        return pickle.loads(reply["result"])
    if reply.get("exception") is not None:
        try:
            error = pickle.loads(reply["exception"])   # the exception itself, when it pickles both ways
        except Exception:  # noqa: BLE001 - it does not: rebuilt from the reply's fields below
            error = None
        if isinstance(error, BaseException):
            raise error
    raise_reply(reply)
    raise AssertionError("raise_reply returned")
