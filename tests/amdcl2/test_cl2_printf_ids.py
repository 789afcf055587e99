"""The printf records of CL2 kernels carry clang's IDs: LLVM's printf binding numbers the printf
calls of the source once each (a helper's printf once, not once per kernel it is inlined into), in
clang's order. Oracle: clang 22 compiling the same source for amdgcn at -O2 (its amdhsa.printf:
ID, argument sizes and format of each call)."""

from __future__ import annotations

from amdgpu.clang_oracle import clang_code_object, source_metadata
from amdgpu.printf_sources import LATE as SOURCE

from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.formats.amdcl2.printf import from_llvm_format
from kernelkit.mux.registry import build_binary


def test_cl2_printf_ids_are_clangs(tmp_path):
    binary = read_cl2(build_binary(SOURCE, "amdcl2:fiji", ["-cl-std=CL2.0"]))
    records = {k.name: {(f.id, f.format, tuple(f.arg_sizes)) for f in k.metadata.printf_formats}
               for k in binary.kernels}
    src = tmp_path / "p.cl"
    src.write_text(SOURCE)
    theirs = {(f.id, f.format, tuple(f.arg_sizes)) for f in map(from_llvm_format, source_metadata(
        clang_code_object(str(src), "gfx803", 4, opt="-O2"))["amdhsa.printf"])}
    assert set().union(*records.values()) == theirs
    assert len(theirs) == 5 and records["none"] == set()
    # each kernel lists the calls it reaches: its own and its helpers'
    formats = {name: sorted(f for _, f, _ in got) for name, got in records.items()}
    assert formats["first"] == ["kernel first %d\n", "later %d %lu\n", "loop %d %s\n", "quiet %f %d\n"]
    assert formats["second"] == ["later %d %lu\n", "quiet %f %d\n", "vec %v4d\n"]
