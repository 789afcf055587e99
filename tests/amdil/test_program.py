"""AMD IL program model and metadata codec against AMD's own output (reference/amdil)."""

from __future__ import annotations

import re
import struct

import pytest
from alltypes_source import parameters

from kernelkit.errors import FormatError
from kernelkit.formats.amdil import parse_metadata_line, parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.catalyst import find_metadata_blocks
from kernelkit.formats.amdil.datasegment import DataSegment, parse_data_entry


def il_files(reference):
    files = sorted((reference / "amdil" / "hlc-juniper").glob("*.il"))
    assert len(files) == 24
    return files


def test_every_reference_program_round_trips_byte_for_byte(reference):
    for path in il_files(reference):
        text = path.read_text()
        program = parse_program(text)
        assert program.to_text() == text, path.name
        assert program.functions, path.name


def test_every_metadata_line_rebuilds_from_its_record(reference):
    kinds = set()
    for path in il_files(reference):
        for line in path.read_text().splitlines():
            if line.startswith(";") and re.match(r";[a-z_]+:", line) and not line.startswith(";ARG"):
                if line.startswith((";DEBUG_VALUE", ";.")):
                    continue
                rec = parse_metadata_line(line)
                kinds.add(rec.kind)
                assert rec.to_line() == line
    assert {"version", "device", "uniqueid", "memory", "pointer", "value", "image", "function",
            "sampler", "uavid"} <= kinds


def test_copyimage_kernel_metadata_is_typed(reference):
    text = (reference / "amdil" / "hlc-juniper" / "copyImage2D.01.unlinked.il").read_text()
    program = parse_program(text)
    assert [k.source_name for k in program.kernels] == [
        "copyImage2D", "copyImage2D3D", "copyImage3D2D", "copyImage3D"]
    k = program.find_kernel("copyImage2D")
    assert k.version == (1, 4, 53) and k.device == "juniper" and k.uniqueid == 1120
    src, dst = k.of(r.Image)
    assert (src.name, src.dimension, src.access, src.id, src.cb, src.offset) == ("src", "2D", "RO", 0, 1, 0)
    assert (dst.access, dst.id, dst.offset) == ("WO", 2, 32)
    assert [(v.name, v.type, v.count, v.offset) for v in k.of(r.Value)] == [
        ("srcOrigin", "i32", 4, 64), ("dstOrigin", "i32", 4, 80), ("size", "i32", 4, 96)]
    assert k.functions == [1131]
    assert k.of(r.Sampler) == [r.Sampler("unknown_22", 0, 1, 22)]
    assert k.memory() == {"hwprivate": 0, "hwlocal": 0}
    assert len(program.debug_sections) == 5
    # spec: debug sections lie between ;DEBUGSTART and ;DEBUGEND
    assert all(s.lines[0] == ";DEBUGSTART" and s.lines[-1] == ";DEBUGEND"
               for s in program.debug_sections)


def test_pointer_field_generations():
    old = parse_metadata_line(";pointer:dst:i32:1:1:0:uav:1:4")
    assert old.field_count == 8 and old.memory == "uav" and old.align == 4
    mid = parse_metadata_line(";pointer:a:float:1:1:16:hl:1:4:RO")
    assert mid.field_count == 9 and mid.access == "RO"
    new = parse_metadata_line(";pointer:v68:u8:1:1:2032:uav:11:1:RW:1:0")
    assert new.field_count == 11 and new.volatile is True and new.restrict is False
    for rec in (old, mid, new):
        assert parse_metadata_line(rec.to_line()) == rec


