"""The model built from hand-written IR (tests/ir/data/constructs.ll, valid LLVM 22 input):
what each construct parses to, and that the printed module is accepted by LLVM unchanged in
content (functions, blocks, instructions, globals counted by llvmlite; LLVM prints both alike)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelkit.ir import (
    AtomicRMWInst,
    CallInst,
    CmpXchgInst,
    ConstantExpr,
    ConstantFP,
    GlobalVariable,
    LoadInst,
    MDNode,
    MDString,
    StoreInst,
    parse,
)
from kernelkit.ir import types as T
from kernelkit.ir.metadata import md_int_values, md_string_values

from .llvm_oracle import canonical_text, global_names, instruction_counts, verify

DATA = Path(__file__).resolve().parent / "data"
TEXT = (DATA / "constructs.ll").read_text()


@pytest.fixture()
def module():
    return parse(TEXT)


@pytest.mark.parametrize("path", sorted(DATA.glob("*.ll")), ids=lambda p: p.stem)
def test_hand_written_files_round_trip_in_llvm(path: Path):
    text = path.read_text()
    printed = str(parse(text))
    assert instruction_counts(printed) == instruction_counts(text)
    assert global_names(printed) == global_names(text)
    assert canonical_text(printed) == canonical_text(text)  # LLVM sees the same module
    assert str(parse(printed)) == printed


def test_types_and_struct_definitions(module):
    packed = module.get_struct("struct.Packed")
    assert packed.packed and packed.elements == (T.i8, T.i32, T.VectorType(T.half, 2))
    assert module.get_struct("struct.Opaque").is_opaque
    odd = module.get_struct("struct.odd name")
    assert odd.elements[0] == T.ArrayType(module.get_struct("struct.Pair"), 2)
    assert str(odd) == '%"struct.odd name"'
    decl = module.get_function("uses_target_type")
    assert isinstance(decl.function_type.params[0], T.TargetExtType)
    assert decl.function_type.params[0].ints == (1, 0, 0, 0, 0, 0, 0)
    assert decl.function_type.params[1] == T.VectorType(T.i32, 4, scalable=True)


def test_globals(module):
    table = module.get_global("table")
    assert (table.linkage, table.addrspace, table.is_constant, table.align) == ("internal", 2, True, 4)
    first = table.initializer.operands[0]
    assert isinstance(first.operands[1], ConstantFP)
    assert first.operands[1].value == pytest.approx(0.1, rel=1e-7)
    packed = module.get_global("packed")
    assert (packed.visibility, packed.section) == ("hidden", ".data.k")
    halves = packed.initializer.operands[2].operands
    assert [h.value for h in halves] == [1.0, -1.0]
    assert module.get_global("bytes").initializer.data == b'a"b\\\n\x00'
    assert module.get_global("tls").thread_local == "thread_local(initialexec)"
    assert module.get_global("ext").is_declaration
    assert module.get_global("asint").comdat == "grp"
    ptrs = module.get_global("ptrs").initializer.operands
    assert isinstance(ptrs[1], ConstantExpr) and ptrs[1].opcode == "addrspacecast"
    gep = ptrs[1].operands[0]
    assert (gep.opcode, gep.flags, gep.source_type) == ("getelementptr", ["inbounds", "nuw"], T.i8)
    assert module.aliases[0].name == "alias"


def test_global_uses_reach_constant_expressions(module):
    packed = module.get_global("packed")
    users = {type(u).__name__ for u in packed.users}
    assert users == {"ConstantExpr"}
    replacement = module.add_global(GlobalVariable("packed2", packed.value_type, None, addrspace=1))
    packed.replace_all_uses_with(replacement)
    assert not packed.uses
    printed = str(module)
    assert "addrspacecast (ptr addrspace(1) @packed2 to" in printed
    verify(printed)


def test_memory_and_atomics(module):
    f = module.get_function("memory")
    insts = list(f.instructions())
    loads = [i for i in insts if isinstance(i, LoadInst)]
    assert [(i.volatile, i.atomic, i.syncscope, i.ordering) for i in loads] == [
        (True, False, None, None), (False, True, "agent", "acquire")]
    stores = [i for i in insts if isinstance(i, StoreInst)]
    assert [(i.volatile, i.ordering) for i in stores] == [(True, None), (False, "release"), (True, "seq_cst")]
    rmw = [(i.operation, i.syncscope, i.ordering) for i in insts if isinstance(i, AtomicRMWInst)]
    assert rmw == [("add", "device", "monotonic"), ("xchg", None, "seq_cst"),
                   ("fadd", "workgroup", "acq_rel"), ("umax", None, "seq_cst"),
                   ("uinc_wrap", None, "monotonic")]
    cx = [i for i in insts if isinstance(i, CmpXchgInst)]
    assert [(i.weak, i.volatile, i.ordering, i.failure_ordering) for i in cx] == [
        (False, False, "acq_rel", "monotonic"), (True, True, "seq_cst", "seq_cst")]
    assert cx[0].type == T.LiteralStructType((T.i32, T.i1))
    fences = [(i.syncscope, i.ordering) for i in insts if i.opcode == "fence"]
    assert fences == [("workgroup", "acq_rel"), (None, "seq_cst")]
    allocas = [i for i in insts if i.opcode == "alloca"]
    assert [(a.align, a.addrspace, len(a.operands)) for a in allocas] == [(4, 0, 0), (16, 0, 1), (8, 5, 0)]


def test_calls_flags_and_terminators(module):
    f = module.get_function("memory")
    calls = [i for i in f.instructions() if isinstance(i, CallInst)]
    printf = calls[0]
    assert printf.function_type.vararg and printf.calling_conv == "spir_func"
    assert [c.tail for c in calls[:3]] == ["", "tail", "notail"]
    bundled = next(c for c in calls if c.bundles)
    assert bundled.bundles == [("convergencectrl", 1)] and bundled.num_args == 0
    switch = next(i for i in f.instructions() if i.opcode == "switch")
    assert [c.value for c, _ in switch.cases()] == [0, -7]
    arith = module.get_function("arith")
    flags = {i.name: i.flags for i in arith.instructions()}
    assert flags["s"] == ["fast"] and flags["m"] == ["nnan", "ninf", "nsz"]
    assert flags["i12"] == ["disjoint"] and flags["c1"] == ["samesign"]
    assert flags["t"] == ["nuw", "nsw"] and flags["z"] == ["nneg"] and flags["i4"] == ["exact"]
    phi = next(i for i in f.instructions() if i.name == "ph2")
    assert phi.flags == ["fast"] and [b.name for _, b in phi.incoming()] == ["entry", "then"]
    dead = f.blocks[-1]
    assert dead.name == "dead" and dead.predecessors == [] and dead.terminator.opcode == "unreachable"
    numbered = module.get_function("numbered")
    assert [a.name for a in numbered.args] == ["", ""]
    assert numbered.blocks[1].predecessors == [numbered.blocks[0]]


def test_metadata(module):
    f = module.get_function("memory")
    assert md_string_values(f.metadata["kernel_arg_name"]) == ["p", "l", "v"]
    assert md_int_values(f.metadata["kernel_arg_addr_space"]) == [1, 3, 0]
    ident = module.named_metadata["llvm.ident"]
    assert ident[0] is ident[1] and ident.operands[0].operands[0].value == "kernelkit \u2713 test"
    self_ref = module.named_metadata["opencl.ocl.version"][0]
    assert self_ref.distinct and self_ref.operands[1] is None and self_ref.operands[2] is self_ref
    load = next(i for i in f.instructions() if i.name == "x")
    assert isinstance(load.metadata["noundef"], MDNode) and load.metadata["noundef"].operands == []
    assert isinstance(ident[0].operands[0], MDString)
    assert f.attributes[0].attributes == ["convergent", "norecurse", '"uniform-work-group-size"="true"']


def test_value_text_and_removal(module):
    f = module.get_function("numbered")
    assert str(f.blocks[0].instructions[0]) == "%3 = add i32 %0, %1"  # LLVM slot numbering
    assert str(f).startswith("define spir_func i32 @numbered(i32 %0, i32 %1) {")
    tls = module.get_global("tls")
    module.remove_global(tls)
    assert module.get_global("tls") is None
    with pytest.raises(ValueError):
        module.remove_global(module.get_global("packed"))
    assert "@tls" not in str(module)
    verify(str(module))
