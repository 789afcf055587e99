"""kernelkit.ir parses the types of type-carrying parameter attributes (``byval(<ty>)``, ``sret``,
``elementtype``...: ``ir.TypeAttribute``), so a pass that retypes a module maps them like any other
type. The oracle is LLVM (llvmlite): flattening address space 1 gives the module LLVM reads from the
same text with every ``addrspace(1)`` left out."""

from __future__ import annotations

import llvmlite.binding as llvm

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.ir.transforms.address_spaces import flatten_address_spaces
from tests.ir.llvm_oracle import canonical_text

TEXT = """
%struct.P = type { ptr addrspace(1), i32 }

declare void @use(ptr addrspace(1) sret([2 x ptr addrspace(1)]), ptr byval({ ptr addrspace(1), i32 }) align 8, ptr byval(%struct.P))

declare ptr @llvm.preserve.array.access.index.p0.p0(ptr, i32, i32)

define void @f(ptr %p, ptr addrspace(1) %q) {
  call void @use(ptr addrspace(1) sret([2 x ptr addrspace(1)]) %q, ptr byval({ ptr addrspace(1), i32 }) %p, ptr byval(%struct.P) %p)
  %e = call ptr @llvm.preserve.array.access.index.p0.p0(ptr elementtype([4 x ptr addrspace(1)]) %p, i32 0, i32 1)
  ret void
}
"""


def test_type_attributes_are_parsed_types():
    module = ir.parse(TEXT)
    use = module.get_function("use")
    sret, byval, named = (next(a for a in arg.attributes if isinstance(a, ir.TypeAttribute)) for arg in use.args)
    assert (byval.kind, byval.type) == ("byval", T.LiteralStructType((T.PointerType(1), T.i32)))
    assert named.type is module.get_struct("struct.P")
    assert sret.kind == "sret" and sret.type == T.ArrayType(T.PointerType(1), 2)
    assert byval == "byval({ ptr addrspace(1), i32 })"       # still the attribute's text
    assert canonical_text(str(module)) == canonical_text(TEXT)


def test_flattening_maps_the_attribute_types():
    module = ir.parse(TEXT)
    flatten_address_spaces(module, {1})
    printed = str(module)
    llvm.parse_assembly(printed, llvm.create_context()).verify()
    assert canonical_text(printed) == canonical_text(TEXT.replace(" addrspace(1)", ""))