def test_records_build_lines_as_the_spec_writes_them():
    assert r.Value("x", "float", 1, 1, 96).to_line() == ";value:x:float:1:1:96"
    assert r.Value("s", "struct", 24, 1, 0).to_line() == ";value:s:struct:24:1:0"
    assert r.Counter("c", 32, 0, 1, 16).to_line() == ";counter:c:32:0:1:16"
    assert r.Sema("s", 1, 1, 32).to_line() == ";sema:s:1:1:32"
    assert r.IdList("intrinsic", [5, 7]).to_line() == ";intrinsic:2:5:7"
    assert r.Memory("compilerwrite").to_line() == ";memory:compilerwrite"
    assert r.Memory("datareqd").is_flag
    assert r.GroupSize("cws", 64, 1, 1).to_line() == ";cws:64:1:1"
    assert r.Lws(256).to_line() == ";lws:256"
    assert parse_metadata_line(";limitgroupsize") == r.LimitGroupSize()
    for line in (";error:E001 something failed", ";warning:W002 careful: here",
                 ";enqueue_kernel:0", ";kernel_index:3", ";cbid:10", ";printfid:9",
                 ";privateid:8", ";constarg:61:v61", ";reflection:67:typ1", ";version:3:1:111",
                 ";memory:64bitABI", ";image:v57:1DB:RO:4:1:1776"):
        assert parse_metadata_line(line).to_line() == line


def test_printf_escapes_follow_the_spec_examples():
    # spec 000 "Printf information" examples
    a = parse_metadata_line(r";printf_fmt:0:0:23:!---initizeWSDeque---!\n;")
    assert a.format == "!---initizeWSDeque---!\n" and a.length == 23 and a.arg_sizes == []
    b = parse_metadata_line(r";printf_fmt:4:3:4:4:4:35:Bottom: %d Top: %d InitialSize: %d\n;")
    assert b.id == 4 and b.arg_sizes == [4, 4, 4] and b.format == "Bottom: %d Top: %d InitialSize: %d\n"
    built = r.PrintfFormat.from_format(4, [4, 4, 4], "Bottom: %d Top: %d InitialSize: %d\n")
    assert built.to_line() == b.to_line()
    assert r.PrintfFormat.from_format(1, [], "a\r\nb").to_line() == r";printf_fmt:1:0:4:a\r\nb;"


@pytest.mark.parametrize("line, field", [
    (";pointer:a:i32:1:1:0:uav:1", "pointer.fields"),
    (";pointer:a:i32:1:1:zero:uav:1:4", "pointer.offset"),
    (";pointer:a:i32:1:1:0:xyz:1:4", "pointer.memory"),
    (";value:a:quad:1:1:0", "value.type"),
    (";image:a:4D:RO:0:1:0", "image.dimension"),
    (";function:2:1128", "function.fields"),
    (";version:1:4", "version.fields"),
    (";version:4:0:1", "version.major"),
    (";memory:shared:4", "memory.space"),
    (";counter:c:16:0:1:0", "counter.bits"),
    (";printf_fmt:0:0:5:abc;", "printf_fmt.strLen"),
    (";bogus:1", "kind"),
])
def test_malformed_lines_name_line_and_field(line, field):
    text = f"il_cs_2_0\n;ARGSTART:k\n;version:1:4:53\n{line}\n;ARGEND:k\nend\n"
    with pytest.raises(FormatError) as exc:
        parse_program(text)
    assert exc.value.line == 4 and exc.value.field == field


def test_unclosed_blocks_are_format_errors():
    for text, field, line in (("func 1 ; f\nmov r0, r1\n", "endfunc", 1),
                              (";ARGSTART:k\n;uniqueid:1\n", "ARGEND", 1),
                              (";ARGSTART:k\n;ARGEND:j\n", "ARGEND", 2),
                              (";DEBUGSTART\nxx\n", "DEBUGEND", 1),
                              (";#DATASTART:16\n;#i32:0:4:0:1:2:3\n", "DATAEND", 1)):
        with pytest.raises(FormatError) as exc:
            parse_program(text)
        assert exc.value.field == field and exc.value.line == line


