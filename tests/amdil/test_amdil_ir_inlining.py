"""The AMD IL IR pipeline's inlining edits on kernelkit.ir (irpipeline._inline_everything), with
LLVM as the oracle: it parses and verifies the edited module, reads its linkage and attributes,
and its O2 pipeline inlines exactly the functions the edit marked alwaysinline."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from kernelkit import ir
from kernelkit.frontend.opencl import compile_opencl
from kernelkit.targets.amdil.irpipeline import _inline_everything, _optimise, noinline_functions

SOURCE = """
__attribute__((noinline)) float scale(float x, int k) { return x * (float)k; }
float add1(float x) { return x + 1.0f; }
kernel void k(global float *o, int n) { size_t i = get_global_id(0); o[i] = add1(scale(o[i], n)); }
"""
LINKAGE_INTERNAL = llvm.Linkage.internal



def _program(opt: str) -> str:
    return compile_opencl(SOURCE, [opt], triple="spir-unknown-unknown", llvm_passes=False,
                          use_cache=False).ir_text


@pytest.fixture(scope="module")
def o2_text() -> str:
    return _program("-O2")


def _attributes(f) -> set[str]:
    return {word for a in f.attributes for word in a.decode().split()}


def test_noinline_helper_kept_out_of_line_others_inlined(o2_text):
    program = ir.parse(o2_text)
    keep = frozenset(noinline_functions(program))
    assert keep == {"scale"}                      # the source's attribute, the only helper with it
    _inline_everything(program, keep)
    edited = llvm.parse_assembly(str(program))
    edited.verify()
    fns = {f.name: f for f in edited.functions if not f.is_declaration}
    assert "noinline" in _attributes(fns["scale"]) and "alwaysinline" not in _attributes(fns["scale"])
    assert "alwaysinline" in _attributes(fns["add1"])
    assert not any({"optnone", "noinline"} & _attributes(f) for name, f in fns.items() if name != "scale")
    assert all(f.linkage == LINKAGE_INTERNAL for n, f in fns.items() if n != "k")
    assert fns["k"].linkage != LINKAGE_INTERNAL
    # LLVM's O2 inlines add1 and clang's kernel body, keeps scale and its call
    optimised = llvm.parse_assembly(_optimise(ir.parse(o2_text), ["-O2"], keep))
    optimised.verify()
    defined = {f.name for f in optimised.functions if not f.is_declaration}
    assert defined == {"k", "scale"}
    kernel = optimised.get_function("k")
    callees = [list(i.operands)[-1].name for b in kernel.blocks for i in b.instructions if i.opcode == "call"]
    assert "scale" in callees and "add1" not in callees


def test_o0_program_inlines_completely():
    """-O0 puts optnone and noinline on every function: none is kept, LLVM inlines everything."""
    program = ir.parse(_program("-O0"))
    assert noinline_functions(program) == set()
    optimised = llvm.parse_assembly(_optimise(program, ["-O0"]))
    optimised.verify()
    assert {f.name for f in optimised.functions if not f.is_declaration} == {"k"}
    assert not any({"optnone", "noinline"} & _attributes(f) for f in optimised.functions)
