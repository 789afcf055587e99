"""``kernelkit build k.spv --emit llvm``: the IR kernelkit's SPIR-V reader makes of a SPIR-V module (what every
target's pipeline starts from); a damaged module is one readable line and a non-zero exit."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import require_tool

from kernelkit.llvm_binding import llvm

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kernelkit", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_emit_llvm_from_spirv(tmp_path):
    spv = tmp_path / "saxpy.spv"
    subprocess.run([require_tool("spirv-as"), "--target-env", "spv1.0", "-o", str(spv), "-"], check=True,
                   input=SAXPY_ASM, text=True, capture_output=True)
    proc = _cli("build", spv, "--emit", "llvm", "-o", tmp_path / "saxpy.ll", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "saxpy.ll").read_text()
    module = llvm().parse_assembly(text)          # LLVM's own parser accepts it
    module.verify()
    assert [str(a.type) for a in module.get_function("saxpy").arguments] == \
        ["float", "ptr addrspace(1)", "ptr addrspace(1)"]
    assert re.search(r"define spir_kernel void @saxpy\(", text)


def test_damaged_spirv_is_one_line(tmp_path):
    bad = tmp_path / "bad.spv"
    bad.write_bytes(bytes.fromhex("03022307") + b"junk")
    proc = _cli("build", bad, "--emit", "llvm", "-o", tmp_path / "bad.ll", cwd=tmp_path)
    assert proc.returncode != 0
    assert len(proc.stderr.strip().splitlines()) == 1 and "header" in proc.stderr
    assert not (tmp_path / "bad.ll").exists()


SAXPY_ASM = """
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
%ext = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %saxpy "saxpy" %gid_var
OpDecorate %gid_var BuiltIn GlobalInvocationId
OpDecorate %gid_var Constant
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%void = OpTypeVoid
%float = OpTypeFloat 32
%ptr_g = OpTypePointer CrossWorkgroup %float
%fnty = OpTypeFunction %void %float %ptr_g %ptr_g
%gid_var = OpVariable %ptr_in Input
%saxpy = OpFunction %void None %fnty
%a = OpFunctionParameter %float
%x = OpFunctionParameter %ptr_g
%y = OpFunctionParameter %ptr_g
%entry = OpLabel
%gid = OpLoad %v3ulong %gid_var Aligned 32
%i = OpCompositeExtract %ulong %gid 0
%xp = OpInBoundsPtrAccessChain %ptr_g %x %i
%xv = OpLoad %float %xp Aligned 4
%yp = OpInBoundsPtrAccessChain %ptr_g %y %i
%yv = OpLoad %float %yp Aligned 4
%r = OpExtInst %float %ext mad %a %xv %yv
OpStore %yp %r Aligned 4
OpReturn
OpFunctionEnd
"""
