"""One inspect schema: every format's `kernelkit inspect --json` (every reference binary, kernelkit's
own host and AMDGPU binaries) validates against kernelkit/formats/inspect.schema.json, its shared
keys agree with independent readings (llvm-readelf dumps, the AMD IL metadata text), and the text
listings share one layout."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from conftest import REFERENCE, ROOT

from kernelkit.cli import main
from kernelkit.commands.inspect import find_inspector
from kernelkit.formats.kernel_info import ARG_KINDS, RESOURCE_KEYS, SCHEMA, SCHEMA_PATH

SKIP_SUFFIXES = (".txt", ".md", ".dump", ".asm")   # listings, not binaries
FILES = sorted(p for p in REFERENCE.rglob("*") if p.is_file() and not p.name.endswith(SKIP_SUFFIXES))
FORMATS = {"amdgpu-code-object", "offload-bundle", "amdil", "amdcl2", "visa", "kernelkit host binary"}


def _info(path):
    data = path.read_bytes()
    module = find_inspector(data, str(path))
    return module, module.inspect(data, str(path))


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture(scope="module")
def own_binaries(tmp_path_factory):
    """kernelkit's host and AMDGPU builds of the examples."""
    out = tmp_path_factory.mktemp("builds")
    paths = []
    for src in sorted((ROOT / "examples").glob("*.cl")):
        for target, suffix in (("host", "host"), ("gfx90a:xnack-", "hsaco")):
            path = out / f"{src.stem}.{suffix}"
            assert main(["build", str(src), "-t", target, "-o", str(path)]) == 0
            paths.append(path)
    return paths


def test_every_reference_file_and_own_binary_validates(validator, own_binaries, capsys):
    seen = set()
    for path in FILES + own_binaries:
        _, info = _info(path)
        errors = sorted(validator.iter_errors(json.loads(json.dumps(info))), key=lambda e: list(e.path))
        assert not errors, f"{path}: {errors[0].message} at {list(errors[0].path)}"
        assert info["kernels"] or info["format"] in ("offload-bundle", "amdcl2"), path  # nokernels.clo
        seen.add(info["format"])
    assert seen == FORMATS
    # the CLI prints the same document
    assert main(["inspect", "--json", str(own_binaries[0])]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(_info(own_binaries[0])[1]))


def test_schema_file_is_the_one_the_code_reads():
    doc = json.loads(SCHEMA_PATH.read_text())
    assert tuple(doc["$defs"]["arg"]["properties"]["kind"]["enum"]) == ARG_KINDS
    assert tuple(doc["$defs"]["resources"]["required"]) == RESOURCE_KEYS


def test_amdgpu_shared_keys_agree_with_llvm_readelf():
    """code_size is the kernel symbol's st_size in llvm-readelf's symbol table (V2: the symbol also
    covers the 256-byte amd_kernel_code_t); kernarg_size and offsets are the notes' own."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "amdgpu"))
    from readelf_dump import dump_pairs, parse_dump

    checked = 0
    for dump, binary in dump_pairs(REFERENCE):
        if binary.suffix != ".hsaco":
            continue
        _, info = _info(binary)
        symbols = {s[7]: s for table in parse_dump(dump.read_text()).symbols.values() for s in table}
        for k in info["kernels"]:
            sym = symbols[k["name"]]
            expected = sym[2] - 256 if info["code_object_version"] == 2 else sym[2]
            assert k["resources"]["code_size"] == expected, (binary, k["name"])
            assert k["resources"]["kernarg_size"] == k["kernarg_segment_size"]
            assert all(a["kind"] == ("hidden" if a["value_kind"].startswith("hidden_") else a["kind"])
                       for a in k["args"])
            checked += 1
    assert checked > 100


# spec 000 metadata lines: the field holding the cb offset (";value:name:type:count:cb:offset", ...)
OFFSET_FIELD = {"value": 5, "pointer": 5, "image": 6, "counter": 5, "sema": 4}


def test_amdil_offsets_and_sizes_are_the_metadata_texts():
    """Every argument's offset is its metadata line's offset field; sizes fill cb1 without gaps
    or overlaps up to kernarg_size."""
    for path in sorted((REFERENCE / "amdil").rglob("*.il")) + sorted((REFERENCE / "amdil").rglob("*.clo")):
        text = path.read_bytes().decode("latin-1")
        _, info = _info(path)
        for k in info["kernels"]:
            block = text[text.index(f";ARGSTART:{k['symbol']}"):text.index(f";ARGEND:{k['symbol']}")]
            lines = {f[1]: f for f in (line.split(":") for line in block.splitlines())
                     if f[0].lstrip(";") in OFFSET_FIELD}
            for a in k["args"]:
                fields = lines[a["name"]]
                assert int(fields[OFFSET_FIELD[fields[0].lstrip(";")]]) == a["offset"], (path, a["name"])
            ends = [a["offset"] + a["size"] for a in k["args"]]
            assert [a["offset"] for a in k["args"]][1:] == ends[:-1], (path, k["name"])
            assert k["resources"]["kernarg_size"] == (ends[-1] if ends else 0)


def test_text_listings_share_one_layout(own_binaries, capsys):
    """Every format lists each kernel as ``kernel NAME``, ``resources: ...`` and one
    ``[offset] size kind type name`` line per argument, in the JSON's order and values."""
    picks = [REFERENCE / "amdgpu" / "clang19" / "saxpy.gfx90a.v5.hsaco",
             REFERENCE / "amdgpu" / "clang14" / "saxpy.gfx803.v2.hsaco",
             REFERENCE / "amdil" / "hlc-juniper" / "copyImage2D.01.unlinked.il",
             REFERENCE / "amdil" / "catalyst-clo" / "alltypes.clo",
             REFERENCE / "amdcl2" / "samplers4.clo.regen",
             REFERENCE / "visa" / "tgllp_saxpy" / "saxpy.isa", *own_binaries[:2]]
    arg_line = re.compile(r"^\s+\[\s*(-|\d+)\]\s+(-|\d+) (\w+)\s")
    for path in picks:
        module, info = _info(path)
        listing = module.render(info).splitlines()
        rows = [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in map(arg_line.match, listing) if m]
        assert rows == [(a["offset"], a["size"], a["kind"]) for k in info["kernels"] for a in k["args"]], path
        names = [m.group(1) for m in (re.match(r"^\s*kernel (\S+)$", line) for line in listing) if m]
        assert names == [k["name"] for k in info["kernels"]], path
        assert sum("resources: " in line for line in listing) == len(info["kernels"])
