"""The runtime link step reproduces AMD's driver output (reference/amdil/hlc-juniper)."""

from __future__ import annotations

import json
import random
import re

import pytest

from kernelkit.cli import main
from kernelkit.errors import FormatError
from kernelkit.formats.amdil import link, link_program, parse_program
from kernelkit.formats.amdil.catalyst import find_metadata_blocks
from kernelkit.formats.amdil.inspect import inspect


def pairs(reference):
    d = reference / "amdil" / "hlc-juniper"
    out = []
    for u in sorted(d.glob("*.unlinked.il")):
        kernel, num = u.name.split(".")[:2]
        out.append((u, d / f"{kernel}.{int(num) + 1:02d}.linked.il", kernel))
    assert len(out) == 9
    return out


def test_link_step_gives_the_drivers_linked_program(reference):
    for unlinked, linked, kernel in pairs(reference):
        assert link(unlinked.read_text(), kernel) == linked.read_text(), unlinked.name


def test_link_of_the_other_kernel_matches_the_drivers_clear_memory(reference):
    """clear_memory.NN.linked.il came from the same programs as test_thread_dimension_atomic:
    linking that program for clear_memory gives it (matched by the temporary file name)."""
    d = reference / "amdil" / "hlc-juniper"
    by_source = {}
    for c in d.glob("clear_memory.*.linked.il"):
        text = c.read_text()
        by_source[frozenset(re.findall(r"OCL\w+\.cl", text))] = text
    matched = 0
    for u in sorted(d.glob("test_thread_dimension_atomic.*.unlinked.il")):
        text = u.read_text()
        out = link(text, "__OpenCL_clear_memory_kernel")
        key = frozenset(re.findall(r"OCL\w+\.cl", out))
        assert out == by_source[key]
        matched += 1
    assert matched == 3


def test_link_collects_functions_transitively_and_intrinsics():
    text = "\n".join([
        "il_cs_2_0", "mov r0, r1", ";$$$$$$$$$$", "endmain",
        "func 7 ; __OpenCL_k_kernel", "call 9 ; f", "endfunc ; __OpenCL_k_kernel",
        ";ARGSTART:__OpenCL_k_kernel", ";version:1:4:53", ";device:cypress", ";uniqueid:7",
        ";function:1:9", ";ARGEND:__OpenCL_k_kernel",
        "func 8 ; unused", "endfunc ; unused", ";ARGSTART:unused", ";uniqueid:8", ";ARGEND:unused",
        "func 9 ; f", "call 10 ; g", "endfunc ; f", ";ARGSTART:f", ";uniqueid:9", ";function:1:10",
        ";intrinsic:2:1001:1002", ";ARGEND:f",
        "func 10 ; g", ";DEBUGSTART", "x", ";DEBUGEND", "ret", "endfunc ; g",
        ";ARGSTART:g", ";uniqueid:10", ";intrinsic:1:1003", ";ARGEND:g", "end", ""])
    result = link_program(parse_program(text), "k")
    assert result.functions == [7, 9, 10] and result.intrinsics == [1001, 1002, 1003]
    lines = result.text.splitlines()
    assert lines[2] == "call 7;$$$$"          # overwritten in place
    assert "func 8 ; unused" not in lines and "x" not in lines
    assert lines.index("func 9 ; f") == lines.index(";ARGEND:__OpenCL_k_kernel") + 2  # one blank
    with pytest.raises(FormatError):
        link(text, "nope")
    with pytest.raises(FormatError):
        link(text.replace(";$$$$$$$$$$", "nop"), "k")


