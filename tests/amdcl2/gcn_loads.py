"""Test helper: the scalar loads a GCN (GFX7/GFX8 "Sea Islands"/"Volcanic Islands" before GFX9)
kernel makes through one SGPR pair, found by walking its instruction stream.

Instruction lengths from AMD's Sea Islands ISA manual ("Microcode Formats"): scalar formats and
VOP1/VOP2/VOPC are one dword plus a literal dword when a source operand is 255; VINTRP is one
dword; VOP3, DS, FLAT, MUBUF, MTBUF, MIMG and EXP are two. SMRD (bits 31:27 = 11000): op 26:22,
sdst 21:15, sbase 14:9 (SGPR pair / 2), imm 8, offset 7:0 in dwords; op 0..4 = s_load_dword,
_dwordx2, x4, x8, x16.
"""

from __future__ import annotations

import struct

SOP1, SOPC, SOPP = 0x17D, 0x17E, 0x17F
SOPK_SETREG_IMM32 = 0x15
VINTRP = 0x32
LITERAL = 255


def _length(w: int) -> int:
    if w >> 27 == 0b11000:                                   # SMRD
        return 2 if not (w >> 8) & 1 and w & 0xFF == LITERAL else 1
    if w >> 23 == SOPP:
        return 1
    if w >> 23 == SOP1:
        return 2 if w & 0xFF == LITERAL else 1
    if w >> 23 == SOPC or w >> 30 == 0b10 and w >> 28 != 0b1011:    # SOPC, SOP2
        return 2 if LITERAL in (w & 0xFF, (w >> 8) & 0xFF) else 1
    if w >> 28 == 0b1011:                                    # SOPK
        return 2 if (w >> 23) & 0x1F == SOPK_SETREG_IMM32 else 1
    if w >> 31 == 0:                                         # VOP2, VOP1, VOPC
        return 2 if w & 0x1FF == LITERAL else 1
    return 1 if w >> 26 == VINTRP else 2


def scalar_load_records(code: bytes) -> list[tuple[int, int, int, int]]:
    """(first destination SGPR, base SGPR pair, byte offset, bytes) of each s_load_dword* with an
    immediate offset, in code order."""
    out = []
    at = 0
    while at + 4 <= len(code):
        w = struct.unpack_from("<I", code, at)[0]
        if w >> 27 == 0b11000:
            op, base, imm = (w >> 22) & 0x1F, ((w >> 9) & 0x3F) * 2, (w >> 8) & 1
            if op <= 4 and imm:
                out.append(((w >> 15) & 0x7F, base, (w & 0xFF) * 4, 4 << op))
        at += 4 * _length(w)
    return out


def scalar_loads(code: bytes, sgpr_pair: int) -> list[tuple[int, int]]:
    """(byte offset, bytes) of each s_load_dword* with an immediate offset from s[pair:pair+1]."""
    return [(offset, size) for _, base, offset, size in scalar_load_records(code) if base == sgpr_pair]
