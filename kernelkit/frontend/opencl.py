"""OpenCL C -> SPIR-flavoured LLVM IR through clang (``compile_opencl``).

Every compile includes kernelkit's own base header (``include/kernelkit_opencl.h``) and uses
clang's ``-fdeclare-opencl-builtins`` for the builtin declarations and ``-cl-kernel-arg-info``
for the kernel_arg_* metadata. The IR uses SPIR address spaces (1 global, 2 constant, 3 local,
4 generic). Results are cached on disk (``kernelkit.cache``) unless ``use_cache=False`` or the
environment sets ``KERNELKIT_NO_CACHE=1``; the key covers the source, its name, the normalised
options, the triple, the base header's bytes, clang's version and kernelkit's version, and an
entry also records the files the compile included (with their SHA-256) so a changed header is
a miss.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

from kernelkit.errors import CompileError
from kernelkit.frontend import clang
from kernelkit.frontend.diagnostics import Diagnostic, clean_log, first_error, parse_diagnostics
from kernelkit.frontend.options import BuildOptions, parse_options
from kernelkit.frontend.printf_order import with_printf_order

BASE_HEADER = Path(__file__).parent / "include" / "kernelkit_opencl.h"
DEFAULT_TRIPLE = "spir64-unknown-unknown"
CACHE_NAMESPACE = "frontend-v1"

# clang arguments common to every compile (after the options' own arguments).
_FIXED_ARGS = ("-x", "cl", "-cl-no-stdinc", "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins",
               "-cl-kernel-arg-info", "-S", "-emit-llvm", "-fno-color-diagnostics",
               "-fno-caret-diagnostics", "-fno-crash-diagnostics")
# clang's code generation at the -O level asked for, but none of LLVM's passes (``llvm_passes=False``)
NO_LLVM_PASSES = ("-Xclang", "-disable-llvm-passes")
USE_LISTS = ("-Xclang", "-emit-llvm-uselists")   # the order of printf's uses (printf_order.py)


@dataclass
class CompiledSource:
    """The frontend's output for one source: LLVM IR text and clang's log (warnings)."""

    ir_text: str
    log: str
    triple: str = DEFAULT_TRIPLE
    options: BuildOptions = field(default_factory=BuildOptions)
    filename: str = "<source>"
    from_cache: bool = False
    deps: list[tuple[str, str]] = field(default_factory=list)  # (path, sha256) of each included file

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return parse_diagnostics(self.log)

    def module(self):
        """The IR parsed into kernelkit's IR model."""
        from kernelkit import ir

        return ir.parse(self.ir_text)


def _source_file_name(filename: str) -> str:
    """A safe name for the temporary copy of the source (it appears as the IR's source_filename)."""
    base = os.path.basename(filename)
    return base if re.fullmatch(r"[A-Za-z0-9_.+-]+", base) and base not in (".", "..") else "source.cl"


def _line_directive(filename: str) -> str:
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'#line 1 "{escaped}"\n'


def _read_deps(depfile: Path, exclude: set[str]) -> list[tuple[str, str]]:
    """(path, sha256) of the files the compile read, from clang's make-style dependency file."""
    try:
        text = depfile.read_text("utf-8", "replace")
    except OSError:
        return []
    text = text.replace("\\\n", " ")
    _, _, rest = text.partition(": ")
    paths = [p.replace("\\ ", " ") for p in re.findall(r"(?:\\ |[^\s])+", rest)]
    deps = []
    for p in paths:
        full = os.path.realpath(p)
        if full in exclude:
            continue
        deps.append((full, _file_digest(full)))
    return deps


