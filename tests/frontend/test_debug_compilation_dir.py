"""-g builds name the caller's directory as DW_AT_comp_dir (as clang does), never the frontend's
temporary directory: the same build in two processes gives the same bytes (DWARF read by llvm-dwarfdump)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import ROOT, RUN_CACHE, require_tool, share_libraries


def _build(folder, out, cache):
    env = {**os.environ, "KERNELKIT_CACHE_DIR": str(cache), "KERNELKIT_NO_SERVER": "1",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "kernelkit", "build", "x.cl", "-t", "gfx90a", "--option=-g",
                           "--no-cache", "-o", out], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return (folder / out).read_bytes()


def test_g_builds_name_the_callers_directory_and_are_reproducible(tmp_path):
    dwarfdump = require_tool("llvm-dwarfdump-22")
    (tmp_path / "x.cl").write_text("kernel void f(global int *a) { a[get_global_id(0)] = 1; }\n")
    # a cache each, holding the run's prebuilt libraries only (conftest.share_libraries)
    first = _build(tmp_path, "a.bin", share_libraries(RUN_CACHE, tmp_path / "cache-a"))
    second = _build(tmp_path, "b.bin", share_libraries(tmp_path / "cache-a", tmp_path / "cache-b"))
    assert first == second
    info = subprocess.run([dwarfdump, "--debug-info", str(tmp_path / "a.bin")], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r'DW_AT_comp_dir\s+\("([^"]*)"\)', info).group(1) == str(tmp_path)
    assert re.search(r'DW_AT_name\s+\("([^"]*)"\)', info).group(1) == "x.cl"
