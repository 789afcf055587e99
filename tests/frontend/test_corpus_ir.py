"""DESIGN fact: clang 22's SPIR IR for every corpus file, at -O0 and -O3, for spir64 and spir,
parses and verifies in llvmlite's LLVM 22 (the optimiser and JIT kernelkit builds on)."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import pytest
from conftest import corpus_manifest

from kernelkit.frontend import compile_opencl_file

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

MANIFEST = corpus_manifest()["files"]


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


def _run_cases():
    for name, entry in sorted(MANIFEST.items()):
        for k in entry["kernels"]:
            if k.get("run"):
                yield pytest.param(name, k, id=f"{name}:{k['name']}")


@pytest.mark.parametrize("name, kernel", list(_run_cases()))
def test_manifest_run_entries_fit_their_kernels(name, kernel):
    """Every runnable kernel's inputs name each argument once, with the right shape of input."""
    assert not MANIFEST[name].get("images")
    run = kernel["run"]
    args = run["args"]
    assert list(args) == [a["name"] for a in kernel["args"]]
    glob, local = run["global"], run.get("local")
    assert 1 <= len(glob) <= 3
    if local is not None:
        assert len(local) == len(glob) and all(g % item == 0 for g, item in zip(glob, local, strict=True))
    if "reqd_work_group_size" in kernel:
        assert local is not None
        assert list(local) + [1] * (3 - len(local)) == kernel["reqd_work_group_size"]
    for a in kernel["args"]:
        spec = args[a["name"]]
        if a["kind"] == "pointer" and a.get("space") == "local":
            assert spec["local"] == a["pointee"] and spec["count"] > 0
        elif a["kind"] == "pointer":
            pointee = a["pointee"].removeprefix("_Atomic(").removesuffix(")")
            assert spec["buffer"] == pointee and spec["count"] > 0
        elif a["kind"] in ("struct", "union"):
            assert isinstance(spec, dict) and spec
        elif a["kind"] == "vector":
            assert isinstance(spec, list) and len(spec) == a["width"]
        else:
            assert isinstance(spec, int | float)
