"""The LLVM steps of a host build parse in LLVM contexts of their own. In the global context a struct
type name that a module parsed earlier took comes back renamed (``%struct.S.0``, then ``%struct.S.1``...),
so a process's later builds gave other IR than its first and, in checked mode, whose messages name the
struct types, other objects (found comparing host objects over tests/corpus: checked struct_args.cl's
changed from one build to the next in one process)."""

from __future__ import annotations

import re

from kernelkit.targets.host import codegen
from kernelkit.targets.host.passes.checked import inline_into_kernels

# what clang emits for `typedef struct { int a[3]; float f; } S;` passed by value
TEXT = """
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { [3 x i32], float }

define internal i32 @first(ptr %s) alwaysinline {
  %v = load i32, ptr %s, align 4
  ret i32 %v
}

define void @k(ptr byval(%struct.S) align 4 %s, ptr %out) {
  %v = call i32 @first(ptr %s)
  store i32 %v, ptr %out, align 4
  ret void
}
"""


def _struct_names(text: str) -> list[str]:
    return re.findall(r"^(%[\w.]+) = type ", text, re.M)


def test_inlining_keeps_the_struct_names_build_after_build():
    assert [_struct_names(codegen.inline_all(TEXT)) for _ in range(3)] == [["%struct.S"]] * 3


def test_the_optimiser_keeps_the_struct_names_build_after_build():
    assert [_struct_names(codegen.optimize(TEXT, "test")) for _ in range(3)] == [["%struct.S"]] * 3


def test_checked_mode_inlining_keeps_the_struct_names_build_after_build():
    assert [_struct_names(inline_into_kernels(TEXT)) for _ in range(3)] == [["%struct.S"]] * 3
