"""Metadata model V2..V6: round trips, V2<->V3 conversion against clang's own V2/V3 output for the
same sources, and validation messages."""

from __future__ import annotations

import copy

import pytest
from conftest import REFERENCE, spec_text

from kernelkit.errors import FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu import llvm_yaml
from kernelkit.formats.amdgpu import notes as N
from kernelkit.formats.amdgpu.metadata import CodeObjectMetadata, check, validate, validate_document_v3
from kernelkit.formats.amdgpu.metadata_v2 import from_v2, to_v2, v2_to_v3, v3_to_v2, validate_document_v2

AMD = REFERENCE / "amdgpu"
ALL = sorted(p for d in ("clang14", "clang19", "zig", "llvmlite") for p in (AMD / d).glob("*")
             if p.suffix in (".hsaco", ".o"))
V2 = [p for p in ALL if ".v2." in p.name]


def _note(path):
    for n in E.ElfFile.parse(path.read_bytes()).all_notes():
        rec = N.decode_note(n)
        if isinstance(rec, (N.MetadataV2Note, N.MetadataV3Note)):
            return rec
    raise AssertionError(path)


def _version(path) -> int:
    return {0: 2, 1: 3, 2: 4, 3: 5, 4: 6}[E.ElfFile.parse(path.read_bytes()).abiversion]


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_model_round_trip_and_valid(path):
    rec = _note(path)
    version = _version(path)
    if isinstance(rec, N.MetadataV2Note):
        meta = from_v2(rec.document())
        assert llvm_yaml.dump(to_v2(meta)) == rec.text
    else:
        meta = CodeObjectMetadata.from_v3(rec.document)
        assert meta.to_v3() == rec.document and list(meta.to_v3()) == list(rec.document)
    assert validate(meta, version) == []
    for k in meta.kernels:
        end = max(a.offset + a.size for a in k.args)
        assert end <= k.kernarg_segment_size


@pytest.mark.parametrize("path", V2, ids=[p.name for p in V2])
def test_v2_v3_conversion_matches_clang(path):
    v3_path = path.with_name(path.name.replace(".v2.", ".v3."))
    meta2 = from_v2(_note(path).document())
    if v3_path.exists():
        clang_v3 = _note(v3_path).document
        ours = v2_to_v3(meta2, 3).to_v3()
        for a, b in zip(ours["amdhsa.kernels"], clang_v3["amdhsa.kernels"], strict=True):
            assert a[".args"] == b[".args"]          # offsets computed per the spec's V2 rules
            for key in (".kernarg_segment_size", ".kernarg_segment_align", ".symbol", ".name",
                        ".language", ".language_version"):
                assert a[key] == b[key]
        back = v3_to_v2(CodeObjectMetadata.from_v3(clang_v3))
        got = to_v2(back)
        for a, b in zip(got["Kernels"], _note(path).document()["Kernels"], strict=True):
            assert a["Args"] == b["Args"] and a["SymbolName"] == b["SymbolName"]


def _doc():
    return copy.deepcopy(_note(AMD / "clang19" / "saxpy.gfx90a.v5.hsaco").document)


def test_validation_messages():
    doc = _doc()
    del doc["amdhsa.kernels"][0][".sgpr_count"]
    doc["amdhsa.kernels"][0][".bogus"] = 1
    doc["amdhsa.kernels"][0][".args"][0][".size"] = "4"
    errors = validate_document_v3(doc)
    assert any("missing required key '.sgpr_count'" in e for e in errors)
    assert any("unknown key '.bogus'" in e for e in errors)
    assert any(".size: expected int, found str '4'" in e for e in errors)
    with pytest.raises(FormatError):
        CodeObjectMetadata.from_v3(doc)

    doc = _doc()
    doc["amdhsa.kernels"][0][".args"][1][".offset"] = 6       # float* at 6
    doc["amdhsa.kernels"][0][".kernarg_segment_size"] = 20
    meta = CodeObjectMetadata.from_v3(doc)
    errors = validate(meta, 5)
    assert any("offset 6 is not a multiple of its alignment 8" in e for e in errors)
    assert any("kernarg_segment_size 20 is smaller than the arguments need" in e for e in errors)
    with pytest.raises(FormatError):
        check(meta, 5)

    doc = _doc()
    doc["amdhsa.kernels"][0][".kernarg_segment_size"] = 4096
    assert any("larger than the arguments explain" in e for e in validate(CodeObjectMetadata.from_v3(doc), 5))
    doc = _doc()
    doc["amdhsa.kernels"][0][".args"][0][".value_kind"] = "by_reference"
    assert any("unknown value_kind 'by_reference'" in e for e in validate(CodeObjectMetadata.from_v3(doc), 5))
    assert any("needs code object V5+" in e for e in validate(CodeObjectMetadata.from_v3(_doc()), 4))
    doc = _doc()
    del doc["amdhsa.target"]
    assert any("amdhsa.target" in e for e in validate(CodeObjectMetadata.from_v3(doc), 5))
    doc = _doc()
    doc["amdhsa.kernels"][0][".uses_dynamic_stack"] = False
    assert any("needs code object V5+" in e for e in validate_document_v3(doc, 4))


