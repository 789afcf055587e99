"""clang's ``--target=<triple> -mcpu=<processor>``: the processor builds under that triple — an HSA code object
for amdhsa (llvm-readelf: OS/ABI AMDGPU_HSA, the processor's e_flags), a clear refusal naming the OS for amdpal
and mesa3d (LLVM's ``mesa`` vendor spelling included), never an amdhsa object in their place."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_tool

ROOT = Path(__file__).resolve().parents[2]
SAXPY = ROOT / "examples" / "saxpy.cl"


@pytest.fixture(autouse=True)
def _isolated(isolated_cache):
    pass   # tmp_path / "cache": a cache of the test's own (conftest)


def _kk(tmp_path, *argv):
    return subprocess.run([sys.executable, "-m", "kernelkit", *map(str, argv)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600, env={**__import__("os").environ,
                                                          "KERNELKIT_CACHE_DIR": str(tmp_path / "cache")})


@pytest.mark.parametrize("spelling", [["--target=amdgcn-amd-amdhsa", "-mcpu=gfx90a"],
                                      ["--target", "amdgcn-amd-amdhsa", "--offload-arch=gfx90a"]])
def test_hsa_triple_with_processor_builds_that_processor(tmp_path, spelling):
    out = tmp_path / "k.o"
    proc = _kk(tmp_path, "build", SAXPY, *spelling, "-o", out)
    assert proc.returncode == 0, proc.stderr
    header = subprocess.run([require_tool("llvm-readelf"), "-h", str(out)], capture_output=True, text=True,
                            check=True).stdout
    assert re.search(r"OS/ABI:\s+(AMDGPU_HSA|40)\b", header), header     # spec 001: ELFOSABI_AMDGPU_HSA = 0x40
    assert int(re.search(r"Flags:\s+(0x[0-9a-fA-F]+)", header).group(1), 16) & 0xff == 0x3f   # GFX90A


@pytest.mark.parametrize("triple,processor,os_name", [("amdgcn-amd-amdpal", "gfx1100", "amdpal"),
                                                      ("amdgcn-mesa-mesa3d", "gfx803", "mesa3d"),
                                                      ("amdgcn-mesa3d-mesa3d", "gfx803", "mesa3d")])
def test_other_os_triples_are_refused(tmp_path, triple, processor, os_name):
    out = tmp_path / "k.o"
    proc = _kk(tmp_path, "build", SAXPY, f"--target={triple}", f"-mcpu={processor}", "-o", out)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and os_name in lines[0] and "not produced" in lines[0], proc.stderr
    assert not out.exists()
