"""GFX9 ("Vega") CL2 binaries: kernels that set up FLAT_SCRATCH_INIT as AMD's GFX9 driver does.

Oracles: spec 002 ("for VEGA (GFX9) architecture, then 10 user data registers will be used. 4-5
user data regs are kernel setup pointer. 6-7 user data regs are argument's pointer"); CLRX's
AmdCL2 generator for GCN 1.4 (code_properties bit 5, ENABLE_SGPR_FLAT_SCRATCH_INIT, in every
kernel; 6/8/10 user data registers for no feature/useargs/usesetup), which abi.cl2 encodes; the
device tables of the AMDGPU-PRO drivers (GFX9 devices from 2236 on); LLVM's disassembly of the
code, which must read the setup buffer through s[4:5] and the arguments through s[6:7]."""

from __future__ import annotations

import pytest
from amdcl2.test_compile_cl2 import KSETUP1

from kernelkit.abi.cl2 import UserData, user_data, user_data_of_code
from kernelkit.formats.amdcl2.binary import DEVICE_CODES, device_code, newest_driver_of, read_cl2
from kernelkit.formats.amdcl2.inspect import kernel_features
from kernelkit.formats.amdgpu.disasm import disassemble, find_library
from kernelkit.mux.registry import build_binary
from kernelkit.targets.amdcl2.info import DEVICES, device_processor, gfx_level
from kernelkit.targets.amdhsa.info import buildable


@pytest.mark.parametrize("device", ["gfx900", "gfx906"])
def test_gfx9_kernels_set_up_flat_scratch_init(device):
    binary = read_cl2(build_binary(KSETUP1, f"amdcl2:{device}", ["-cl-std=CL2.0"]))
    assert binary.device == device.upper() and binary.inner_isa() == (9, 0, int(device[-1]))
    assert binary.e_flags == device_code(device, max(DEVICE_CODES))
    counts = {}
    for k in binary.kernels:
        code = k.kernel_code
        props = code.properties()
        assert props["ENABLE_SGPR_FLAT_SCRATCH_INIT"] == 1, k.name
        features = kernel_features(k, gfx9=True)
        assert "useenqueue" not in features and "usegeneric" not in features
        assert code.rsrc2()["USER_SGPR_COUNT"] == user_data(features, gfx9=True).count == \
            user_data_of_code(props).count, k.name
        counts[k.name] = user_data_of_code(props)
        assert k.metadata.second_name == "GFX9"      # the metadata's arch word
    # spec 002's VEGA rule: a kernel reading the setup buffer and its arguments
    assert counts["kernelSetup2"] == UserData(10, (4, 5), (6, 7))
    assert counts["kernelSetup1x"] == UserData(8, None, (4, 5))
    assert counts["kernelSetup1"].count == 6
    # the code reads local size X from the setup buffer (dword 1) through s[4:5] and its argument
    # (after the 48 setup bytes) through s[6:7]
    find_library()
    text = [i.text for i in disassemble(binary.kernel("kernelSetup2").code, device, base=0)]
    assert any(t.startswith("s_load_dword ") and "s[4:5], 0x4" in t for t in text), text
    assert any(t.startswith("s_load_dwordx2 ") and "s[6:7], 0x30" in t for t in text), text


def test_listed_devices_build():
    """`kernelkit targets` lists CL2 devices that build: each has an e_flags code in the newest
    driver table naming it and an LLVM processor; Goose/Horse (2004.06 only) build for that driver."""
    for device in DEVICES:
        assert device_code(device, newest_driver_of(device)) >= 0
        assert buildable(device_processor(device).split(":")[0]), device
    assert newest_driver_of("goose") == 200406
    goose = read_cl2(build_binary("kernel void k(global int *o) { o[0] = 1; }", "amdcl2:goose", []))
    assert (goose.device, goose.driver_version) == ("Goose", 200406)
    assert gfx_level("goose") == 8
