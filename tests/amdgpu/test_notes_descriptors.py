"""Notes, kernel descriptors and amd_kernel_code_t: byte-identical round trips on every reference
file, values checked against the llvm-readelf dumps and the metadata clang wrote beside them."""

from __future__ import annotations

import re

import msgpack
import pytest
from conftest import REFERENCE

from amdgpu.readelf_dump import dump_pairs, parse_dump
from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu import notes as N
from kernelkit.formats.amdgpu.descriptor import KernelDescriptor
from kernelkit.formats.amdgpu.kernel_code_t import AmdKernelCode
from kernelkit.formats.amdgpu.tables import PROCESSOR_BY_MACH

PAIRS = dump_pairs(REFERENCE)
IDS = [f"{b.parent.name}/{b.name}" for _, b in PAIRS]


@pytest.mark.parametrize("dump,binary", PAIRS, ids=IDS)
def test_notes_round_trip_byte_identical(dump, binary):
    elf = E.ElfFile.parse(binary.read_bytes())
    sec = elf.sections_of_type(E.SHT_NOTE)[0]
    records = [N.decode_note(n) for n in elf.notes(sec)]
    assert not [r for r in records if isinstance(r, N.RawNote)]
    assert E.encode_notes([N.encode_note(r) for r in records], sec.addralign) == sec.data
    ref = parse_dump(dump.read_text())
    for rec in records:
        if isinstance(rec, N.MetadataV3Note):   # our msgpack writer from the decoded document
            assert msgpack.packb(rec.document) == N.encode_note(rec).desc
            assert "amdhsa.kernels" in rec.document
        if isinstance(rec, N.IsaVersionNote):
            assert (f"[Vendor: {rec.vendor}, Architecture: {rec.architecture}, Major: {rec.major}, "
                    f"Minor: {rec.minor}, Stepping: {rec.stepping}]") in ref.note_text
        if isinstance(rec, N.CodeObjectVersionNote):
            assert f"[Major: {rec.major}, Minor: {rec.minor}]" in ref.note_text
        if isinstance(rec, N.IsaNameNote):
            assert rec.name in ref.note_text
        if isinstance(rec, N.MetadataV2Note):   # our LLVM-style YAML writer reproduces clang's text
            assert N.metadata_v2_note(rec.document()).text == rec.text
            assert rec.text.splitlines()[1] in ref.note_text


def _metadata(elf):
    for n in elf.all_notes():
        rec = N.decode_note(n)
        if isinstance(rec, N.MetadataV3Note):
            return rec.document, 3
        if isinstance(rec, N.MetadataV2Note):
            return rec.document(), 2
    raise AssertionError("no metadata")


