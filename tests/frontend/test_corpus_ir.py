"""DESIGN fact: clang 22's SPIR IR for every corpus file, at -O0 and -O3, for spir64 and spir,
parses and verifies in llvmlite's LLVM 22 (the optimiser and JIT kernelkit builds on)."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import pytest
import yaml

from kernelkit.frontend import compile_opencl_file

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

MANIFEST = yaml.safe_load((CORPUS / "manifest.yaml").read_text())["files"]


def test_manifest_lists_every_corpus_file():
    assert sorted(MANIFEST) == sorted(p.name for p in CORPUS.glob("*.cl"))


@pytest.mark.parametrize("triple", ["spir64-unknown-unknown", "spir-unknown-unknown"])
@pytest.mark.parametrize("opt", ["-O0", "-O3"])
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_corpus_ir_verifies_in_llvmlite(name, opt, triple):
    r = compile_opencl_file(CORPUS / name, [f"-cl-std={MANIFEST[name]['cl_std']}", opt], triple=triple)
    assert r.log == ""  # the corpus compiles without warnings
    module = llvm.parse_assembly(r.ir_text)
    module.verify()
    kernels = [f.name for f in module.functions if not f.is_declaration and "spir_kernel" in str(f).split("@")[0]
               and not f.name.endswith("_block_invoke_kernel")]  # clang's kernels for enqueue_kernel blocks
    assert kernels == [k["name"] for k in MANIFEST[name]["kernels"]]
