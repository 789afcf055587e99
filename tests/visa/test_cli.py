"""`kernelkit inspect X.isa|X.visaasm [--json]` and `kernelkit convert` (isa <-> visaasm)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import reference_path, require_tool
from finalizer import finalize_binary, finalize_text

from kernelkit.cli import main

KERNELS = Path(__file__).parent / "kernels"


def _json(capsys, path) -> dict:
    assert main(["inspect", "--json", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_inspect_json_of_igc_binary_matches_igc_text(capsys):
    isa = reference_path("visa", "tgllp_saxpy", "saxpy.isa")
    text = isa.with_suffix(".visaasm").read_text()
    doc = _json(capsys, isa)
    assert doc["format"] == "visa" and doc["version"] == "4.1"
    (kernel,) = doc["kernels"]
    assert kernel["name"] == "saxpy" and doc["functions"] == []
    expected = [(n, int(o), int(s)) for n, o, s in re.findall(r"\.input (\S+) offset=(\d+) size=(\d+)", text)]
    assert [(i["name"], i["offset"], i["size"]) for i in kernel["args"]] == expected
    assert {i["category"] for i in kernel["args"]} == {"general"}
    assert {i["provenance"] for i in kernel["args"]} == {"none"}
    assert kernel["attributes"]["SimdSize"] == 32 and kernel["attributes"]["Target"] == 1
    assert [v["name"] for v in kernel["variables"]] == re.findall(r"^\.decl (V\d+) v_type=G", text, re.M)
    assert kernel["gen_binaries"][0]["platform"] == "TGLLP"
    assert "offset" in kernel["decode_error"]            # IGC's damaged stream, decoded best-effort
    assert kernel["instructions"][0] == '.function "_main" _main:'
    assert len(kernel["instructions"]) == 1 + len(re.findall(r"/// \$\d+$", text, re.M))


def test_inspect_text_and_its_binary_agree(capsys, tmp_path):
    src = KERNELS / "calls.visaasm"
    from_text = _json(capsys, src)
    assert main(["convert", str(src), "-o", str(tmp_path / "k.isa")]) == 0
    from_binary = _json(capsys, tmp_path / "k.isa")
    assert from_text["encoding"] == "text" and from_binary["encoding"] == "binary"
    for key in ("kernels", "functions"):
        assert from_text[key] == from_binary[key]
    (fn,) = from_text["functions"]
    assert fn["name"] == "twice" and fn["instructions"][-1].startswith("fret")
    assert main(["inspect", str(tmp_path / "k.isa")]) == 0
    listing = capsys.readouterr().out
    assert "kernel calls" in listing and "function twice" in listing and "fcall (M1, 1) twice 2 2" in listing


@pytest.mark.parametrize("name", ["control", "lsc"])
def test_convert_isa_to_visaasm_and_back(name, tmp_path):
    require_tool("GenX_IR")
    src = KERNELS / f"{name}.visaasm"
    isa, text, again = tmp_path / "a.isa", tmp_path / "a.visaasm", tmp_path / "b.isa"
    assert main(["convert", str(src), "-o", str(isa)]) == 0
    assert main(["convert", str(isa), "-o", str(text)]) == 0
    assert main(["convert", str(text), "-o", str(again)]) == 0
    assert isa.read_bytes() == again.read_bytes()
    platform = "DG2" if name == "lsc" else "TGLLP"
    expected = finalize_text(src.read_text(), platform)[0]
    assert finalize_text(text.read_text(), platform)[0] == expected
    assert finalize_binary(again.read_bytes(), platform)[0] == expected


def test_convert_reports_damaged_streams_and_bad_input(tmp_path, capsys):
    isa = reference_path("visa", "tgllp_simple", "simple.isa")
    assert main(["convert", str(isa), "-o", str(tmp_path / "x.visaasm")]) == 1
    assert "offset 0x" in capsys.readouterr().err
    bad = tmp_path / "bad.visaasm"
    bad.write_text(".version 4.1\n.kernel \"k\"\n.decl X v_type=G type=zz num_elts=1\n")
    assert main(["convert", str(bad), "-o", str(tmp_path / "y.isa")]) == 1
    assert "line 3" in capsys.readouterr().err


def test_inspect_of_igc_text_and_binary_agree(capsys):
    isa = reference_path("visa", "dg2-g10_saxpy", "saxpy.isa")
    from_isa = _json(capsys, isa)["kernels"][0]
    from_text = _json(capsys, isa.with_suffix(".visaasm"))["kernels"][0]
    assert from_text["args"] == from_isa["args"]
    assert from_text["variables"] == from_isa["variables"]
    attrs = dict(from_isa["attributes"])
    attrs.pop("OutputAsmPath")                        # the text dump does not carry the dump path
    assert from_text["attributes"] == attrs
    assert from_isa["gen_binaries"][0]["platform"] == "DG2"


def test_inspect_of_a_truncated_binary_is_one_line_error(tmp_path, capsys):
    data = reference_path("visa", "skl_saxpy", "saxpy.isa").read_bytes()
    cut = tmp_path / "cut.isa"
    cut.write_bytes(data[:300])
    assert main(["inspect", str(cut)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "offset 0x" in err and "beyond end of file" in err
