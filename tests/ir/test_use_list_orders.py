"""kernelkit.ir models LLVM's use-list order directives (LangRef "Use-list Order Directives"):
``uselistorder`` in a function and at module level, and ``uselistorder_bb``. The oracle is LLVM 22:
``opt-22 --preserve-ll-uselistorder`` prints the use lists it built from a text as directives, so
the same directives from the original text and from kernelkit.ir's print mean LLVM built the same
use lists from both; llvmlite parses and verifies the printed text."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kernelkit import FormatError, ir
from kernelkit.frontend.opencl import compile_opencl
from kernelkit.frontend.printf_order import with_printf_order
from tests.conftest import require_tool
from tests.ir.llvm_oracle import verify

ROOT = Path(__file__).resolve().parents[2]

# Written directives shuffle use lists in every form the parser takes: a function's argument and
# block (in the function), a function, a global variable and a block named through its function;
# the first follows a declaration (whose attribute list ends there).
SHUFFLED = """
@g = global i32 0
@table = global [2 x ptr] [ptr blockaddress(@f, %b1), ptr blockaddress(@f, %b2)]

declare i32 @printf(ptr, ...)

define i32 @f(i32 %x, ptr %p) {
entry:
  %a = add i32 %x, 1
  %b = mul i32 %x, %a
  %c = sub i32 %x, %b
  %v = load i32, ptr @g
  store i32 %c, ptr @g
  %s = icmp eq i32 %c, 0
  br i1 %s, label %b1, label %b2
b1:
  br label %exit
b2:
  %d = getelementptr i32, ptr @g, i32 1
  indirectbr ptr %p, [label %b1, label %exit]
exit:
  %r = phi i32 [ %a, %b1 ], [ %b, %b2 ]
  %q = call i32 (ptr, ...) @printf(ptr @g)
  %q2 = call i32 (ptr, ...) @printf(ptr @g, i32 %r)
  ret i32 %r

  uselistorder i32 %x, { 2, 0, 1 }
  uselistorder label %exit, { 1, 0 }
}

define void @h() {
  %q3 = call i32 (ptr, ...) @printf(ptr @g)
  ret void
}

declare void @last()

uselistorder ptr @printf, { 1, 2, 0 }
uselistorder ptr @g, { 3, 4, 0, 1, 2, 5 }
uselistorder_bb @f, %b1, { 1, 0, 2 }
"""


def llvm_use_lists(text: str, passes: str | None = None) -> tuple[str, list[str]]:
    """(LLVM's print of ``text`` after ``passes``, the use-list directives in it)."""
    args = [require_tool("opt-22"), "-S", "--preserve-ll-uselistorder", "-", "-o", "-"]
    if passes:
        args.append(f"-passes={passes}")
    out = subprocess.run(args, input=text, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout, [line.strip() for line in out.stdout.splitlines() if line.lstrip().startswith("uselistorder")]


def test_written_directives_are_modelled_and_keep_llvms_use_lists():
    module = ir.parse(SHUFFLED)
    f = module.get_function("f")
    by_value = {id(order.value): order.indexes for order in module.use_list_orders}
    assert by_value[id(module.get_function("printf"))] == [1, 2, 0]
    assert by_value[id(module.get_global("g"))] == [3, 4, 0, 1, 2, 5]
    assert by_value[id(f.blocks[1])] == [1, 0, 2]           # uselistorder_bb @f, %b1
    assert [(o.value, o.indexes) for o in f.use_list_orders] == [(f.args[0], [2, 0, 1]), (f.blocks[3], [1, 0])]
    printed = str(module)
    verify(printed)
    _, expected = llvm_use_lists(SHUFFLED)
    assert len(expected) == 5          # LLVM writes @f's block as an in-function directive
    assert llvm_use_lists(printed)[1] == expected
    # the directives follow the values they name through an edit of the model
    module.get_global("g").name = "renamed"
    f.args[0].name = "y"
    _, renamed = llvm_use_lists(str(module))
    assert renamed == [d.replace("@g,", "@renamed,").replace("%x,", "%y,") for d in expected]
    module.drop_use_list_orders()
    assert "uselistorder" not in str(module)


def test_llvm_optimised_kernels_keep_their_use_lists_through_the_model():
    """LLVM's O2 of clang's reduction kernels leaves use lists the parser does not rebuild:
    opt writes them as directives in the functions; kernelkit.ir's print of that text gives LLVM
    the same use lists."""
    source = (ROOT / "tests/corpus/reductions.cl").read_text()
    clang_text = compile_opencl(source, "-O2").ir_text
    optimised, directives = llvm_use_lists(clang_text, "default<O2>")
    assert any(d.startswith("uselistorder label") for d in directives)
    module = ir.parse(optimised)
    assert sum(len(f.use_list_orders) for f in module.functions) == len(directives)
    printed = str(module)
    verify(printed)
    assert llvm_use_lists(printed)[1] == directives
    # the frontend drops them on the model (its passes rewrite the module)
    stripped = with_printf_order(optimised)
    assert "uselistorder" not in stripped
    assert llvm_use_lists(stripped)[1] == []
    verify(stripped)


@pytest.mark.parametrize("text, message", [
    ("define void @f(i32 %x) {\n  ret void\n\n  uselistorder i32 %x, { 0, 1 }\n}\n", "changes the order"),
    ("define void @f(i32 %x) {\n  ret void\n\n  uselistorder i32 %x, { 1, 1 }\n}\n", "permutation"),
    ("declare void @f()\nuselistorder_bb @f, %b, { 1, 0 }\n", "defined above"),
    ("define void @f() {\nb:\n  ret void\n}\nuselistorder_bb @f, %c, { 1, 0 }\n", "invalid basic block"),
])
def test_bad_directives_are_format_errors_with_their_line(text, message):
    with pytest.raises(FormatError, match=message) as err:
        ir.parse(text)
    assert err.value.line == text[:text.index("uselistorder")].count("\n") + 1
