"""Building OpenCL C for any target, safely and fast.

``build(source, target, options)`` serves a build from the whole-binary cache
(``builder.key``: no LLVM, numpy or subprocess on a hit), else compiles it in a reusable worker
process (``builder.pool``) so that LLVM aborting becomes a CompileError instead of the end of
the caller. ``build_many`` compiles several (source, target) pairs in parallel worker processes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from kernelkit.cache import cache_disabled

__all__ = ["BuildJob", "BuildResult", "build", "build_checked_host", "build_many", "build_specialised_host",
           "build_spirv", "build_visa_program"]

# the environment a request brings along to a worker (started with an older copy of it)
REQUEST_ENV = ("KERNELKIT_CACHE_DIR", "KERNELKIT_NO_CACHE", "KERNELKIT_CACHE_MAX_BYTES")


def request_env() -> dict[str, str]:
    return {name: os.environ[name] for name in REQUEST_ENV if name in os.environ}


# plain classes, not dataclasses: a cached build imports as little as it can
class BuildResult:
    """A target binary, the compiler's log (warnings) and whether the cache served it."""

    __slots__ = ("binary", "log", "target", "kernels", "from_cache")

    def __init__(self, binary: bytes, log: str, target: str, kernels: Sequence[str] = (),
                 from_cache: bool = False):
        self.binary, self.log, self.target = binary, log, target
        self.kernels, self.from_cache = list(kernels), from_cache

    def __repr__(self) -> str:
        return (f"BuildResult(target={self.target!r}, {len(self.binary)} bytes, kernels={self.kernels!r}, "
                f"from_cache={self.from_cache})")


class BuildJob:
    """One (source, target) pair of ``build_many``."""

    __slots__ = ("source", "target", "options", "filename", "spirv")

    def __init__(self, source: str, target: str, options: Sequence[str] = (), filename: str = "<source>",
                 spirv: bytes | None = None):
        self.source, self.target, self.options, self.filename = source, target, list(options), filename
        self.spirv = spirv

    def __repr__(self) -> str:
        return f"BuildJob({self.filename!r}, {self.target!r})"


def build(source: str, target: str, options: Sequence[str] = (), *, filename: str = "<source>",
          use_cache: bool = True, on_stage: Callable[[dict], None] | None = None,
          spirv: bytes | None = None, spec_constants: dict[int, object] | None = None,
          kind: str = "build") -> BuildResult:
    """OpenCL C ``source`` (or ``spirv``, its specialisation constants set from ``spec_constants``,
    SpecId -> value) -> ``target`` binary (or what the worker request ``kind`` makes of it). Raises
    CompileError (with clang's diagnostics, or LLVM's message if it aborted) or MuxError (unknown
    target, unsupported feature)."""
    from kernelkit.builder import key as binary_cache

    options = [str(o) for o in options]
    spec_pairs = sorted((int(k), v) for k, v in (spec_constants or {}).items())
    caching = use_cache and not cache_disabled()
    cache_key = None
    if caching:
        variant = "spirv:" + spirv.hex() + repr(spec_pairs) if spirv is not None else ""
        cache_key = binary_cache.binary_key(source, target, options, filename,
                                            variant=variant if kind == "build" else f"{kind}:{variant}")
        hit = binary_cache.lookup(cache_key)
        if hit is not None:
            return BuildResult(hit.binary, hit.log, target, hit.kernels, from_cache=True)
    from kernelkit.builder.pool import raise_reply, run_request

    env = request_env()
    if not use_cache:
        env["KERNELKIT_NO_CACHE"] = "1"
    reply = run_request({"kind": kind, "source": source, "target": target, "options": options, "filename": filename,
                         "spirv": spirv, "spec_constants": [list(p) for p in spec_pairs], "env": env, "cwd": os.getcwd()}, on_stage)
    if not reply.get("ok"):
        raise_reply(reply)
    result = BuildResult(reply["binary"], reply.get("log") or "", target, list(reply.get("kernels") or ()))
    if cache_key is not None:
        binary_cache.store(cache_key, result.binary, result.log,
                           [tuple(d) for d in reply.get("deps") or ()], result.kernels)
    return result


def build_visa_program(source: str, target: str, options: Sequence[str] = (), *, filename: str = "<source>",
                       spirv: bytes | None = None) -> BuildResult:
    """What the vISA simulator runs for ``target`` (visa:<platform>): the VisaBinary container
    (kernelkit.targets.visa.module: every kernel's text, payload, or why it was refused), compiled
    in a worker process and cached like target binaries (``--simd`` is one of the options)."""
    return build(source, target, options, filename=filename, spirv=spirv, kind="visa-program")


