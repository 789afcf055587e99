"""AMD IL runtime ABI: cb0 per the spec's table, cb1 slots per the spec's rules and AMD's real
metadata (reference/amdil), UAV ids, cb1 bytes for a dispatch, devices and -mattr."""

from __future__ import annotations

import json
import re
import struct

import numpy as np
import pytest
from alltypes_source import COUNTERS, SOURCE, parameters

from kernelkit.abi.amdil import (
    ImageDesc,
    LocalArg,
    allocate,
    fill_cb1,
    image_constants,
    layout_from_metadata,
)
from kernelkit.abi.amdil_cb0 import (
    Dispatch,
    fill_cb0,
    hardware_local_offsets,
    local_offset,
    private_offset,
)
from kernelkit.abi.amdil_slots import assign_uavs, value_slots
from kernelkit.abi.opencl_types import parse_value_type
from kernelkit.abi.signature import KernelArg, KernelSignature
from kernelkit.cli import main
from kernelkit.errors import KernelkitError
from kernelkit.formats.amdil import parse_program
from kernelkit.formats.amdil import records as r
from kernelkit.formats.amdil.catalyst import find_metadata_blocks
from kernelkit.mux.result import MuxError
from kernelkit.targets.amdil.info import DEVICES, parse_mattr, resolve_device, sc_version

SIZES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "long": 8,
         "ulong": 8, "float": 4, "double": 8, "half": 2}


def val(i, name, tname):
    element, width = parse_value_type(tname)
    return KernelArg(i, name, tname, tname, "private", size=SIZES[element] * (4 if width == 3 else width),
                     kind="vector" if width > 1 else "scalar", element=element, vector_width=width)


def ptr(i, name, space, element="int", quals=()):
    return KernelArg(i, name, f"{element}*", f"{element}*", space, type_qualifiers=quals, size=4,
                     kind="pointer", element=None if element == "void" else element,
                     pointee=element, pointee_size=SIZES.get(element, 1) if element != "void" else None)


def image(i, name, dim, access):
    return KernelArg(i, name, f"image{dim}_t", f"image{dim}_t", "global", access_qualifier=access,
                     size=4, kind="image", image_dim=dim)


# --- cb0 -----------------------------------------------------------------------------------

def words(cb0):
    return struct.unpack("<36I", cb0)


def test_cb0_ndrange_follows_the_spec_table():
    d = Dispatch.ndrange((64, 32), (16, 8), offset=(2, 3), private_ring_offset=4096,
                         private_per_thread=48, local_ring_offset=512, local_per_group=256,
                         math_table_pointer=0x1000, data_segment_offset=0x2000,
                         printf_offset=0x3000, printf_size=1024)
    cb0 = fill_cb0(d)
    w = words(cb0)
    assert len(cb0) == 144
    assert w[0:4] == (64, 32, 1, 2)              # global_work_size[0..2], work_dim
    assert w[4:8] == (16, 8, 1, 0)               # local_work_size, 0
    assert w[8:12] == (4, 4, 1, 0)               # global/local, 0
    assert w[12:16] == (4096, 48, 0, 0)          # private ring offset, per thread, 0, 0
    assert w[16:20] == (512, 256, 0, 0x1000)     # local ring, per group, 0, math tables
    assert struct.unpack_from("<4f", cb0, 80) == (0.0, 0.5, 1.0, 2.0)
    assert w[24:28] == (2, 3, 0, 0)              # global offset x, y, z, x*y*z
    assert w[32:35] == (0x2000, 0x3000, 1024)    # data segment, printf offset, printf size


def test_cb0_task_follows_the_spec_table():
    w = words(fill_cb0(Dispatch.ndrange((64,), (16,)), task=True))
    assert w[0:4] == (1, 1, 1, 0) and w[4:7] == (1, 1, 1) and w[8:11] == (1, 1, 1)
    assert struct.unpack_from("<4f", fill_cb0(Dispatch(), task=True), 80) == (0.0, 0.5, 1.0, 2.0)


