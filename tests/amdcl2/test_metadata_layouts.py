"""CL2 kernel metadata layouts of every driver generation CLRX describes (old < 191205, new
191205, Crimson 16 >= 200406 with work_group_size_hint and vec_type_hint in the header, the
architecture word from 223600), read and written; the writer against the driver's own blobs in
reference/amdcl2. No binary of a driver newer than 203603 is at hand: the newer layouts are
tested on altered copies of the reference binaries (their metadata rebuilt for a newer driver)."""

from __future__ import annotations

import struct
from dataclasses import replace

import pytest

from kernelkit.errors import FormatError
from kernelkit.formats.amdcl2.binary import DEVICE_CODES, device_code, device_name, read_cl2
from kernelkit.formats.amdcl2.metadata import parse_kernel_metadata
from kernelkit.formats.amdcl2.metadata_build import (
    MetadataArg,
    MetadataKernel,
    build_kernel_metadata,
    describe_arg,
    setup_metadata_args,
)


def _files(reference):
    return sorted(p for p in (reference / "amdcl2").iterdir() if not p.name.endswith(".dump"))


def _description(binary, md) -> MetadataKernel:
    """What the driver knew of a kernel: its arguments (names, types, usage, resource ids),
    attributes, enqueue/pipe use (the header word after the kernel index is 0 for kernels that
    enqueue or use pipes)."""
    tail = md.header_tail
    words = struct.unpack_from("<4I", tail, 40 if md.bits == 64 else 16)
    last = words[3] if md.layout != "crimson16" or md.bits == 32 else struct.unpack_from("<I", tail, 56)[0]
    return MetadataKernel([describe_arg(a, binary.driver_version) for a in md.args],
                          kernel_id=md.header["kernel_id"], kernel_index=words[1],
                          reqd_work_group_size=md.reqd_work_group_size,
                          work_group_size_hint=md.work_group_size_hint, vec_type_hint=md.vec_type_hint or "",
                          enqueues=bool(words[0]), uses_pipes=last == 0 and not words[0])


def test_writer_reproduces_the_drivers_metadata(reference):
    """Every metadata blob rebuilt from the kernel's description equals the driver's: byte for
    byte in the .reconf binaries; in the .regen copies every field but the ptrAlignment word of
    image arguments, where those copies hold leftover bytes (256, 257, 0x10101, 68...) and the
    .reconf ones the 1 AMD's and CLRX's writers put there."""
    compared = 0
    for path in _files(reference):
        b = read_cl2(path.read_bytes())
        for k in b.kernels:
            md = k.metadata
            ours = build_kernel_metadata(_description(b, md), bits=b.bits, driver_version=b.driver_version,
                                         gfx_level=7)
            if path.name.endswith(".reconf"):
                assert ours.to_bytes() == md.to_bytes(), (path.name, k.name)
            else:
                for a, r in zip(ours.args, md.args, strict=True):
                    fields = dict(r.fields, ptr_alignment=1) if r.kind == "image" else r.fields
                    assert a.fields == fields, (path.name, k.name, r.name)
                assert (ours.header, ours.header_tail, ours.second_name, ours.vec_type_hint, ours.tail) == (
                    md.header, md.header_tail, md.second_name, md.vec_type_hint, md.tail)
            compared += 1
    assert compared == 88


def test_setup_arguments_as_the_driver_lists_them(reference):
    for name, bits in (("samplers4.clo.reconf", 64), ("samplers4.32.clo.reconf", 32)):
        b = read_cl2((reference / "amdcl2" / name).read_bytes())
        md = b.kernels[0].metadata
        ours = build_kernel_metadata(MetadataKernel(setup_metadata_args(bits)), bits=bits,
                                     driver_version=b.driver_version)
        assert [a.fields for a in ours.args] == [a.fields for a in md.args[:6]]


def _newer(reference, name: str, driver: int, hint: str, wgsh, reqd):
    b = read_cl2((reference / "amdcl2" / name).read_bytes())
    kernels = []
    for k in b.kernels:
        d = replace(_description(b, k.metadata), vec_type_hint=hint, work_group_size_hint=wgsh,
                    reqd_work_group_size=reqd)
        kernels.append(replace(k, metadata=build_kernel_metadata(d, bits=b.bits, driver_version=driver,
                                                                 gfx_level=7)))
    return b, replace(b, kernels=kernels, driver_version=driver,
                      e_flags=device_code("bonaire", driver)).to_bytes()