def test_v2_validation_messages():
    doc = _note(AMD / "clang14" / "saxpy.gfx803.v2.hsaco").document()
    doc["Kernels"][0]["Args"][0]["Align"] = 3
    del doc["Kernels"][0]["CodeProps"]["NumSGPRs"]
    doc["Kernels"][0]["Args"][1]["ValueKind"] = "Bogus"
    doc["Kernels"][0]["Wrong"] = 1
    errors = validate_document_v2(doc)
    assert any("Align 3 is not a power of two" in e for e in errors)
    assert any("missing required key 'NumSGPRs'" in e for e in errors)
    assert any("unknown ValueKind 'Bogus'" in e for e in errors)
    assert any("unknown key 'Wrong'" in e for e in errors)
    with pytest.raises(FormatError):
        from_v2(doc)


def test_v3_to_v2_refuses_unplaceable_offsets():
    doc = _doc()
    doc["amdhsa.kernels"][0][".args"][1][".offset"] = 24    # gap V2 rules cannot produce
    with pytest.raises(FormatError):
        v3_to_v2(CodeObjectMetadata.from_v3(doc))


def test_by_value_aggregates_need_no_natural_alignment():
    from kernelkit.formats.amdgpu.metadata import ArgMeta, KernelMeta
    k = KernelMeta(name="k", symbol="k.kd", kernarg_segment_size=24 + 256, group_segment_fixed_size=0,
                   private_segment_fixed_size=0, kernarg_segment_align=8, wavefront_size=64, sgpr_count=1,
                   vgpr_count=1, max_flat_workgroup_size=256,
                   args=[ArgMeta(4, "by_value", 0, type_name="int"),
                         ArgMeta(12, "by_value", 4, type_name="S"),           # struct {float; int; char}
                         ArgMeta(8, "global_buffer", 16, address_space="global"),
                         ArgMeta(4, "hidden_block_count_x", 24)])
    meta = CodeObjectMetadata([1, 2], [k], target="amdgcn-amd-amdhsa--gfx90a")
    assert validate(meta, 5) == []
    k.args[2].offset = 20                                                     # a pointer at 20: misaligned
    assert any("offset 20 is not a multiple of its alignment 8" in e for e in validate(meta, 5))


def test_metadata_key_and_value_kind_tables_match_spec_text():
    """tables.V3_KEYS holds exactly the keys of spec 001's V3-V5 metadata tables, V2_KEYS every key
    of the V2 tables (plus LLVM's V2 keys DebugProps, IsDynamicCallStack and IsXNACKEnabled, which the
    spec text lacks; clang14's V2 notes carry IsXNACKEnabled), VALUE_KINDS every value kind the spec
    lists."""
    import re

    from kernelkit.formats.amdgpu import tables as T

    text = spec_text("001")
    types = r" (?:string|integer|sequence|boolean|map|mapping)"
    v3 = set(re.findall(r'^"(\.[a-z_]+|amdhsa\.[a-z]+)"' + types, text, re.M))
    v2 = set(re.findall(r'^"([A-Z][A-Za-z]+)"' + types, text, re.M))
    assert v3 == {k for table in T.V3_KEYS.values() for k in table}
    extra = {k for table in T.V2_KEYS.values() for k in table} - v2
    assert v2 <= {k for table in T.V2_KEYS.values() for k in table}
    v2_notes = "".join(_note(p).text for p in V2)
    assert extra == {"DebugProps", "IsDynamicCallStack", "IsXNACKEnabled"} and "IsXNACKEnabled" in v2_notes

    def listed(start: str, end: str) -> set[str]:
        section = text[text.index(start):text.index(end, text.index(start))]
        return set(re.findall(r'^"([A-Za-z_0-9]+)"', section, re.M)) - {start.split('"')[1]}

    kinds_v3 = listed('".value_kind" string Required', '".value_type"')
    kinds_v2 = listed('"ValueKind" string Required', '"ValueType"')
    assert len(kinds_v3) >= 16 and kinds_v3 <= {v3k for _, v3k in T.VALUE_KINDS}
    assert len(kinds_v2) >= 16 and kinds_v2 <= {v2k for v2k, _ in T.VALUE_KINDS if v2k}