def test_offset_formulas_and_hardware_local_offsets():
    cb0 = bytearray(fill_cb0(Dispatch(private_ring_offset=100, private_per_thread=16,
                                      local_ring_offset=200, local_per_group=64)))
    # cb0[3].z / cb0[4].z are 0 per the table: every thread/group lands on the ring base
    assert private_offset(bytes(cb0), 7, 4) == 104
    struct.pack_into("<I", cb0, 56, 0xFFFFFFFF)
    struct.pack_into("<I", cb0, 72, 0xFFFFFFFF)
    assert private_offset(bytes(cb0), 7, 4) == 7 * 16 + 100 + 4
    assert local_offset(bytes(cb0), 3, 8) == 3 * 64 + 200 + 8
    # spec example simple_rw_mix_local: __local int e[64] (256 bytes) then the local pointer d
    assert hardware_local_offsets(256, [128, 30, 4]) == [256, 384, 416]


# --- slots against AMD's metadata ----------------------------------------------------------

def test_juniper_kernels_lay_out_exactly_as_amds_compiler(reference):
    d = reference / "amdil" / "hlc-juniper"
    program = parse_program((d / "copyImage2D.01.unlinked.il").read_text())
    for block in program.kernels:
        src_dim, dst_dim = (b.dimension.lower() for b in block.of(r.Image))
        sig = KernelSignature(block.source_name, [
            image(0, "src", src_dim, "read_only"), image(1, "dst", dst_dim, "write_only"),
            val(2, "srcOrigin", "int4"), val(3, "dstOrigin", "int4"), val(4, "size", "int4")])
        assert allocate(sig, "juniper").metadata_records() == block.arguments
        assert allocate(sig, "juniper").cb1_slots == 7   # the program declares dcl_cb cb1[7]
    program = parse_program((d / "test_thread_dimension_atomic.01.unlinked.il").read_text())
    sig = KernelSignature("test_thread_dimension_atomic", [
        ptr(0, "dst", "global", "uint"), val(1, "final_x_size", "uint"), val(2, "final_y_size", "uint"),
        val(3, "final_z_size", "uint"), val(4, "start_address", "ulong"), val(5, "end_address", "ulong")])
    assert allocate(sig, "juniper").metadata_records() == program.find_kernel(sig.name).arguments
    sig = KernelSignature("clear_memory", [ptr(0, "dst", "global", "uint")])
    assert allocate(sig, "juniper").metadata_records() == program.find_kernel("clear_memory").arguments
    assert "dcl_cb cb1[1]" in (d / "clear_memory.01.linked.il").read_text()


def alltypes_signature():
    args = []
    for i, (name, words_) in enumerate(parameters()):
        if "*" in words_:
            space = next(w for w in words_ if w in ("global", "local", "constant"))
            quals = tuple(q for q in ("const", "restrict", "volatile") if q in words_)
            args.append(ptr(i, name, space, "void", quals))
        elif words_[-2].startswith("image"):
            dim = words_[-2][5:-2]
            args.append(image(i, name, dim, "write_only" if "write_only" in words_ else "read_only"))
        elif words_[-2] == "sampler_t":
            args.append(KernelArg(i, name, "sampler_t", "sampler_t", "private", size=4, kind="sampler"))
        elif words_[-2] == "counter32_t":
            args.append(KernelArg(i, name, "counter32_t", "counter32_t", "global", size=4, kind="pointer",
                                  pointee="counter32_t"))
        else:
            args.append(val(i, name, "ulong4" if words_[-2] == "typ1" else words_[-2]))
    return KernelSignature("myKernel", args)


