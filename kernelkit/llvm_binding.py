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


def in_worker(function: Callable[..., R], *args, target: str, kernels: Sequence[str] = (),
              filename: str = "<source>", stage: str = "codegen", **kwargs) -> R:
    """``function(*args, **kwargs)`` in a build worker unless this process is one; ``target``,
    ``kernels``, ``filename`` and ``stage`` name what was being compiled if LLVM aborts."""
    from kernelkit.builder.pool import raise_reply, run_request, runs_here

    if runs_here():
        return function(*args, **kwargs)
    from kernelkit.builder import request_env

    reply = run_request({"kind": "call", "call": pickle.dumps((function, args, kwargs), pickle.HIGHEST_PROTOCOL),
                         "target": target, "kernels": [str(k) for k in kernels], "filename": filename,
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
