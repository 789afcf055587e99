"""clang 22 from the ziglang wheel: locating it, its version, running it.

``zig clang`` is clang's own driver inside the zig binary; calling the binary directly (rather
than ``python -m ziglang clang``) saves a Python start-up per compile. ``INVOCATIONS`` counts the
compiler runs of this process (tests use it to see cache hits).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from kernelkit.errors import CompileError

INVOCATIONS = 0

# Variables that would make clang read headers or options from outside the compile's inputs.
_IGNORED_ENV = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
                "CCC_OVERRIDE_OPTIONS", "CL_CONFIG", "CLANG_CONFIG_FILE_SYSTEM_DIR")


@functools.cache
def zig_command(tool: str) -> tuple[str, ...]:
    """The command prefix that runs one of the ziglang wheel's LLVM tools (``<zig> clang``,
    ``<zig> ld.lld``): the zig binary itself, without a Python start-up per call."""
    try:
        import ziglang
    except ImportError:
        raise CompileError("the ziglang package (which provides clang and lld) is not installed") from None
    zig = Path(ziglang.__file__).parent / ("zig.exe" if sys.platform == "win32" else "zig")
    if zig.exists():
        return (str(zig), tool)
    return (sys.executable, "-m", "ziglang", tool)


def clang_command() -> tuple[str, ...]:
    """The command prefix that runs clang (``<zig> clang``)."""
    return zig_command("clang")


@functools.cache
def clang_version() -> str:
    """clang's ``--version`` first line, e.g. ``clang version 22.1.8`` (kept in the cache under the
    zig binary's path, size and time: a compile does not start clang once more just to ask)."""
    from kernelkit.cache import Cache, make_key

    binary = clang_command()[0]
    try:
        st = os.stat(binary)
        key = make_key("clang --version", binary, str(st.st_size), str(st.st_mtime_ns))
    except OSError:
        key = None
    store = Cache("tools", library=True)
    cached = store.get(key) if key else None
    if cached:
        return cached.decode("utf-8", "replace")
    result = run_clang(["--version"], count=False)
    version = result.stdout.splitlines()[0].strip() if result.stdout else "unknown"
    if key and result.returncode == 0:
        store.put(key, version.encode())
    return version


@dataclass
class ClangResult:
    returncode: int
    stdout: str
    stderr: str


def run_clang(args: list[str], *, cwd: str | None = None, count: bool = True) -> ClangResult:
    """Run clang with ``args``; its output is decoded leniently (never raises on bad bytes)."""
    global INVOCATIONS
    env = {k: v for k, v in os.environ.items() if k not in _IGNORED_ENV}
    try:
        proc = subprocess.run([*clang_command(), *args], cwd=cwd, env=env, capture_output=True,
                              timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CompileError(f"could not run clang: {exc}") from None
    if count:
        INVOCATIONS += 1
    return ClangResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                       proc.stderr.decode("utf-8", "replace"))
