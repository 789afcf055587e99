"""ir.transforms.inlining on a module whose attribute groups are shared by functions and call
sites; LLVM (llvmlite) reads the printed result: which attributes each function and call has."""

from __future__ import annotations

import llvmlite.binding as llvm

from kernelkit import ir
from kernelkit.ir.transforms.inlining import drop_function_attributes, group_attributes, with_own_group

TEXT = """
define internal i32 @helper(i32 %x) #0 {
  %y = add i32 %x, 1
  ret i32 %y
}

define internal i32 @other(i32 %x) noinline #1 {
  %y = call i32 @helper(i32 %x) #0
  ret i32 %y
}

define i32 @entry(i32 %x) #1 {
  %y = call i32 @other(i32 %x) #2
  ret i32 %y
}

attributes #0 = { noinline nounwind optnone }
attributes #1 = { nounwind "kk-kept"="yes" }
attributes #2 = { noinline }
"""


def _llvm_attributes(module: ir.Module) -> dict[str, set[str]]:
    """function name -> its attributes, and "call:<callee>" -> the call site's, as LLVM reads them
    (LLVM prints call-site attributes as groups: they are read from its own text)."""
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    groups = {}
    for line in str(parsed).splitlines():
        if line.startswith("attributes #"):
            number, body = line[len("attributes "):].split(" = ", 1)
            groups[number] = set(body.strip("{} ").split())
    out = {}
    for f in parsed.functions:
        out[f.name] = {w for a in f.attributes for w in a.decode().split()}
        for block in f.blocks:
            for inst in block.instructions:
                if inst.opcode == "call":
                    text = str(inst)
                    callee = text[text.index("@") + 1:text.index("(", text.index("@"))]
                    words = text[text.rindex(")") + 1:].replace(",", " ").split()
                    out[f"call:{callee}"] = set().union(*(groups.get(w, {w}) for w in words))
    return out


def test_noinline_and_optnone_leave_groups_functions_and_calls():
    module = ir.parse(TEXT)
    drop_function_attributes(module)
    attrs = _llvm_attributes(module)
    assert attrs["helper"] == {"nounwind"}
    assert attrs["other"] == {"nounwind", '"kk-kept"="yes"'}
    assert attrs["call:helper"] == {"nounwind"} and attrs["call:other"] == set()  # #2 was only noinline
    assert not any({"noinline", "optnone"} & a for a in attrs.values())


def test_own_group_is_not_reached_by_shared_group_edits():
    module = ir.parse(TEXT)
    other = module.get_function("other")
    with_own_group(other, ["noinline", *group_attributes(other.attributes)])
    for group in module.attribute_groups:
        group.attributes.append("cold")
    attrs = _llvm_attributes(module)
    assert "cold" in attrs["entry"]                     # shared #1 edited
    assert "cold" not in attrs["other"]                 # its own copy of #1 was not
    assert attrs["other"] == {"noinline", "nounwind", '"kk-kept"="yes"'}
    assert "cold" in attrs["helper"] and "cold" in attrs["call:helper"]   # #0: function and call
