"""The corpus's real control-flow graphs: every function definition of every tests/corpus/*.cl
file compiled by kernelkit.frontend at -O0..-O3 (SPIR, the manifest's OpenCL C version)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from conftest import corpus_manifest

from kernelkit.frontend import compile_opencl_file
from kernelkit.ir import Function, parse

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILES = sorted(CORPUS.glob("*.cl"))
LEVELS = ("-O0", "-O1", "-O2", "-O3")
CL_STD = {name: entry["cl_std"] for name, entry in
          corpus_manifest()["files"].items()}


@cache
def corpus_module(name: str, level: str):
    path = CORPUS / name
    return parse(compile_opencl_file(path, [f"-cl-std={CL_STD[name]}", level],
                                     triple="spir64-unknown-unknown").ir_text)


def corpus_functions(level: str) -> list[Function]:
    return [f for p in FILES for f in corpus_module(p.name, level).functions if not f.is_declaration]
