"""spec 001's DW_AT_LLVM_* attributes, memory and address spaces, and DW_OP_LLVM_* operations in a DIE,
against llvm-dwarfdump 22. Nothing this machine compiles emits them (LLVM 22's AMDGPU -g writes none), so the
unit is written as assembler data (DWARF 5 abbreviations + one variable) and assembled by clang (ziglang)."""

from __future__ import annotations

import re
import subprocess
import sys

from kernelkit.formats.dwarf.reader import read_debug_info

ASSEMBLY = """
    .section .debug_abbrev,"",@progbits
    .byte 1, 0x11, 1
    .byte 0x03, 0x08
    .byte 0x13, 0x0b
    .byte 0, 0
    .byte 2, 0x34, 0
    .byte 0x03, 0x08
    .byte 0x02, 0x18
    .byte 0x80, 0x7c, 0x08
    .byte 0x81, 0x7c, 0x08
    .byte 0x82, 0x7c, 0x08
    .byte 0x8f, 0x7c, 0x0f
    .byte 0x90, 0x7c, 0x0f
    .byte 0x91, 0x7c, 0x0b
    .byte 0x92, 0x7c, 0x18
    .byte 0x93, 0x7c, 0x0f
    .byte 0x3e, 0x18
    .byte 0, 0
    .byte 0
    .section .debug_info,"",@progbits
    .long .Lend - .Lstart
.Lstart:
    .short 5
    .byte 1, 8
    .long 0
    .byte 1
    .asciz "a.cl"
    .byte 0x15
    .byte 2
    .asciz "v"
    .byte 13, 0x90, 0x80, 0x0c, 0xe9, 0x03, 0x34, 0x1e, 0xe9, 0x04, 0x93, 0x04, 0xe9, 0x0a
    .asciz "/inc"
    .asciz "-DX"
    .asciz "/sys"
    .byte 3
    .byte 5
    .byte 64
    .byte 4, 0x30, 0x36, 0xe9, 0x02
    .byte 32
    .byte 5, 0x90, 0x80, 0x14, 0xe9, 0x02
    .byte 0
.Lend:
"""
# the variable: its location is lane-selected wave32 VGPR0 (DW_OP_LLVM_push_lane/offset/piece_end);
# DW_AT_LLVM_include_path/config_macros/sysroot (strings), memory_space 3 (group), address_space 5
# (private_lane), lanes 64, lane_pc (DW_OP_LLVM_form_aspace_address), vector_size 32, and an exprloc on a
# standard attribute naming the wave64 VGPR0 (DWARF 2560)


def test_llvm_attributes_spaces_and_operations_are_llvm_dwarfdumps(tmp_path):
    from test_dwarf import _dwarfdump, _llvm_dies, _normalise

    src, obj = tmp_path / "a.s", tmp_path / "a.o"
    src.write_text(ASSEMBLY)
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-c",
                    str(src), "-o", str(obj)], check=True, capture_output=True)
    theirs = _llvm_dies(_dwarfdump(obj, "--debug-info"))
    die = read_debug_info(obj.read_bytes(), 32)["units"][0]["die"]["children"][0]
    tag, attrs = theirs[die["offset"]]
    assert die["tag"] == tag == "DW_TAG_variable" and list(die["attributes"]) == list(attrs)
    assert sum(name.startswith("DW_AT_LLVM_") for name in attrs) == 8
    for name, value in die["attributes"].items():
        if isinstance(value, str):
            assert attrs[name] == f'"{value}"', name
        elif isinstance(value, int):
            assert int(attrs[name], 0) == value, name
        elif "expression" in value:        # llvm-dwarfdump names DWARF 2560 VGPR0 in a wave32 unit too
            ours = re.sub(r"\(wave\d+\)", "", ", ".join(value["expression"]))
            assert ours == _normalise(attrs[name], 32), name
        else:
            assert int(attrs[name], 0) == value["value"], name
    a = die["attributes"]
    assert a["DW_AT_LLVM_memory_space"]["memory_space"] == "DW_MSPACE_LLVM_group"
    assert a["DW_AT_LLVM_address_space"]["dwarf_address_space"] == "DW_ASPACE_AMDGPU_private_lane"
    assert a["DW_AT_encoding"]["expression"][0] == "DW_OP_regx VGPR0(wave64)"
    assert "DW_OP_LLVM_user DW_OP_LLVM_piece_end" in a["DW_AT_location"]["expression"]
