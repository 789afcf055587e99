"""The one-regex tokenizer at its edges, with LLVM (llvmlite) as the oracle: text that ends in a
comment or in whitespace, labels and names of every spelling, quoted names and strings, hex
integers; a character LLVM's lexer rejects is a FormatError at its offset and line."""

from __future__ import annotations

import pytest

from kernelkit.errors import FormatError
from kernelkit.ir import parse
from kernelkit.ir.lexer import tokenize
from tests.ir.llvm_oracle import canonical_text, instruction_counts

EDGES = r'''; a leading comment
%"struct.a b" = type { i32, [2 x i8] }
@"g name" = global i32 7
@g2 = global i64 u0xFF
$cd = comdat any
define i32 @"f\01x"(i32 %x, ptr %"p q") comdat($cd) {
entry:
  %a.b = add i32 %x, -12 ; trailing comment
  br label %"blk 1"
"blk 1":
  %0 = load i32, ptr %"p q", align 4
  %c = icmp sgt i32 %0, s0x7
  br i1 %c, label %-x.y, label %7
-x.y:
  ret i32 %0
7:
  %f = fadd float 1.500000e+00, 0x3FF0000000000000
  ret i32 %a.b
}
; the text ends in a comment without a newline'''


def _function_names(text: str) -> list[str]:
    return sorted(f.name for f in parse(text).functions)


@pytest.mark.parametrize("ending", ["", "\n", "  \n\t ", "\n; x", "\n; x\n"])
def test_endings_parse_as_llvm_reads_them(ending):
    text = EDGES + ending
    module = parse(text)
    printed = str(module)
    counts = instruction_counts(text)
    assert counts == instruction_counts(printed)
    assert sorted(counts) == _function_names(text)
    assert canonical_text(printed) == canonical_text(text)


def test_tokens_and_whitespace_rebuild_the_text():
    tokens = tokenize(EDGES)
    rebuilt = "".join(space + token for space, token in tokens.pairs)
    assert rebuilt + "\n; the text ends in a comment without a newline" == EDGES
    for i, value in enumerate(tokens.values[:-1]):
        assert EDGES[tokens.starts[i]:tokens.ends[i]] == value
    kinds = dict(zip(tokens.values, tokens.kinds, strict=True))
    assert kinds['"blk 1":'] == kinds["-x.y:"] == kinds["7:"] == kinds["entry:"] == "label"
    assert kinds["u0xFF"] == kinds["s0x7"] == kinds["-12"] == "int"
    assert kinds["1.500000e+00"] == kinds["0x3FF0000000000000"] == "float"
    assert kinds['%"p q"'] == "local" and kinds['@"g name"'] == "global" and kinds["$cd"] == "comdat"


@pytest.mark.parametrize("bad", ["`", "\\", "^", "\x0b", "&"])
def test_a_character_llvm_rejects_is_a_format_error_at_its_offset(bad):
    text = EDGES.replace("%a.b = add", f"%a.b = {bad}add", 1)
    with pytest.raises(RuntimeError):  # LLVM rejects it too
        instruction_counts(text)
    with pytest.raises(FormatError) as info:
        tokenize(text)
    offset = text.index(bad, text.index("%a.b = "))
    assert info.value.offset == offset
    assert info.value.line == text.count("\n", 0, offset) + 1