def _file_digest(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _quote_dir(filename: str) -> str | None:
    """The directory ``#include "..."`` searches first: that of the named source file."""
    if filename == "<source>":
        return None
    source_dir = os.path.dirname(os.path.abspath(filename))
    return source_dir if os.path.isdir(source_dir) else None


def _compilation_dir(filename: str) -> str:
    """DW_AT_comp_dir of -g builds: where a relative source name is found (the caller's directory),
    never clang's temporary directory, so that the same build gives the same bytes."""
    if filename == "<source>" or os.path.isabs(filename):
        return "."
    return os.getcwd()


def _cache_key(source: str, filename: str, opts: BuildOptions, triple: str, llvm_passes: bool = True) -> str:
    from kernelkit import __version__
    from kernelkit.cache import make_key

    mode = triple if llvm_passes else f"{triple}\0{NO_LLVM_PASSES[-1]}\0{USE_LISTS[-1]}"
    return make_key(source, filename, mode, "\0".join(opts.canonical()), BASE_HEADER.read_bytes(),
                    clang.clang_version(), __version__, _quote_dir(filename) or "")


def _from_cache(cache, key: str) -> tuple[str, str, list] | None:
    payload = cache.get(key)
    if payload is None:
        return None
    try:
        entry = msgpack.unpackb(payload)
        ir_text, log, deps = entry["ir"], entry["log"], entry["deps"]
        if any(_file_digest(path) != digest for path, digest in deps):
            return None  # an included header changed since
        return ir_text, log, [(str(p), str(d)) for p, d in deps]
    except (ValueError, KeyError, TypeError, msgpack.UnpackException):
        return None


def _run(source: str, filename: str, opts: BuildOptions, triple: str, llvm_passes: bool = True) -> tuple[str, str, list]:
    with tempfile.TemporaryDirectory(prefix="kernelkit-cl-") as tmp:
        name = _source_file_name(filename)
        src = Path(tmp) / name
        src.write_text(_line_directive(filename) + source, encoding="utf-8")
        args = [*opts.clang_args(), *_FIXED_ARGS, "-target", triple, "-include", str(BASE_HEADER),
                "-MD", "-MF", "deps.d", "-o", "out.ll", name]
        if not llvm_passes:
            args[:0] = [*(NO_LLVM_PASSES if opts.opt_level else ()), *USE_LISTS]
        args[:0] = [f"-fdebug-compilation-dir={_compilation_dir(filename)}"]
        quote_dir = _quote_dir(filename)
        if quote_dir:
            args[:0] = ["-iquote", quote_dir]
        result = clang.run_clang(args, cwd=tmp)
        log = clean_log(result.stderr)
        out = Path(tmp) / "out.ll"
        if result.returncode != 0 or not out.exists():
            diagnostics = parse_diagnostics(log)
            first = first_error(diagnostics) or f"clang failed with exit code {result.returncode}"
            raise CompileError(first, log=log, diagnostics=diagnostics)
        deps = _read_deps(Path(tmp) / "deps.d", {os.path.realpath(src), os.path.realpath(BASE_HEADER)})
        ir_text = out.read_text("utf-8")
        return (ir_text if llvm_passes else with_printf_order(ir_text)), log, deps


def compile_opencl(source: str, options: str | Sequence[str] = (), *, filename: str = "<source>",
                   triple: str = DEFAULT_TRIPLE, use_cache: bool = True, llvm_passes: bool = True) -> CompiledSource:
    """Compile OpenCL C ``source`` to LLVM IR text for ``triple`` (spir64 or spir for 32-bit).

    ``options`` are OpenCL build options (a list or one string): ``-D``, ``-I``, ``-cl-std=``,
    ``-O0``..``-O3`` and the spec's ``-cl-*`` options. ``filename`` names the source in
    diagnostics (and its directory is searched for ``#include "..."``). Raises CompileError
    carrying clang's diagnostics and full log. ``llvm_passes=False``: the IR a target's own
    optimisation pipeline takes, as in clang's own compile for that target: above ``-O0`` clang's
    code for the -O level (no ``optnone``, TBAA, lifetimes) but none of LLVM's passes (no inlining),
    and each printf call carries its place in clang's use list of printf (``printf_order``).
    """
    opts = parse_options(options)
    cache = key = None
    if use_cache and os.environ.get("KERNELKIT_NO_CACHE", "") in ("", "0"):
        from kernelkit.cache import Cache

        cache = Cache(CACHE_NAMESPACE)
        key = _cache_key(source, filename, opts, triple, llvm_passes)
        hit = _from_cache(cache, key)
        if hit is not None:
            return CompiledSource(hit[0], hit[1], triple, opts, filename, from_cache=True, deps=hit[2])
    ir_text, log, deps = _run(source, filename, opts, triple, llvm_passes)
    if cache is not None and key is not None:
        cache.put(key, msgpack.packb({"ir": ir_text, "log": log, "deps": deps}))
    return CompiledSource(ir_text, log, triple, opts, filename, deps=deps)


def compile_opencl_file(path: str | os.PathLike, options: str | Sequence[str] = (), *,
                        triple: str = DEFAULT_TRIPLE, use_cache: bool = True) -> CompiledSource:
    """``compile_opencl`` on a file's contents, named by its path in diagnostics."""
    p = Path(path)
    try:
        source = p.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise CompileError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return compile_opencl(source, options, filename=str(p), triple=triple, use_cache=use_cache)