def test_every_alltypes_argument_offset_matches_the_catalyst_binary(reference):
    """Scalars, vectors of every width (incl. 3 and >128 bits), 8/16-bit vectors past 4
    components, samplers, images (two slots), pointers, counters: 71 offsets from AMD's compiler."""
    data = (reference / "amdil" / "catalyst-clo" / "alltypes.clo").read_bytes()
    block = find_metadata_blocks(data)[0].block
    ours = allocate(alltypes_signature(), "cayman", version_major=3)
    real = block.arguments
    assert [(a.name, a.offset) for a in ours.args] == [(x.name, x.offset) for x in real]
    for mine, theirs in zip(ours.metadata_records(), real, strict=True):
        assert mine.kind == theirs.kind
        if isinstance(theirs, r.Value):
            assert (mine.type, mine.count) == (theirs.type, theirs.count)
        if isinstance(theirs, r.Pointer):
            assert (mine.type, mine.memory, mine.align, mine.access, mine.volatile, mine.restrict) == (
                theirs.type, theirs.memory, theirs.align, theirs.access, theirs.volatile, theirs.restrict)
        if isinstance(theirs, r.Image):
            assert (mine.dimension, mine.access) == (theirs.dimension, theirs.access)
    # the layout read back from the binary's metadata agrees slot for slot
    from_md = layout_from_metadata(block, "cayman")
    assert [(a.offset, a.slots) for a in from_md.args] == [(a.offset, a.slots) for a in ours.args]


@pytest.mark.parametrize("bits, width, slots", [
    (32, 1, 1), (64, 1, 1), (32, 4, 1), (64, 2, 1), (32, 8, 2), (64, 8, 4), (32, 16, 4),
    (64, 16, 8), (8, 3, 1), (8, 4, 1), (8, 8, 2), (8, 16, 4), (16, 8, 2), (16, 16, 4), (64, 3, 1)])
def test_value_slot_rules(bits, width, slots):
    assert value_slots(bits, width) == slots


def test_aggregates_round_to_16_bytes():
    sig = KernelSignature("k", [KernelArg(0, "s", "struct S", "struct S", "private", size=20, kind="struct"),
                                KernelArg(1, "u", "union U", "union U", "private", size=4, kind="union"),
                                val(2, "x", "float")])
    lay = allocate(sig, "cypress")
    assert [(a.offset, a.slots) for a in lay.args] == [(0, 2), (32, 1), (48, 1)]
    assert lay.args[0].record.to_line() == ";value:s:struct:20:1:0"


def test_uav_assignment():
    assert assign_uavs("Evergreen", 7).write_image_uavs == [2, 3, 4, 5, 6, 7, 8]
    eight = assign_uavs("Evergreen", 8)
    assert eight.write_image_uavs == list(range(1, 9)) and eight.raw_uav is None
    assert assign_uavs("Evergreen", 0).raw_uav == 1 and assign_uavs("7XX", 0).arena_uav is None
    assert assign_uavs("Evergreen", 0).arena_uav_spec == 0
    with pytest.raises(KernelkitError):
        assign_uavs("7XX", 1)
    with pytest.raises(KernelkitError):
        assign_uavs("Evergreen", 9)


def test_pointers_per_family():
    sig = KernelSignature("k", [ptr(0, "g", "global"), ptr(1, "l", "local", "float"),
                                ptr(2, "c", "constant", "double")])
    eg = [rec.to_line() for rec in allocate(sig, "juniper").metadata_records()]
    assert eg == [";pointer:g:i32:1:1:0:uav:1:4", ";pointer:l:float:1:1:16:hl:1:4",
                  ";pointer:c:double:1:1:32:c:1:8"]
    r7 = [rec.memory for rec in allocate(sig, "rv770").metadata_records()]
    assert r7 == ["uav", "l", "c"]
    # spec 000 "images": only valid on the Evergreen family or later (read-only ones too)
    for access in ("read_only", "write_only"):
        with pytest.raises(KernelkitError, match="Evergreen"):
            allocate(KernelSignature("k", [image(0, "i", "2d", access)]), "rv730")


