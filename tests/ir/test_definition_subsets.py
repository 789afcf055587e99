"""kernelkit.ir's definition spans (``parse_with_spans``) and the clc library subsets taken with them
(``mux.clc.definitions``), on text LLVM printed itself (with its ``; Function Attrs`` comments). The
oracle is LLVM (llvmlite): the subset parses and verifies, it defines exactly the functions LLVM's
own operands reach from the roots and the globals, and every line outside a dropped definition is
kept as it was."""

from __future__ import annotations

import llvmlite.binding as llvm

from kernelkit.ir.parser import parse_with_spans
from kernelkit.mux.clc.definitions import build_index

SOURCE = """
@table = global ptr @from_global
@counter = global i32 0

declare i32 @external(i32)

define i32 @leaf(i32 %x) nounwind {
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @middle(i32 %x) {
  %a = call i32 @leaf(i32 %x)
  %b = call i32 @external(i32 %a)
  ret i32 %b
}

define i32 @through_constant(i32 %x) {
  %p = select i1 true, ptr @leaf, ptr @unused
  %r = call i32 %p(i32 %x)
  ret i32 %r
}

define i32 @unused(i32 %x) nounwind readnone {
  ret i32 %x
}

define i32 @from_global(i32 %x) {
  %c = load i32, ptr @counter
  %s = add i32 %c, %x
  ret i32 %s
}

define i32 @root(i32 %x) {
  %a = call i32 @middle(i32 %x)
  ret i32 %a
}
"""


def llvm_text() -> str:
    return str(llvm.parse_assembly(SOURCE, llvm.create_context()))


def llvm_reached(text: str, roots: list[str]) -> set[str]:
    """Definitions reachable, by LLVM's operands, from roots and from @from_global (which @table's
    initialiser names: llvmlite gives no initialisers)."""
    module = llvm.parse_assembly(text, llvm.create_context())
    defined = {f.name: f for f in module.functions if not f.is_declaration}

    def named(values) -> set[str]:
        return {v.name for v in values if v.name in defined}

    todo = [*roots, "from_global"]
    reached: set[str] = set()
    while todo:
        name = todo.pop()
        if name in reached or name not in defined:
            continue
        reached.add(name)
        for block in defined[name].blocks:
            for inst in block.instructions:
                todo.extend(named(inst.operands))
    return reached


def test_spans_cover_each_definition_exactly():
    text = llvm_text()
    assert "; Function Attrs" in text
    module, spans = parse_with_spans(text)
    assert [f.name for f, _, _ in spans] == [f.name for f in module.functions if not f.is_declaration]
    for f, start, end in spans:
        assert text[start:].startswith("define ") and text[:end].endswith("}")
        assert f"@{f.name}(" in text[start:text.index("\n", start)]


def test_subsets_define_what_llvm_reaches_and_keep_everything_else():
    text = llvm_text()
    index = build_index(text)
    for roots in (["root"], ["through_constant"], ["leaf", "nothing_by_this_name"], []):
        subset = index.subset(text, roots)
        module = llvm.parse_assembly(subset, llvm.create_context())
        module.verify()
        defined = {f.name for f in module.functions if not f.is_declaration}
        assert defined == llvm_reached(text, roots), roots
        assert defined >= {"from_global"}               # a global's initialiser keeps it
        outside, bodies = split_definitions(subset)
        assert outside == split_definitions(text)[0]   # globals, declarations, attributes, metadata
        assert all(body in text for body in bodies)     # definitions copied verbatim
        assert len(bodies) == len(defined)


def split_definitions(text: str) -> tuple[list[str], list[str]]:
    """(the non-blank lines outside definitions, each definition with its comment line) of LLVM's text."""
    outside: list[str] = []
    bodies: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is not None:
            current.append(line)
            if line == "}":
                bodies.append("\n".join(current))
                current = None
        elif line.startswith("define "):
            comment = [outside.pop()] if outside and outside[-1].startswith("; Function Attrs") else []
            current = [*comment, line]
        elif line.strip():
            outside.append(line)
    return outside, bodies
