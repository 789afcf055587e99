"""Spec tables, target IDs and e_flags against spec 001 and the reference dumps."""

from __future__ import annotations

import re

import pytest
from conftest import REFERENCE, spec_text

from amdgpu.readelf_dump import parse_dump
from kernelkit.formats.amdgpu import tables as T
from kernelkit.formats.amdgpu.eflags import decode_eflags, encode_eflags
from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError, v2_isa_version

DUMPS = sorted((REFERENCE / "amdgpu" / "dumps").glob("*.readelf.txt"))


def _target_of(dump_name: str) -> tuple[str, int] | None:
    m = re.search(r"[.-]((?:gfx[0-9a-z]+(?:-\d)?-generic)|gfx[0-9a-z]+(?:_[a-z]+[+-])*)[.-](v\d|noflag)\.",
                  dump_name)
    if not m:
        return None
    # "noflag": llvmlite without the amdhsa_code_object_version flag -> LLVM 22's default, V6
    return m.group(1).replace("_", ":"), 6 if m.group(2) == "noflag" else int(m.group(2)[1:])


def test_tables_are_consistent():
    assert len({p.mach for p in T.PROCESSORS}) == len(T.PROCESSORS)
    assert T.PROCESSOR_BY_NAME["gfx803"].alt_names == ("fiji", "polaris10", "polaris11")
    assert T.PROCESSOR_BY_MACH[0x03F].name == "gfx90a"       # spec 001 EF_AMDGPU_MACH table
    assert T.PROCESSOR_BY_MACH[0x00A].name == "juniper"
    assert T.PROCESSOR_BY_NAME["gfx1030"].wavefront_sizes == (32, 64)
    assert T.PROCESSOR_BY_NAME["gfx90a"].wavefront_sizes == (64,)
    assert T.PROCESSOR_BY_NAME["gfx90a"].target_id_features == ("sramecc", "xnack")
    for p in T.PROCESSORS:
        for g in p.generic:
            assert set(T.PROCESSOR_BY_NAME[g].target_id_features) >= set(p.target_id_features) or \
                p.name == "gfx9-generic"
    assert T.ADDRESS_SPACES["private"] == 5 and T.ADDRESS_SPACES["local"] == 3
    assert T.VALUE_KIND_V2_TO_V3["HiddenMultiGridSyncArg"] == "hidden_multigrid_sync_arg"
    # V5 hidden block: every argument fits inside 256 bytes and none overlap
    spans = sorted(T.HIDDEN_ARGS_V5.values())
    assert all(a + s <= b for (a, s), (b, _) in zip(spans, spans[1:], strict=False))
    assert spans[-1][0] + spans[-1][1] <= T.HIDDEN_BLOCK_SIZE_V5


def test_target_id_forms():
    t = TargetID.parse("amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+")
    assert t.canonical() == "gfx90a:sramecc+:xnack-"
    assert t.full() == "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
    assert TargetID.parse("gfx90a:xnack-") .setting("sramecc") == "any"
    assert TargetID.parse("gfx90a:xnack-").v2v3() == "gfx90a+sramecc"   # any -> present (spec 001)
    assert TargetID.parse("gfx90a").v2v3() == "gfx90a+sramecc+xnack"
    assert TargetID.parse_v2v3("gfx90a+xnack").canonical() == "gfx90a:sramecc-:xnack+"
    assert TargetID.parse("fiji").canonical() == "gfx803"              # alternative name
    assert TargetID.parse("amdgcn-amd-amdhsa--gfx10-3-generic").processor.is_generic
    assert TargetID.parse("gfx803").setting("xnack") == "unsupported"
    assert v2_isa_version(T.PROCESSOR_BY_NAME["gfx90a"]) == (9, 0, 10)