# --- cb1 bytes -----------------------------------------------------------------------------

def test_fill_cb1_packs_values_as_the_spec_says():
    sig = KernelSignature("k", [val(0, "a", "long"), val(1, "b", "char8"), val(2, "c", "float3"),
                                ptr(3, "p", "global"), ptr(4, "lp", "local"), val(5, "d", "short16"),
                                KernelArg(6, "s", "sampler_t", "sampler_t", "private", size=4, kind="sampler"),
                                image(7, "img", "2d", "read_only")], static_local_mem=256)
    lay = allocate(sig, "juniper")
    cb1 = fill_cb1(lay, {"a": -2, "b": np.arange(1, 9), "c": [1.5, 2.5, 3.5], "p": 0x40,
                         "lp": LocalArg(64), "d": np.arange(16), "s": 0x15,
                         "img": ImageDesc(64, 32, data_type=13, channel_order=8)})
    assert struct.unpack_from("<II", cb1, 0) == (0xFFFFFFFE, 0xFFFFFFFF)  # low word first
    assert cb1[16:20] == bytes([1, 2, 3, 4]) and cb1[32:36] == bytes([5, 6, 7, 8])  # 4 per slot
    assert struct.unpack_from("<3f", cb1, 48) == (1.5, 2.5, 3.5)
    assert struct.unpack_from("<I", cb1, 64) == (0x40,)
    assert struct.unpack_from("<I", cb1, 80) == (256,)     # after the kernel's own local memory
    assert struct.unpack_from("<4h", cb1, 96) == (0, 1, 2, 3)
    assert struct.unpack_from("<4h", cb1, 112) == (4, 5, 6, 7)
    assert struct.unpack_from("<I", cb1, 160) == (0x15,)
    assert struct.unpack_from("<4I3fI", cb1, 176) == (64, 32, 1, 13, 1 / 64, 1 / 32, 1.0, 8)


def test_image_constants_7xx_and_8xx():
    img = ImageDesc(16, 8, 1, data_type=3, channel_order=5, row_pitch=64, slice_pitch=512, offset=7)
    assert struct.unpack("<8I", image_constants(img, "7XX")) == (16, 8, 1, 7, 3, 5, 64, 512)
    assert struct.unpack("<4I3fI", image_constants(img, "Evergreen")) == (16, 8, 1, 3, 1 / 16, 1 / 8, 1.0, 5)


# --- devices and -mattr ----------------------------------------------------------------------

def test_devices_families_and_aliases():
    spec = {"rv710": "7XX", "rv730": "7XX", "rv770": "7XX", "cypress": "Evergreen",
            "juniper": "Evergreen", "redwood": "Evergreen", "cedar": "Evergreen",
            "cayman": "Northern Islands", "barts": "Northern Islands", "turks": "Northern Islands",
            "caicos": "Northern Islands"}
    for name, family in spec.items():
        assert resolve_device(name).family == family
    assert {d.name for d in DEVICES} == set(spec) | {"kauai", "test"}
    for alias in ("rv740", "rv790", "rv700"):
        assert resolve_device(alias).name == "rv770"
    assert resolve_device("juniper").eight_xx_mode_of == "barts"
    with pytest.raises(MuxError):
        resolve_device("tahiti")


