"""The compile cache: hits, misses on every input that matters, atomic entries under concurrency."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from pathlib import Path

import pytest

from kernelkit import cache as kcache
from kernelkit.frontend import clang, compile_opencl, compile_opencl_file
from kernelkit.frontend import opencl as fe

SRC = "kernel void k(global int *o, int v) { o[get_global_id(0)] = v * 3; }\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(d))
    return d


def _runs(fn) -> int:
    before = clang.INVOCATIONS
    fn()
    return clang.INVOCATIONS - before


def test_repeated_compile_is_served_from_cache(cache_dir):
    first = compile_opencl(SRC, ["-O2"])
    assert not first.from_cache
    runs = _runs(lambda: compile_opencl(SRC, ["-O2"]))
    second = compile_opencl(SRC, ["-O2"])
    assert runs == 0 and second.from_cache
    assert second.ir_text == first.ir_text and second.log == first.log
    assert any(p.is_file() for p in (cache_dir / fe.CACHE_NAMESPACE).rglob("*"))


def test_cache_directory_default_and_override(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.delenv("KERNELKIT_CACHE_DIR", raising=False)
    assert kcache.cache_root() == Path(platformdirs.user_cache_dir("kernelkit", appauthor=False))
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(tmp_path))
    assert kcache.cache_root() == tmp_path


def test_no_cache_bypasses(cache_dir):
    compile_opencl(SRC)
    assert _runs(lambda: compile_opencl(SRC, use_cache=False)) == 1
    assert not compile_opencl(SRC, use_cache=False).from_cache


@pytest.mark.parametrize("change", [
    lambda: compile_opencl(SRC + "\n", ["-O2"]),                                # source
    lambda: compile_opencl(SRC, ["-O3"]),                                       # options
    lambda: compile_opencl(SRC, ["-O2", "-DX=1"]),
    lambda: compile_opencl(SRC, ["-O2"], triple="spir-unknown-unknown"),         # triple
    lambda: compile_opencl(SRC, ["-O2"], filename="other.cl"),                  # name in diagnostics
])
def test_each_input_is_part_of_the_key(cache_dir, change):
    compile_opencl(SRC, ["-O2"])
    assert _runs(change) == 1


def test_header_and_clang_version_are_part_of_the_key(cache_dir, monkeypatch, tmp_path):
    compile_opencl(SRC)
    header = tmp_path / "kernelkit_opencl.h"
    header.write_bytes(fe.BASE_HEADER.read_bytes() + b"/* changed */\n")
    monkeypatch.setattr(fe, "BASE_HEADER", header)
    assert _runs(lambda: compile_opencl(SRC)) == 1
    monkeypatch.setattr(clang, "clang_version", lambda: "clang version 99.0.0")
    assert _runs(lambda: compile_opencl(SRC)) == 1
    assert _runs(lambda: compile_opencl(SRC)) == 0


def test_changed_include_invalidates(cache_dir, tmp_path):
    (tmp_path / "inc.h").write_text("#define V 1\n")
    path = tmp_path / "k.cl"
    path.write_text('#include "inc.h"\nkernel void k(global int *o) { o[0] = V; }\n')
    first = compile_opencl_file(path, ["-O2"])
    assert _runs(lambda: compile_opencl_file(path, ["-O2"])) == 0
    (tmp_path / "inc.h").write_text("#define V 2\n")
    second = compile_opencl_file(path, ["-O2"])
    assert not second.from_cache
    assert "store i32 1" in first.ir_text and "store i32 2" in second.ir_text


def test_damaged_entry_reads_as_a_miss(cache_dir):
    compile_opencl(SRC)
    entries = [p for p in (cache_dir / fe.CACHE_NAMESPACE).rglob("*") if p.is_file()]
    assert len(entries) == 1
    data = entries[0].read_bytes()
    for damaged in (data[: len(data) // 2], data[:10], b"", data[:-1] + bytes([data[-1] ^ 1])):
        entries[0].write_bytes(damaged)
        r = compile_opencl(SRC)
        assert not r.from_cache and "spir_kernel" in r.ir_text
    assert compile_opencl(SRC).from_cache


def test_unwritable_cache_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(blocker))
    assert "spir_kernel" in compile_opencl(SRC).ir_text


# ---- concurrency: processes racing on the same entries ----

def _compile_worker(args) -> tuple[str, int]:
    cache_dir, rounds = args
    os.environ["KERNELKIT_CACHE_DIR"] = cache_dir
    digests = set()
    for i in range(rounds):
        r = compile_opencl(SRC + f"// {i % 3}\n", ["-O2"])
        digests.add(hashlib.sha256(r.ir_text.encode()).hexdigest() + str(i % 3))
    return ",".join(sorted(digests)), clang.INVOCATIONS


def test_concurrent_compiles_agree(tmp_path):
    expected = ",".join(sorted(hashlib.sha256(compile_opencl(SRC + f"// {i}\n", ["-O2"], use_cache=False)
                                              .ir_text.encode()).hexdigest() + str(i) for i in range(3)))
    with multiprocessing.get_context("fork").Pool(4) as pool:
        results = pool.map(_compile_worker, [(str(tmp_path), 6)] * 4)
    assert all(digests == expected for digests, _ in results)


def _writer(args) -> None:
    root, wid, rounds = args
    c = kcache.Cache("stress", Path(root))
    for i in range(rounds):
        c.put("k" * 64, _payload(wid, i))


def _payload(wid: int, i: int) -> bytes:
    head = f"{wid}:{i}:".encode()
    return head + bytes([wid]) * (300_000 + 4096 * wid)


def _reader(args) -> tuple[int, int]:
    root, rounds = args
    c = kcache.Cache("stress", Path(root))
    seen = bad = 0
    for _ in range(rounds):
        try:  # the file itself, not only what get() accepts, is always complete
            raw = c.path("k" * 64).read_bytes()
        except FileNotFoundError:
            continue
        head = len(kcache.ENTRY_MAGIC) + 32
        if kcache.entry_digest("stress", "k" * 64, raw[head:]) != raw[len(kcache.ENTRY_MAGIC):head]:
            bad += 1
        data = c.get("k" * 64)
        if data is None:
            bad += 1
            continue
        seen += 1
        wid, i, _rest = data.split(b":", 2)
        if data != _payload(int(wid), int(i)):
            bad += 1
    return seen, bad


def test_readers_never_see_a_half_written_entry(tmp_path):
    """Writers replace one entry over and over with payloads of different sizes while readers
    read it: every read is absent or one complete payload."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(4) as pool:
        writes = pool.map_async(_writer, [(str(tmp_path), w, 40) for w in (1, 2)])
        reads = pool.map_async(_reader, [(str(tmp_path), 300)] * 2)
        writes.get(timeout=120)
        results = reads.get(timeout=120)
    assert sum(seen for seen, _ in results) > 0
    assert all(bad == 0 for _, bad in results)
    leftovers = [p.name for p in (tmp_path / "stress").rglob(".tmp-*")]
    assert leftovers == []
