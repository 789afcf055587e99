"""Issue 16 point 5: --no-cache writes nothing, the cache has a size limit, `kernelkit cache info|clear`;
progress on a terminal for long steps."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from conftest import RUN_CACHE, share_libraries

from kernelkit import cache as kcache
from kernelkit.builder.progress import Progress
from kernelkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
MATH = """kernel void m(global float *x) {
  size_t i = get_global_id(0);
  x[i] = sin(x[i]) + exp(x[i]) * pow(x[i], 1.5f) + erf(x[i]);
}
"""


def _run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _snapshot(root: Path) -> dict:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()} \
        if root.exists() else {}


def test_no_cache_writes_nothing(tmp_path, capsys, monkeypatch):
    # a cache holding kernelkit's builtin library (a math-heavy kernel needs it), copied from the run's: other
    # processes of a parallel run write the run's cache, and a read elsewhere marks a linked entry used
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")
    root = share_libraries(RUN_CACHE, tmp_path / "cache", link=False)
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(root))
    assert kcache.cache_root() == root
    src = tmp_path / "m.cl"
    src.write_text(MATH)
    assert _run(["build", src, "-t", "host", "-o", tmp_path / "warm.kkhost"], capsys)[0] == 0   # library cached
    src.write_text(MATH + "// changed\n")
    before = _snapshot(root)
    for target in ("host", "gfx90a"):
        code, _, err = _run(["build", src, "-t", target, "--no-cache", "-o", tmp_path / f"m.{target}"], capsys)
        assert code == 0, err
        monkeypatch.setenv("KERNELKIT_NO_CACHE", "")
    code, _, err = _run(["build", src, "--emit", "llvm", "--no-cache", "-o", tmp_path / "m.ll"], capsys)
    assert code == 0, err
    assert _snapshot(root) == before


def test_cache_info_and_clear(tmp_path, capsys, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(root))
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")
    src = tmp_path / "k.cl"
    src.write_text("kernel void k(global int *o) { o[get_global_id(0)] = 2; }\n")
    assert _run(["build", src, "-t", "host", "-o", tmp_path / "k.kkhost"], capsys)[0] == 0
    foreign = root / "README-not-ours.txt"
    foreign.write_text("keep me")
    entries = [p for p in root.rglob("*") if p.is_file() and p.parent.name == p.name[:2]]
    assert entries
    code, out, _ = _run(["cache", "info", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["directory"] == str(root)
    assert doc["entries"] == len(entries) and doc["bytes"] == sum(p.stat().st_size for p in entries)
    code, out, _ = _run(["cache", "clear"], capsys)
    assert code == 0 and f"removed {len(entries)} entries" in out
    assert [p for p in root.rglob("*") if p.is_file()] == [foreign]


def test_size_limit_removes_least_recently_used(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELKIT_CACHE_MAX_BYTES", "4K")
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")
    store = kcache.Cache("test", root=tmp_path)
    keys = [f"{i:02x}" * 32 for i in range(12)]
    for i, key in enumerate(keys):
        store.put(key, bytes(500))
        os.utime(store.path(key), (1_000_000 + i, 1_000_000 + i))   # put order = use order
        if i == 3:
            assert store.get(keys[0]) is not None                       # a hit makes it recent
    on_disk = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in on_disk) <= 4096
    assert store.get(keys[-1]) == bytes(500) and store.get(keys[0]) == bytes(500) and store.get(keys[1]) is None
    monkeypatch.setenv("KERNELKIT_CACHE_MAX_BYTES", "lots")
    with pytest.raises(Exception, match="KERNELKIT_CACHE_MAX_BYTES"):
        kcache.max_bytes()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_long_steps_on_a_terminal_only():
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        with Progress(stream, delay=0.2) as progress:
            progress.update("k.cl", "building k.cl -> gfx90a: codegen")
            progress.update("quick.cl", "building quick.cl -> host")
            progress.done("quick.cl")
            time.sleep(0.8)
    assert "kernelkit: building k.cl -> gfx90a: codegen ... " in terminal.getvalue()
    assert "quick.cl" not in terminal.getvalue()
    assert terminal.getvalue().endswith("\r")                    # the status line is cleared at the end
    assert pipe.getvalue() == ""


def test_cache_off_writes_nothing_even_for_kernelkits_own_library(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")
    library, program = kcache.Cache("clc", root=tmp_path, library=True), kcache.Cache("frontend", root=tmp_path)
    library.put("aa" * 32, b"prebuilt")
    program.put("bb" * 32, b"program")
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "1")
    before = _snapshot(tmp_path)
    library.put("cc" * 32, b"new library entry")
    program.put("dd" * 32, b"new program entry")
    assert library.get("aa" * 32) == b"prebuilt" and program.get("bb" * 32) is None
    assert _snapshot(tmp_path) == before
