"""DG2 SIMD8 kernels use the legacy (non-LSC) messages, as IGC 1.0.12504 emits them there: ``ocloc
compile -device dg2`` of a kernel with ``intel_reqd_sub_group_size(8)`` gives gather4_scaled/
scatter4_scaled at (M1, 8), no lsc_*. GenX_IR 1.0.12504 crashes (SIGSEGV, every run) finalizing corpus
conversions.cl when int_vector_ops (SIMD8 by kernelkit's choice) carries SIMD8 LSC messages
(``lsc_store.ugm (M1, 8)``); with these messages it finalizes. Oracle: GenX_IR."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import require_tool

from kernelkit.targets.visa.module import compile_visa

CONVERSIONS = Path(__file__).parent.parent / "corpus" / "conversions.cl"


def test_genx_ir_finalizes_corpus_conversions_for_dg2(tmp_path):
    require_tool("GenX_IR")
    binary = compile_visa(CONVERSIONS.read_text(), "dg2", ["-cl-std=CL1.2"], filename="conversions.cl")
    kernel = binary.kernel("int_vector_ops")
    assert kernel.payload.simd == 8 and "lsc_" not in kernel.text and "svm_scatter" in kernel.text
    (tmp_path / "k.isa").write_bytes(binary.isa())
    proc = subprocess.run(["GenX_IR", "k.isa", "-platform", "DG2", "-output"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