def test_mattr_parsing_and_rules():
    a = parse_mattr("mwgs-3-64-2-2,+cal=982,+fp64,-noinline", "cypress")
    assert a.max_work_group_size == (64, 2, 2) and a.cal == 982 and a.sc_version == "SC_136"
    assert a.features == {"fp64": True, "noinline": False}
    assert parse_mattr("mwgs-1-256", "juniper").max_work_group_size == (256, 1, 1)
    assert (sc_version(950), sc_version(1331), sc_version(900)) == ("SC_135", "SC_137", None)
    for feature in ("byte_addressable_store", "images", "multi_uav"):
        with pytest.raises(MuxError):
            parse_mattr(f"+{feature}", "rv770")       # Evergreen or later only
        assert parse_mattr(f"-{feature}", "rv770").features == {feature: False}
    with pytest.raises(MuxError):
        parse_mattr("+cal=592,+images", "juniper")    # only after CAL 592
    assert parse_mattr("+cal=593,+images,+byte_addressable_store", "juniper").cal == 593
    for bad in ("mwgs-2-64", "mwgs-4-1-1-1-1", "+fastmath", "cal=x"):
        with pytest.raises(MuxError):
            parse_mattr(bad, "juniper")
    for ok in ("+barrier_detect", "+macrodb", "+noalias", "+noinline", "+multi_uav"):
        parse_mattr(ok, "barts")