@pytest.mark.parametrize("name", ["samplers4.clo.reconf", "samplers4.32.clo.reconf"])
def test_newer_driver_kernel_attributes_read(reference, name):
    """A binary of a driver above 203603 whose kernels carry attributes: the vec_type_hint string
    stands between the names and the argument entries (the old reader took it for an argument
    entry: "argument entry 0 has size 377964752489")."""
    before, data = _newer(reference, name, 258000, "int4", (8, 4, 1), (16, 2, 1))
    b = read_cl2(data)
    assert b.driver_version == 223600 and b.device == "Bonaire"        # GFX7 word: 223600 or later
    for k, k0 in zip(b.kernels, before.kernels, strict=True):
        md = k.metadata
        assert (md.vec_type_hint, md.work_group_size_hint, md.reqd_work_group_size) == ("int4", (8, 4, 1),
                                                                                        (16, 2, 1))
        assert md.second_name == "GFX7" and md.layout == "crimson16"
        assert [(a.name, a.type_name, a.kind) for a in md.args] == [
            (a.name, a.type_name, a.kind) for a in k0.metadata.args]
        blob = md.to_bytes()
        # the layout as CLRX describes it, read without kernelkit's parser
        word = "<Q" if b.bits == 64 else "<I"
        size = struct.unpack_from(word, blob, 0)[0]
        assert size == (0x110 if b.bits == 64 else 0xA4)
        w = struct.calcsize(word)
        assert struct.unpack_from("<3" + word[1] + word[1], blob, size - 5 * w)[3] == 4      # hint length
        names_end = size + len("__OpenCL_dummy_kernel") + 1 + len("GFX7") + 1
        assert blob[names_end:names_end + 5] == b"int4\0"
        assert struct.unpack_from(word, blob, names_end + 5)[0] == (88 if b.bits == 64 else 64)   # entry size
    assert read_cl2(data).to_bytes() == data


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("driver", [180005, 191205, 200406, 203603, 223600, 258000])
def test_every_layout_round_trips(bits, driver):
    args = setup_metadata_args(bits) + [
        MetadataArg("n", "int", "value", "int"), MetadataArg("v", "float3", "value", "float", 3),
        MetadataArg("s", "struct S", "struct", struct_size=20),
        MetadataArg("p", "float4*", "pointer", "float", 4, address_space="global", is_const=True, usage=1),
        MetadataArg("l", "uchar*", "pointer", "uchar", address_space="local", usage=3),
        MetadataArg("img", "image2d_t", "image", access="write_only"),
        MetadataArg("smp", "sampler_t", "sampler"),
        MetadataArg("q", "queue_t", "queue"), MetadataArg("pp", "pipe __global int *", "pipe", usage=1),
    ]
    kernel = MetadataKernel(args, kernel_index=1, kernel_id=1025, reqd_work_group_size=(64, 1, 1),
                            work_group_size_hint=(32, 2, 1), vec_type_hint="float4", uses_pipes=True)
    md = build_kernel_metadata(kernel, bits=bits, driver_version=driver, gfx_level=8)
    blob = md.to_bytes()
    back = parse_kernel_metadata(blob, bits)
    assert back.to_bytes() == blob and back.header["metadata_size"] == len(blob)
    assert back.layout == ("old" if driver < 191205 else "new" if driver < 200406 else "crimson16")
    assert back.second_name == ("GFX8" if driver >= 223600 else "generic")
    crimson = driver >= 200406
    assert back.vec_type_hint == ("float4" if crimson else None)
    assert back.work_group_size_hint == ((32, 2, 1) if crimson else (0, 0, 0))
    assert back.reqd_work_group_size == (64, 1, 1) and back.header["options"] & 4
    new = driver >= 191205          # pointer usage stored (before: always 3); 3-vectors stored as 4
    assert [describe_arg(a, driver) for a in back.args] == [
        replace(a, usage=3 if a.kind == "pointer" and not new else a.usage) for a in args]
    assert back.args[7].get("vector_length") == (4 if new else 3)
    offsets = [a.get("arg_offset") for a in back.args]
    assert offsets == sorted(offsets) and all(o % 16 == 0 for o in offsets)


def test_bad_vec_type_hint_length_is_a_format_error():
    md = build_kernel_metadata(MetadataKernel(setup_metadata_args(64), vec_type_hint="int"), bits=64,
                               driver_version=258000)
    blob = bytearray(md.to_bytes())
    struct.pack_into("<Q", blob, 0x110 - 16, 1 << 40)
    with pytest.raises(FormatError, match="vecTypeHintLength"):
        parse_kernel_metadata(bytes(blob), 64)


def test_device_tables_of_every_driver_generation():
    """e_flags <-> device for every table (CLRX AmdCL2Binaries.cpp), GFX9 devices from 2236 on."""
    for driver, table in DEVICE_CODES.items():
        for code, name in table.items():
            assert device_name(code, driver) == name
            assert device_code(name, driver) == code
    assert device_name(17, 223600) == "GFX900" and device_name(20, 258000) == "GFX900"
    assert device_name(16, 203603) == "Baffin" and device_name(16, 191205) == "Carrizo"
    with pytest.raises(FormatError, match="no CL2 code"):
        device_code("gfx900", 200406)


def test_devices_map_to_llvm_processors():
    """Device -> ISA version the CL2 driver writes (CLRX's table) -> LLVM target (spec 001's V2
    ISA names)."""
    from kernelkit.targets.amdcl2.info import DEVICES, device_processor

    assert {d: device_processor(d) for d in ("bonaire", "tonga", "fiji", "hawaii", "carrizo", "stoney",
                                             "ellesmere", "gfx900", "gfx901")} == {
        "bonaire": "gfx704", "tonga": "gfx802", "fiji": "gfx803", "hawaii": "gfx701",
        "carrizo": "gfx801:xnack+", "stoney": "gfx810:xnack+", "ellesmere": "gfx803",
        "gfx900": "gfx900:xnack-", "gfx901": "gfx900:xnack+"}
    assert len(DEVICES) == 24 and "dummy" not in DEVICES
