"""AMD CL2 binaries (reference/amdcl2) and the CL2 ABI (spec 002)."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import struct
from dataclasses import replace

import pytest
from conftest import own_source

from kernelkit.abi.cl2 import (
    CHANNEL_DATA_TYPES,
    CHANNEL_ORDERS,
    Cl2Arg,
    args_from_metadata,
    argument_buffer_size,
    channel_data_type,
    channel_order,
    fill_argument_buffer,
    flat_buffer,
    image_info,
    lay_out,
    setup_buffer,
)
from kernelkit.cli import main
from kernelkit.errors import FormatError
from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.formats.amdcl2.inspect import inspect
from kernelkit.formats.amdcl2.metadata import HEADER_STRUCTS, parse_kernel_metadata
from kernelkit.formats.elf import ElfFile

SETUP_NAMES = ["_.global_offset_0", "_.global_offset_1", "_.global_offset_2", "_.printf_buffer",
               "_.vqueue_pointer", "_.aqlwrap_pointer"]


def binaries(reference):
    files = sorted(p for p in (reference / "amdcl2").iterdir() if not p.name.endswith(".dump"))
    assert len(files) == 28
    return files


def test_every_reference_binary_reads_and_rewrites_byte_for_byte(reference):
    for path in binaries(reference):
        data = path.read_bytes()
        b = read_cl2(data)
        assert b.to_bytes() == data, path.name
        assert b.device == "Bonaire"
        assert b.bits == (32 if ".32." in path.name else 64)


def test_metadata_blobs_decode_and_reencode(reference):
    seen = 0
    for path in binaries(reference):
        elf = ElfFile.parse(path.read_bytes())
        bits = 32 if elf.ei_class == 1 else 64
        for sym in elf.symbols():
            if sym.name.endswith("_kernel_metadata"):
                blob = elf.symbol_data(sym)
                md = parse_kernel_metadata(blob, bits)
                assert md.to_bytes() == blob
                assert [a.name for a in md.args[:6]] == SETUP_NAMES
                seen += 1
    assert seen == 88


def test_structure_of_a_write_with_changes(reference):
    """Writing a changed model keeps every section, symbol, metadata blob, setup and code."""
    b = read_cl2((reference / "amdcl2" / "samplers4.clo.regen").read_bytes())
    b2 = replace(b, compile_options=b.compile_options + " -DEXTRA=1")
    again = read_cl2(b2.to_bytes())
    assert again.compile_options.endswith("-DEXTRA=1") and again.acl_version == b.acl_version
    for k1, k2 in zip(b.kernels, again.kernels, strict=True):
        assert (k1.name, k1.setup, k1.code, k1.metadata.to_bytes()) == (
            k2.name, k2.setup, k2.code, k2.metadata.to_bytes())
    inner1 = ElfFile.parse(b.inner_bytes())
    inner2 = ElfFile.parse(again.inner_bytes())
    assert [(s.name, s.type, s.data) for s in inner1.sections] == [(s.name, s.type, s.data) for s in inner2.sections]


def test_old_layout_round_trip(reference):
    """Driver < 191205 keeps one inner binary per kernel (stub, setup, code)."""
    b = read_cl2((reference / "amdcl2" / "argtypes.clo.regen").read_bytes())
    kernels = [replace(k, stub=struct.pack("<I", 16) + b"\0" * 12, isa_metadata=b"isa" + bytes(5))
               for k in b.kernels]
    old = replace(b, kernels=kernels, old_layout=True, inner=None)
    data = old.to_bytes()
    back = read_cl2(data)
    assert back.old_layout and back.driver_version == 180005
    assert [(k.name, k.stub, k.setup, k.code, k.isa_metadata) for k in back.kernels] == [
        (k.name, k.stub, k.setup, k.code, k.isa_metadata) for k in kernels]
    assert back.to_bytes() == data
    # CLRX's generator (AmdCL2BinGen, main symbol table of drivers < 191205): options, kernel
    # metadata (.rodata), __BRIG__, then per kernel its binary (.text, STT_FUNC) and ISA
    # metadata (.rodata, after all kernel metadata), then acl_version_string
    elf = ElfFile.parse(data)
    names = [k.name for k in kernels]
    expected = (["", "__OpenCL_compiler_options"]
                + [f"__OpenCL_&__OpenCL_{n}_kernel_metadata" for n in names] + ["__BRIG__"]
                + [x for n in names for x in (f"__ISA_&__OpenCL_{n}_kernel_binary",
                                              f"__ISA_&__OpenCL_{n}_kernel_metadata")]
                + ["acl_version_string"])
    syms = elf.symbols()
    assert [s.name for s in syms] == expected
    assert [s.name for s in elf.sections[:7]] == ["", ".shstrtab", ".strtab", ".symtab", ".comment",
                                                  ".rodata", ".text"]
    binaries = [s for s in syms if s.name.endswith("_kernel_binary")]
    assert {(s.shndx, s.type) for s in binaries} == {(6, 2)}
    assert [s.value for s in binaries] == [0] + list(itertools.accumulate(
        len(k.stub) + len(k.setup) + len(k.code) for k in kernels))[:-1]
    isa_md = [s for s in syms if s.name.startswith("__ISA_") and s.name.endswith("_metadata")]
    md_end = sum(len(k.metadata.to_bytes()) for k in kernels)
    assert [s.value for s in isa_md] == [md_end + 8 * i for i in range(len(kernels))]
    # CLRX's reader: "Kernel symbol outside text section"
    symtab = elf.section(".symtab")
    first = next(i for i, s in enumerate(syms) if s.name.endswith("_kernel_binary"))
    entry = first * symtab.entsize
    moved = bytearray(data)
    struct.pack_into("<H", moved, symtab.offset + entry + 6, 5)      # st_shndx -> .rodata
    with pytest.raises(FormatError, match="outside .text"):
        read_cl2(bytes(moved))


def test_driver_versions(reference):
    d = reference / "amdcl2"
    assert read_cl2((d / "nokernels-15_7.clo.regen").read_bytes()).driver_version == 180005
    assert read_cl2((d / "nokernels.clo.regen").read_bytes()).driver_version == 191205
    assert read_cl2((d / "locals.32.clo.reconf").read_bytes()).driver_version == 200406
    # the regenerated copy names the architecture ("GFX7") where the driver's wrote "generic":
    # CLRX's generator writes that word from driver 223600 (AMDGPU-PRO) on
    regen = read_cl2((d / "locals.32.clo.regen").read_bytes())
    assert regen.kernels[0].metadata.second_name == "GFX7" and regen.driver_version == 223600


def test_driver_203603_and_device_tables(reference):
    """CLRX's detection of the first AMDGPU-PRO driver (an inner .note of 200 bytes whose byte
    197 is not 0) and the e_flags -> device table of each driver generation (CLRX
    AmdCL2Binaries.cpp: code 13 is Goose for 2004.06, Carrizo from 2036.3; 16 is Carrizo for
    1912.05, Fiji for 1801.05 and 2004.06, Baffin from 2036.3)."""
    b = read_cl2((reference / "amdcl2" / "samplers4.32.clo.reconf").read_bytes())
    assert b.driver_version == 200406
    amdgpu_pro = copy.deepcopy(b)
    note = amdgpu_pro.inner.section(".note")
    note.data = note.data[:197] + b"\x01" + bytes(2)
    assert len(note.data) == 200
    for flags, device in ((13, "Carrizo"), (16, "Baffin"), (17, "Ellesmere"), (6, "Bonaire")):
        back = read_cl2(replace(amdgpu_pro, e_flags=flags).to_bytes())
        assert (back.driver_version, back.device) == (203603, device)
    note.data = note.data[:197] + bytes(3)            # byte 197 zero: still 2004.06
    assert read_cl2(amdgpu_pro.to_bytes()).driver_version == 200406
    assert [read_cl2(replace(b, e_flags=f).to_bytes()).device for f in (12, 13, 16, 17)] == [
        "Horse", "Goose", "Fiji", "Stoney"]
    new = read_cl2((reference / "amdcl2" / "samplers4.clo.regen").read_bytes())
    assert new.driver_version == 191205
    assert [read_cl2(replace(new, e_flags=f).to_bytes()).device for f in (15, 16, 17)] == [
        "Dummy", "Carrizo", "Fiji"]
    old = read_cl2((reference / "amdcl2" / "nokernels-15_7.clo.regen").read_bytes())
    assert [read_cl2(replace(old, e_flags=f).to_bytes()).device for f in (15, 16)] == [
        "Carrizo", "Fiji"]


def test_dump_of_old_binary_matches_reader(reference):
    d = reference / "amdcl2"
    dump = (d / "nokernels-15_7.clo.dump").read_text()
    elf = ElfFile.parse((d / "nokernels-15_7.clo.regen").read_bytes())
    names = re.findall(r"Name: (\S*)\n\s+Type:", dump)
    offsets = [int(x, 16) for x in re.findall(r"\n\s+Offset: (0x[0-9a-f]+)", dump)]
    assert names[1:] == [s.name for s in elf.sections[1:]]
    assert offsets == [s.offset for s in elf.sections]
    assert "Machine: 0xaf5b" in dump and "Processor flags: 0x6" in dump


def test_argument_buffers_match_kernarg_sizes(reference):
    """Setup arguments then user arguments with spec 002's sizes/alignments; the driver's
    amd_kernel_code_t.kernarg_segment_byte_size is that size rounded up to 16."""
    for path in binaries(reference):
        b = read_cl2(path.read_bytes())
        for k in b.kernels:
            args = lay_out(args_from_metadata(k.metadata), b.bits, with_setup=False)
            assert [a.name for a in args[:6]] == SETUP_NAMES
            ps = b.bits // 8
            assert [a.offset for a in args[:6]] == [i * ps for i in range(6)]
            used = argument_buffer_size(args)
            assert (used + 15) // 16 * 16 == k.kernel_code.kernarg_segment_byte_size, k.name


def test_argument_rules():
    args = lay_out([Cl2Arg("c", "value", "char", "char"), Cl2Arg("f3", "value", "float3", "float", 3),
                    Cl2Arg("s", "struct", "struct S"), Cl2Arg("h", "value", "short2", "short", 2),
                    Cl2Arg("img", "image", "image2d_t"), Cl2Arg("d", "value", "double", "double")], 32)
    # spec 002 (structs pointer-sized, 3-vectors as 4, element alignment); images are 8-byte
    # handles in 32-bit binaries too (AMD's code, see test_kernarg_loads_hit_our_arguments)
    assert [(a.name, a.offset, a.size) for a in args[6:]] == [
        ("c", 24, 1), ("f3", 28, 16), ("s", 44, 4), ("h", 48, 4), ("img", 56, 8), ("d", 64, 8)]
    buf = fill_argument_buffer(args, {"c": -1, "f3": [1, 2, 3], "s": 0x1000, "h": [5, 6],
                                      "img": 0x2000, "d": 2.5, "global_offset_0": 7}, 32)
    assert len(buf) == 80
    assert struct.unpack_from("<I", buf, 0) == (7,) and buf[24] == 0xFF
    assert struct.unpack_from("<3f", buf, 28) == (1.0, 2.0, 3.0)
    assert struct.unpack_from("<I2h4xQd", buf, 44) == (0x1000, 5, 6, 0x2000, 2.5)


def test_setup_buffer_and_tables():
    assert struct.unpack("<6I", setup_buffer(2, (16, 8), (256, 64))) == (
        2 << 16, 16 | (8 << 16), 1, 256, 64, 1)
    assert channel_data_type(0x1F) == "CL_FLOAT" and channel_data_type(8) == "CL_SIGNED_INT8"
    assert channel_order(0x28) == "CL_RGBA" and channel_order(19) == "CL_DEPTH_STENCIL"
    assert len(CHANNEL_DATA_TYPES) == 16 and len(CHANNEL_ORDERS) == 20
    info = image_info(bytes(32), "CL_UNORM_INT8", "CL_BGRA")
    assert struct.unpack_from("<2I", info, 32) == (2, 9)
    fb = flat_buffer(0x1234, 0x5678)
    assert struct.unpack_from("<2I", fb, 64) == (0x1234, 0x5678)


def test_inspect_json_and_cli(reference, capsys):
    path = reference / "amdcl2" / "enqueue.clo.regen"
    assert main(["inspect", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "amdcl2" and doc["device"] == "Bonaire" and doc["bits"] == 64
    assert doc["driver_version"] == 191205 and doc["compile_options"].startswith("-")
    k = {x["name"]: x for x in doc["kernels"]}
    assert k["enqueuer"]["features"] == ["useargs", "usesetup", "useenqueue"]
    assert [a["name"] for a in k["sqrtKernel"]["args"]][:6] == SETUP_NAMES
    last = k["sqrtKernel"]["args"][6]
    assert (last["name"], last["kind"], last["address_space"], last["offset"], last["size"]) == (
        "inout", "pointer", "global", 48, 8)
    assert [a["kind"] for a in k["sqrtKernel"]["args"]][:6] == ["hidden"] * 6
    res = k["enqueuer"]["resources"]
    assert (res["sgprs"], res["vgprs"], res["kernarg_size"], res["private_memory_size"]) == (26, 32, 64, 48)
    code = k["enqueuer"]["amd_kernel_code_t"]     # register settings by field, as AMDGPU's V2 objects
    assert code["compute_pgm_rsrc2"]["USER_SGPR_COUNT"] == 10 and code["compute_pgm_rsrc2"]["ENABLE_PRIVATE_SEGMENT"] == 1
    assert code["code_properties"]["ENABLE_SGPR_FLAT_SCRATCH_INIT"] == 1
    samplers = inspect((reference / "amdcl2" / "samplers4.clo.regen").read_bytes(), "x")
    img = samplers["kernels"][0]["args"][7]
    assert (img["kind"], img["access"]) == ("image", "read_only")
    assert main(["layout", str(path), "-t", "amdcl2:bonaire", "-k", "enqueuer", "--json"]) == 0
    lay = json.loads(capsys.readouterr().out)
    assert lay["kernarg_segment_byte_size"] == 64


def test_corrupted_binaries_raise_only_format_errors(reference):
    rng = random.Random(7)
    datas = [(reference / "amdcl2" / n).read_bytes() for n in
             ("argtypes.clo.regen", "locals.32.clo.regen", "samplers4.clo.regen")]
    for data in datas:
        for _ in range(120):
            mutated = bytearray(data[:rng.randrange(20, len(data) + 1)])
            for _ in range(rng.randrange(0, 6)):
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
            try:
                read_cl2(bytes(mutated))
            except FormatError:
                pass
    with pytest.raises(FormatError):
        read_cl2(b"\x7fELF" + bytes(60))


def test_inner_data_sections_and_relocations(reference):
    b = read_cl2((reference / "amdcl2" / "atomics.clo.regen").read_bytes())
    sections = b.data_sections()
    assert sections[".hsadata_readonly_agent"]["size"] == 112
    assert sections[".hsadata_global_agent"]["size"] == 400
    assert sections[".hsaimage_samplerinit"]["size"] == 24
    # the sampler-init entries are patched into readonly data at the &_.SampN symbols (40, 48, 56)
    assert [r[0] for r in sections[".hsadata_readonly_agent"]["relocations"]] == [40, 48, 56]
    assert len(sections[".hsatext"]["relocations"]) == 10


def test_source_layout_matches_the_drivers_binary(reference):
    """OpenCL C -> KernelSignature -> CL2 argument buffer, checked against the driver's
    kernarg size and our reading of its metadata, for our kernel with the parameters that metadata
    records (tests/amdil/sources/alltypes.cl; no counter argument: none in this binary)."""
    from kernelkit.abi.cl2 import layout_for
    src = own_source("amdil", "alltypes.cl")
    ours = layout_for(str(src), "amdcl2:bonaire", "myKernel", {})
    b = read_cl2((reference / "amdcl2" / "alltypes.clo.regen").read_bytes())
    k = b.kernel("myKernel")
    assert ours["kernarg_segment_byte_size"] == k.kernel_code.kernarg_segment_byte_size
    theirs = lay_out(args_from_metadata(k.metadata), 64, with_setup=False)
    keys = ("name", "offset", "size", "type_name", "kind", "address_space", "access")
    assert sum(not a.setup for a in theirs) == 70 and [tuple(a[x] for x in keys) for a in ours["args"]] == [
        tuple(getattr(a, x) for x in keys) for a in theirs]


def test_cl2_target_is_registered():
    from kernelkit.mux.context import Context
    from kernelkit.mux.registry import resolve_target
    from kernelkit.mux.result import MuxError, Result
    info, device = resolve_target("amdcl2:tonga")
    assert device == "tonga" and "bonaire" in info.devices()
    assert info.create_target(Context(), device).target_id.processor.name == "gfx802"
    with pytest.raises(MuxError) as exc:
        info.create_target(Context(), "dummy")
    assert exc.value.result == Result.INVALID_VALUE


def test_writing_a_new_inner_binary(reference, tmp_path):
    """Without an inner ELF read from a file, the writer builds one like driver 191205's:
    llvm-readelf lists the kernel symbols with their 256-byte-aligned places and sizes."""
    import subprocess

    from kernelkit.formats.elf import parse_notes
    from tests.conftest import require_tool

    b = read_cl2((reference / "amdcl2" / "ksetup1.clo.regen").read_bytes())
    fresh = replace(b, inner=None).to_bytes()
    assert replace(b, inner=None).to_bytes() == fresh          # deterministic
    back = read_cl2(fresh)
    assert [(k.name, k.setup, k.code) for k in back.kernels] == [(k.name, k.setup, k.code) for k in b.kernels]
    isa = [n for n in parse_notes(back.inner.section(".note").data) if n.type == 3][0]
    assert isa.desc.endswith(b"AMD\0AMDGPU\0") and struct.unpack_from("<3I", isa.desc, 4) == (7, 0, 0)
    readelf = require_tool("llvm-readelf")
    path = tmp_path / "inner.o"
    path.write_bytes(back.inner_bytes())
    out = subprocess.run([readelf, "-s", str(path)], capture_output=True, text=True, check=True).stdout
    original = {s.name: (s.value, s.size) for s in b.inner.symbols() if s.type == 10}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[7] in original:
            assert (int(parts[1], 16), int(parts[2])) == original[parts[7]]
            original.pop(parts[7])
    assert not original


def test_cli_reports_bad_input_in_one_line(reference, tmp_path, capsys):
    data = (reference / "amdcl2" / "samplers4.clo.regen").read_bytes()
    elf = ElfFile.parse(data)
    sym = next(s for s in elf.symbols() if s.name.endswith("_kernel_metadata"))
    args_num_at = elf.sections[sym.shndx].offset + sym.value + HEADER_STRUCTS[64].size - 8
    corrupt = bytearray(data)
    corrupt[args_num_at:args_num_at + 8] = (10**6).to_bytes(8, "little")
    cases = {"header": data[:40], "section headers": data[:3000], "argsNum": bytes(corrupt)}
    for what, bad in cases.items():
        path = tmp_path / f"{what}.clo"
        path.write_bytes(bad)
        for argv in (["inspect", str(path)], ["inspect", "--json", str(path)],
                     ["layout", str(path), "-t", "amdcl2:bonaire", "-k", "imageTransform"]):
            assert main(argv) == 1, (what, argv)
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "Traceback" not in err, err
            assert "error:" in err and ("offset" in err or "field" in err), err
            if what == "argsNum":
                assert "metadata.argsNum" in err, err
    assert main(["layout", str(reference / "amdcl2" / "samplers4.clo.regen"), "-t", "amdcl2:bonaire",
                 "-k", "nosuch"]) == 1
    assert "no kernel 'nosuch'" in capsys.readouterr().err
