"""Cache safety (issue 17.4) beside test_cache.py's process races and damaged entries: threads building
into one cache (same and different sources), a disk that fills up in the middle of writing an entry, and
entries damaged in every way a crash or a foreign write can leave them. Every outcome is a rebuild giving
the same IR as an uncached compile, never a wrong or partial entry read back."""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernelkit import cache as kcache
from kernelkit.frontend import compile_opencl
from kernelkit.frontend import opencl as fe

SOURCES = [f"kernel void k{i}(global int *o, int v) {{ o[get_global_id(0)] = v * {i + 2}; }}\n" for i in range(3)]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(d))
    return d


def _entries(root: Path) -> list[Path]:
    return [p for p in (root / fe.CACHE_NAMESPACE).rglob("*") if p.is_file()]


def test_threads_building_into_one_cache_agree(cache_dir):
    expected = [compile_opencl(s, use_cache=False).ir_text for s in SOURCES]
    jobs = [i % len(SOURCES) for i in range(12)]        # each source four times, same and different at once
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda i: (i, compile_opencl(SOURCES[i]).ir_text), jobs))
    assert all(ir == expected[i] for i, ir in results)
    assert len(_entries(cache_dir)) == len(SOURCES)
    assert not list(cache_dir.rglob(".tmp-*"))
    assert all(compile_opencl(s).from_cache for s in SOURCES)


class _DiskFull:
    """A file object that accepts ``room`` bytes, then fails as a full disk does."""

    def __init__(self, f, room: int):
        self.f, self.room = f, room

    def write(self, data) -> int:
        if len(data) > self.room:
            self.f.write(bytes(data[:self.room]))
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


@pytest.mark.parametrize("room", [0, 10, 40, 1000])
def test_disk_full_while_writing_leaves_no_entry(cache_dir, monkeypatch, room):
    real_fdopen = os.fdopen
    monkeypatch.setattr(kcache.os, "fdopen", lambda fd, mode: _DiskFull(real_fdopen(fd, mode), room))
    first = compile_opencl(SOURCES[0])
    assert "spir_kernel" in first.ir_text and not first.from_cache
    assert _entries(cache_dir) == [] and not list(cache_dir.rglob(".tmp-*"))
    monkeypatch.setattr(kcache.os, "fdopen", real_fdopen)
    again = compile_opencl(SOURCES[0])                  # a miss that rebuilds and now stores
    assert not again.from_cache and again.ir_text == first.ir_text
    assert compile_opencl(SOURCES[0]).from_cache


def test_file_size_limit_in_a_real_process(tmp_path):
    """A real write failure (RLIMIT_FSIZE: EFBIG, as ENOSPC a failed write) in a separate process:
    Cache.put stores nothing and leaves no temporary file; get is a miss."""
    code = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from kernelkit import cache\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "c = cache.Cache('x', Path(sys.argv[1]))\n"
        "c.put('a' * 64, b'y' * 100000)\n"
        "c.put('b' * 64, b'z' * 100)\n"
        "print(c.get('a' * 64) is None, c.get('b' * 64) == b'z' * 100)\n")
    assert signal.SIGXFSZ and resource.RLIMIT_FSIZE
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
    assert not list(tmp_path.rglob(".tmp-*"))


@pytest.mark.parametrize("damage", [
    lambda d: d[:len(kcache.ENTRY_MAGIC) + 32],                  # header only: payload lost
    lambda d: d + b"\0" * 4096,                                  # zero-filled tail (crash after extend)
    lambda d: bytes(len(d)),                                     # all zeros (crash before data reached disk)
    lambda d: d[:40] + bytes([d[40] ^ 0x80]) + d[41:],           # one flipped bit in the payload
    lambda d: kcache.ENTRY_MAGIC + bytes(32) + d[36:],           # digest wiped
], ids=["header-only", "zero-tail", "zeros", "bit-flip", "digest"])
def test_damaged_entry_is_rebuilt(cache_dir, damage):
    good = compile_opencl(SOURCES[1])
    (entry,) = _entries(cache_dir)
    entry.write_bytes(damage(entry.read_bytes()))
    again = compile_opencl(SOURCES[1])
    assert not again.from_cache and again.ir_text == good.ir_text
    assert compile_opencl(SOURCES[1]).from_cache
