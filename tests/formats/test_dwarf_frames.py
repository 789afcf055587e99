"""Call frame information of AMDGPU code with spec 001's extensions (address-space CFA rules, DW_OP_LLVM_*
in register rules, AMDGPU register numbers for wave32) against llvm-dwarfdump 22's rule rows. LLVM 22 writes
FDEs without instructions for OpenCL code, so the CFI comes from clang's assembler (the ziglang wheel) on
AMDGPU's CFI directives, as LLVM's own MC tests for AMDGPU do."""

from __future__ import annotations

import re
import subprocess
import sys

from kernelkit.formats.dwarf import tables as T
from kernelkit.formats.dwarf.reader import read_debug_info

# every rule kind: CFA in an address space (DW_CFA_LLVM_def_aspace_cfa and its _sf form), undefined,
# offset, val_offset, register, expression and val_expression (DW_OP_LLVM_push_lane/offset on a wave32
# VGPR), same value, restore, remember/restore state, def_cfa, def_cfa_offset
ASSEMBLY = """
    .text
    .cfi_sections .debug_frame
    .globl f
    .p2align 8
    .type f,@function
f:
    .cfi_startproc
    .cfi_llvm_def_aspace_cfa 64, 0, 6
    .cfi_undefined 16
    s_nop 0
    .cfi_offset 65, 8
    .cfi_val_offset 66, -12
    s_nop 0
    .cfi_register 16, 1088
    .cfi_escape 0x10, 0x80, 0x0c, 0x03, 0x90, 0x80, 0x0c
    .cfi_escape 0x16, 0x41, 0x09, 0x90, 0x81, 0x0c, 0xe9, 0x03, 0x34, 0x1e, 0xe9, 0x04
    s_nop 0
    .cfi_same_value 33
    .cfi_remember_state
    .cfi_restore 65
    s_nop 0
    .cfi_restore_state
    .cfi_def_cfa_offset 16
    s_nop 0
    .cfi_def_cfa 65, 4
    s_nop 0
    .cfi_escape 0x31, 0x40, 0x7e, 0x05
    s_setpc_b64 s[30:31]
    .cfi_endproc
"""


def _llvm_names(text: str, wave: int) -> str:
    """LLVM names DWARF register 16 by its own register PC_REG (spec 001: PC_64) and prints registers
    it has no name for as regN / raw numbers in expressions (the wave32 VGPRs: LLVM maps a DWARF number
    to one register, the wave64 one); spec 001's table names them."""
    text = re.sub(r"\bPC_REG\b", "PC_64", text)
    text = re.sub(r"\breg(\d+)\b", lambda m: T.register_name(int(m[1]), wave), text)
    return re.sub(r"(DW_OP_regx) (0x[0-9a-f]+)", lambda m: f"{m[1]} {T.register_name(int(m[2], 16), wave)}", text)


def test_cfi_rule_rows_are_llvm_dwarfdumps(tmp_path):
    from test_dwarf import _dwarfdump

    src, obj = tmp_path / "f.s", tmp_path / "f.o"
    src.write_text(ASSEMBLY)
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-g",
                    "-c", str(src), "-o", str(obj)], check=True, capture_output=True)
    dump = _dwarfdump(obj, "--debug-frame")
    theirs = [_llvm_names(line.strip(), 32) for line in dump.splitlines() if re.match(r"\s+0x[0-9a-f]+: CFA=", line)]
    frames = read_debug_info(obj.read_bytes(), 32)["frames"]
    fde = next(f for f in frames if f["kind"] == "FDE")
    ours = [f"{row['pc']:#x}: CFA={row['cfa']}" + (": " + ", ".join(f"{reg}={rule}" for reg, rule in row["rules"].items())
                                                  if row["rules"] else "") for row in fde["rows"]]
    assert ours == theirs and len(ours) == 7
    assert "in addrspace5" in ours[-1] and "VGPR0=[DW_OP_regx VGPR0]" in ours[2]
    assert "DW_OP_LLVM_user DW_OP_LLVM_push_lane" in fde["rows"][2]["rules"]["SGPR33"]
    cie = next(f for f in frames if f["kind"] == "CIE")
    assert (cie["code_alignment_factor"], cie["data_alignment_factor"], cie["return_address_register"]) == \
        (T.CODE_ALIGNMENT_FACTOR, T.DATA_ALIGNMENT_FACTOR, "PC_64")
