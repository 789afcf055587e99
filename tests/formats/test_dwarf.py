"""DWARF of AMDGPU code objects (`kernelkit inspect --debug`) against llvm-dwarfdump (LLVM 22) on -g builds
for gfx90a (wave64), gfx1030 and gfx1100 (wave32), each at code object V4, V5 and V6 with DWARF 4 and 5,
and clang's own DWARF 4 build: the same line rows, the same DIE tree, the same decoded expressions and
location lists; spec 001's DWARF tables against its text."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import spec_text

from kernelkit.cli import main
from kernelkit.formats.dwarf import tables as T
from kernelkit.formats.dwarf.expr import ExpressionDecoder
from kernelkit.formats.dwarf.reader import read_debug_info

SOURCE = """
float twice(float v) { return 2.0f * v; }
kernel void saxpy(float a, global const float *x, global float *y, local float *tmp, int bias)
{
    size_t i = get_global_id(0);
    float t = a * x[i];
    tmp[get_local_id(0)] = t;
    if (t > 0.0f)
        y[i] = twice(t) + y[i] + bias;
}
"""
# clang itself (the ziglang wheel's clang 22, no device library: work-item ids from builtins),
# optimised, DWARF 4: .debug_loc location lists and .debug_ranges
CLANG_SOURCE = """
float twice(float v) { return 2.0f * v; }
kernel void saxpy(float a, global const float *x, global float *y, local float *tmp, int bias)
{
    int i = __builtin_amdgcn_workitem_id_x() + 64 * __builtin_amdgcn_workgroup_id_x();
    float t = a * x[i];
    tmp[__builtin_amdgcn_workitem_id_x()] = t;
    for (int k = 0; k < bias; ++k)
        t = twice(t) + y[i + k];
    y[i] = t;
}
"""
# every processor of the issue at code object V4, V5 and V6, each with DWARF 4 (-O0: frame-base locations)
# and DWARF 5 (-O2: .debug_loclists, .debug_str_offsets, .debug_addr, inlined subroutines)
MATRIX = [(target, version, dwarf) for target in ("gfx90a:xnack-", "gfx1030", "gfx1100") for version in (4, 5, 6)
          for dwarf in (4, 5)]
WAVE = {"gfx90a:xnack-": 64, "gfx1030": 32, "gfx1100": 32}
BUILDS = [("kernelkit", *m) for m in MATRIX] + [("clang", "gfx1030", 5, 4)]
_BUILT: dict = {}
OPTIMISED: set = set()          # the builds at -O2
DWARF_VERSION: dict = {}        # path -> the DWARF version asked for (-gdwarf-N)


def _kernelkit_builds(folder) -> None:
    """All kernelkit builds of the matrix at once, in parallel workers (one library per processor and version)."""
    from kernelkit.builder import BuildJob, build_many

    jobs = [BuildJob(SOURCE, target, [f"-O{0 if dwarf == 4 else 2}", f"-gdwarf-{dwarf}",
                                      f"-mcode-object-version={version}"], str(folder / "k.cl"))
            for target, version, dwarf in MATRIX]
    for key, outcome in zip(MATRIX, build_many(jobs, workers=2), strict=True):
        if isinstance(outcome, BaseException):
            raise outcome
        path = folder / f"{key[0].replace(':', '_')}-v{key[1]}-dwarf{key[2]}.hsaco"
        path.write_bytes(outcome.binary)
        _BUILT[("kernelkit", *key)] = path
        DWARF_VERSION[path] = key[2]
        if key[2] == 5:
            OPTIMISED.add(path)


@pytest.fixture(scope="module", params=BUILDS, ids=[f"{b}-{t}-v{v}-dwarf{d}" for b, t, v, d in BUILDS])
def build(request, tmp_path_factory):
    builder, target, version, dwarf = request.param
    if builder == "kernelkit":
        if request.param not in _BUILT:
            _kernelkit_builds(tmp_path_factory.mktemp("dwarf"))
        return _BUILT[request.param], WAVE[target]
    folder = tmp_path_factory.mktemp("dwarf")
    src = folder / "k.cl"
    out = folder / "k.hsaco"
    src.write_text(CLANG_SOURCE)
    zig = [sys.executable, "-m", "ziglang"]
    subprocess.run([*zig, "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-target", "amdgcn-amd-amdhsa",
                    f"-mcpu={target}", f"-mcode-object-version={version}", "-nogpulib", "-O2", "-g",
                    f"-gdwarf-{dwarf}", "-c", str(src), "-o", str(folder / "k.o")], check=True, capture_output=True)
    subprocess.run([*zig, "ld.lld", "--no-undefined", "-shared", str(folder / "k.o"), "-o", str(out)],
                   check=True, capture_output=True)
    OPTIMISED.add(out)
    DWARF_VERSION[out] = dwarf
    return out, WAVE[target]


# the newest llvm-dwarfdump Debian has (package llvm-22): Debian's default one (LLVM 14) misnames SGPRs
DWARFDUMP = "llvm-dwarfdump-22"


def _dwarfdump(path, *options) -> str:
    from conftest import require_tool

    return subprocess.run([require_tool(DWARFDUMP), *options, str(path)], capture_output=True, text=True,
                          check=True).stdout


def _ours(path, wave):
    return read_debug_info(path.read_bytes(), wave)


def test_line_rows_are_llvm_dwarfdumps(build):
    path, wave = build
    theirs = [(int(m[0], 16), int(m[1]), int(m[2]), "is_stmt" in m[3], "end_sequence" in m[3])
              for m in re.findall(r"^(0x[0-9a-f]{16}) +(\d+) +(\d+) +\d+ +\d+ +\d+ *([^\n]*)$",
                                  _dwarfdump(path, "--debug-line"), re.M)]
    ours = [(r["address"], r["line"], r["column"], r["is_stmt"], r["end_sequence"])
            for unit in _ours(path, wave)["units"] for r in unit["lines"]]
    assert ours == theirs and len(ours) > 10
    headers = re.findall(r"Compile Unit: .*version = 0x(\d+)", _dwarfdump(path, "--debug-info"))
    assert [u["version"] for u in _ours(path, wave)["units"]] == [int(v) for v in headers] == [DWARF_VERSION[path]]


def _walk(die):
    yield die
    for child in die.get("children", []):
        yield from _walk(child)


def _normalise(expression: str, wave: int) -> str:
    """llvm-dwarfdump (22 as 14) prints the wave32 vector registers by number (DWARF 1536 -> "0x600"):
    LLVM maps a register number to one name only, the wave64 one; spec 001's table names them."""
    expression = re.sub(r"(DW_OP_bregx) (0x[0-9a-f]+) ", lambda m: f"{m[1]} {T.register_name(int(m[2], 16), wave)}",
                        expression)
    return re.sub(r"(DW_OP_regx) (0x[0-9a-f]+)", lambda m: f"{m[1]} {T.register_name(int(m[2], 16), wave)}",
                  expression)


