"""LSC messages (DG2): IGC's own LSC vISA runs on the simulator with numpy's results; kernelkit's
code generator emits LSC loads/stores for __global and __local memory on DG2 (SVM/SLM messages stay
on SKL-TGLLP), GenX_IR finalizes them for DG2 and the simulator gives numpy's results; LSC atomics,
vector and transposed (block) loads run as IGC's documentation/visa/instructions/LSC_UNTYPED.md
describes them."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

import kernelkit
from kernelkit import ir
from kernelkit.abi.signature import signatures_from_ir
from kernelkit.abi.visa import Payload, PayloadInput, _compile, implicit_inputs, lay_out
from kernelkit.formats.visa import parse_visaasm
from kernelkit.sim.visa import decode, launch
from kernelkit.targets.visa.module import compile_visa
from tests.conftest import own_source, reference_path, require_tool

RNG = np.random.default_rng(12)

MIXED = """
kernel void mixed(global const char *c, global const short *s, global const long *l,
                  global const float4 *v, global int *out, global long *lout, global float4 *vout,
                  global char *cout, global short *sout, local int *tile) {
  int i = get_global_id(0), li = get_local_id(0), n = get_local_size(0);
  tile[li] = c[i] + s[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tile[n - 1 - li] * 3;
  lout[i] = l[i] * 2 + 1;
  vout[i] = v[i] * 2.0f;
  if (li & 1)
    cout[i] = (char)(c[i] * 3);
  else
    sout[i] = (short)(s[i] - 7);
}
"""


def test_igc_dg2_lsc_saxpy_gives_numpys_result():
    """IGC's DG2 saxpy (reference/visa: SIMD32, lsc_load/lsc_store on binding-table surfaces, two
    SIMD16 halves) with the payload kernelkit.abi.visa lays out for its source."""
    # IGC's dump is machine-generated (tests/reference); the source is ours, read from that dump
    # (tests/visa/sources/README.md): its payload must be the one IGC's .input entries give
    module = ir.parse(_compile(str(own_source("visa", "saxpy.cl")), []).ir_text)
    sig = signatures_from_ir(module)[0]
    function = next(f for f in module.functions if f.name == "saxpy")
    text = reference_path("visa", "dg2-g10_saxpy", "saxpy.visaasm").read_text()
    routine = parse_visaasm(text).kernels[0]
    # the buffers IGC's code stores to (binding-table index = the pointer's place among the pointers)
    # are the source's pointers to non-const data, the float ones its loads feed into a float mad
    stored = {int(n, 16) for n in re.findall(r"lsc_store\S* \(\w+, \d+\)\s+bti\(0x(\w+)\)", text)}
    pointers = [a for a in sig.args if a.kind == "pointer"]
    assert stored == {i for i, a in enumerate(pointers) if "const" not in a.type_qualifiers} == {0}
    assert {a.pointee for a in pointers} == {"float"} and " mad " in text
    payload = lay_out(sig, 32, "dg2", implicit_inputs(function, None, "dg2"), ())
    assert [(i.offset, i.size) for i in payload.inputs] == [(i.offset, i.size) for i in routine.inputs]
    x, y = RNG.random(512, np.float32), RNG.random(512, np.float32)
    expect = np.float32(1.5) * x + y
    stats = launch(decode(routine), payload, [y, x, np.float32(1.5)], [512], [128], signature=sig)
    np.testing.assert_allclose(y, expect, rtol=1e-6)
    assert stats.hardware_threads == 16


def test_dg2_memory_is_lsc_and_gives_numpys_results():
    binary = compile_visa(MIXED, "dg2")
    text = binary.kernel("mixed").text
    for message in ("lsc_load.ugm", "lsc_store.ugm", "lsc_load.slm", "lsc_store.slm", ":d8c32", ":d16c32",
                    ":d64"):
        assert message in text
    for legacy in ("svm_gather", "svm_scatter", "gather4_scaled", "scatter4_scaled"):
        assert legacy not in text
    assert "lsc_" not in compile_visa(MIXED, "tgllp").kernel("mixed").text
    # DG2's LSC is SIMD16: SIMD8 kernels keep SVM/SLM messages (IGC compiles none at SIMD8 there)
    simd8 = compile_visa(MIXED, "dg2", simd=8).kernel("mixed").text
    assert "lsc_" not in simd8 and "svm_gather" in simd8
    program = kernelkit.Program(MIXED).build("visa:dg2")
    n, local = 96, 32
    c = RNG.integers(-128, 128, n).astype(np.int8)
    s = RNG.integers(-2**15, 2**15, n).astype(np.int16)
    long_in = RNG.integers(-2**40, 2**40, n).astype(np.int64)
    v = RNG.random((n, 4), np.float32)
    out, lout, vout = np.zeros(n, np.int32), np.zeros(n, np.int64), np.zeros((n, 4), np.float32)
    cout, sout = np.full(n, 99, np.int8), np.full(n, 99, np.int16)
    program.kernel("mixed")(c, s, long_in, v, out, lout, vout, cout, sout, kernelkit.LocalMemory(4 * local),
                            global_size=n, local_size=local)
    tile = (c.astype(np.int32) + s).reshape(-1, local)
    np.testing.assert_array_equal(out, (tile[:, ::-1] * 3).reshape(-1))
    np.testing.assert_array_equal(lout, long_in * 2 + 1)
    np.testing.assert_array_equal(vout, v * np.float32(2))
    odd = (np.arange(n) % local) % 2 == 1
    np.testing.assert_array_equal(cout[odd], (c[odd].astype(np.int32) * 3).astype(np.int8))
    np.testing.assert_array_equal(cout[~odd], 99)
    np.testing.assert_array_equal(sout[~odd], (s[~odd].astype(np.int32) - 7).astype(np.int16))
    np.testing.assert_array_equal(sout[odd], 99)


def test_genx_ir_finalizes_kernelkits_lsc_for_dg2():
    genx = require_tool("GenX_IR")
    data = compile_visa(MIXED, "dg2").isa()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "k.isa").write_bytes(data)
        proc = subprocess.run([genx, "k.isa", "-platform", "DG2", "-output"], cwd=tmp, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert Path(tmp, ".asm").exists()


ATOMICS = """.version 4.1
.kernel "lsc_atomics"
.decl LID v_type=G type=uw num_elts=16 align=GRF
.decl BUF v_type=G type=uq num_elts=1 align=qword
.decl OUT v_type=G type=uq num_elts=1 align=qword
.decl IDX v_type=G type=ud num_elts=16 align=GRF
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.decl OADDR v_type=G type=uq num_elts=16 align=GRF
.decl VAL v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
.decl PAIR v_type=G type=ud num_elts=32 align=GRF
.decl BLOCK v_type=G type=ud num_elts=8 align=GRF
.decl HEAD v_type=G type=uq num_elts=1 align=qword
.decl CMP v_type=G type=ud num_elts=16 align=GRF
.decl NEW v_type=G type=ud num_elts=16 align=GRF
.decl SEEN v_type=G type=ud num_elts=16 align=GRF
.input LID offset=32 size=32
.input BUF offset=64 size=8
.input OUT offset=72 size=8
.function "_main_0"
_main_0:
    and (M1, 16) IDX(0,0)<1> LID(0,0)<1;1,0> 0x3:ud
    shl (M1, 16) IDX(0,0)<1> IDX(0,0)<1;1,0> 0x2:ud
    add (M1, 16) ADDR(0,0)<1> BUF(0,0)<0;1,0> IDX(0,0)<1;1,0>
    add (M1, 16) VAL(0,0)<1> LID(0,0)<1;1,0> 0x1:ud
    lsc_atomic_iadd.ugm (M1, 16) OLD:d32 flat[ADDR]:a64 VAL %null
    shl (M1, 16) IDX(0,0)<1> LID(0,0)<1;1,0> 0x2:ud
    add (M1, 16) OADDR(0,0)<1> OUT(0,0)<0;1,0> IDX(0,0)<1;1,0>
    lsc_store.ugm (M1, 16) flat[OADDR]:a64 OLD:d32
    lsc_atomic_umax.ugm (M1, 16) %null:d32 flat[ADDR+0x10]:a64 VAL %null
    lsc_load.ugm (M1, 16) PAIR:d32x2 flat[OADDR+0x40]:a64
    lsc_store.ugm (M1, 16) flat[OADDR+0x100]:a64 PAIR:d32x2
    add (M1_NM, 1) HEAD(0,0)<1> OUT(0,0)<0;1,0> 0x200:uq
    lsc_load.ugm (M1_NM, 1) BLOCK:d32x8t flat[HEAD]:a64
    lsc_store.ugm (M1_NM, 1) flat[HEAD+0x20]:a64 BLOCK:d32x8t
    mov (M1, 16) CMP(0,0)<1> LID(0,0)<1;1,0>
    add (M1, 16) NEW(0,0)<1> LID(0,0)<1;1,0> 0x3e8:ud
    lsc_atomic_icas.ugm (M1, 16) SEEN:d32 flat[OADDR+0x280]:a64 CMP NEW
    lsc_store.ugm (M1, 16) flat[OADDR+0x300]:a64 SEEN:d32
    ret (M1, 1)