def test_data_segments_follow_the_spec_examples():
    # spec 000 "Data Segment", examples 1-3
    text = (";#DATASTART:16\n;#i32:0:4:0:1:2:3\n;#DATAEND:0\n"
            ";#DATASTART:2:24\n;#i32:0:3:20:9123:124\n;#float:16:2:42B60000:448C8000\n;#DATAEND:2\n"
            ";#DATASTART:32\n;#v3i32:0:8:1:2:3:0:4:5:6:0\n;#DATAEND\n")
    program = parse_program(text)
    assert program.to_text() == text
    a, b, c = program.data_segments
    assert a.cb is None and a.size == 16 and a.to_bytes() == bytes([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
    assert b.cb == 2 and b.entries[1].values == [0x42B60000, 0x448C8000]
    import struct
    assert struct.unpack_from("<2f", b.to_bytes(), 16) == (91.0, 1124.0)
    assert c.end_cb is None and c.entries[0].values == [1, 2, 3, 0, 4, 5, 6, 0]
    built = DataSegment.from_values([("v3i32", 0, [1, 2, 3, 4, 5, 6])])
    assert built.lines() == [";#DATASTART:32", ";#v3i32:0:8:1:2:3:0:4:5:6:0", ";#DATAEND:0"]
    fl = DataSegment.from_values([("float", 16, [91.0, 1124.0])], cb=2, size=24)
    assert fl.lines()[1] == ";#float:16:2:42B60000:448C8000"
    with pytest.raises(FormatError):
        parse_data_entry(";#i32:0:3:1:2", 7)


@pytest.mark.parametrize("name, bits", [("alltypes.clo", 32), ("alltypes_64.clo", 64)])
def test_catalyst_binary_blocks_match_the_source(reference, name, bits):
    data = (reference / "amdil" / "catalyst-clo" / name).read_bytes()
    blocks = find_metadata_blocks(data)
    assert len(blocks) == 1 and data[blocks[0].offset:].startswith(b";ARGSTART:__OpenCL_myKernel_kernel")
    block = blocks[0].block
    assert block.version == (3, 1, 111) and block.device == "pitcairn"
    assert ("64bitABI" in block.memory()) == (bits == 64)
    params = parameters()   # our tests/amdil/sources/alltypes.cl, written from these blocks
    assert [a.name for a in block.arguments] == [p[0] for p in params]   # v0..v70 in source order
    refl = {x.index: x.type_name for x in block.of(r.Reflection)}
    for i, (_, words) in enumerate(params):
        assert refl[i] == ("void*" if "*" in words else words[-2]), i
    ptrs = {p.name: p for p in block.of(r.Pointer)}
    assert ptrs["v68"].volatile and not ptrs["v68"].restrict and ptrs["v69"].restrict
    assert ptrs["v63"].memory == "hl" and ptrs["v65"].memory == "c" and ptrs["v61"].memory == "uav"
    assert {c.name for c in block.of(r.ConstArg)} == {"v61", "v63", "v65"}
    assert [(c.name, c.bits) for c in block.of(r.Counter)] == [("v70", 32)]
    # and the source's qualifiers say the same: address space, const, volatile, restrict, image access
    space = {"global": "uav", "local": "hl", "constant": "c"}
    assert {n: space[w[0]] for n, w in params if "*" in w} == {n: p.memory for n, p in ptrs.items()}
    for qualifier, names in (("const", {c.name for c in block.of(r.ConstArg)}),
                             ("volatile", {p.name for p in ptrs.values() if p.volatile}),
                             ("restrict", {p.name for p in ptrs.values() if p.restrict})):
        assert {n for n, w in params if qualifier in w} == names, qualifier
    assert {n: w[0] for n, w in params if w[-2].startswith("image")} == {
        i.name: {"RO": "read_only", "WO": "write_only"}[i.access] for i in block.of(r.Image)}
    # every line rebuilds from its record
    assert "\n".join(block.lines()) + "\n" == blocks[0].text


def test_every_spec_metadata_kind_parses_to_typed_fields_and_back():
    """One line per pattern of spec 000 "Compiler Metadata" / "Multi-Kernel Metadata", with the
    fields the spec names."""
    cases = [
        (";version:2:0:88", r.Version, {"major": 2, "minor": 0, "revision": 88}),
        (";device:cypress", r.Device, {"name": "cypress"}),
        (";uniqueid:1024", r.UniqueId, {"id": 1024}),
        (";memory:local:64", r.Memory, {"space": "local", "size": 64}),
        (";memory:hwlocal:256", r.Memory, {"space": "hwlocal", "size": 256}),
        (";memory:private:16", r.Memory, {"space": "private", "size": 16}),
        (";memory:hwprivate:32", r.Memory, {"space": "hwprivate", "size": 32}),
        (";memory:compilerwrite", r.Memory, {"space": "compilerwrite", "size": None}),
        (";memory:datareqd", r.Memory, {"space": "datareqd", "size": None}),
        (";cws:16:8:2", r.GroupSize, {"kind": "cws", "x": 16, "y": 8, "z": 2}),
        (";lws:128", r.Lws, {"size": 128}),
        (";limitgroupsize", r.LimitGroupSize, {}),
        (";value:x:float:1:1:96", r.Value, {"name": "x", "type": "float", "count": 1, "cb": 1, "offset": 96}),
        (";value:u:union:12:1:16", r.Value, {"type": "union", "count": 12}),
        (";value:e:event:1:1:32", r.Value, {"type": "event"}),
        (";value:o:opaque:1:1:48", r.Value, {"type": "opaque"}),
        (";pointer:result:i32:1:1:96:g:0:4", r.Pointer,
         {"name": "result", "type": "i32", "count": 1, "cb": 1, "offset": 96, "memory": "g",
          "buffer": 0, "align": 4, "access": None}),
        (";image:img:3D:RW:3:1:64", r.Image,
         {"name": "img", "dimension": "3D", "access": "RW", "id": 3, "cb": 1, "offset": 64}),
        (";counter:c:64:2:1:80", r.Counter, {"name": "c", "bits": 64, "id": 2, "cb": 1, "offset": 80}),
        (";sema:s:0:1:96", r.Sema, {"name": "s", "id": 0, "cb": 1, "offset": 96}),
        (";sampler:smp:1:0:0", r.Sampler, {"name": "smp", "id": 1, "location": 0, "value": 0}),
        (";constarg:2:p", r.ConstArg, {"index": 2, "name": "p"}),
        (";function:3:1025:1026:1030", r.IdList, {"kind": "function", "ids": [1025, 1026, 1030]}),
        (";intrinsic:1:40", r.IdList, {"kind": "intrinsic", "ids": [40]}),
        (";function:0", r.IdList, {"kind": "function", "ids": []}),
        (";uavid:8", r.ResourceId, {"kind": "uavid", "value": 8}),
        (";printfid:9", r.ResourceId, {"kind": "printfid", "value": 9}),
        (";cbid:10", r.ResourceId, {"kind": "cbid", "value": 10}),
        (";privateid:8", r.ResourceId, {"kind": "privateid", "value": 8}),
        (";enqueue_kernel:1", r.ResourceId, {"kind": "enqueue_kernel", "value": 1}),
        (";kernel_index:2", r.ResourceId, {"kind": "kernel_index", "value": 2}),
        (";reflection:0:struct S*", r.Reflection, {"index": 0, "type_name": "struct S*"}),
        (";error:E001:too many args", r.Message, {"kind": "error", "message": "E001:too many args"}),
        (";warning:W000:slow path", r.Message, {"kind": "warning", "message": "W000:slow path"}),
        (r";printf_fmt:2:2:4:8:8:%d:%lu\r\n;", r.PrintfFormat,
         {"id": 2, "arg_sizes": [4, 8], "length": 8, "format": "%d:%lu\r\n"}),
    ]
    for line, cls, fields in cases:
        rec = parse_metadata_line(line, 7)
        assert isinstance(rec, cls), line
        for name, value in fields.items():
            assert getattr(rec, name) == value, (line, name)
        assert rec.to_line() == line
    block = parse_program(";ARGSTART:k\n" + "\n".join(c[0] for c in cases) + "\n;ARGEND:k\n").metadata[0]
    assert block.memory() == {"local": 64, "hwlocal": 256, "private": 16, "hwprivate": 32,
                              "compilerwrite": True, "datareqd": True}
    assert block.functions == [1025, 1026, 1030] and block.intrinsics == [40]
    assert [a.name for a in block.arguments] == ["x", "u", "e", "o", "result", "img", "c", "s"]


def test_data_segment_doubles_and_malformed_lines():
    import math
    text = ";#DATASTART:1:24\n;#double:0:1:400921FB54442D18\n;#v3float:8:4:3F800000:40000000:40400000:00000000\n;#DATAEND:1\n"
    seg = parse_program(text).data_segments[0]
    assert seg.cb == 1 and struct.unpack_from("<d", seg.to_bytes(), 0)[0] == math.pi
    assert struct.unpack_from("<4f", seg.to_bytes(), 8) == (1.0, 2.0, 3.0, 0.0)
    built = DataSegment.from_values([("double", 0, [math.pi]), ("v3float", 8, [1.0, 2.0, 3.0])], cb=1)
    assert "\n".join(built.lines()) + "\n" == text
    for bad, field in ((";#i32:0:3:1:2", "data.count"), (";#float:0:1:1.5", "data.value0"),
                       (";#quad:0:1:1", "data.type"), (";#i32:x:1:1", "data.offset")):
        with pytest.raises(FormatError) as exc:
            parse_program(f";#DATASTART:16\n{bad}\n;#DATAEND\n")
        assert exc.value.line == 2 and exc.value.field == field
    with pytest.raises(FormatError) as exc:
        parse_program(";#DATASTART:a\n;#DATAEND\n")
    assert exc.value.line == 1 and exc.value.field == "DATASTART"


def test_every_pointer_memory_type_of_the_spec_parses():
    # spec 000 "Pass by pointer arguments", field 6 (a. to j.)
    for mem in ("g", "p", "l", "uav", "c", "r", "hl", "hp", "hc", "hr"):
        line = f";pointer:p:i8:1:1:0:{mem}:1:1"
        assert parse_metadata_line(line).memory == mem and parse_metadata_line(line).to_line() == line


def test_whatever_parses_prints_back_byte_for_byte(reference):
    """Damaged reference programs (CRLF, no final newline, stray characters) either raise
    FormatError or print back exactly; non-canonical numbers are errors, not silently rewritten."""
    import random
    rng = random.Random(60)
    texts = [p.read_text() for p in il_files(reference)[::5]]
    parsed = 0
    for _ in range(150):
        chars = list(rng.choice(texts))
        for _ in range(rng.randrange(1, 5)):
            chars[rng.randrange(len(chars))] = rng.choice(list(":;\n0123456789aZ$-#\r "))
        text = "".join(chars)
        if rng.random() < 0.3:
            text = text.replace("\n", "\r\n")
        if rng.random() < 0.3:
            text = text.rstrip("\n")
        try:
            program = parse_program(text)
        except FormatError:
            continue
        parsed += 1
        assert program.to_text() == text
    assert parsed > 50
    for bad, field in ((";uniqueid:-0", "uniqueid.id"), (";value:x:i32:1:1:016", "value.offset")):
        with pytest.raises(FormatError) as exc:
            parse_program(f";ARGSTART:k\n{bad}\n;ARGEND:k\n")
        assert exc.value.field == field
    with pytest.raises(FormatError):
        parse_program(";#DATASTART:016\n;#DATAEND\n")
