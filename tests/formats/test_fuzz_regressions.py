"""Inputs the fuzzing harness (fuzz/) found escaping as other exceptions than FormatError, rebuilt by
hand: each must now be a FormatError naming its field."""

from __future__ import annotations

import subprocess
import sys

import msgpack
import pytest
import yaml

from fuzz.targets import kkhost_seeds
from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu import llvm_yaml
from kernelkit.formats.amdgpu.bundle import decompress
from kernelkit.runtime.program import Program
from kernelkit.targets.host import inspect as host_inspect
from kernelkit.targets.host.binary import MAGIC, read_host_binary


@pytest.fixture(scope="module")
def host_body() -> dict:
    data = kkhost_seeds()[0]
    return msgpack.unpackb(data[len(MAGIC):], raw=False)


def _pack(body: dict) -> bytes:
    return MAGIC + msgpack.packb(body, use_bin_type=True)


@pytest.mark.parametrize("damage", [
    lambda b: b["kernels"][0]["signature"].pop("args"),                          # KeyError in render
    lambda b: b["kernels"][0]["signature"]["args"][0].pop("name"),               # TypeError in Program.kernel
    lambda b: b["kernels"][0]["signature"]["args"][0].__setitem__("size", "8"),
    lambda b: b["kernels"][0].__setitem__("max_work_dim", "three"),              # ValueError from int()
    lambda b: b["kernels"][0].__setitem__("max_work_dim", 9),
    lambda b: b.__setitem__("options", [1, 2]),
    lambda b: b.__setitem__("mux_ir", 5),
], ids=["no-args", "arg-without-name", "size-as-text", "max-work-dim-text", "max-work-dim-9", "options",
        "mux-ir"])
def test_damaged_host_binary_is_a_format_error(host_body, damage):
    import copy

    body = copy.deepcopy(host_body)
    damage(body)
    data = _pack(body)
    with pytest.raises(FormatError):
        read_host_binary(data)
    with pytest.raises(FormatError):
        host_inspect.inspect(data, "x")
    with pytest.raises(FormatError):
        Program.from_binary(data)


def test_undamaged_host_binary_still_reads(host_body):
    binary = read_host_binary(_pack(host_body))
    prog = Program.from_binary(_pack(host_body))
    assert [k.name for k in binary.kernels] == prog.kernel_names == ["scale"]
    assert [a.name for a in prog.kernel("scale").signature.args] == ["x", "a", "tmp"]


