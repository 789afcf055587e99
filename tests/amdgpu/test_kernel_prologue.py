"""What clang's amdgcn compile decides from the source beyond the argument metadata: hidden
arguments, the frame pointer and the f32 denormal mode. clang 22 (ziglang) compiling the same source with ``-nogpulib`` is
the oracle: its kernels call the OpenCL builtins as external functions, so a kernel reaching such a
call keeps every hidden argument and a kernel reaching none keeps none (above -O0); its driver keeps
frame pointers at -O0 only. llvm-objdump reads both objects."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import require_tool

from amdgpu.clang_oracle import HEADER, _run_clang, source_metadata
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.mux.registry import build_binary

SOURCE = """
float twice(float x) { return 2.0f * x; }
kernel void no_calls(global float *a, float s) { a[3] = twice(s * a[1]); }
kernel void with_id(global float *a, float s) { a[get_global_id(0)] *= s; }
"""
MCPU = "gfx900"


def _objects(tmp_path, version: int, opt: str) -> tuple:
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    ours = tmp_path / "ours.hsaco"
    ours.write_bytes(build_binary(SOURCE, MCPU, ["-cl-std=CL2.0", f"-mcode-object-version={version}", opt],
                                  filename=str(src)))
    theirs = tmp_path / "theirs.o"
    _run_clang(str(src), MCPU, version, "CL2.0", opt, theirs)
    return ours, theirs


def _instructions(path) -> dict[str, list[str]]:
    """llvm-objdump's instruction text per kernel symbol (operands included), up to s_endpgm (the
    linked object pads the code after it)."""
    tool = require_tool("llvm-objdump")
    out = subprocess.run([tool, "-d", f"--mcpu={MCPU}", str(path)], capture_output=True, text=True, check=True).stdout
    kernels: dict[str, list[str]] = {}
    current = None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            current = kernels.setdefault(m.group(1), [])
        elif current is not None and line.startswith("\t") and line.strip():
            current.append(" ".join(line.partition("//")[0].split()))
            if current[-1] == "s_endpgm":
                current = None
    return kernels


@pytest.mark.parametrize("version", [4, 5])
def test_hidden_arguments_are_clangs(tmp_path, version):
    """The whole metadata document equals clang's at -O2: the kernel that reaches no external call
    has no hidden argument and a kernarg segment of its explicit arguments only (8 + 4 bytes), the
    one that calls get_global_id keeps them all."""
    ours, theirs = _objects(tmp_path, version, "-O2")
    co, clang = CodeObject.parse(ours.read_bytes()), CodeObject.parse(theirs.read_bytes())
    assert source_metadata(co) == source_metadata(clang)
    assert co.metadata.kernel("no_calls").kernarg_segment_size == 12
    assert not [a for a in co.metadata.kernel("no_calls").args if a.is_hidden]
    assert [a for a in co.metadata.kernel("with_id").args if a.is_hidden]


def test_no_frame_pointer_above_O0_as_clang(tmp_path):
    """At -O2 no kernel sets up a frame pointer (``s_mov_b32 s33, 0``): the call-free kernel is
    clang's instruction for instruction; at -O0 both set it up."""
    ours, theirs = _objects(tmp_path, 5, "-O2")
    mine, clang = _instructions(ours), _instructions(theirs)
    assert mine["no_calls"] == clang["no_calls"]
    assert not [i for body in mine.values() for i in body if i.startswith("s_mov_b32 s33")]
    ours0, theirs0 = _objects(tmp_path, 5, "-O0")
    for objects in (_instructions(ours0), _instructions(theirs0)):
        assert objects["no_calls"][0] == "s_mov_b32 s33, 0"


@pytest.mark.parametrize("mcpu,options", [("gfx700", ()), ("gfx803", ()), ("gfx900", ()),
                                          ("gfx900", ("-cl-denorms-are-zero",))])
def test_float_mode_is_clangs(tmp_path, mcpu, options):
    """The kernel descriptor's float mode equals clang's: f32 denormals flushed on GFX7/GFX8 (no fast
    f32 denormals) and with -cl-denorms-are-zero, kept on GFX9."""
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    ours = CodeObject.parse(build_binary(SOURCE, mcpu, ["-cl-std=CL2.0", *options], filename=str(src)))
    theirs = tmp_path / "theirs.o"
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-nostdinc",
                    "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target", "amdgcn-amd-amdhsa",
                    f"-mcpu={mcpu}", "-nogpulib", "-O2", *options, "-c", str(src), "-o", str(theirs)], check=True)
    clang = CodeObject.parse(theirs.read_bytes())
    for name in ("no_calls", "with_id"):
        mine, ref = ours.descriptor(ours.metadata.kernel(name)), clang.descriptor(clang.metadata.kernel(name))
        assert {k: v for k, v in mine.rsrc1().items() if "FLOAT" in k} == \
            {k: v for k, v in ref.rsrc1().items() if "FLOAT" in k}