@pytest.mark.parametrize("text,words", [
    ("gfx999", ["unknown AMDGPU processor", "gfx90a"]),
    ("gfx803:xnack+", ["does not support", "xnack", "valid features: none"]),
    ("gfx1030:sramecc+", ["does not support", "sramecc"]),
    ("gfx90a:xnack+:xnack-", ["more than once"]),
    ("gfx90a:cumode+", ["valid features: sramecc, xnack"]),
    ("gfx90a:xnack", ["'+' or '-'"]),
    ("foo-amd-amdhsa--gfx90a", ["unknown architecture", "amdgcn"]),
    ("amdgcn-foo-amdhsa--gfx90a", ["unknown vendor"]),
    ("r600--amdhsa--gfx90a", ["unknown vendor"]),
    ("amdgcn-amd-amdhsa--juniper", ["architecture 'r600'"]),
])
def test_target_id_rejects(text, words):
    with pytest.raises(TargetIDError) as exc:
        TargetID.parse(text)
    for w in words:
        assert w in str(exc.value)


def test_v2v3_rejects_duplicates():
    with pytest.raises(TargetIDError):
        TargetID.parse_v2v3("gfx90a+xnack+xnack")


@pytest.mark.parametrize("dump", DUMPS, ids=[d.name for d in DUMPS])
def test_eflags_match_readelf(dump):
    target = _target_of(dump.name)
    if target is None:
        pytest.fail(f"cannot read target from {dump.name}")
    text, version = target
    ref = parse_dump(dump.read_text())
    value, *names = [x.strip() for x in ref.header["Flags"].split(",")]
    tid = TargetID.parse(text)
    assert encode_eflags(tid, version) == int(value, 16)
    decoded = decode_eflags(int(value, 16), version)
    assert decoded.processor == tid.processor
    if version >= 4:  # llvm-readelf-19 names V4+ settings: xnack (any), xnack+, xnack-
        assert decoded.names() == names
    assert int(ref.header["ABI Version"]) == T.HSA_ABI_VERSION[version]
    assert "AMDGPU - HSA" in ref.header["OS/ABI"]


def test_readobj_flag_names():
    for dump in (REFERENCE / "amdgpu" / "dumps").glob("*.readobj.txt"):
        text = dump.read_text()
        value = int(re.search(r"Flags \[ \((0x[0-9A-F]+)\)", text).group(1), 16)
        named = dict((n, int(v, 16)) for n, v in re.findall(r"(EF_AMDGPU_\w+) \((0x[0-9A-F]+)\)", text))
        abiv = int(re.search(r"ABIVersion: (\d)", text).group(1))
        version = {v: k for k, v in T.HSA_ABI_VERSION.items()}[abiv]
        dec = decode_eflags(value, version)
        assert named[f"EF_AMDGPU_MACH_AMDGCN_{dec.processor.name.upper()}"] == dec.processor.mach
        if version >= 4:
            for feat in ("xnack", "sramecc"):
                key = f"EF_AMDGPU_FEATURE_{feat.upper()}_{getattr(dec, feat).upper()}_V4"
                if getattr(dec, feat) != "unsupported":
                    assert named[key] == T.EF_V4_FEATURE_SETTINGS[feat][getattr(dec, feat)]


def _spec_processor_rows(text: str) -> dict[str, dict]:
    """The "AMDGPU Processors" table of spec 001: name -> arch, alternative names, the text of
    the row (target features, dGPU/APU)."""
    rows: dict[str, dict] = {}
    current = None
    table = text[text.index("``r600`` ``r600`` dGPU"):text.index("``EF_AMDGPU_MACH_R600_R600``")]
    for line in table.splitlines():
        m = re.match(r"^``([\w-]+)``(.*?)``(r600|amdgcn)``(.*)$", line)
        if m:
            current = m.group(1)
            rows[current] = {"arch": m.group(3), "alt": re.findall(r"``([\w-]+)``", m.group(2)), "text": m.group(4)}
        elif line.startswith(("**", "---")):
            current = None
        elif current:
            alt = re.match(r"^(?:\\ )?- ``([\w-]+)``", line)
            if alt:
                rows[current]["alt"].append(alt.group(1))
            rows[current]["text"] += " " + line
    return rows


