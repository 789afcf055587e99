"""printf formats in CL2 kernel metadata, as AMD's compiler library (metadata version 0.8, the
"AMD-COMP-LIB-v0.8" of every CL2 binary) serialises them: numPrintf after numArgs, numPrintf + 1
aclPrintfFmt records (the last all zero) after the argument names, then each record's argument
sizes and format string.

Oracles: the driver's binaries in reference/amdcl2 (no kernel there calls printf: each blob ends
with exactly one all-zero record of 48 / 24 bytes and a zero count); clang compiling the same
source for amdgcn (its amdhsa.printf records: the same argument sizes and format strings); the
source itself (which kernel reaches which printf)."""

from __future__ import annotations

import pytest
from amdgpu.clang_oracle import clang_code_object, source_metadata

from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.formats.amdcl2.metadata import parse_kernel_metadata
from kernelkit.formats.amdcl2.metadata_build import MetadataArg, MetadataKernel, build_kernel_metadata
from kernelkit.formats.amdcl2.printf import PRINTF_STRUCTS, PrintfFormat, from_llvm_format
from kernelkit.mux.registry import build_binary

SOURCE = """
void helper(int v) { printf("helper %d\\n", v); }
kernel void k(global int *o, float f) {
  printf("x=%d f=%f\\t%s\\n", o[0], f, "hi");
  helper(o[3]);
  printf("%c %ld %v4d\\n", (char)o[1], (long)o[2], (int4)(1, 2, 3, 4));
}
kernel void j(global int *o) { printf("j %d\\n", o[0]); }
kernel void none(global int *o) { o[0] = 1; }
"""


def test_driver_blobs_end_with_the_empty_printf_array(reference):
    for path in sorted((reference / "amdcl2").glob("*.clo.reconf")):
        binary = read_cl2(path.read_bytes())
        for k in binary.kernels:
            assert k.metadata.printf_formats == [], (path.name, k.name)
            assert k.metadata.tail == bytes(PRINTF_STRUCTS[binary.bits].size), (path.name, k.name)


def test_kernels_record_the_printf_formats_they_reach(tmp_path):
    data = build_binary(SOURCE, "amdcl2:fiji", ["-cl-std=CL2.0"])
    binary = read_cl2(data)
    assert binary.to_bytes() == data
    got = {k.name: k.metadata.printf_formats for k in binary.kernels}
    assert {name: sorted(f.format for f in fs) for name, fs in got.items()} == {
        "k": ["%c %ld %v4d\n", "helper %d\n", "x=%d f=%f\t%s\n"], "j": ["j %d\n"], "none": []}
    ids = [f.id for fs in got.values() for f in fs]
    assert sorted(ids) == list(range(1, 5))
    # clang's records of the same source: the same argument sizes for the same formats
    src = tmp_path / "p.cl"
    src.write_text(SOURCE)
    theirs = {(f.format, f.arg_sizes) for f in map(from_llvm_format, source_metadata(
        clang_code_object(str(src), "gfx803", 4, opt="-O2"))["amdhsa.printf"])}
    assert {(f.format, f.arg_sizes) for fs in got.values() for f in fs} == theirs


@pytest.mark.parametrize("bits", [32, 64])
def test_printf_records_round_trip(bits):
    formats = [PrintfFormat(3, (4, 8), "%d %ld\n"), PrintfFormat(7, (), "plain")]
    kernel = MetadataKernel([MetadataArg("o", "int*", "pointer", "int", address_space="global", usage=2)],
                            printf=formats)
    md = build_kernel_metadata(kernel, bits=bits, driver_version=191205)
    back = parse_kernel_metadata(md.to_bytes(), bits)
    assert back.printf_formats == formats and [a.name for a in back.args] == ["o"]
    assert back.to_bytes() == md.to_bytes()
