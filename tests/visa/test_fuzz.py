"""Damaged inputs never crash: corrupted binaries and mangled texts give FormatError or a result."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kernelkit.errors import FormatError
from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.inspect import inspect, render
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.text_print import print_visaasm

TEXTS = [p.read_text() for p in sorted((Path(__file__).parent / "kernels").glob("*.visaasm"))]
NOISE = ["(", ")", "X", "0x", "<1>", "A", ":ud", ".", "%null.0", "[", "(M1, 99)", "P1", "-", "&A[3]", "99999999999",
         "=99999999999", "(300,0)", "0x1ffffffffffffffff:q"]


def test_corrupted_binaries_raise_format_error_only():
    rng = random.Random(7)
    blobs = [write_isa(parse_visaasm(t)) for t in TEXTS]
    for _ in range(400):
        data = bytearray(rng.choice(blobs))
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[:rng.randrange(len(data))]
        for lenient in (False, True):
            try:
                obj = read_isa(bytes(data), lenient=lenient)
                write_isa(obj)
                render(inspect(bytes(data), "x.isa"))
                print_visaasm(obj)
            except FormatError as exc:
                assert exc.offset is not None or exc.field or exc.line


def test_mangled_texts_raise_format_error_naming_a_line():
    rng = random.Random(11)
    for _ in range(400):
        lines = rng.choice(TEXTS).split("\n")
        i = rng.randrange(len(lines))
        toks = lines[i].split(" ")
        choice = rng.randrange(3)
        if choice == 0 and len(toks) > 1:
            del toks[rng.randrange(len(toks))]
        elif choice == 1:
            toks.insert(rng.randrange(len(toks) + 1), rng.choice(NOISE))
        elif lines[i]:
            j = rng.randrange(len(lines[i]))
            toks = (lines[i][:j] + rng.choice("()<>[];,.:x09-") + lines[i][j + 1:]).split(" ")
        lines[i] = " ".join(toks)
        try:
            obj = parse_visaasm("\n".join(lines))
            read_isa(write_isa(obj))
            print_visaasm(obj)
        except FormatError as exc:
            assert exc.line is not None or exc.field


def test_out_of_range_numbers_in_text_are_format_errors():
    """Numbers too large for their binary field: a FormatError naming the line (parser) or the field
    (writer), never a struct.error."""
    head = '.version 4.1\n.kernel "k"\n.decl X v_type=G type=d num_elts=8 align=GRF\n'
    body = '.function "_main_0"\n_main_0:\n    {inst}\n    ret (M1, 1)\n'
    with pytest.raises(FormatError, match="line 4") as err:
        parse_visaasm(head + ".kernel_attr SpillMemOffset=99999999999\n" + body.format(inst="barrier"))
    assert "4 bytes" in err.value.message
    obj = parse_visaasm(head + body.format(inst="mov (M1, 8) X(300,0)<1> 0x1:d"))
    with pytest.raises(FormatError) as err:
        write_isa(obj)
    assert err.value.field == "row_offset"
