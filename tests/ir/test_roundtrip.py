"""Round trip of every corpus kernel file at -O0 and -O3 (and with debug info): the text
kernelkit prints parses and verifies in LLVM 22 (llvmlite), has the same functions,
blocks and instruction counts as clang's original, counted by LLVM itself, and LLVM prints
it exactly as it prints clang's original (every type, operand, flag, attribute and metadata)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_manifest

from kernelkit.frontend import compile_opencl_file
from kernelkit.ir import parse
from kernelkit.ir.check import check_module

from .llvm_oracle import canonical_text, global_names, instruction_counts

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILES = sorted(CORPUS.glob("*.cl"))
LEVELS = ["-O0", "-O3"]
CL_STD = {name: entry["cl_std"] for name, entry in
          corpus_manifest()["files"].items()}


def compile_corpus(path: Path, level: str, *extra: str, triple: str = "spir64-unknown-unknown") -> str:
    """The file compiled with the OpenCL C version the manifest gives it."""
    return compile_opencl_file(path, [f"-cl-std={CL_STD[path.name]}", level, *extra], triple=triple).ir_text


def test_corpus_is_present():
    assert len(FILES) >= 10, "tests/corpus/*.cl missing"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_round_trip_matches_llvm(path: Path, level: str):
    original = compile_corpus(path, level)
    module = parse(original)
    assert check_module(module) == []
    printed = str(module)
    expected = instruction_counts(original)
    assert instruction_counts(printed) == expected
    assert global_names(printed) == global_names(original)
    assert canonical_text(printed) == canonical_text(original)
    # printing is a fixed point: parse(print(x)) prints the same text again
    assert str(parse(printed)) == printed


@pytest.mark.parametrize("path", FILES[::3], ids=lambda p: p.stem)
def test_round_trip_with_debug_info(path: Path):
    original = compile_corpus(path, "-O2", "-g")
    assert "#dbg_" in original or "!DI" in original
    printed = str(parse(original))
    assert instruction_counts(printed) == instruction_counts(original)
    assert canonical_text(printed) == canonical_text(original)


@pytest.mark.parametrize("level", ["-O1", "-O2"])
@pytest.mark.parametrize("path", FILES[1::4], ids=lambda p: p.stem)
def test_round_trip_spir32_other_levels(path: Path, level: str):
    original = compile_corpus(path, level, triple="spir-unknown-unknown")
    printed = str(parse(original))
    assert instruction_counts(printed) == instruction_counts(original)
    assert canonical_text(printed) == canonical_text(original)
