"""On DG2 kernelkit's SIMD16/32 kernels use LSC messages everywhere IGC 1.0.12504 does (ocloc -device
dg2-g10 on the same corpus files writes lsc_store.ugm for printf records, lsc_load/lsc_store.slm for
work-group collectives, LSC for generic accesses): printf's record reservation and writes, the
collectives' SLM scratch, generic->local splits and the by-value struct frames (transposed SIMD1
lsc_store blocks instead of svm_block_st) carry no legacy SVM/SLM message, and GenX_IR -platform DG2
finalizes the programs. Their results on the simulator are the host's: test_visa_corpus_host.py."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import require_tool

from kernelkit.targets.visa.module import compile_visa
from tests.conftest import CORPUS
from tests.visa.igc_dump import corpus_std

LEGACY = re.compile(r"\b(svm_\w+|gather4_scaled|scatter4_scaled|gather_scaled|scatter_scaled|dword_atomic|oword_\w+)")


@pytest.mark.parametrize("stem,expect", [
    ("printf", (r"lsc_atomic_iadd\.ugm", r"lsc_store\.ugm")),
    ("workgroup_cl20", (r"lsc_store\.slm", r"lsc_load\.slm")),
    ("generic_cl30", (r"lsc_load\.slm", r"lsc_store\.ugm")),
    ("struct_args", (r"lsc_store\.ugm \(M1_NM, 1\) \S+ \S+:d32x\d+t",)),   # by-value struct frames
])
def test_dg2_kernels_use_lsc_and_genx_ir_finalizes_them(stem, expect, tmp_path):
    path = CORPUS / f"{stem}.cl"
    binary = compile_visa(path.read_text(), "dg2", [f"-cl-std={corpus_std(path.name)}"], filename=path.name)
    texts = [k.text for k in binary.kernels if k.text and k.payload.simd >= 16]
    assert texts
    joined = "\n".join(texts)
    assert not LEGACY.findall(joined)
    for message in expect:
        assert re.search(message, joined), message
    require_tool("GenX_IR")
    (tmp_path / "k.isa").write_bytes(binary.isa_of_built())
    proc = subprocess.run(["GenX_IR", "k.isa", "-platform", "DG2", "-output"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