@pytest.mark.parametrize("dump,binary", PAIRS, ids=IDS)
def test_descriptors_against_metadata(dump, binary):
    elf = E.ElfFile.parse(binary.read_bytes())
    meta, kind = _metadata(elf)
    syms = {s.name: s for s in elf.symbols(".symtab")}
    if kind == 2:
        for k in meta["Kernels"]:
            sym = syms[k["Name"]]
            assert sym.type == 10                      # STT_AMDGPU_HSA_KERNEL
            raw = elf.symbol_data(sym, 256)
            code = AmdKernelCode.parse(raw)
            assert code.to_bytes() == raw
            cp = k["CodeProps"]
            assert code.kernarg_segment_byte_size == cp["KernargSegmentSize"]
            assert code.wavefront_sgpr_count == cp["NumSGPRs"]
            assert code.workitem_vgpr_count == cp["NumVGPRs"]
            assert 1 << code.wavefront_size == cp["WavefrontSize"]
            assert 1 << code.kernarg_segment_alignment == max(cp["KernargSegmentAlign"], 16)
            assert code.kernel_code_entry_byte_offset == 256
            assert code.properties()["IS_PTR64"] == 1
            assert code.properties()["IS_XNACK_ENABLED"] == int(cp.get("IsXNACKEnabled", False))
            assert code.with_fields(rsrc1=code.rsrc1(), properties=code.properties()) == code
        return
    proc = PROCESSOR_BY_MACH[elf.e_flags & 0xFF]
    relocs = {}
    for sec in elf.sections_of_type(E.SHT_RELA):
        symtab = elf.symbols(elf.sections[sec.link])
        for r in elf.relocations(sec):
            relocs[r.offset] = (r, symtab[r.symbol])
    for k in meta["amdhsa.kernels"]:
        kd_sym = syms[k[".symbol"]]
        raw = elf.symbol_data(kd_sym)
        kd = KernelDescriptor.parse(raw)
        assert kd.to_bytes() == raw
        assert kd.kernarg_size == k[".kernarg_segment_size"]
        assert kd.group_segment_fixed_size == k[".group_segment_fixed_size"]
        assert kd.private_segment_fixed_size == k[".private_segment_fixed_size"]
        assert kd.code_properties()["ENABLE_WAVEFRONT_SIZE32"] == int(k[".wavefront_size"] == 32)
        assert kd.code_properties()["ENABLE_SGPR_KERNARG_SEGMENT_PTR"] == 1
        if "gfx90a" in proc.name:
            # ACCUM_OFFSET: (agpr offset / 4) - 1, agprs follow the arch VGPRs
            assert kd.rsrc3(proc)["ACCUM_OFFSET"] >= 0
        entry = syms[k[".name"]]
        if elf.e_type == E.ET_DYN:
            assert kd_sym.value + kd.kernel_code_entry_byte_offset == entry.value
        else:  # unlinked: offset 0, patched by R_AMDGPU_REL64 at kd+16 against the entry symbol
            r, target = relocs[kd_sym.value + 16]
            assert kd.kernel_code_entry_byte_offset == 0
            assert (r.type_name, target.name, r.addend) == ("R_AMDGPU_REL64", k[".name"], 16)
        assert kd.with_fields(proc, rsrc1=kd.rsrc1(), rsrc2=kd.rsrc2(), rsrc3=kd.rsrc3(proc),
                              code_properties=kd.code_properties()) == kd
    assert re.search(r"NT_AMDGPU_METADATA", dump.read_text())


def test_descriptor_writer_fields():
    kd = KernelDescriptor().with_fields(
        None, kernarg_size=64, rsrc1={"GRANULATED_WORKITEM_VGPR_COUNT": 3, "FWD_PROGRESS": 1},
        rsrc2={"USER_SGPR_COUNT": 6, "ENABLE_VGPR_WORKITEM_ID": 2},
        code_properties={"ENABLE_SGPR_KERNARG_SEGMENT_PTR": 1},
        kernarg_preload={"KERNARG_PRELOAD_SPEC_LENGTH": 2, "KERNARG_PRELOAD_SPEC_OFFSET": 1})
    raw = kd.to_bytes()
    assert len(raw) == 64
    assert raw[8:12] == (64).to_bytes(4, "little")
    assert int.from_bytes(raw[48:52], "little") == 3 | (1 << 31)
    assert int.from_bytes(raw[52:56], "little") == (6 << 1) | (2 << 11)
    assert raw[56:58] == (8).to_bytes(2, "little")
    assert raw[58:60] == (2 | (1 << 7)).to_bytes(2, "little")
    with pytest.raises(FormatError):
        kd.with_fields(None, rsrc2={"USER_SGPR_COUNT": 40})
    with pytest.raises(FormatError):
        kd.with_fields(None, rsrc1={"NO_SUCH_FIELD": 1})


def test_truncated_and_corrupt_notes_raise_format_error():
    with pytest.raises(FormatError):
        KernelDescriptor.parse(b"\0" * 63)
    with pytest.raises(FormatError):
        AmdKernelCode.parse(b"\0" * 255)
    for desc, ntype in ((b"\1\0\0", 1), (b"\4\0\7\0\x08\0", 3), (b"\x04\x00\x07\x00" + b"\0" * 12 + b"AM", 3)):
        with pytest.raises(FormatError):
            N.decode_note(E.Note("AMD", ntype, desc))
    with pytest.raises(FormatError):
        N.decode_note(E.Note("AMDGPU", 32, b"\xc1"))
    with pytest.raises(FormatError):
        N.decode_note(E.Note("AMDGPU", 32, b"\x93\x01\x02\x03"))   # an array, not a map
    with pytest.raises(FormatError):
        N.decode_note(E.Note("AMD", 10, b"---\nVersion: [1, 0\n"))  # not parsed until asked
        N.decode_note(E.Note("AMD", 10, b"---\nVersion: [1, 0\n")).document()
    data = (REFERENCE / "amdgpu" / "clang14" / "saxpy.gfx803.v2.hsaco").read_bytes()
    elf = E.ElfFile.parse(data)
    sec = elf.section(".note")
    for cut in range(1, len(sec.data), 37):
        try:
            for n in E.parse_notes(sec.data[:cut]):
                rec = N.decode_note(n)
                if isinstance(rec, N.MetadataV2Note):
                    rec.document()
        except FormatError:
            pass


