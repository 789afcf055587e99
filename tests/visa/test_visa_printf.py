# ruff: noqa: UP031  (C printf conversions, as Python's % operator applies them, are the oracle)
"""printf on vISA targets through IGC's printf buffer: the corpus printf kernels and every argument
kind print what C's printf (Python's % formatting) prints for the inputs; GenX_IR finalizes the
code; the buffer reader follows the record layout IGC 1.0.12504 writes (tags and sizes read from
``ocloc compile`` dumps: hello 12 bytes, print_values 28, print_vector 56) and rejects damaged
buffers."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import kernelkit
from kernelkit.errors import FormatError
from kernelkit.formats.visa.printf_buffer import read_printf_buffer
from kernelkit.targets.visa.module import compile_visa
from tests.conftest import require_tool
from tests.visa.finalizer import finalize_text

CORPUS = Path(__file__).parents[1] / "corpus" / "printf.cl"
GENX = {"tgllp": "TGLLP", "dg2": "DG2", "skl": "SKL"}

KINDS = """
kernel void kinds(uchar4 a, short4 b, int4 c, long2 d, double x, float y, char z) {
  if (get_global_id(0) == 1)
    printf("%v4hhu|%v4hd|%v4d|%v2ld|%.4f|%.2f|%d|%s|%5.1f%%\\n", a, b, c, d, x, y, z, "lit", 2.25);
}
"""


@pytest.mark.parametrize("platform", ["tgllp", "dg2", "skl"])
def test_corpus_printf_kernels_print_what_c_prints(platform):
    program = kernelkit.Program(CORPUS.read_text(), options=["-cl-std=CL1.2"]).build(f"visa:{platform}")
    assert program.kernel("hello")(np.int32(42), global_size=[4]) == "hello from kernel %d\n" % 42
    v = np.zeros(8, np.float32)
    v[:2] = [1.5, -2.25]
    expected = "".join("v[%u] = %.3f (%s)\n" % (i, v[i], "neg" if v[i] < 0 else "pos") for i in range(3))
    # SIMD lanes reserve their records in lane order
    assert program.kernel("print_values")(v, np.uint32(3), global_size=[8]) == expected
    vec = np.array([1, -2.5, 3, 4e6], np.float32)
    out = program.kernel("print_vector")(vec, np.int64(-(1 << 40)), global_size=[2])
    assert out == ",".join("%f" % e for e in vec) + " %d %c%x\n" % (-(1 << 40), "k", 0xBEEF)


def test_every_argument_kind_on_skl():
    """Vectors of each element size (packed bytes and shorts), longs, a double, a promoted float, a
    char, a string literal, a double constant: skl has fp64, so doubles are written as doubles."""
    program = kernelkit.Program(KINDS).build("visa:skl")
    a, b = np.array([1, 2, 250, 4], np.uint8), np.array([-1, 300, -32768, 7], np.int16)
    c, d = np.array([5, -6, 7, 1 << 30], np.int32), np.array([-(1 << 50), 9], np.int64)
    out = program.kernel("kinds")(a, b, c, d, np.float64(1 / 3), np.float32(2.5), np.int8(-7), global_size=[4])
    join = lambda fmt, xs: ",".join(fmt % x for x in xs)     # noqa: E731
    assert out == "%s|%s|%s|%s|%.4f|%.2f|%d|%s|%5.1f%%\n" % (
        join("%u", a), join("%d", b), join("%d", c), join("%d", d), 1 / 3, 2.5, -7, "lit", 2.25)


def test_promoted_floats_and_double_constants_need_no_fp64():
    source = KINDS.replace("double x", "float x")
    program = kernelkit.Program(source).build("visa:tgllp")
    out = program.kernel("kinds")(np.zeros(4, np.uint8), np.zeros(4, np.int16), np.zeros(4, np.int32),
                                  np.zeros(2, np.int64), np.float32(0.125), np.float32(-1), np.int8(0),
                                  global_size=[2])
    assert out == "0,0,0,0|0,0,0,0|0,0,0,0|0,0|0.1250|-1.00|0|lit|  2.2%\n"


@pytest.mark.parametrize("platform", ["tgllp", "dg2", "skl"])
def test_finalizer_accepts_printf_kernels(platform):
    require_tool("GenX_IR")
    for source, options in ((CORPUS.read_text(), ["-cl-std=CL1.2"]), (KINDS, [])):
        if platform != "skl" and source is KINDS:
            source = KINDS.replace("double x", "float x")
        for kernel in compile_visa(source, platform, options).kernels:
            assert kernel.error is None, kernel.error
            finalize_text(kernel.text, GENX[platform])


def _record(index: int, *fields: tuple[int, bytes]) -> bytes:
    return struct.pack("<I", index) + b"".join(struct.pack("<I", tag) + data for tag, data in fields)


def test_reader_follows_igc_record_layout():
    # print_vector as IGC writes it: vector_float (13) with count 4, long (6), int (3) twice: 56 bytes
    vector = _record(4, (13, struct.pack("<I4f", 4, 1, 2, 3, 4)), (6, struct.pack("<q", -5)),
                     (3, struct.pack("<i", 107)), (3, struct.pack("<I", 0xBEEF)))
    assert len(vector) == 56
    values = _record(1, (3, struct.pack("<I", 2)), (4, struct.pack("<f", 1.5)), (5, struct.pack("<I", 3)))
    assert len(values) == 28
    strings = ["hello from kernel %d\n", "v[%u] = %.3f (%s)\n", "pos", "neg", "%v4hlf %ld %c%x\n"]
    body = vector + values
    data = struct.pack("<I", 4 + len(body)) + body + struct.pack("<i", -1)
    records = read_printf_buffer(data, strings, {0: 1, 1: 3, 4: 4})
    assert records == [("%v4hlf %ld %c%x\n", [("<4 x float>", struct.pack("<4f", 1, 2, 3, 4)),
                                             ("i64", struct.pack("<q", -5)), ("i32", struct.pack("<i", 107)),
                                             ("i32", struct.pack("<I", 0xBEEF))]),
                       ("v[%u] = %.3f (%s)\n", [("i32", struct.pack("<I", 2)), ("float", struct.pack("<f", 1.5)),
                                                ("string", b"neg\0")])]


@pytest.mark.parametrize("data, message", [
    (b"\x08\x00", "shorter than its offset dword"),
    (struct.pack("<II", 8, 9), "offset 4: field string index: 9 is not a format"),
    (struct.pack("<III", 12, 0, 99), "offset 8: field type tag: unknown tag 99"),
    (struct.pack("<III", 12, 0, 6), "offset 12: field argument data"),
])
def test_reader_names_offset_and_field_of_damage(data, message):
    with pytest.raises(FormatError, match=message):
        read_printf_buffer(data, ["%ld"], {0: 1})