def test_layout_cli_from_a_program(reference, capsys):
    path = reference / "amdil" / "hlc-juniper" / "copyImage2D.01.unlinked.il"
    assert main(["layout", str(path), "-t", "amdil:juniper", "-k", "copyImage2D3D", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cb1"]["slots"] == 7 and doc["family"] == "Evergreen"
    assert [a["offset"] for a in doc["cb1"]["args"]] == [0, 32, 64, 80, 96]
    assert doc["cb0"]["reserved"][20]["ndrange"] == "f:0.0"
    # spec 000 "Dynamic Locations" says arguments start at byte 96; real programs start at 0
    assert any("byte 96" in n and "byte 0" in n for n in doc["notes"])
    assert main(["layout", str(path), "-t", "amdil:juniper", "-k", "copyImage2D"]) == 0
    assert "cb1[7]" in capsys.readouterr().out


def test_source_layout_matches_amds_compiled_metadata(reference):
    """OpenCL C (our alltypes.cl, the counter argument on) -> KernelSignature -> cb1 slots == AMD's
    compiled metadata, all 71 arguments."""
    from kernelkit.abi.amdil import layout_for
    ours = layout_for(str(SOURCE), "amdil:cayman", "myKernel",
                      {"metadata_version": 3, "build_options": [f"-D{COUNTERS}=1"]})
    block = find_metadata_blocks((reference / "amdil" / "catalyst-clo" / "alltypes.clo").read_bytes())[0].block
    real = [(a.name, a.offset) for a in block.arguments]
    assert len(real) == 71 and [(a["name"], a["offset"]) for a in ours["cb1"]["args"]] == real


def test_amdil_target_is_registered_and_creates_targets():
    from kernelkit.mux.context import Context
    from kernelkit.mux.registry import resolve_target
    info, device = resolve_target("amdil:rv790")
    assert device == "rv770" and info.device_info.device_type == "gpu"
    target = info.create_target(Context(), device)
    assert target.device == "rv770" and target.device_record.family == "7XX"
    with pytest.raises(MuxError):
        info.create_target(Context(), "gfx90a")


def test_dispatch_buffers_from_a_real_kernel(reference):
    from kernelkit.abi.amdil import dispatch_buffers
    text = (reference / "amdil" / "hlc-juniper" / "test_thread_dimension_atomic.01.unlinked.il").read_text()
    block = parse_program(text).find_kernel("test_thread_dimension_atomic")
    cb0, cb1 = dispatch_buffers(block, Dispatch.ndrange((64, 4), (16, 2)), {
        "dst": 0x100, "final_x_size": 64, "final_y_size": 4, "final_z_size": 1,
        "start_address": 1 << 33, "end_address": (1 << 33) + 10})
    assert words(cb0)[0:4] == (64, 4, 1, 2) and words(cb0)[8:10] == (4, 2)
    assert len(cb1) == 6 * 16     # six slots, as ;value:end_address:...:80 ends at 96
    assert struct.unpack_from("<I", cb1, 0) == (0x100,)
    assert struct.unpack_from("<I", cb1, 16) == (64,)
    assert struct.unpack_from("<Q", cb1, 64) == (1 << 33,)


def test_kernel_info_json_gives_the_same_records_and_dispatch_bytes(reference, capsys):
    """KernelInfo (inspect --json) -> metadata records equal AMD's own block for every kernel of
    every reference program and the Catalyst binary; dispatch bytes land at AMD's offsets."""
    from kernelkit.abi.amdil import dispatch_buffers
    from kernelkit.formats.amdil.inspect import block_from_kernel_info
    paths = sorted((reference / "amdil" / "hlc-juniper").glob("*.unlinked.il")) + sorted(
        (reference / "amdil" / "catalyst-clo").glob("*.clo"))
    checked = 0
    for path in paths:
        assert main(["inspect", "--json", str(path)]) == 0
        doc = json.loads(capsys.readouterr().out)
        data = path.read_bytes()
        blocks = {e.block.source_name: e.block for e in find_metadata_blocks(data) if e.block.is_kernel}
        for info in doc["kernels"]:
            block = block_from_kernel_info(info, doc["version"], doc["device"])
            real = blocks[info["name"]]
            assert block.arguments == real.arguments and block.uniqueid == real.uniqueid
            assert block.of(r.Sampler) == real.of(r.Sampler) and block.memory() == real.memory()
            checked += 1
    assert checked == 6 * 4 + 3 * 2 + 2     # copyImage2D x6, test_thread_dimension_atomic x3, Catalyst x2
    text = (reference / "amdil" / "hlc-juniper" / "test_thread_dimension_atomic.01.unlinked.il")
    assert main(["inspect", "--json", str(text)]) == 0
    info = next(k for k in json.loads(capsys.readouterr().out)["kernels"]
                if k["name"] == "test_thread_dimension_atomic")
    values = {"dst": 0x100, "final_x_size": 64, "final_y_size": 4, "final_z_size": 1,
              "start_address": 1 << 33, "end_address": (1 << 33) + 10}
    cb0, cb1 = dispatch_buffers(info, Dispatch.ndrange((64, 4), (16, 2)), values, device="juniper")
    block = parse_program(text.read_text()).find_kernel("test_thread_dimension_atomic")
    for rec in block.arguments:      # every value at the offset AMD's metadata names
        size = 8 if rec.type == "i64" else 4
        assert int.from_bytes(cb1[rec.offset:rec.offset + size], "little") == values[rec.name]
    assert words(cb0)[0:4] == (64, 4, 1, 2)


def test_counters_number_from_zero_and_semaphores_from_one():
    """AMD's compiler numbers ;counter: arguments from 0 in argument order (the Catalyst block of
    alltypes.cl: its one counter32_t is ``;counter:v70:32:0:...``) and ;sema: arguments from 1
    (AMD's AMDIL backend, AMDILKernelManager: counters start at 0, semaphores at 1)."""
    def opaque(i, name, tname):
        return KernelArg(i, name, f"{tname}*", f"{tname}*", "global", size=4, kind="pointer",
                         pointee=tname)
    sig = KernelSignature("k", [opaque(0, "s0", "sema_t"), opaque(1, "c0", "counter32_t"),
                                opaque(2, "s1", "sema_t"), opaque(3, "c1", "counter64_t")])
    lines = [rec.to_line() for rec in allocate(sig, "cayman").metadata_records()]
    assert lines == [";sema:s0:1:1:0", ";counter:c0:32:0:1:16", ";sema:s1:2:1:32",
                     ";counter:c1:64:1:1:48"]


def test_layout_rejects_an_unknown_device(reference, tmp_path, capsys):
    path = reference / "amdil" / "hlc-juniper" / "copyImage2D.01.unlinked.il"
    assert main(["layout", str(path), "-t", "amdil:foo", "-k", "copyImage2D"]) == 1
    err = capsys.readouterr().err
    assert "unknown AMD IL device 'foo'" in err and "Traceback" not in err
    src = tmp_path / "k.cl"
    src.write_text("kernel void myKernel(global int *out) { out[0] = 1; }")
    assert main(["layout", str(src), "-t", "amdil:foo", "-k", "myKernel"]) == 1


def test_uavs_and_constant_buffers_match_the_drivers_declarations(reference):
    """Every juniper kernel wrapper: dcl_raw_uav_id / dcl_arena_uav_id / dcl_uav_id (write
    images) are the UAVs assign_uavs gives for its write-image count; dcl_cb cb1[N] is the slot
    count of the layout its metadata prescribes; dcl_cb cb0[9] is the reserved cb0."""
    from kernelkit.abi.amdil_cb0 import CB0_SLOTS
    checked = 0
    for path in sorted((reference / "amdil" / "hlc-juniper").glob("*.il")):
        text = path.read_text()
        assert f"dcl_cb cb0[{CB0_SLOTS}]" in text
        program = parse_program(text)
        for block in program.kernels:
            func = program.function(block.uniqueid)
            if func is None:       # linked programs keep only the kernel they were linked for
                continue
            body = "\n".join(func.lines())
            writes = [i for i in block.of(r.Image) if i.access == "WO"]
            uavs = assign_uavs("Evergreen", len(writes))
            assert re.findall(r"dcl_raw_uav_id\((\d+)\)", body) == [str(uavs.raw_uav)]
            assert re.findall(r"dcl_arena_uav_id\((\d+)\)", body) == [str(uavs.arena_uav)]
            assert re.findall(r"dcl_uav_id\((\d+)\)", body) == [str(u) for u in uavs.write_image_uavs]
            assert [i.id for i in writes] == uavs.write_image_uavs
            lay = layout_from_metadata(block, "juniper")
            assert re.findall(r"dcl_cb cb1\[(\d+)\]", body) == [str(lay.cb1_slots)]
            # the wrapper copies each argument from the cb1 slot the layout gives it
            for a in lay.args:
                assert re.search(rf"; Kernel arg setup: {a.name}\nmov r\d+(\.\w+)?, cb1\[{a.offset // 16}\]",
                                 body), (path.name, a.name)
            checked += 1
    assert checked == 6 * 4 + 6 + 3 * 2 + 3 + 6


@pytest.mark.parametrize("device, memory, static", [("juniper", "hwlocal", 256), ("rv770", "local", 100)])
def test_local_arguments_follow_the_kernels_local_memory(device, memory, static):
    """spec 000 "Hardware Local Memory Usage": __local arguments are placed after the local
    memory the compiler reported, and the group's local allocation (cb0[4].y) covers them all."""
    from kernelkit.abi.amdil import dispatch_buffers
    kind = "hl" if memory == "hwlocal" else "l"
    text = "\n".join([";ARGSTART:__OpenCL_k_kernel", ";version:1:4:53", f";device:{device}",
                      ";uniqueid:1", f";memory:{memory}:{static}", f";pointer:a:i8:1:1:0:{kind}:1:1",
                      ";value:n:i32:1:1:16", f";pointer:b:i32:1:1:32:{kind}:1:4",
                      ";ARGEND:__OpenCL_k_kernel", ""])
    block = parse_program(text).kernels[0]
    cb0, cb1 = dispatch_buffers(block, Dispatch.ndrange((64,), (64,)),
                                {"a": LocalArg(30), "n": 5, "b": LocalArg(16)})
    a_at = (static + 3) & ~3                 # after the kernel's own local memory
    b_at = (a_at + 30 + 3) & ~3              # a's 30 bytes, then the next dword
    assert struct.unpack_from("<I", cb1, 0)[0] == a_at and struct.unpack_from("<I", cb1, 32)[0] == b_at
    assert words(cb0)[17] == b_at + 16       # cb0[4].y: local memory allocated per group