def test_every_v2_note_kind_round_trips():
    """Note kinds the references do not carry (spec 001 V2 table): HSAIL, PRODUCER,
    PRODUCER_OPTIONS, PAL metadata, and an unknown type kept raw."""
    records = [N.CodeObjectVersionNote(2, 1), N.HsailNote(1, 0, 1, 1, 0), N.IsaVersionNote("AMD", "AMDGPU", 9, 0, 10),
               N.ProducerNote("AMD HSA Runtime Finalizer", 1, 0), N.ProducerOptionsNote("-O2 -g"),
               N.IsaNameNote("amdgcn-amd-amdhsa--gfx90a"), N.MetadataV2Note("---\nVersion: [ 1, 0 ]\n...\n"),
               N.PalMetadataNote([(0x2E12, 0xAC0000), (0x2E13, 0x98)]), N.RawNote("AMD", 6, b"\x01\x02\x03\x04")]
    notes = [N.encode_note(r) for r in records]
    data = E.encode_notes(notes)
    back = [N.decode_note(n) for n in E.parse_notes(data)]
    assert back == records
    assert E.encode_notes([N.encode_note(r) for r in back]) == data
    hsail = notes[1].desc
    assert len(hsail) == 11 and hsail[:8] == b"\x01\0\0\0\0\0\0\0"            # u32 major, u32 minor, 3 bytes
    producer = notes[3].desc                                                   # u16 size, u16 pad, u32, u32, name
    assert int.from_bytes(producer[:2], "little") == len("AMD HSA Runtime Finalizer") + 1
    assert producer.endswith(b"Finalizer\0")
    assert [n.type for n in notes] == [1, 2, 3, 4, 5, 11, 10, 12, 6]            # spec 001 note type values


