"""`kernelkit inspect` on every reference code object, bundle and a host object: the values the
llvm-readelf dumps show (header, notes, the metadata they print)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from conftest import REFERENCE

from amdgpu.readelf_dump import dump_pairs, parse_dump
from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu import inspect as I
from kernelkit.formats.amdgpu.bundle import OffloadBundle, compress
from kernelkit.formats.amdgpu.hostobj import host_object

PAIRS = dump_pairs(REFERENCE)
V2_KEYS = {"Name": "name", "TypeName": "type_name", "Size": "size", "ValueKind": None,
           "AddrSpaceQual": "address_space", "IsConst": "is_const"}


def _dump_metadata(note_text: str):
    lines = note_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "---")
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "...")
    return yaml.safe_load("\n".join([lines[start].strip()] + lines[start + 1:end + 1]))


@pytest.mark.parametrize("dump,binary", PAIRS, ids=[f"{b.parent.name}/{b.name}" for _, b in PAIRS])
def test_inspect_matches_readelf(dump, binary):
    data = binary.read_bytes()
    assert I.detect(data, str(binary))
    info = I.inspect(data, str(binary))
    json.dumps(info)
    ref = parse_dump(dump.read_text())
    assert info["format"] == "amdgpu-code-object"
    assert info["e_flags"] == int(ref.header["Flags"].split(",")[0], 16)
    assert info["e_type"] == "ET_" + ref.header["Type"].split()[0]
    assert info["abi_version"] == int(ref.header["ABI Version"])
    doc = _dump_metadata(ref.note_text)
    if "Kernels" in doc:   # V2: YAML as printed
        assert info["code_object_version"] == 2
        kernels = doc["Kernels"]
        for k, kinfo in zip(kernels, info["kernels"], strict=True):
            assert kinfo["name"] == k["Name"]
            cp = k["CodeProps"]
            assert (kinfo["kernarg_segment_size"], kinfo["sgpr_count"], kinfo["vgpr_count"],
                    kinfo["wavefront_size"]) == (cp["KernargSegmentSize"], cp["NumSGPRs"], cp["NumVGPRs"],
                                                 cp["WavefrontSize"])
            offset = 0
            for a, ainfo in zip(k["Args"], kinfo["args"], strict=True):
                offset = -(-offset // a["Align"]) * a["Align"]     # spec 001: V2 offsets from Align
                assert ainfo["offset"] == offset and ainfo["size"] == a["Size"]
                assert ainfo["type_name"] == a.get("TypeName")
                offset += a["Size"]
            assert kinfo["amd_kernel_code_t"]["kernarg_segment_byte_size"] == cp["KernargSegmentSize"]
        return
    if "amdhsa.target" in doc:
        assert info["target"] == doc["amdhsa.target"]
    for k, kinfo in zip(doc["amdhsa.kernels"], info["kernels"], strict=True):
        for key in ("name", "symbol", "kernarg_segment_size", "kernarg_segment_align", "group_segment_fixed_size",
                    "private_segment_fixed_size", "wavefront_size", "sgpr_count", "vgpr_count"):
            assert kinfo[key] == k["." + key], key
        for a, ainfo in zip(k[".args"], kinfo["args"], strict=True):
            for key in ("offset", "size", "value_kind", "address_space", "type_name", "access", "is_const"):
                assert ainfo.get(key) == a.get("." + key), key
        desc = kinfo["descriptor"]
        assert desc["kernarg_size"] == k[".kernarg_segment_size"]
        assert desc["kernel_code_properties"]["ENABLE_WAVEFRONT_SIZE32"] == int(k[".wavefront_size"] == 32)


def test_bundles_and_host_object(tmp_path):
    amd = REFERENCE / "amdgpu" / "bundle"
    plain = (amd / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    packed = (amd / "saxpy.hipv4.compressed.hipfb").read_bytes()
    for data in (plain, packed):
        assert I.detect(data, "x")
        info = I.inspect(data, "x")
        assert info["format"] == "offload-bundle"
        ids = [e["id"] for e in info["entries"]]
        assert ids == ["host-x86_64-unknown-linux-gnu-", "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
                       "hipv4-amdgcn-amd-amdhsa--gfx1100"]
        objs = [e["object"] for e in info["entries"]]
        assert objs[0] is None
        assert objs[1]["target"] == "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
        assert objs[2]["kernels"][0]["name"] == "saxpy"
    assert I.inspect(packed, "x")["compression"]["method"] == "zstd"
    host = host_object([plain, compress(plain, method="zlib", version=3)])
    info = I.inspect(host, "h.o")
    assert info["format"] == "host-object"
    assert [b["offset"] for b in info["fatbin"]["bundles"]] == [0, 12288]
    assert info["fatbin"]["bundles"][1]["compression"]["version"] == 3
    assert "offload bundle" in I.render(info)
    path = tmp_path / "h.o"
    path.write_bytes(host)
    out = subprocess.run([sys.executable, "-m", "kernelkit", "inspect", "--json", str(path)],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["fatbin"]["bundles"][0]["entries"][2]["target_id"] == "gfx1100"
    text = subprocess.run([sys.executable, "-m", "kernelkit", "inspect",
                           str(REFERENCE / "amdgpu" / "clang14" / "saxpy.gfx803.v2.hsaco")],
                          capture_output=True, text=True, check=True).stdout
    assert "kernel saxpy" in text and "amd_kernel_code_t" in text


def test_corrupt_bundles_and_objects_raise_format_error():
    amd = REFERENCE / "amdgpu"
    packed = (amd / "bundle" / "saxpy.hipv4.compressed.hipfb").read_bytes()
    bad = bytearray(packed)
    bad[20] ^= 1                                   # stored hash
    with pytest.raises(FormatError) as exc:
        OffloadBundle.parse(bytes(bad))
    assert exc.value.field == "hash"
    for cut in (3, 10, 30, len(packed) // 2):
        with pytest.raises(FormatError):
            OffloadBundle.parse(packed[:cut])
    plain = (amd / "bundle" / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    for cut in (20, 30, 60, 200, 400):
        with pytest.raises(FormatError):
            OffloadBundle.parse(plain[:cut])
    code = (amd / "zig" / "saxpy.gfx90a.v5.hsaco").read_bytes()
    for pos in range(0, len(code), 53):
        corrupt = bytearray(code)
        corrupt[pos] ^= 0x5A
        try:
            I.inspect(bytes(corrupt), "x")
        except FormatError:
            pass
    for cut in range(0, len(code), 301):
        try:
            I.inspect(code[:cut], "x")
        except FormatError:
            pass


def test_random_corruption_only_raises_format_error():
    import random
    rng = random.Random(7)
    amd = REFERENCE / "amdgpu"
    for path in (amd / "clang14" / "struct_image.gfx803.v2.hsaco", amd / "clang19" / "saxpy.gfx90a_sramecc+_xnack-.v5.hsaco",
                 amd / "bundle" / "saxpy.hipv4.uncompressed.hipfb"):
        data = path.read_bytes()
        for _ in range(120):
            corrupt = bytearray(data)
            for _ in range(rng.randint(1, 6)):
                corrupt[rng.randrange(len(corrupt))] = rng.randrange(256)
            if rng.random() < 0.2:
                corrupt = corrupt[:rng.randrange(len(corrupt))]
            try:
                if I.detect(bytes(corrupt), str(path)):
                    I.render(I.inspect(bytes(corrupt), str(path)))
            except FormatError:
                pass