def build_spirv(source: str, options: Sequence[str] = (), *, filename: str = "<source>", bits: int = 64,
                use_cache: bool = True) -> BuildResult:
    """OpenCL C ``source`` -> a SPIR-V module (LLVM's SPIR-V backend, kernelkit.frontend.spirv.emit), in a
    worker process: the backend aborting is a CompileError. Cached like target binaries."""
    from kernelkit.builder import key as binary_cache
    from kernelkit.builder.pool import raise_reply, run_request

    options = [str(o) for o in options]
    triple = "spir64-unknown-unknown" if bits == 64 else "spir-unknown-unknown"
    cache_key = None
    if use_cache and not cache_disabled():
        cache_key = binary_cache.binary_key(source, "spirv", options, filename, variant=triple)
        hit = binary_cache.lookup(cache_key)
        if hit is not None:
            return BuildResult(hit.binary, hit.log, "spirv", from_cache=True)
    env = request_env()
    reply = run_request({"kind": "spirv", "source": source, "target": "spirv", "options": options,
                         "filename": filename, "triple": triple, "env": env, "cwd": os.getcwd()})
    if not reply.get("ok"):
        raise_reply(reply)
    result = BuildResult(reply["binary"], reply.get("log") or "", "spirv")
    if cache_key is not None:
        binary_cache.store(cache_key, result.binary, result.log, [tuple(d) for d in reply.get("deps") or ()], [])
    return result


def build_many(jobs: Sequence[BuildJob], *, workers: int | None = None, use_cache: bool = True,
               on_stage: Callable[[BuildJob, dict], None] | None = None,
               on_done: Callable[[BuildJob, BuildResult | BaseException], None] | None = None,
               ) -> list[BuildResult | BaseException]:
    """Build every job, ``workers`` at a time (default: the number of CPUs), each in its own worker
    process; the result of each job in order — a BuildResult or the exception it raised."""
    workers = max(1, min(len(jobs) or 1, workers or os.cpu_count() or 1))

    def one(job: BuildJob) -> BuildResult | BaseException:
        try:
            outcome: BuildResult | BaseException = build(
                job.source, job.target, job.options, filename=job.filename, use_cache=use_cache, spirv=job.spirv,
                on_stage=(lambda stage: on_stage(job, stage)) if on_stage else None)
        except Exception as exc:  # reported per job; the others go on
            outcome = exc
        if on_done is not None:
            on_done(job, outcome)
        return outcome

    if workers == 1:
        return [one(job) for job in jobs]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))


def _derived_host(binary, kind: str, variant: str, extra: dict):
    """A host binary derived from another in a worker process (request ``kind``), cached under the
    source binary's bytes and ``variant``."""
    from kernelkit.builder import key as binary_cache
    from kernelkit.builder.pool import raise_reply, run_request
    from kernelkit.targets.host.binary import read_host_binary

    data = binary.to_bytes()
    cache_key = None
    if not cache_disabled():
        import hashlib

        cache_key = binary_cache.binary_key("", "host", [], f"<{kind}>",
                                            variant=hashlib.sha256(data).hexdigest() + variant)
        hit = binary_cache.lookup(cache_key)
        if hit is not None:
            return read_host_binary(hit.binary)
    env = request_env()
    reply = run_request({"kind": kind, "binary": data, "target": "host", "filename": f"<{kind}>",
                         "env": env, "cwd": os.getcwd(), **extra})
    if not reply.get("ok"):
        raise_reply(reply)
    if cache_key is not None:
        binary_cache.store(cache_key, reply["binary"], "", [], reply.get("kernels") or [])
    return read_host_binary(reply["binary"])


def build_specialised_host(binary, kernel: str, local_size: tuple[int, int, int]):
    """Kernel ``kernel`` of a host binary compiled for uniform work-groups of ``local_size`` (its local
    size a constant: kernelkit.mux.passes.local_size), in a worker process, cached."""
    return _derived_host(binary, "host-specialised", f":{kernel}:{tuple(local_size)}",
                         {"kernel": kernel, "local_size": list(local_size)})


def build_full_host(binary):
    """A host binary with every kernel's work-item copy (``HostKernelInfo.work_item_copy``), compiled
    from its mux IR in a worker process, cached under the binary's own bytes."""
    return _derived_host(binary, "host-full", "", {})


def build_checked_host(binary):
    """The checked-mode twin of a host binary (``targets.host.binary.HostBinary``): compiled from its
    mux IR in a worker process, cached under the binary's own bytes."""
    return _derived_host(binary, "host-checked", "", {})