@pytest.mark.parametrize("command", ["inspect", "run"])
def test_damaged_host_binary_cli_is_one_line(tmp_path, host_body, command):
    body = dict(host_body, kernels=[{"signature": {"name": "scale"}}])
    path = tmp_path / "bad.kkhost"
    path.write_bytes(_pack(body))
    args = [str(path)] if command == "inspect" else [str(path), "-g", "4"]
    proc = subprocess.run([sys.executable, "-m", "kernelkit", command, *args], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "signature" in proc.stderr


@pytest.mark.parametrize("text", [
    "Version: [ 1, 0 ]\nName: \x7f\n",                    # yaml.reader.ReaderError raised by the loader's constructor
    "Version: [ 1, 0 ]\nPrintf: !!binary AAAA\n",
])
def test_yaml_reader_errors_are_format_errors(text):
    with pytest.raises(FormatError):
        llvm_yaml.load(text)


def test_yaml_timestamps_stay_text():
    # safe_load would build datetime objects (ValueError for 2001-13-45; TypeError in JSON output)
    assert llvm_yaml.load("a: 2001-12-14\nb: 2001-13-45\n") == {"a": "2001-12-14", "b": "2001-13-45"}


def test_compressed_bundle_64bit_size_is_a_format_error():
    # CCOB v3 with uncompressed size 2**64-1 raised OverflowError in zstd's max_output_size
    import struct
    data = b"CCOB" + struct.pack("<HHQQQ", 3, 1, 32 + 4, (1 << 64) - 1, 0) + b"\x28\xb5\x2f\xfd"
    with pytest.raises(FormatError, match="exceeds the limit"):
        decompress(data)


def test_kkhost_signature_with_foreign_keys_is_normalized(host_body):
    # a bytes key inside a signature reached `inspect --json` (TypeError: keys must be str)
    import copy
    import json

    body = copy.deepcopy(host_body)
    body["kernels"][0]["signature"][b"extra"] = {b"k": b"v"}
    body["kernels"][0]["signature"]["args"][0]["foreign"] = b"x"
    info = host_inspect.inspect(_pack(body), "x")
    json.dumps(info)
    assert [a["name"] for a in info["kernels"][0]["args"]] == ["x", "a", "tmp"]


@pytest.mark.parametrize("key,value", [("amdhsa.printf", [b"1:4:%d"]), ("amdhsa.version", [1, "2"]),
                                       ("amdhsa.printf", ["1:4:%d", 5])])
def test_v3_metadata_sequence_items_are_typed(key, value):
    # bytes items in amdhsa.printf reached `inspect --json` (TypeError: bytes is not JSON serializable)
    from conftest import reference_path

    from kernelkit.formats import elf as E
    from kernelkit.formats.amdgpu.codeobject import CodeObject

    data = reference_path("amdgpu", "clang19", "hello_printf.gfx90a.v4.hsaco").read_bytes()
    elf = E.ElfFile.parse(data)
    sec = elf.sections_of_type(E.SHT_NOTE)[0]
    notes = []
    for n in elf.notes(sec):
        if n.type == 32:
            doc = msgpack.unpackb(n.desc, raw=False)
            assert key in doc
            doc[key] = value
            n = E.Note(n.owner, n.type, msgpack.packb(doc, use_bin_type=True))
        notes.append(n)
    sec.data = E.encode_notes(notes, sec.addralign)
    elf.layout()
    with pytest.raises(FormatError, match=key):
        CodeObject.parse(elf.to_bytes())


@pytest.mark.parametrize("field_name", ["line_range", "maximum_operations_per_instruction"])
def test_dwarf_line_header_zero_divisor_is_a_format_error(field_name):
    # pyelftools divides by these fields (ZeroDivisionError escaped `inspect --debug`)
    from fuzz.targets import dwarf_seeds, read_dwarf
    from kernelkit.formats import elf as E

    data = bytearray(dwarf_seeds()[0])
    sec = E.ElfFile.parse(bytes(data)).section(".debug_line")
    version = int.from_bytes(data[sec.offset + 4:sec.offset + 6], "little")
    # DWARF 5 6.2.4: unit_length, version, address_size, segment_selector_size, header_length, then
    # minimum_instruction_length, maximum_operations_per_instruction, default_is_stmt, line_base, line_range
    header = sec.offset + (12 if version >= 5 else 10)
    data[header + {"maximum_operations_per_instruction": 1, "line_range": 4}[field_name]] = 0
    read_dwarf(dwarf_seeds()[0])
    with pytest.raises(FormatError, match="unreadable DWARF"):
        read_dwarf(bytes(data))


def test_host_object_with_truncated_ccob_header_is_a_format_error():
    # struct.error escaped from the .hip_fatbin scan when a CCOB header was cut before its size field
    from kernelkit.formats.amdgpu.bundle import BUNDLE_MAGIC
    from kernelkit.formats.amdgpu.hostobj import host_object
    from kernelkit.formats.amdgpu.inspect import inspect as inspect_amdgpu

    plain = BUNDLE_MAGIC + bytes(8)
    with pytest.raises(FormatError, match="truncated CCOB header"):
        inspect_amdgpu(host_object([plain, b"CCOB\x02\x00\x01\x00"]), "x.o")


def test_dwarf_subprogram_with_a_name_for_its_low_pc_is_a_format_error():
    # TypeError escaped from functions() when a damaged form made DW_AT_low_pc a string
    from kernelkit.formats.dwarf.reader import functions

    die = {"tag": "DW_TAG_subprogram", "offset": 0, "children": [],
           "attributes": {"DW_AT_low_pc": "k.cl", "DW_AT_high_pc": {"offset_from_low_pc": 1180}}}
    with pytest.raises(FormatError, match="not addresses"):
        functions({"units": [{"die": die, "lines": []}], "frames": []}, {})


@pytest.mark.parametrize("frame_base", [{"ref": 0x2a}, "k.cl", 7])
def test_dwarf_listing_of_a_frame_base_in_another_form_is_text(frame_base):
    # KeyError escaped `inspect --debug`'s listing when a damaged form made DW_AT_frame_base a reference
    from kernelkit.formats.dwarf.listing import render_debug

    doc = {"target": "gfx90a", "wave_size": 64, "units": [], "frames": [],
           "functions": [{"kernel": "k", "name": "k", "linkage_name": None, "low_pc": 0, "high_pc": 4,
                          "frame_base": frame_base, "variables": [], "lines": []}]}
    assert f"frame base (not a location: {frame_base!r})" in render_debug(doc)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "- " * 100_000 + "x", "a: \ud800"])
def test_yaml_read_by_libyaml_never_crashes(text):
    # V2 metadata is read by libyaml when shallow; its composer recurses in C per nesting level (100,000
    # nested "[" end the process), so deep documents go to PyYAML's parser; a lone surrogate cannot be UTF-8
    with pytest.raises(FormatError):
        llvm_yaml.load(text)


def test_yaml_libyaml_reads_like_pyyaml():
    from fuzz.targets import v2_seeds
    from kernelkit.formats import elf as E

    texts = [n.desc.decode().rstrip("\0") for data in v2_seeds() for elf in [E.ElfFile.parse(data)]
             for sec in elf.sections_of_type(E.SHT_NOTE) for n in elf.notes(sec) if n.type == 10]
    assert texts
    for text in texts:
        assert llvm_yaml.load(text) == yaml.load(text, Loader=yaml.SafeLoader)


def test_v2_kernel_without_code_props_is_a_format_error():
    """A V2 code object whose kernel lost its CodeProps mapping (fuzz: TypeError building the model)."""
    from fuzz.targets import v2_seeds
    from kernelkit.formats import elf as E
    from kernelkit.formats.amdgpu.codeobject import CodeObject

    data = v2_seeds()[0]
    CodeObject.parse(data)                         # the undamaged seed reads
    elf = E.ElfFile.parse(data)
    sec = elf.sections_of_type(E.SHT_NOTE)[0]
    notes = []
    for n in elf.notes(sec):
        if n.type == 10:                           # NT_AMD_HSA_METADATA (spec 001, V2 notes)
            doc = yaml.safe_load(n.desc.rstrip(b"\0"))
            for kernel in doc["Kernels"]:
                del kernel["CodeProps"]
            n = E.Note(n.owner, n.type, yaml.safe_dump(doc).encode(), n.owner_raw)
        notes.append(n)
    sec.data = E.encode_notes(notes, sec.addralign, little=elf.little)
    elf.layout()
    with pytest.raises(FormatError, match="missing 'CodeProps'"):
        CodeObject.parse(elf.to_bytes())
