"""``-mattr=+metadata30``: the 3.x metadata dialect of AMD's later AMDIL compiler (``;version:3:1:111``,
``;constarg``, ``;reflection``, ``;memory:hwregion``, ``;privateid``). Oracles: AMD's Catalyst block
of alltypes.clo (reference/amdil/catalyst-clo, device pitcairn) against our kernel with its parameters
(tests/amdil/sources/alltypes.cl), numpy for results on the simulator."""

from __future__ import annotations

import numpy as np
import pytest
from alltypes_source import SOURCE

import kernelkit
from kernelkit.errors import CompileError
from kernelkit.formats.amdil import parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.catalyst import find_metadata_blocks
from kernelkit.mux.registry import build_binary
from kernelkit.targets.amdil.info import parse_mattr

MD30 = "-mattr=+metadata30"


@pytest.fixture(scope="module")
def alltypes_blocks(reference):
    ours = build_binary(SOURCE.read_text(), "amdil:cayman", [MD30]).decode()
    data = (reference / "amdil" / "catalyst-clo" / "alltypes.clo").read_bytes()
    return parse_program(ours).find_kernel("myKernel"), find_metadata_blocks(data)[0].block


def _lines(block, *types):
    return [rec.to_line() for rec in block.records if isinstance(rec, types)]


def test_alltypes_block_equals_the_catalyst_compilers(alltypes_blocks):
    ours, theirs = alltypes_blocks
    lines = [rec.to_line() for rec in ours.records]
    assert ours.version == theirs.version == (3, 1, 111)
    # every reflection record (typedef names and counter32_t kept), every sampler argument
    assert _lines(ours, r.Reflection) == _lines(theirs, r.Reflection)
    assert len(_lines(ours, r.Reflection)) == 71
    assert _lines(ours, r.Sampler) == _lines(theirs, r.Sampler) == [";sampler:v48:0:0:0"]
    # argument records: equal but for the UAV ids, which follow the NI dumps (raw UAV 1, write
    # images from UAV 2) where the GCN compiler uses UAV 11 and write images from 0
    mine, real = ours.arguments, theirs.arguments
    assert len(mine) == len(real) == 71
    for a, b in zip(mine, real, strict=True):
        if isinstance(b, r.Pointer) and b.memory in ("uav", "c"):
            assert b.buffer == 11 and a.buffer == 1
            a.buffer = b.buffer
        if isinstance(b, r.Image) and b.access == "WO":
            assert a.id == b.id + 2
            a.id = b.id
        assert a.to_line() == b.to_line()
    # constarg after each const pointee; v66 (constant void*, no const) differs: clang marks
    # every __constant pointer const
    assert [c.to_line() for c in ours.of(r.ConstArg)] == \
        [c.to_line() for c in theirs.of(r.ConstArg)] + [";constarg:66:v66"]
    assert lines.index(";constarg:61:v61") == lines.index(";pointer:v61:u8:1:1:1904:uav:1:1:RW:0:0") + 1
    memory = {m.space: m.size for m in ours.of(r.Memory)}
    assert memory["hwregion"] == 0 and ";memory:hwregion:0" in _lines(theirs, r.Memory)
    assert lines[-1] == ";reflection:70:counter32_t" and ";privateid:1" in lines


VALUES = """
kernel void k(char3 c, ulong2 u, float f, global const int *in, global long *out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * (long)c.z + (long)u.y + (long)c.x + (long)f;
}"""


@pytest.mark.parametrize("device", ["juniper", "cayman"])
def test_a_metadata30_program_runs_with_its_own_layout(device):
    prog = kernelkit.Program(VALUES).build(f"amdil:{device}", MD30)
    block = parse_program(prog.binary.decode()).find_kernel("k")
    assert block.version == (3, 1, 111)
    assert [a.to_line() for a in block.arguments][:2] == [";value:c:i8:3:1:0", ";value:u:u64:2:1:16"]
    inp = np.arange(64, dtype=np.int32) - 7
    out = np.zeros(64, np.int64)
    prog.k(np.array([3, 0, -5], np.int8), np.array([1, 1 << 40], np.uint64), np.float32(2.75),
           inp, out, global_size=64, local_size=16)
    np.testing.assert_array_equal(out, inp.astype(np.int64) * -5 + (1 << 40) + 3 + 2)


def test_a_read_64bit_3_vector_is_refused_in_the_3x_layout():
    src = "kernel void k(ulong3 v, global ulong *o) { o[0] = v.z; }"
    with pytest.raises(CompileError, match="argument v .*third component"):
        build_binary(src, "amdil:cayman", [MD30])
    # the default (1.x) layout gives it two slots and builds
    block = parse_program(build_binary(src, "amdil:cayman").decode()).find_kernel("k")
    assert block.version == (1, 4, 53) and block.arguments[1].offset == 32


def test_metadata30_is_an_attribute_of_every_family():
    assert parse_mattr("+metadata30", "rv770").features == {"metadata30": True}
    text = build_binary("kernel void k(global int *o) { o[0] = 1; }", "amdil:rv770", [MD30]).decode()
    block = parse_program(text).find_kernel("k")
    assert block.version == (3, 1, 111) and "hwregion" not in {m.space for m in block.of(r.Memory)}