"""


def test_lsc_atomics_vectors_and_transposed_blocks():
    """Conflicting lsc_atomic_iadd lanes (4 counters, 2 work-groups) return distinct old values
    and leave the sums; umax leaves the maximum; d32x2 moves each lane's pair; a transposed d32x8
    (SIMD1) copies a block of 8 dwords; lsc_atomic_icas compares with Src1Data and stores Src2Data
    (the operand order of IGC's own atomic_cmpxchg on DG2, tests/visa/opencl/varied.cl latom)."""
    routine = parse_visaasm(ATOMICS).kernels[0]
    payload = Payload("lsc_atomics", "dg2", 16, [
        PayloadInput("LID", "local_id", "uw", 16, 32, 32, dim=0),
        PayloadInput("BUF", "argument", "uq", 1, 64, 8, arg_index=0),
        PayloadInput("OUT", "argument", "uq", 1, 72, 8, arg_index=1)])
    counters = np.array([100, 200, 300, 400, 7, 7, 7, 7], np.uint32)
    out = np.zeros(256, np.uint32)
    out[16:64] = RNG.integers(0, 2**32, 48, dtype=np.uint32)
    out[128:136] = RNG.integers(0, 2**32, 8, dtype=np.uint32)
    lanes = np.arange(16, dtype=np.uint32)
    out[160:176] = np.where(lanes % 2 == 0, lanes, lanes + 5)       # even lanes hold the compared value
    before = out.copy()
    launch(routine, payload, [counters, out], [32], [16])
    lid = np.arange(16)
    increments = [(lid[lid % 4 == k] + 1).sum() * 2 for k in range(4)]       # two work-groups
    np.testing.assert_array_equal(counters[:4], np.array([100, 200, 300, 400]) + increments)
    np.testing.assert_array_equal(counters[4:], [max(7, lid[lid % 4 == k].max() + 1) for k in range(4)])
    old = out[:16]            # both groups write the same 16 words: the second group's old values
    for k in range(4):
        mine = old[lid % 4 == k]
        assert len(set(mine.tolist())) == mine.size
        assert np.all((mine >= 100 * (k + 1)) & (mine < 100 * (k + 1) + increments[k]))
    # lane i's d32x2 vector is (out[16 + i], out[17 + i]), stored to (out[64 + i], out[65 + i])
    np.testing.assert_array_equal(out[64:81], before[16:33])
    np.testing.assert_array_equal(out[136:144], before[128:136])
    np.testing.assert_array_equal(out[160:176], np.where(lanes % 2 == 0, lanes + 1000, lanes + 5))
    # the second work-group's compare-and-swap sees the first one's result (and swaps nothing)
    np.testing.assert_array_equal(out[192:208], out[160:176])


LSC_RULES = """.version 4.1
.kernel "rules"
.decl A64 v_type=G type=uq num_elts=16 align=GRF
.decl A32 v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=d num_elts=16 align=GRF
.input A64 offset=32 size=128
.input A32 offset=160 size=64
.function "_main_0"
_main_0:
    {line}
    ret (M1, 1)
"""


@pytest.mark.parametrize("line,rule", [
    ("lsc_load_quad.ugm (M1, 16) D:d32 flat[A64]:a64", "enable some of the X, Y, Z, W channels"),
    ("lsc_load.ugm (M1, 16) D:d32x8t flat[A64]:a64", "transposed LSC messages are SIMD1"),
    ("lsc_atomic_iadd.ugm (M1, 16) D:d32 flat[A64]:a64 %null %null", "takes 1 data operand"),
    ("lsc_atomic_iinc.ugm (M1, 16) D:d32 flat[A64]:a64 D %null", "takes 0 data operands"),
    ("lsc_atomic_icas.slm (M1, 16) D:d32 flat[A32]:a32 D %null", "takes 2 data operands"),
])
def test_validator_enforces_lsc_rules_of_igcs_documentation(line, rule):
    from kernelkit.formats.visa.validate import validate

    problems = validate(parse_visaasm(LSC_RULES.format(line=line)))
    assert any(rule in p for p in problems), problems


@pytest.mark.parametrize("field,value", [("addr_type", 0), ("addr_size", 4), ("data_size", 9), ("data_order", 3),
                                         ("sfid", 7)])
def test_validator_names_undefined_lsc_field_values(field, value):
    """A binary can hold values the text cannot spell: each enumerated field is checked."""
    from kernelkit.formats.visa.validate import validate

    obj = parse_visaasm(LSC_RULES.format(line="lsc_load.ugm (M1, 16) D:d32 flat[A64]:a64"))
    inst = next(i for i in obj.kernels[0].instructions if i.name == "lsc_untyped")
    inst.fields[field] = value
    assert any(f"LSC {field} is one of the defined values: {field} = {value}" in p for p in validate(obj))


@pytest.mark.parametrize("line", [
    "lsc_load.slm.ca.ca (M1, 16) D:d32 flat[A32]:a32",        # IGC 1.0.12504 writes cached SLM loads
    "lsc_load.ugm (M1_NM, 1) D:d32x8t flat[A64]:a64",
    "lsc_atomic_icas.slm (M1, 16) D:d32 flat[A32]:a32 D D",
    "lsc_atomic_iinc.ugm (M1, 16) %null:d32 flat[A64]:a64 %null %null",
])
def test_validator_accepts_valid_lsc(line):
    from kernelkit.formats.visa.validate import validate

    assert validate(parse_visaasm(LSC_RULES.format(line=line))) == []


REDUCE = """
__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {
  size_t l = get_local_id(0), g = get_global_id(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
"""


def _igc_dg2(source: Path, kernel: str, args: list, global_size, local_size):
    """IGC's DG2 vISA for ``kernel`` (ocloc, live), run on the simulator with the payload
    kernelkit.abi.visa lays out for it."""
    from tests.visa.igc_dump import ocloc_dump

    require_tool("ocloc")
    found = ocloc_dump(source, "dg2-g10")[kernel]
    module = ir.parse(_compile(str(source), []).ir_text)
    sig = next(s for s in signatures_from_ir(module) if s.name == kernel)
    function = next(f for f in module.functions if f.name == kernel)
    unoptimised = next(f for f in ir.parse(_compile(str(source), ["-O0"]).ir_text).functions if f.name == kernel)
    # IGC 1.0.12504 gives DG2 kernels like this one a private base kernelkit's ABI does not (its
    # stack-call convention; one of the ABI differences tests/visa/test_abi_igc.py lists)
    implicit = implicit_inputs(function, unoptimised, "dg2") | {"private_base"}
    payload = lay_out(sig, found["simd"], "dg2", implicit, found["buffer_offsets"])
    assert [(i.offset, i.size) for i in payload.inputs] == [(o, n) for o, n, _t in found["inputs"]]
    routine = parse_visaasm(found["visaasm"]).kernels[0]
    return routine, launch(decode(routine), payload, args, global_size, local_size, signature=sig,
                           static_slm=sig.static_local_mem)


def test_igc_dg2_lsc_slm_reduction_gives_numpys_sums(tmp_path):
    """IGC 1.0.12504 writes LSC on DG2 for the reduction of tests/visa/opencl/varied.cl: lsc_load/
    lsc_store on .ugm (bti) and .slm (cached, IGC's 0x10000000 SLM tag in the offsets), transposed
    SIMD1 loads, between barriers."""
    source = tmp_path / "reduce.cl"
    source.write_text(REDUCE)
    data, sums = RNG.random(512, np.float32), np.zeros(4, np.float32)
    routine, _stats = _igc_dg2(source, "reduce", [data, sums, kernelkit.LocalMemory(4 * 128)], [512], [128])
    names = {i.name for i in decode(routine).insts}
    assert {"lsc_load", "lsc_store"} <= names
    np.testing.assert_allclose(sums, data.reshape(4, 128).sum(1, dtype=np.float64), rtol=1e-5)
