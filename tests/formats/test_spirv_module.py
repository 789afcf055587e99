"""kernelkit.formats.spirv: decoding clang's SPIR-V (oracle: spirv-dis) and rejecting broken modules."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "frontend"))
from conftest import require_tool  # noqa: E402
from spirv_corpus import clang_spirv  # noqa: E402

from kernelkit.errors import FormatError  # noqa: E402
from kernelkit.formats.spirv import read_module  # noqa: E402


def _disassembly(data: bytes, tmp_path) -> list[str]:
    path = tmp_path / "k.spv"
    path.write_bytes(data)
    text = subprocess.run([require_tool("spirv-dis"), "--raw-id", "--no-header", str(path)], check=True,
                          capture_output=True, text=True).stdout
    return [m[1] for line in text.splitlines() if (m := re.search(r"\b(Op\w+)", line))]


@pytest.mark.parametrize("file,std", [("reductions.cl", "CL1.2"), ("math.cl", "CL1.2"),
                                      ("workgroup_cl20.cl", "CL2.0")])
def test_instruction_stream_and_opcode_names_match_spirv_dis(file, std, tmp_path):
    data = clang_spirv(file, std)
    module = read_module(data)
    assert [f"Op{i.name}" for i in module.instructions] == _disassembly(data, tmp_path)
    assert module.version == (1, 4)


def test_big_endian_module_reads_the_same():
    data = clang_spirv("reductions.cl", "CL1.2")
    words = struct.unpack(f"<{len(data) // 4}I", data)
    swapped = struct.pack(f">{len(words)}I", *words)
    a, b = read_module(data), read_module(swapped)
    assert [(i.opcode, i.operands) for i in a.instructions] == [(i.opcode, i.operands) for i in b.instructions]


def _error(data: bytes) -> FormatError:
    with pytest.raises(FormatError) as info:
        read_module(data)
    return info.value


def test_broken_modules_name_offset_and_field():
    good = clang_spirv("reductions.cl", "CL1.2")
    assert (e := _error(b"\0" * 20)).field == "magic" and e.offset == 0
    assert _error(good[:12]).field == "header"
    assert _error(good[:-2]).field == "word"
    bad_version = good[:4] + struct.pack("<I", 0x20000) + good[8:]
    assert (e := _error(bad_version)).field == "version" and e.offset == 4
    # the last instruction (OpFunctionEnd, one word) claims two words: it runs past the end
    truncated = good[:-4] + struct.pack("<I", (2 << 16) | 56)
    assert (e := _error(truncated)).field == "word count" and e.offset == len(good) - 4
    zero_count = good[:20] + struct.pack("<I", 17) + good[24:]
    assert (e := _error(zero_count)).field == "word count" and e.offset == 20