def test_processor_tables_match_spec_text():
    """Every row of spec 001's "AMDGPU Processors" and "EF_AMDGPU_MACH Values" tables, read from
    the spec text, is in tables.PROCESSORS with the same values (gfx950, gfx1152/3, gfx120x and the
    generic targets come from AMDGPUUsage: the spec text here is cut off before them)."""
    text = spec_text("001")
    mach = re.findall(r"^``EF_AMDGPU_MACH_(?:R600|AMDGCN)_\w+``\s+(0x[0-9a-fA-F]+)\s+``([\w-]+)``", text, re.M)
    assert len(mach) >= 58
    for value, name in mach:
        assert T.PROCESSOR_BY_MACH[int(value, 16)].name == name
    rows = _spec_processor_rows(text)
    assert len(rows) >= 58
    for name, row in rows.items():
        p = T.PROCESSOR_BY_NAME[name]
        features = {f for f in T.TARGET_FEATURES if re.search(rf"-\s+{f}\b", row["text"])}
        assert (p.arch, p.alt_names, set(p.features), p.apu) == \
            (row["arch"], tuple(row["alt"]), features, " APU " in f" {row['text']} "), name


def test_processors_beyond_the_spec_text_match_clang(tmp_path):
    """The rows the spec text lacks: clang 22 writes the EF_AMDGPU_MACH value (and generic
    version) of tables.PROCESSORS for each of them."""
    import subprocess
    import sys

    from kernelkit.formats import elf as E

    missing = [p for p in T.PROCESSORS if p.arch == "amdgcn" and p.name not in _spec_processor_rows(spec_text("001"))]
    assert {"gfx950", "gfx1200", "gfx12-generic"} <= {p.name for p in missing}
    src = tmp_path / "k.cl"
    src.write_text("__kernel void k(__global int *o) { *o = 1; }\n")
    for p in missing:
        out = tmp_path / f"{p.name}.o"
        subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-no-stdinc", "-target", "amdgcn-amd-amdhsa",
                        f"-mcpu={p.name}", "-nogpulib", "-mcode-object-version=6", "-c", str(src), "-o", str(out)],
                       check=True, capture_output=True)
        flags = E.ElfFile.parse(out.read_bytes()).e_flags
        assert encode_eflags(TargetID.parse(p.name), 6) == flags, p.name
        assert decode_eflags(flags, 6).processor == p


def test_elf_tables_match_spec_text():
    """OS/ABI and ABI-version values, address spaces, V2 note types, relocation types and sync
    scopes of tables.py, read against spec 001's text."""
    text = spec_text("001")
    for name, value in re.findall(r"^``(ELFOSABI_\w+)`` (\d+)$", text, re.M):
        assert T.OSABI[name] == int(value)
    hsa = dict(re.findall(r"^``ELFABIVERSION_AMDGPU_HSA_V(\d)`` (\d)$", text, re.M))
    assert len(hsa) == 4 and all(T.HSA_ABI_VERSION[int(v)] == int(a) for v, a in hsa.items())
    spaces = re.findall(r"^(Generic|Global|Region|Local|Constant|Private|Constant 32-bit|Buffer Fat Pointer) "
                        r"(?:\(experimental\) )?(\d) ", text, re.M)
    assert len(spaces) == 8
    for name, number in spaces:
        assert T.ADDRESS_SPACES[name.lower().replace(" 32-bit", "_32bit").replace(" ", "_")] == int(number)
    notes = dict(re.findall(r"^``(NT_AMD_HSA_\w+)`` (\d+)$", text, re.M))
    assert len(notes) >= 5 and all(T.NT_AMD_HSA[n] == int(v) for n, v in notes.items())
    relocs = re.findall(r"^``(R_AMDGPU_\w+)`` (?:Static, |Dynamic |Static |Static,\s)?(?:\w+, )?(\d+) ", text, re.M)
    assert len(relocs) == 14 and all(T.RELOCATIONS[n] == int(v) for n, v in relocs)
    scopes = set(re.findall(r"^``(agent|workgroup|wavefront|singlethread)`` ", text, re.M))
    assert scopes == set(T.SYNC_SCOPES) - {""}