# .amdhsa_* assembler directive -> (descriptor field group, field name) (AMDGPUUsage "AMDHSA Kernel
# Assembler Directives"); values below are set away from their defaults so a wrong bit position shows
_DIRECTIVES = {
    "gfx90a": [("user_sgpr_count 12", "rsrc2", "USER_SGPR_COUNT", 12),
               ("user_sgpr_dispatch_ptr 1", "props", "ENABLE_SGPR_DISPATCH_PTR", 1),
               ("user_sgpr_queue_ptr 1", "props", "ENABLE_SGPR_QUEUE_PTR", 1),
               ("user_sgpr_kernarg_segment_ptr 1", "props", "ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1),
               ("user_sgpr_dispatch_id 1", "props", "ENABLE_SGPR_DISPATCH_ID", 1),
               ("user_sgpr_private_segment_size 1", "props", "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 1),
               ("uses_dynamic_stack 1", "props", "USES_DYNAMIC_STACK", 1),
               ("system_sgpr_private_segment_wavefront_offset 1", "rsrc2", "ENABLE_PRIVATE_SEGMENT", 1),
               ("system_sgpr_workgroup_id_x 0", "rsrc2", "ENABLE_SGPR_WORKGROUP_ID_X", 0),
               ("system_sgpr_workgroup_id_y 1", "rsrc2", "ENABLE_SGPR_WORKGROUP_ID_Y", 1),
               ("system_sgpr_workgroup_id_z 1", "rsrc2", "ENABLE_SGPR_WORKGROUP_ID_Z", 1),
               ("system_sgpr_workgroup_info 1", "rsrc2", "ENABLE_SGPR_WORKGROUP_INFO", 1),
               ("system_vgpr_workitem_id 2", "rsrc2", "ENABLE_VGPR_WORKITEM_ID", 2),
               ("accum_offset 8", "rsrc3", "ACCUM_OFFSET", 1),
               ("float_round_mode_32 1", "rsrc1", "FLOAT_ROUND_MODE_32", 1),
               ("float_round_mode_16_64 2", "rsrc1", "FLOAT_ROUND_MODE_16_64", 2),
               ("float_denorm_mode_32 1", "rsrc1", "FLOAT_DENORM_MODE_32", 1),
               ("float_denorm_mode_16_64 2", "rsrc1", "FLOAT_DENORM_MODE_16_64", 2),
               ("dx10_clamp 0", "rsrc1", "ENABLE_DX10_CLAMP", 0), ("ieee_mode 0", "rsrc1", "ENABLE_IEEE_MODE", 0),
               ("fp16_overflow 1", "rsrc1", "FP16_OVFL", 1), ("tg_split 1", "rsrc3", "TG_SPLIT", 1),
               ("exception_fp_ieee_invalid_op 1", "rsrc2", "ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 1),
               ("exception_fp_denorm_src 1", "rsrc2", "ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 1),
               ("exception_fp_ieee_div_zero 1", "rsrc2", "ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 1),
               ("exception_fp_ieee_overflow 1", "rsrc2", "ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 1),
               ("exception_fp_ieee_underflow 1", "rsrc2", "ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 1),
               ("exception_fp_ieee_inexact 1", "rsrc2", "ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 1),
               ("exception_int_div_zero 1", "rsrc2", "ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 1),
               ("user_sgpr_kernarg_preload_length 2", "preload", "KERNARG_PRELOAD_SPEC_LENGTH", 2),
               ("user_sgpr_kernarg_preload_offset 1", "preload", "KERNARG_PRELOAD_SPEC_OFFSET", 1)],
    "gfx1030": [("wavefront_size32 0", "props", "ENABLE_WAVEFRONT_SIZE32", 0),
                ("workgroup_processor_mode 0", "rsrc1", "WGP_MODE", 0),
                ("memory_ordered 0", "rsrc1", "MEM_ORDERED", 0), ("forward_progress 1", "rsrc1", "FWD_PROGRESS", 1),
                ("shared_vgpr_count 2", "rsrc3", "SHARED_VGPR_COUNT", 2)],
    "gfx1100": [("wavefront_size32 1", "props", "ENABLE_WAVEFRONT_SIZE32", 1),
                ("workgroup_processor_mode 1", "rsrc1", "WGP_MODE", 1),
                ("inst_pref_size 3", "rsrc3", "INST_PREF_SIZE", 3),
                ("enable_private_segment 1", "rsrc2", "ENABLE_PRIVATE_SEGMENT", 1)],
    "gfx1200": [("round_robin_scheduling 1", "rsrc1", "ENABLE_WG_RR_EN", 1),
                ("inst_pref_size 5", "rsrc3", "INST_PREF_SIZE", 5),
                ("forward_progress 0", "rsrc1", "FWD_PROGRESS", 0)],
}


@pytest.mark.parametrize("cpu", sorted(_DIRECTIVES))
def test_descriptor_fields_as_llvm_assembles_them(tmp_path, cpu):
    """clang 22 assembles .amdhsa_kernel directives into a kernel descriptor; every named field
    reads back with the value the directive set (LLVM's own bit positions as the oracle)."""
    import subprocess
    import sys

    from kernelkit.formats.amdgpu.tables import PROCESSOR_BY_NAME

    directives = _DIRECTIVES[cpu]
    src = tmp_path / "kd.s"
    src.write_text(f'.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"\n.text\n.globl k\n.p2align 8\n.type k,@function\n'
                   "k:\n  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 24\n"
                   "  .amdhsa_next_free_sgpr 10\n  .amdhsa_group_segment_fixed_size 1024\n"
                   "  .amdhsa_private_segment_fixed_size 48\n  .amdhsa_kernarg_size 88\n"
                   + "".join(f"  .amdhsa_{d}\n" for d, *_ in directives) + ".end_amdhsa_kernel\n")
    obj = tmp_path / "kd.o"
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "assembler", "-target", "amdgcn-amd-amdhsa",
                    f"-mcpu={cpu}", "-mcode-object-version=5", "-c", str(src), "-o", str(obj)],
                   check=True, capture_output=True)
    elf = E.ElfFile.parse(obj.read_bytes())
    kd = KernelDescriptor.parse(elf.symbol_data({s.name: s for s in elf.symbols()}["k.kd"]))
    proc = PROCESSOR_BY_NAME[cpu]
    assert (kd.group_segment_fixed_size, kd.private_segment_fixed_size, kd.kernarg_size) == (1024, 48, 88)
    groups = {"rsrc1": kd.rsrc1(proc), "rsrc2": kd.rsrc2(proc), "rsrc3": kd.rsrc3(proc),
              "props": kd.code_properties(), "preload": kd.kernarg_preload_fields()}
    for directive, group, field, value in directives:
        assert groups[group][field] == value, directive
    fields = kd.fields(proc)
    assert fields["compute_pgm_rsrc1"] == groups["rsrc1"] and fields["compute_pgm_rsrc3"] == groups["rsrc3"]
    assert kd.with_fields(proc, rsrc1=groups["rsrc1"], rsrc2=groups["rsrc2"], rsrc3=groups["rsrc3"]) == kd


def test_amd_kernel_code_t_fields_as_llvm_assembles_them(tmp_path):
    """clang 22 still assembles the V2 ``.amd_kernel_code_t`` directive (amdpal triple); every field
    and bit-field set there reads back by name."""
    import subprocess
    import sys

    settings = {"amd_machine_version_major": 9, "amd_machine_version_minor": 0,
                "amd_machine_version_stepping": 10, "kernel_code_entry_byte_offset": 256,
                "kernarg_segment_byte_size": 88, "workitem_private_segment_byte_size": 48,
                "workgroup_group_segment_byte_size": 1024, "wavefront_sgpr_count": 20, "workitem_vgpr_count": 24,
                "kernarg_segment_alignment": 4, "group_segment_alignment": 5, "private_segment_alignment": 6,
                "wavefront_size": 6, "call_convention": -1}
    bits = {"enable_sgpr_dispatch_ptr": ("properties", "ENABLE_SGPR_DISPATCH_PTR", 1),
            "enable_sgpr_queue_ptr": ("properties", "ENABLE_SGPR_QUEUE_PTR", 1),
            "enable_sgpr_kernarg_segment_ptr": ("properties", "ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1),
            "is_ptr64": ("properties", "IS_PTR64", 1), "is_dynamic_callstack": ("properties", "IS_DYNAMIC_CALLSTACK", 1),
            "is_xnack_enabled": ("properties", "IS_XNACK_ENABLED", 1),
            "private_element_size": ("properties", "PRIVATE_ELEMENT_SIZE", 2),
            "compute_pgm_rsrc1_vgprs": ("rsrc1", "GRANULATED_WORKITEM_VGPR_COUNT", 5),
            "compute_pgm_rsrc1_sgprs": ("rsrc1", "GRANULATED_WAVEFRONT_SGPR_COUNT", 2),
            "compute_pgm_rsrc1_ieee_mode": ("rsrc1", "ENABLE_IEEE_MODE", 1),
            "compute_pgm_rsrc2_user_sgpr": ("rsrc2", "USER_SGPR_COUNT", 8),
            "compute_pgm_rsrc2_tgid_x_en": ("rsrc2", "ENABLE_SGPR_WORKGROUP_ID_X", 1),
            "compute_pgm_rsrc2_tidig_comp_cnt": ("rsrc2", "ENABLE_VGPR_WORKITEM_ID", 2)}
    lines = [f"  {k} = {v}" for k, v in settings.items()] + [f"  {k} = {v[2]}" for k, v in bits.items()]
    lines.append("  compute_pgm_rsrc1_float_mode = 192")     # denorm 16/64 = 3
    src = tmp_path / "akc.s"
    src.write_text(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n.amd_kernel_code_t\n" + "\n".join(lines)
                   + "\n.end_amd_kernel_code_t\n  s_endpgm\n")
    obj = tmp_path / "akc.o"
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "assembler", "-target", "amdgcn-amd-amdpal",
                    "-mcpu=gfx90a", "-c", str(src), "-o", str(obj)], check=True, capture_output=True)
    raw = E.ElfFile.parse(obj.read_bytes()).section(".text").data[:256]
    code = AmdKernelCode.parse(raw)
    assert code.to_bytes() == raw
    for name, value in settings.items():
        assert getattr(code, name) == value, name
    groups = {"properties": code.properties(), "rsrc1": code.rsrc1(), "rsrc2": code.rsrc2()}
    for directive, (group, field, value) in bits.items():
        assert groups[group][field] == value, directive
    assert groups["rsrc1"]["FLOAT_DENORM_MODE_16_64"] == 3 and groups["rsrc1"]["FLOAT_DENORM_MODE_32"] == 0
    assert (code.amd_kernel_code_version_major, code.amd_kernel_code_version_minor, code.amd_machine_kind) == (1, 2, 1)
