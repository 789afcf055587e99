"""printf formatting (OpenCL C 1.2 s6.12.13) against the C library's snprintf for scalars, and the
vector rule (each element formatted, ',' between) for vectors; then end to end from a kernel."""

from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest

import kernelkit
from kernelkit.runtime.printf import format_record

LIBC = ctypes.CDLL(None)


def c_format(fmt: str, *args) -> str:
    buf = ctypes.create_string_buffer(256)
    LIBC.snprintf(buf, 256, fmt.encode(), *args)
    return buf.value.decode()


def record(*values: tuple[str, bytes]) -> bytes:
    out = bytearray(16)
    for _, raw in values:
        out += raw + bytes(-len(raw) % 8)
    return bytes(out)


@pytest.mark.parametrize("fmt,value", [
    ("%d", -42), ("%5d|", 7), ("%-5d|", 7), ("%+d", 3), ("%05d", -12), ("%u", 4000000000), ("%x", 0xBEEF),
    ("%#X", 255), ("%o", 8), ("%#o", 8), ("%c", 65),
])
def test_integer_conversions_match_c(fmt, value):
    raw = struct.pack("<q", value)
    ty = "i64" if abs(value) >= 2**31 else "i32"
    raw = raw if ty == "i64" else raw[:4]
    c_fmt = fmt.replace("d", "lld").replace("u", "llu") if ty == "i64" else fmt
    expected = c_format(c_fmt, ctypes.c_longlong(value) if ty == "i64" else ctypes.c_int(value))
    assert format_record(fmt, [ty], record((ty, raw))) == expected


@pytest.mark.parametrize("fmt,value", [
    ("%f", 1.5), ("%.3f", -2.25), ("%e", 12345.678), ("%E", 0.000123), ("%g", 0.0001), ("%G", 1e20),
    ("%10.2f|", 3.14159), ("%-10.1e|", 2.5), ("%+.0f", 2.5), ("%f", float("inf")), ("%a", 1.0), ("%A", 0.5),
])
def test_float_conversions_match_c(fmt, value):
    assert format_record(fmt, ["double"], record(("double", struct.pack("<d", value)))) == \
        c_format(fmt, ctypes.c_double(value))


def test_vectors_and_length_modifiers():
    v = struct.pack("<4f", 1, 2.5, -3, 4)
    assert format_record("%v4hlf", ["<4 x float>"], record(("", v))) == \
        "1.000000,2.500000,-3.000000,4.000000"
    c = struct.pack("<8b", *range(-4, 4))
    assert format_record("%v8hhd!", ["<8 x i8>"], record(("", c))) == "-4,-3,-2,-1,0,1,2,3!"
    s = struct.pack("<2h", -1, 300)
    assert format_record("%v2hx", ["<2 x i16>"], record(("", s))) == "ffff,12c"
    assert format_record("100%% %d", ["i32"], record(("", struct.pack("<i", 5)))) == "100% 5"


def test_printf_from_a_kernel_per_launch():
    src = r"""
    kernel void p(global const int *v, float f) {
      int i = get_global_id(0);
      printf("[%d] %s %5.2f %v2d\n", i, i % 2 ? "odd" : "even", f * i, (int2)(v[i], -v[i]));
    }"""
    k = kernelkit.Program(src).build().kernel("p")
    out = k(np.array([3, 4], np.int32), np.float32(1.5), global_size=2, local_size=1, threads=1)
    assert out == "[0] even  0.00 3,-3\n[1] odd  1.50 4,-4\n"
    assert k.last_output == out
    again = k(np.array([7], np.int32), np.float32(1), global_size=1)
    assert again == "[0] even  0.00 7,-7\n"   # each launch reports its own output


@pytest.mark.parametrize("fmt,args", [
    ("[%*d]", (6, 42)), ("[%-*d]", (6, 42)), ("[%*d]", (-6, 42)), ("[%.*d]", (5, 42)), ("[%*.*d]", (8, 3, 7)),
])
def test_star_width_and_precision_match_c(fmt, args):
    """C99 7.19.6.1: '*' takes the width/precision from an int argument (negative width = '-' flag)."""
    raws = [("i32", struct.pack("<i", a)) for a in args]
    assert format_record(fmt, ["i32"] * len(args), record(*raws)) == c_format(fmt, *map(ctypes.c_int, args))


def test_huge_widths_are_capped_and_bad_formats_reported_once_per_launch(capfd):
    """Reproducers of issue 19.7: %999999999d built a 1 GB string, %2147483647d raised MemoryError,
    %*d a TypeError. Widths are capped at MAX_FIELD; each problem is reported once per launch."""
    from kernelkit.runtime.printf import MAX_FIELD

    src = r'''
    kernel void p(int w) {
      printf("[%999999999d]\n", 5);
      printf("[%.2147483647f]\n", 1.0f);
      printf("[%*d|%y]\n", w, 7);
    }'''
    k = kernelkit.Program(src).build().kernel("p")
    out = k(np.int32(4), global_size=3, threads=1)
    lines = out.splitlines()
    assert len(lines) == 9
    assert lines[0] == "[" + " " * (MAX_FIELD - 1) + "5]"
    assert lines[1] == "[1." + "0" * MAX_FIELD + "]"
    assert lines[2] == "[   7|%y]"
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 3, err          # three problems, each once although 3 work-items met them
    assert any("width 999999999 capped at 4096" in e for e in err)
    assert any("precision 2147483647 capped at 4096" in e for e in err)
    assert any("'%y' is not an OpenCL C conversion" in e for e in err)