def _llvm_dies(text: str) -> dict[int, tuple[str, dict[str, str]]]:
    dies = {}
    for block in text.split("\n\n"):
        head = re.match(r"\s*(0x[0-9a-f]{8}):\s+(DW_TAG_\w+)", block)
        if not head:
            continue
        attrs: dict[str, str] = {}
        current = None
        for line in block.splitlines()[1:]:
            m = re.match(r"\s+(DW_AT_\w+)\t\((.*)$", line)
            if m:
                current = m[1]
                attrs[current] = m[2]
            elif current:
                attrs[current] += "\n" + line.strip()
        dies[int(head[1], 16)] = (head[2], {k: v.removesuffix(")") for k, v in attrs.items()})
    return dies


def test_die_tree_and_expressions_are_llvm_dwarfdumps(build):
    path, wave = build
    theirs = _llvm_dies(_dwarfdump(path, "--debug-info"))
    ours = {d["offset"]: d for unit in _ours(path, wave)["units"] for d in _walk(unit["die"])}
    assert sorted(ours) == sorted(theirs)
    expressions = lists = 0
    for offset, (tag, attrs) in theirs.items():
        die = ours[offset]
        assert die["tag"] == tag and list(die["attributes"]) == list(attrs), offset
        for name, value in die["attributes"].items():
            if isinstance(value, dict) and "expression" in value:
                assert ", ".join(value["expression"]) == _normalise(attrs[name], wave), (offset, name)
                expressions += 1
            elif isinstance(value, dict) and "location_list" in value:
                entries = re.findall(r"\[(0x[0-9a-f]+), (0x[0-9a-f]+)\): (.*)", attrs[name])
                assert [(e["low_pc"], e["high_pc"], ", ".join(e["expression"])) for e in value["location_list"]] == \
                    [(int(lo, 16), int(hi, 16), _normalise(expr, wave)) for lo, hi, expr in entries], (offset, name)
                lists += 1
            elif isinstance(value, str):
                assert attrs[name] == f'"{value}"', (offset, name)
            elif isinstance(value, dict) and "address_space" in value:
                assert int(attrs[name], 16) == value["value"] and value["address_space"] in ("global", "local")
    if path in OPTIMISED:       # -O2: the frame base, and variables in registers over pc ranges (location lists);
        assert expressions >= 1 and lists >= 1      # no frame-pointer expression above -O0, as clang's builds
    else:                       # -O0: every parameter and variable at a frame-base offset
        assert expressions + lists >= 6
    subprograms = [d for d in ours.values() if d["tag"] == "DW_TAG_subprogram"]
    assert {s["attributes"].get("DW_AT_name") for s in subprograms} >= {"saxpy", "twice"}


