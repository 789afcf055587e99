"""Bad input: truncated or corrupted IR raises kernelkit.FormatError naming the line —
never IndexError/KeyError/AttributeError/UnicodeDecodeError."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kernelkit.errors import FormatError
from kernelkit.frontend import compile_opencl_file
from kernelkit.ir import parse

DATA = Path(__file__).resolve().parent / "data"
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def samples() -> list[str]:
    texts = [(DATA / "constructs.ll").read_text()]
    for name in ("control_flow", "atomics_c11"):
        texts.append(compile_opencl_file(CORPUS / f"{name}.cl", ["-cl-std=CL2.0", "-O3"]).ir_text)
    return texts


def _parse_or_format_error(text: str) -> FormatError | None:
    try:
        parse(text)
    except FormatError as exc:
        assert exc.line is not None or "line" in str(exc)
        return exc
    return None


def test_truncated_inputs(samples):
    rng = random.Random(7)
    for text in samples:
        for cut in sorted(rng.sample(range(1, len(text)), 50)):
            exc = _parse_or_format_error(text[:cut])
            # a truncation is reported as such or as what was expected, never as a Python error
            assert exc is None or "IndexError" not in str(exc), str(exc)


def test_truncated_attribute_group_is_end_of_input():
    text = "define void @f() #0 {\n  ret void\n}\nattributes #0 = { nounwind "
    with pytest.raises(FormatError, match="unexpected end of input") as info:
        parse(text)
    assert info.value.line == 4


def test_corrupted_inputs(samples):
    rng = random.Random(11)
    junk = ["%", "@", "!", "(", ")", "{", "}", "<", ">", ",", "i32", "ptr", "label", "x", "0",
            "\"", "c\"", "#", "=", "...", "\u00e9", "-", "0x", "!{", "align"]
    for text in samples:
        for _ in range(80):
            pos = rng.randrange(len(text))
            width = rng.randrange(0, 6)
            _parse_or_format_error(text[:pos] + rng.choice(junk) + text[pos + width:])


@pytest.mark.parametrize("text, line", [
    ("define void @f() {\n  ret i32\n}\n", 3),
    ("define void @f() {\n  %x = add i32 %y, 1\n  ret void\n}\n", 2),
    ("@g = global i32 ptr\n", 1),
    ("define void @f() {\n  frobnicate\n}\n", 2),
    ("declare void @f()\n!0 = !{!1}\n", 3),
    ("define void @f() {\n  %v = extractelement i32 1, i32 0\n  ret void\n}\n", 2),
])
def test_error_names_the_line(text: str, line: int):
    with pytest.raises(FormatError) as info:
        parse(text)
    assert info.value.line == line, str(info.value)