def test_cli_link_and_inspect(reference, tmp_path, capsys):
    unlinked, linked, kernel = pairs(reference)[0]
    out = tmp_path / "out.il"
    assert main(["link", str(unlinked), "-k", kernel, "-o", str(out)]) == 0
    assert out.read_bytes() == linked.read_bytes()
    assert main(["inspect", "--json", str(unlinked)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "amdil" and doc["version"] == "1:4:53" and doc["device"] == "juniper"
    k = doc["kernels"][0]
    assert k["name"] == "copyImage2D" and k["uniqueid"] == 1120 and k["functions"] == [1131]
    assert [(a["name"], a["kind"], a["cb"], a["offset"]) for a in k["args"]] == [
        ("src", "image", 1, 0), ("dst", "image", 1, 32), ("srcOrigin", "value", 1, 64),
        ("dstOrigin", "value", 1, 80), ("size", "value", 1, 96)]
    assert main(["inspect", str(reference / "amdil" / "catalyst-clo" / "alltypes_64.clo")]) == 0
    assert "kernel myKernel" in capsys.readouterr().out
    assert main(["link", str(unlinked), "-k", "missing"]) == 1


def test_inspect_catalyst_arg_kinds(reference):
    data = (reference / "amdil" / "catalyst-clo" / "alltypes.clo").read_bytes()
    doc = inspect(data, "alltypes.clo")
    args = doc["kernels"][0]["args"]
    kinds = {a["name"]: a["kind"] for a in args}
    assert kinds["v48"] == "sampler" and kinds["v49"] == "image" and kinds["v61"] == "pointer"
    assert kinds["v70"] == "counter" and kinds["v0"] == "value"
    assert args[48]["type_name"] == "sampler_t"


def test_corrupted_inputs_raise_only_format_errors(reference):
    rng = random.Random(6)
    texts = [p.read_bytes() for p in sorted((reference / "amdil" / "hlc-juniper").glob("*.il"))[:4]]
    bins = [p.read_bytes() for p in sorted((reference / "amdil" / "catalyst-clo").glob("*.clo"))]
    for data in texts + bins:
        for _ in range(60):
            mutated = bytearray(data[:rng.randrange(1, len(data))])
            for _ in range(rng.randrange(0, 4)):
                pos = rng.randrange(len(mutated))
                mutated[pos] = rng.choice(b":;\n0aZ$\x00\xff")
            try:
                inspect(bytes(mutated), "x.il")
                find_metadata_blocks(bytes(mutated))
                program = parse_program(bytes(mutated).decode("latin-1"))
                for block in program.kernels:    # the link step on damaged programs too
                    link_program(program, block.name)
            except FormatError:
                pass


def test_inspect_claims_il_and_binaries_but_not_prose(reference, tmp_path, capsys):
    from kernelkit.formats.amdil.inspect import detect
    d = reference / "amdil"
    assert detect((d / "hlc-juniper" / "clear_memory.01.linked.il").read_bytes(), "x.txt")
    assert detect((d / "catalyst-clo" / "alltypes.clo").read_bytes(), "x.bin")
    assert detect(b";ARGSTART:__OpenCL_k_kernel\n;version:3:1:111\n;ARGEND:__OpenCL_k_kernel\n", "m")
    prose = (reference / "README.md").read_bytes()
    assert b";ARGSTART:" in prose and not detect(prose, "README.md")
    # the listing names the cb1 slot and the byte offset
    assert main(["inspect", str(d / "hlc-juniper" / "copyImage2D.01.unlinked.il")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\[\s+32\]\s+32 image\s+dst\s+cb1\[2\] 2D\b", out), out


def test_inspect_json_of_a_program_with_printf_data_and_group_sizes(tmp_path, capsys):
    """printf formats come from the kernel and every function it calls; data segments, cws, lws
    and limitgroupsize as the spec writes them."""
    text = "\n".join([
        "il_cs_2_0", ";#DATASTART:16", ";#i32:0:4:0:1:2:3", ";#DATAEND:0",
        ";#DATASTART:2:8", ";#float:0:2:3F800000:C0000000", ";#DATAEND:2",
        ";$$$$$$$$$$", "endmain",
        "func 1024 ; __OpenCL_k_kernel", "call 1025 ; f", "endfunc ; __OpenCL_k_kernel",
        ";ARGSTART:__OpenCL_k_kernel", ";version:2:0:88", ";device:cypress", ";uniqueid:1024",
        ";memory:hwprivate:16", ";memory:hwlocal:256", ";memory:datareqd", ";cws:16:4:1", ";lws:64",
        ";limitgroupsize", ";pointer:out:float:1:1:0:uav:1:4", ";value:n:i32:1:1:16",
        ";function:1:1025", ";uavid:1", ";ARGEND:__OpenCL_k_kernel",
        "func 1025 ; f", "ret", "endfunc ; f",
        ";ARGSTART:f", ";uniqueid:1025", ";intrinsic:1:7", r";printf_fmt:0:1:4:7:n = %d\n;",
        ";ARGEND:f", "end", ""])
    path = tmp_path / "p.il"
    path.write_text(text)
    assert main(["inspect", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["version"], doc["device"]) == ("amdil", "2:0:88", "cypress")
    (k,) = doc["kernels"]
    assert k["name"] == "k" and k["uniqueid"] == 1024 and k["cws"] == [16, 4, 1]
    assert k["lws"] == 64 and k["limitgroupsize"] is True
    assert k["memory"] == {"hwprivate": 16, "hwlocal": 256, "datareqd": True}
    assert k["functions"] == [1025] and k["intrinsics"] == [7]
    assert k["printf"] == [{"id": 0, "arg_sizes": [4], "format": "n = %d\n"}]
    assert [(a["name"], a["kind"], a["type"], a["cb"], a["offset"]) for a in k["args"]] == [
        ("out", "pointer", "float", 1, 0), ("n", "value", "i32", 1, 16)]
    assert doc["data_segments"] == [
        {"cb": None, "size": 16, "entries": [{"type": "i32", "offset": 0, "values": [0, 1, 2, 3]}]},
        {"cb": 2, "size": 8, "entries": [{"type": "float", "offset": 0,
                                          "values": [0x3F800000, 0xC0000000]}]}]
    out = tmp_path / "k.il"
    assert main(["link", str(path), "-k", "k", "-o", str(out)]) == 0
    assert "call 1024;$" in out.read_text()
    assert "intrinsics to link from the library: 7" in capsys.readouterr().err
