"""The editing API passes rely on (use lists, RAUW, signature changes, cloning, naming),
checked on corpus kernels with LLVM (llvmlite) as the oracle."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import pytest

from kernelkit.frontend import compile_opencl_file
from kernelkit.ir import CallInst, Function, Instruction, Module, parse
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.check import check_module
from kernelkit.ir.transforms import (
    add_parameters,
    call_sites,
    clone_function,
    instruction_users,
    remove_parameters,
    remove_unreachable_blocks,
    replace_instruction,
    split_block,
)

from .llvm_oracle import instruction_counts, verify

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def corpus_ir(name: str, level: str = "-O3") -> str:
    return compile_opencl_file(CORPUS / f"{name}.cl", ["-cl-std=CL2.0", level]).ir_text


@pytest.mark.parametrize("name", ["address_spaces", "control_flow", "vector_types", "atomics"])
def test_argument_use_counts_match_llvm(name: str):
    text = corpus_ir(name)
    ours = parse(text)
    theirs = verify(text)
    for lf in theirs.functions:
        if lf.is_declaration:
            continue
        f = ours.get_function(lf.name)
        for arg, larg in zip(f.args, lf.arguments, strict=True):
            key = str(larg)  # "ptr addrspace(1) %0": unique within the function
            expected = sum(1 for b in lf.blocks for i in b.instructions for op in i.operands
                           if op.value_kind == larg.value_kind and str(op) == key)
            assert expected > 0 or not arg.uses
            assert len(arg.uses) == expected, (lf.name, key)
            assert all(u.user.operands[u.index] is arg for u in arg.uses)


def test_gid_calls_replaced_by_a_new_parameter():
    """A scheduling-parameter style rewrite: add `i64 %gid0` to each kernel, RAUW the
    get_global_id(0) calls with it, erase them."""
    m = parse(corpus_ir("address_spaces"))
    gid = m.get_function("_Z13get_global_idj")
    kernels = [f for f in m.functions if f.calling_conv == "spir_kernel"]
    assert kernels
    for k in kernels:
        params_before = len(k.args)
        (new,) = add_parameters(k, [(T.i64, "gid0")])
        for inst in list(k.instructions()):
            if isinstance(inst, CallInst) and inst.callee is gid:
                replace_instruction(inst, new)
        assert len(k.args) == params_before + 1
        assert new.uses or all(not isinstance(i, CallInst) or i.callee is not gid for i in k.instructions())
    assert check_module(m) == []
    text = str(m)
    lm = verify(text)
    for k in kernels:
        lf = lm.get_function(k.name)
        assert len(list(lf.arguments)) == len(k.args)
        calls = [i for b in lf.blocks for i in b.instructions
                 if i.opcode == "call" and "_Z13get_global_idj" in str(i)]
        assert calls == []


def test_add_and_remove_parameters_update_call_sites():
    m = parse(corpus_ir("control_flow", "-O0"))
    impls = [f for f in m.functions if f.name.startswith("__clang_ocl_kern_imp_") and call_sites(f)]
    assert impls
    f = impls[0]
    n = len(f.args)
    add_parameters(f, [(T.i32, "extra"), (T.ptr, "spare")],
                   call_args=lambda call: [const(T.i32, 7), call.args[0] if call.args and call.args[0].type == T.ptr else _null()])
    assert len(f.args) == n + 2
    counts = instruction_counts(str(m))
    lm = verify(str(m))
    assert len(list(lm.get_function(f.name).arguments)) == n + 2
    remove_parameters(f, [n, n + 1])
    assert check_module(m) == []
    assert len(f.args) == n
    assert instruction_counts(str(m)) == counts
    assert len(list(verify(str(m)).get_function(f.name).arguments)) == n


def _null():
    from kernelkit.ir.values import null

    return null(T.ptr)


def test_remove_used_parameter_is_refused():
    m = parse(corpus_ir("control_flow"))
    k = next(f for f in m.functions if f.calling_conv == "spir_kernel" and f.args and f.args[0].uses)
    with pytest.raises(ValueError):
        remove_parameters(k, [0])


@pytest.mark.parametrize("name", ["control_flow", "math", "struct_args", "atomics_c11"])
def test_clone_every_function(name: str):
    text = corpus_ir(name)
    m = parse(text)
    originals = [f for f in m.functions if not f.is_declaration]
    for f in originals:
        clone_function(f, f.name + ".clone")
    assert check_module(m) == []
    counts = instruction_counts(str(m))
    for f in originals:
        assert counts[f.name + ".clone"] == counts[f.name]


def test_clone_into_another_module_with_remapped_globals():
    src = parse(corpus_ir("address_spaces"))
    dst = Module()
    vmap = {}
    for decl in src.functions:
        if decl.is_declaration:
            vmap[decl] = dst.declare_function(decl.name, decl.function_type, decl.calling_conv)
    k = next(f for f in src.functions if f.calling_conv == "spir_kernel")
    clone_function(k, k.name, dst, vmap)
    text = str(dst)
    counts = instruction_counts(text)
    assert counts[k.name] == instruction_counts(str(src))[k.name]


def test_names_are_uniqued_on_print():
    m = Module()
    f = m.add_function(Function("f", T.FunctionType(T.i32, (T.i32, T.i32)), arg_names=["x", "x"]))
    g = m.add_function(Function("f", T.FunctionType(T.void, ())))
    b = IRBuilder(f.append_block("x"))
    s = b.add(f.args[0], f.args[1], "x")
    t = b.mul(s, s, "x")
    b.ret(b.add(t, const(T.i32, 1)))
    IRBuilder(g.append_block("")).ret_void()
    text = str(m)
    lm = verify(text)
    assert len([fn for fn in lm.functions]) == 2
    assert instruction_counts(text)[f.name] == (1, 4)


def test_branch_folding_and_unreachable_blocks_removed():
    m = parse(corpus_ir("control_flow"))
    k = next(f for f in m.functions if f.calling_conv == "spir_kernel" and len(f.blocks) > 2)
    br = next(i for i in k.instructions() if i.opcode == "br" and len(i.operands) == 3)
    before = len(k.blocks)
    block, target, dropped = br.parent, br.operands[1], br.operands[2]
    if target is not dropped:  # fold to the true edge
        for phi in dropped.phis():
            phi.remove_incoming(block)
    cond = br.operands[0]
    br.erase()
    if not cond.uses and isinstance(cond, Instruction):
        cond.erase()
    IRBuilder(block).br(target)
    assert target in block.successors and block in target.predecessors
    removed = remove_unreachable_blocks(k)
    assert len(k.blocks) == before - removed
    lm = verify(str(m))
    assert len(list(lm.get_function(k.name).blocks)) == len(k.blocks)


def test_erase_refuses_used_instruction():
    m = parse(corpus_ir("control_flow"))
    k = next(f for f in m.functions if f.calling_conv == "spir_kernel")
    used = next(i for i in k.instructions() if i.uses)
    with pytest.raises(ValueError):
        used.erase()


def test_llvm_can_optimise_printed_text():
    m = parse(corpus_ir("reductions", "-O0"))
    text = str(m)
    mod = llvm.parse_assembly(text)
    mod.verify()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    tm = llvm.Target.from_default_triple().create_target_machine()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    optimised = str(mod)
    assert instruction_counts(str(parse(optimised))) == instruction_counts(optimised)


def test_instruction_users_through_constant_expressions():
    m = parse(corpus_ir("constant_data", "-O0"))
    g = next(g for g in m.globals if g.uses)
    users = instruction_users(g)
    assert users
    lm = verify(str(m))
    # LLVM sees the global referenced in exactly these functions
    funcs = {u.function.name for u in users}
    for lf in lm.functions:
        mentions = any(g.name and f"@{g.name}" in str(i) for b in lf.blocks for i in b.instructions)
        assert mentions == (lf.name in funcs), lf.name


@pytest.mark.parametrize("name", ["address_spaces", "reductions", "atomics"])
def test_split_blocks_at_barriers(name: str):
    """Split every block before each barrier call (what barrier preparation does)."""
    text = corpus_ir(name)
    m = parse(text)
    original = m.copy()
    splits: dict[str, int] = {}
    for f in m.functions:
        barriers = [i for i in f.instructions() if isinstance(i, CallInst)
                    and i.called_function is not None and "barrier" in i.called_function.name]
        for k, call in enumerate(barriers):
            new = split_block(call, f"barrier.{k}")
            assert new.instructions[0] is call and call.parent is new
        splits[f.name] = len(barriers)
    assert any(splits.values())
    assert check_module(m) == []
    before, after = instruction_counts(str(original)), instruction_counts(str(m))
    for fname, (blocks, insts) in before.items():
        n = splits.get(fname, 0)
        assert after[fname] == (blocks + n, insts + n)


def test_check_module_finds_broken_links():
    m = parse(corpus_ir("control_flow"))
    assert check_module(m) == []
    k = next(f for f in m.functions if f.calling_conv == "spir_kernel" and len(f.blocks) > 1)
    inst = next(i for i in k.instructions() if i.operands and i.opcode != "phi")
    inst.operands[0].uses.clear()  # corrupt a use list behind the API's back
    term = k.blocks[0].instructions.pop()  # and drop a terminator
    problems = check_module(m)
    assert any("no matching entry in its use list" in p for p in problems)
    assert any("does not end in a terminator" in p for p in problems)
    k.blocks[0].instructions.append(term)
