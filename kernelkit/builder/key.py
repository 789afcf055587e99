"""The whole-binary cache: one entry per (source, includes, options, target, kernelkit, tools).

A hit is served without importing LLVM, numpy or the compiler and without running a
subprocess: the key is made from the inputs as given plus cheap fingerprints — of kernelkit's
own files (path, size, modification time), of clang (the ziglang wheel's binary) and of
llvmlite's LLVM library, and for the host target of the CPU the code was compiled for. An entry
also records every file the compile included with its SHA-256, so a changed header is a miss.
"""

from __future__ import annotations

import functools
import marshal
import os
import sys
from collections.abc import Sequence

from kernelkit.cache import Cache, cache_dir, make_key, read_entry, sha256

NAMESPACE = "binary-v1"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


_FINGERPRINTED = (".py", ".cl", ".h", ".ll", ".yaml", ".json")


def _tree_lines(root: str, out: list[str]) -> None:
    """One line (path, size, modification time) per source file under ``root``, in name order
    (plain strings and one scandir per folder: this runs in every CLI build)."""
    try:
        with os.scandir(root) as entries:
            items = sorted(entries, key=lambda e: e.name)
    except OSError:
        return
    for item in items:
        name = item.name
        if name == "__pycache__" or name.startswith("."):
            continue
        if item.is_dir(follow_symlinks=False):
            _tree_lines(item.path, out)
        elif name.endswith(_FINGERPRINTED):
            st = item.stat()
            out.append(f"{item.path}\0{st.st_size}\0{st.st_mtime_ns}\n")


def _file_stamp(path: str | None) -> str:
    if path is None:
        return "absent"
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:absent"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _package_folder(package: str) -> str | None:
    """The folder of the top-level package ``package`` as an import would find it: the first entry of
    sys.path holding it as a regular package (what the path finder takes first), else what importlib
    finds (a namespace package, a custom finder); without importing importlib.util when the first works."""
    for entry in sys.path:
        folder = os.path.join(entry or os.getcwd(), package)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return folder
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(iter(spec.submodule_search_locations))


def _package_file(package: str, *names: str) -> str | None:
    base = _package_folder(package)
    if base is None:
        return None
    for name in names:
        path = os.path.join(base, name)
        if os.path.exists(path):
            return path
    return None


@functools.cache
def toolchain_fingerprint() -> str:
    """kernelkit's own files, clang (zig) and llvmlite's LLVM, as one digest (computed once)."""
    lines: list[str] = []
    _tree_lines(_PACKAGE, lines)
    h = sha256("".join(lines).encode())
    h.update(_file_stamp(_package_file("ziglang", "zig", "zig.exe")).encode())
    h.update(_file_stamp(_package_file("llvmlite", "binding/libllvmlite.so", "binding/libllvmlite.dylib",
                                       "binding/llvmlite.dll")).encode())
    return h.hexdigest()


@functools.cache
def host_cpu_fingerprint() -> str:
    """What the host target compiles for: the CPU's model and features (no LLVM import)."""
    import platform

    text = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            block = f.read(1 << 16).split("\n\n", 1)[0]
        text = "\n".join(line for line in block.splitlines()
                         if line.startswith(("vendor_id", "cpu family", "model", "flags")))
    except OSError:
        pass
    return sha256(f"{platform.machine()}\n{platform.processor()}\n{text}".encode()).hexdigest()


def _key_options(options: Sequence[str]) -> list[str]:
    """The options with -I directories made absolute (they resolve against the working directory)."""
    out: list[str] = []
    i = 0
    opts = list(options)
    while i < len(opts):
        o = opts[i]
        if o == "-I" and i + 1 < len(opts):
            out += ["-I", os.path.abspath(opts[i + 1])]
            i += 2
            continue
        out.append("-I" + os.path.abspath(o[2:]) if o.startswith("-I") and len(o) > 2 else o)
        i += 1
    return out


def binary_key(source: str, target: str, options: Sequence[str], filename: str, variant: str = "") -> str:
    """The whole-binary cache key of one build."""
    quote_dir = "" if filename == "<source>" else os.path.dirname(os.path.abspath(filename))
    cpu = host_cpu_fingerprint() if target == "host" else ""
    return make_key(NAMESPACE, sys.version, toolchain_fingerprint(), cpu, target, variant, source, filename,
                    quote_dir, "\0".join(_key_options(options)))


class CachedBinary:
    __slots__ = ("binary", "log", "kernels")

    def __init__(self, binary: bytes, log: str, kernels: list[str]):
        self.binary, self.log, self.kernels = binary, log, kernels


def _digest(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return sha256(f.read()).hexdigest()
    except OSError:
        return "missing"


def lookup(key: str) -> CachedBinary | None:
    """The entry under ``key`` if every file it included is unchanged."""
    payload = read_entry(cache_dir(), NAMESPACE, key)
    if payload is None:
        return None
    try:
        entry = marshal.loads(payload)    # (the key holds Python's version: marshal's format is its own)
        binary, log, deps, kernels = entry["binary"], entry["log"], entry["deps"], entry["kernels"]
        if not isinstance(binary, bytes) or not isinstance(log, str):
            return None
        if any(_digest(path) != digest for path, digest in deps):
            return None
        return CachedBinary(binary, log, [str(k) for k in kernels])
    except (ValueError, KeyError, TypeError, EOFError):
        return None


def store(key: str, binary: bytes, log: str, deps: Sequence[tuple[str, str]], kernels: Sequence[str]) -> None:
    Cache(NAMESPACE).put(key, marshal.dumps({"binary": bytes(binary), "log": str(log),
                                             "deps": [(str(p), str(d)) for p, d in deps],
                                             "kernels": [str(k) for k in kernels]}))
