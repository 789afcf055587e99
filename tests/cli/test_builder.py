"""Issue 17 point 3 (LLVM cannot kill the caller) and issue 18 points 1 and 3 (warm builds from the
whole-binary cache without LLVM, numpy or subprocesses; several builds in parallel worker processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import kernelkit
from kernelkit.builder import BuildJob, build, build_many
from kernelkit.errors import CompileError

ROOT = Path(__file__).resolve().parents[2]
# LLVM 22's AMDGPU backend cannot select a 32-bit atomic add on the flat address space of gfx600
# (Southern Islands has no flat memory): "LLVM ERROR: Cannot select: ... AtomicLoadAdd", then abort().
# (an atomic on an object that is global or local by a run-time choice: its address space stays generic)
ABORTS = ("kernel void bump(global atomic_int *counter, local atomic_int *slot, int where) {\n"
          "  atomic_fetch_add(where ? (generic atomic_int *)counter : (generic atomic_int *)slot, 1);\n}\n")
SAXPY = (ROOT / "examples" / "saxpy.cl").read_text()


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, request):
    # the reproducer needs the builtin library (atomics): those tests keep the user's cache, where
    # kernelkit's own library is built once, and build with the cache off (which still reads it)
    if "user_cache" not in request.fixturenames:
        request.getfixturevalue("isolated_cache")   # a cache of the test's own (conftest)
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")


@pytest.fixture
def user_cache():
    """Marks a test that keeps the user's cache directory (see _isolated)."""


def test_the_reproducer_aborts_a_process_that_compiles_in_process(tmp_path, user_cache):
    code = textwrap.dedent(f"""
        from kernelkit.mux.registry import build_binary
        build_binary({ABORTS!r}, "gfx600", ["-cl-std=CL2.0"], filename="bump.cl")
        print("survived")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "KERNELKIT_NO_CACHE": "1", "KERNELKIT_BUILD_IN_PROCESS": "1"})
    assert proc.returncode == -signal.SIGABRT and "survived" not in proc.stdout
    assert "LLVM ERROR: Cannot select" in proc.stderr


def test_llvm_aborting_is_a_compile_error_naming_kernel_and_message(tmp_path, user_cache):
    with pytest.raises(CompileError) as exc:
        build(ABORTS, "gfx600", ["-cl-std=CL2.0"], filename="bump.cl", use_cache=False)
    message = str(exc.value)
    assert message.startswith("bump.cl: LLVM aborted while compiling kernel bump for gfx600")
    assert "Cannot select" in message and "AtomicLoadAdd" in message and "SIGABRT" in message
    # the caller goes on, and so does building: the next build gets a fresh worker
    again = build(ABORTS, "gfx803", ["-cl-std=CL2.0"], filename="bump.cl", use_cache=False)
    assert again.binary[:4] == b"\x7fELF" and again.kernels == ["bump"]


def test_cli_reports_llvm_aborting_in_one_line(tmp_path, user_cache):
    src = tmp_path / "bump.cl"
    src.write_text(ABORTS)
    proc = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "gfx600", "--cl-std", "CL2.0",
                           "--no-cache", "-o", str(tmp_path / "bump.hsaco")], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
    assert "LLVM aborted while compiling kernel bump for gfx600" in proc.stderr
    assert not (tmp_path / "bump.hsaco").exists()


def test_warm_cli_build_imports_no_llvm_numpy_and_starts_no_subprocess(tmp_path):
    src = tmp_path / "saxpy.cl"
    src.write_text(SAXPY)
    first = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "gfx90a", "-o",
                            str(tmp_path / "a.hsaco")], capture_output=True, text=True, cwd=ROOT, timeout=600,
                           env={**os.environ, "KERNELKIT_CACHE_DIR": str(tmp_path / "cache")})
    assert first.returncode == 0, first.stderr
    probe = textwrap.dedent(f"""
        import subprocess, sys
        def refuse(*a, **k):
            raise AssertionError("a subprocess was started")
        subprocess.Popen.__init__ = refuse
        from kernelkit.cli import main
        code = main(["build", {str(src)!r}, "-t", "gfx90a", "-o", {str(tmp_path / "b.hsaco")!r}])
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("llvmlite", "numpy", "ziglang")
                       or m.startswith(("kernelkit.frontend", "kernelkit.ir", "kernelkit.targets", "kernelkit.mux")))
        print(code, heavy)
    """)
    warm = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "KERNELKIT_CACHE_DIR": str(tmp_path / "cache")})
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.strip() == "0 []"
    assert (tmp_path / "a.hsaco").read_bytes() == (tmp_path / "b.hsaco").read_bytes()


def test_changed_header_is_a_miss(tmp_path):
    (tmp_path / "inc").mkdir()
    header = tmp_path / "inc" / "value.h"
    header.write_text("#define VALUE 3\n")
    src = '#include "value.h"\nkernel void k(global int *o) { o[0] = VALUE; }\n'
    options = ["-I", str(tmp_path / "inc")]
    first = build(src, "host", options)
    assert build(src, "host", options).from_cache
    header.write_text("#define VALUE 4\n")
    third = build(src, "host", options)
    assert not third.from_cache and third.binary != first.binary


def test_program_build_is_served_from_the_cache_in_process(tmp_path):
    from kernelkit.builder import pool

    kernelkit.Program(SAXPY).build()
    workers = list(pool._ALL)
    prog = kernelkit.Program(SAXPY).build()
    assert pool._ALL == workers and prog.kernel_names == ["saxpy"]


def test_build_many_in_parallel_matches_one_at_a_time(tmp_path):
    sources = [SAXPY, SAXPY.replace("saxpy", "saxpy2")]
    jobs = [BuildJob(s, t, [], f"s{i}.cl") for i, s in enumerate(sources) for t in ("host", "gfx90a")]
    together = build_many(jobs, workers=2, use_cache=False)
    alone = [build(j.source, j.target, j.options, filename=j.filename, use_cache=False) for j in jobs]
    assert [r.kernels for r in together] == [["saxpy"], ["saxpy"], ["saxpy2"], ["saxpy2"]]
    gpu = [i for i, j in enumerate(jobs) if j.target == "gfx90a"]
    assert [together[i].binary for i in gpu] == [alone[i].binary for i in gpu]    # the writers are deterministic
    binaries = kernelkit.Program(SAXPY).build_many(["host", "gfx90a"])
    assert set(binaries) == {"host", "gfx90a"} and binaries["gfx90a"][:4] == b"\x7fELF"