def test_inspect_debug_lists_kernels_functions_and_frames(build, capsys):
    path, wave = build
    assert main(["inspect", "--debug", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["wave_size"] == wave
    entry = next(f for f in doc["functions"] if f["kernel"] == "saxpy")
    symbols = _dwarfdump(path, "--debug-frame")        # every FDE llvm-dwarfdump lists, at the same pcs
    fdes = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.\.([0-9a-f]+)", symbols)]
    ours = [(f["initial_location"], f["initial_location"] + f["address_range"]) for f in doc["frames"]
            if f["kind"] == "FDE"]
    assert ours == fdes and (entry["low_pc"], entry["high_pc"]) in fdes
    cie = next(f for f in doc["frames"] if f["kind"] == "CIE")
    # spec 001 "Call Frame Information": factors 4, return address PC_64 in a 64-bit process
    assert (cie["code_alignment_factor"], cie["data_alignment_factor"]) == (T.CODE_ALIGNMENT_FACTOR,
                                                                             T.DATA_ALIGNMENT_FACTOR)
    assert cie["return_address_register"] == "PC_64"
    assert {v["name"] for v in entry["variables"]} >= {"a", "x", "y", "tmp", "bias"}
    twice = next(f for f in doc["functions"] if f["name"] == "twice")
    assert [v["name"] for v in twice["variables"]] == ["v"] and twice["kernel"] is None
    assert main(["inspect", "--debug", str(path)]) == 0
    listing = capsys.readouterr().out
    assert "kernel saxpy entry" in listing and f"frame base {', '.join(twice['frame_base']['expression'])}" in listing
    for table in doc["loclists"]:
        for e in table["entries"]:
            assert f"{e['offset']:#010x}  {e['kind']} ({', '.join(f'{v:#x}' for v in e['operands'])})" in listing


def test_llvm_user_operations_decode_as_llvm_prints_them():
    """Encodings and spellings from LLVM's own tests (MC/AMDGPU CFI and heterogeneous DWARF):
    DW_OP_LLVM_user (0xe9) then the sub-operation as ULEB128."""
    from elftools.dwarf.structs import DWARFStructs

    decoder = ExpressionDecoder(DWARFStructs(little_endian=True, dwarf_format=32, address_size=8), 64)
    cases = {
        bytes([0x30, 0x36, 0xE9, 0x02]): "DW_OP_lit0, DW_OP_lit6, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address",
        bytes([0x90, 0x40, 0x94, 0x04, 0x36, 0x24, 0x36, 0xE9, 0x02]):
            "DW_OP_regx SGPR32, DW_OP_deref_size 0x4, DW_OP_lit6, DW_OP_shl, DW_OP_lit6, "
            "DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address",
        bytes([0x90, 0x80, 0x14, 0xE9, 0x03, 0x34, 0x1E, 0xE9, 0x04, 0x93, 0x04, 0xE9, 0x0A]):
            "DW_OP_regx VGPR0, DW_OP_LLVM_user DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, "
            "DW_OP_LLVM_user DW_OP_LLVM_offset, DW_OP_piece 0x4, DW_OP_LLVM_user DW_OP_LLVM_piece_end",
    }
    for raw, expected in cases.items():
        assert ", ".join(op.text() for op in decoder.decode(raw)) == expected
    extend = decoder.decode(bytes([0xE9, 0x0B, 0x40, 0x40, 0xE9, 0x0C, 0x40, 0x40]))   # spec 001 lane_pc example
    assert [(op.name, op.operands) for op in extend] == [("DW_OP_LLVM_extend", (64, 64)),
                                                         ("DW_OP_LLVM_select_bit_piece", (64, 64))]


def test_register_and_space_tables_are_spec_001s():
    text = spec_text("001")
    table = text[text.index("AMDGPU DWARF Register Mapping"):text.index("The vector registers are represented")]
    named = []
    for first, last, register in re.findall(r"^(\d+)(?:-(\d+))? (\S+) \S+ ", table, re.M):
        if register.startswith("*"):
            continue                                      # *Reserved*
        ranged = re.fullmatch(r"([A-Z]+)(\d+)-[A-Z]+\d+", register)
        stem, base = (ranged[1], int(ranged[2])) if ranged else (register, None)
        named.append((int(first), int(last or first), stem, base))
    assert [(f, la, stem, base) for f, la, stem, base, _ in T.REGISTER_RANGES] == named
    # wave32/wave64 variants: the spec's descriptions say which mode each vector range is for
    for first, _last, stem, _base, wave in T.REGISTER_RANGES:
        row = re.search(rf"^{first}(?:-\d+)? {stem}.*?(?=^\d)", table, re.M | re.S).group(0)
        assert (f"wavefront {wave} mode" in " ".join(row.split())) if wave else "wavefront" not in row, stem
    spaces = dict(re.findall(r"``(DW_MSPACE_\w+)`` (0x[0-9a-f]+)", text))
    assert {name: int(v, 16) for name, v in spaces.items()} == {n: v for v, n in T.MEMORY_SPACES.items()}
    aspaces = re.findall(r"``(DW_ASPACE_\w+)`` (0x[0-9a-f]+) (\d+) (\d+)", text)
    assert {int(v, 16): (n, int(b64), int(b32)) for n, v, b64, b32 in aspaces} == T.ADDRESS_SPACES
    for name in re.findall(r"``(DW_OP_LLVM_\w+)``", text):
        assert name in {n for n, _ in T.LLVM_USER_OPS.values()}, name
    for name in set(re.findall(r"``(DW_AT_LLVM_\w+)``", text)) - {"DW_AT_LLVM_active_lane", "DW_AT_LLVM_augmentation"}:
        assert name in T.LLVM_ATTRIBUTES.values(), name
    assert T.CIE_AUGMENTATION in text and T.CU_AUGMENTATION in text


def test_inspect_debug_refuses_what_it_cannot_read(tmp_path, capsys):
    from conftest import REFERENCE

    plain = REFERENCE / "amdgpu" / "clang19" / "saxpy.gfx90a.v5.hsaco"        # built without -g
    assert main(["inspect", "--debug", str(plain)]) == 1
    err = capsys.readouterr().err
    assert "build with -g" in err and err.count("\n") == 1
    il = REFERENCE / "amdil" / "hlc-juniper" / "clear_memory.01.linked.il"
    assert main(["inspect", "--debug", str(il)]) == 1
    assert "AMDGPU code objects only" in capsys.readouterr().err


def test_string_offsets_and_location_list_tables_are_llvm_dwarfdumps(build):
    """.debug_str_offsets and .debug_loclists as stored (DWARF 5 only: DWARF 4 has neither)."""
    path, wave = build
    doc = _ours(path, wave)
    theirs = [(int(at, 16), int(target, 16), text) for at, target, text in
              re.findall(r'^0x([0-9a-f]{8}): ([0-9a-f]{8}) "(.*)"$', _dwarfdump(path, "--debug-str-offsets"), re.M)]
    ours = [(e["offset"], e["string_offset"], e["string"]) for unit in doc["units"] for e in unit.get("str_offsets", [])]
    assert ours == theirs and (len(ours) > 10) == (DWARF_VERSION[path] == 5)
    dump = _dwarfdump(path, "--debug-loclists")
    counts = [int(n, 16) for n in re.findall(r"offset_entry_count = 0x([0-9a-f]+)", dump)]
    offsets = re.findall(r"^offsets: \[\n(.*?)^\]", dump, re.M | re.S)
    entries = [(kind, [int(v, 16) for v in re.findall(r"0x[0-9a-f]+", operands)], _normalise(expr, wave) if expr else None)
               for kind, operands, expr in re.findall(r"^\s+(DW_LLE_\w+)\s+\(([^)]*)\)(?:: (.*))?$", dump, re.M)]
    tables = doc["loclists"]
    assert [t["offset_entry_count"] for t in tables] == counts
    # llvm-dwarfdump prints each offset as stored: relative to the end of the table's 12-byte header
    assert [[o - t["offset"] - 12 for o in t["offsets"]] for t in tables] == \
        [[int(v, 16) for v in block.split()] for block in offsets]
    assert [(e["kind"], e["operands"], ", ".join(e["expression"]) if "expression" in e else None)
            for t in tables for e in t["entries"] if e["kind"] != "DW_LLE_end_of_list"] == entries
    if path in OPTIMISED and DWARF_VERSION[path] == 5:
        assert entries and all(e["entries"][-1]["kind"] == "DW_LLE_end_of_list" for e in tables)
