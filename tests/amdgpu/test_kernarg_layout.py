"""Kernarg layout (`kernelkit layout`) against clang compiling the same corpus sources to amdgcn,
and kernarg bytes of a dispatch built from any code object's metadata."""

from __future__ import annotations

import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import REFERENCE, own_source

from amdgpu.clang_oracle import CORPUS, clang_code_object, corpus_files
from kernelkit.abi import hsa
from kernelkit.errors import LaunchError
from kernelkit.formats.amdgpu.codeobject import CodeObject, arg_info
from kernelkit.formats.amdgpu.metadata import validate

FILES = sorted(corpus_files().items())
EXPLICIT_KEYS = ("name", "type_name", "offset", "size", "value_kind", "address_space", "access",
                 "is_const", "is_restrict", "is_volatile", "pointee_align", "is_pipe")


@pytest.mark.parametrize("version", [4, 5])
@pytest.mark.parametrize("name,entry", FILES, ids=[f for f, _ in FILES])
def test_source_layout_matches_clang(name, entry, version):
    path = str(CORPUS / name)
    std = entry.get("cl_std", "CL1.2")
    clang = clang_code_object(path, "gfx90a", version, std)
    for k in entry["kernels"]:
        ours = hsa.layout_for(path, "gfx90a", k["name"], {"code_object_version": version,
                                                           "build_options": [f"-cl-std={std}"]})
        ref = clang.metadata.kernel(k["name"])
        ref_args = [arg_info(a) for a in ref.args]
        explicit = [a for a in ours["args"] if not a["value_kind"].startswith("hidden_")]
        assert len(explicit) == len([a for a in ref_args if not a["value_kind"].startswith("hidden_")])
        for mine, theirs in zip(explicit, ref_args, strict=False):
            assert {k2: mine.get(k2) for k2 in EXPLICIT_KEYS} == {k2: theirs.get(k2) for k2 in EXPLICIT_KEYS}
        assert ours["kernarg_segment_size"] == ref.kernarg_segment_size
        assert ours["kernarg_segment_align"] == ref.kernarg_segment_align
        # at -O0 no hidden argument is proven unused: the same hidden arguments at the same offsets
        assert [(a["offset"], a["value_kind"]) for a in ours["args"] if a["value_kind"].startswith("hidden_")] == \
            [(a["offset"], a["value_kind"]) for a in ref_args if a["value_kind"].startswith("hidden_")]


def test_layout_cli_on_binaries(tmp_path):
    ref = REFERENCE / "amdgpu" / "clang19" / "hello_printf.gfx803.v5.hsaco"
    out = subprocess.run([sys.executable, "-m", "kernelkit", "layout", str(ref), "-t", "gfx803", "-k",
                          "hello_printf", "--json"], capture_output=True, text=True, check=True).stdout
    import json
    layout = json.loads(out)
    assert layout["kernarg_segment_size"] == 272 and layout["code_object_version"] == 5
    assert [a["value_kind"] for a in layout["args"]][-3:] == ["hidden_printf_buffer", "hidden_private_base",
                                                            "hidden_shared_base"]
    bundle = REFERENCE / "amdgpu" / "bundle" / "saxpy.hipv4.compressed.hipfb"
    assert hsa.layout_for(str(bundle), "gfx1100", "saxpy", {})["kernarg_segment_size"] == 288
    assert hsa.handles("gfx90a:xnack-") and hsa.handles("amdgcn-amd-amdhsa--gfx1030")
    assert not hsa.handles("amdil:juniper") and not hsa.handles("host") and not hsa.handles("juniper")
    src = tmp_path / "k.cl"
    src.write_text("kernel void saxpy(global float *y) { y[get_global_id(0)] *= 2.0f; }")
    for args, message in ((["-t", "gfx90a:xnack", "-k", "saxpy"], "must end in '+' or '-'"),
                          (["-t", "gfx90a", "-k", "saxpy", "--code-object-version", "7"], "must be one of 2, 3, 4, 5, 6"),
                          (["-t", "gfx90a", "-k", "nope"], "no kernel 'nope'")):
        bad = subprocess.run([sys.executable, "-m", "kernelkit", "layout", str(src), *args], capture_output=True,
                             text=True)
        assert bad.returncode == 1 and message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_layout_cli_on_the_source_of_clang19s_saxpy(tmp_path):
    src = own_source("amdgpu", "saxpy.cl")   # ours, with the parameters clang19's saxpy records
    text = subprocess.run([sys.executable, "-m", "kernelkit", "layout", str(src),
                           "-t", "gfx90a:xnack-", "-k", "saxpy", "--code-object-version", "4"],
                          capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    assert "kernarg segment: 88 bytes" in text.stdout     # clang19/saxpy.gfx90a.v4: 88


def _kernel(path, name):
    return CodeObject.parse((REFERENCE / "amdgpu" / path).read_bytes()).metadata.kernel(name)


def test_pack_kernargs_v5_and_v2():
    k = _kernel("clang19/saxpy.gfx90a.v5.hsaco", "saxpy")
    d = hsa.Dispatch(global_size=(1000,), local_size=(64,), global_offset=(5,))
    raw = hsa.pack_kernargs(k, [2.5, 0x1000, 0x2000, 1000], d)
    assert len(raw) == 288
    assert struct.unpack_from("<f", raw, 0)[0] == 2.5
    assert struct.unpack_from("<QQi", raw, 8) == (0x1000, 0x2000, 1000)
    # V5 hidden block at 32: block counts, group sizes, remainders, global offsets, grid dims
    assert struct.unpack_from("<III", raw, 32) == (15, 1, 1)      # full groups: 1000 // 64
    assert struct.unpack_from("<HHH", raw, 44) == (64, 1, 1)
    assert struct.unpack_from("<HHH", raw, 50) == (1000 % 64, 0, 0)
    assert struct.unpack_from("<QQQ", raw, 72) == (5, 0, 0)
    assert struct.unpack_from("<H", raw, 96)[0] == 1
    assert validate(CodeObject.parse((REFERENCE / "amdgpu/clang19/saxpy.gfx90a.v5.hsaco").read_bytes()).metadata, 5) == []

    k2 = _kernel("clang14/hello_printf.gfx803.v2.hsaco", "hello_printf")
    raw2 = hsa.pack_kernargs(k2, [0xABC0, np.float32(1.5)], hsa.Dispatch((8, 8), (4, 2), (1, 2),
                                                                          printf_buffer=0x7000))
    assert len(raw2) == 72
    assert struct.unpack_from("<QfI", raw2, 0) == (0xABC0, 1.5, 0)
    assert struct.unpack_from("<QQQQ", raw2, 16) == (1, 2, 0, 0x7000)   # offsets, printf buffer
    with pytest.raises(LaunchError):
        hsa.pack_kernargs(k2, [1], hsa.Dispatch((8,), (4,)))
    with pytest.raises(LaunchError):
        hsa.pack_kernargs(k2, [1, 2.0], hsa.Dispatch((8, 8), (4,)))
    with pytest.raises(LaunchError):
        hsa.pack_kernargs(k2, ["x", 2.0], hsa.Dispatch((8,), (4,)))


def test_pack_kernargs_structs_vectors_local(tmp_path):
    co = clang_code_object(str(CORPUS / "struct_args.cl"), "gfx1030", 5, "CL2.0")
    name = co.metadata.kernels[0].name
    k = co.metadata.kernel(name)
    values = []
    for a in k.args:
        if a.is_hidden:
            continue
        if a.value_kind == "by_value":
            values.append(bytes(range(a.size)))
        elif a.value_kind == "dynamic_shared_pointer":
            values.append(hsa.LocalBuffer(256))
        else:
            values.append(0x10000 + a.offset)
    raw = hsa.pack_kernargs(k, values, hsa.Dispatch((128,), (32,)))
    for a, v in zip([a for a in k.args if not a.is_hidden], values, strict=True):
        if a.value_kind == "by_value":
            assert raw[a.offset:a.offset + a.size] == v
    vec = hsa._by_value_bytes(hsa.ArgMeta(size=16, value_kind="by_value", type_name="float3"), [1.0, 2.0, 3.0])
    assert np.frombuffer(vec, np.float32).tolist() == [1.0, 2.0, 3.0, 0.0]


@pytest.mark.parametrize("name,version", [("printf.cl", 4), ("reductions.cl", 5), ("workgroup_cl20.cl", 5),
                                          ("printf.cl", 2), ("images.cl", 3), ("pipes_cl20.cl", 2)])
def test_source_layout_is_what_build_produces(name, version):
    """`kernelkit layout SRC` describes, hidden arguments included, the code object `kernelkit build` writes."""
    from kernelkit.mux.registry import build_binary

    std = corpus_files()[name].get("cl_std", "CL1.2")
    path = CORPUS / name
    co = CodeObject.parse(build_binary(path.read_text(), "gfx803", [f"-cl-std={std}",
                                                                    f"-mcode-object-version={version}"],
                                       filename=str(path)))
    source_kernels = [k["name"] for k in corpus_files()[name]["kernels"]]   # not enqueue's block kernels
    for k in (co.metadata.kernel(n) for n in source_kernels):
        lay = hsa.layout_for(str(path), "gfx803", k.name, {"code_object_version": version,
                                                            "build_options": [f"-cl-std={std}"]})
        assert [(a["offset"], a["size"], a["value_kind"], a.get("address_space")) for a in lay["args"]] == \
            [(a.offset, a.size, a.value_kind, a.address_space) for a in k.args]
        assert lay["kernarg_segment_size"] == k.kernarg_segment_size


def test_kernarg_segment_of_our_build_and_of_a_bundle():
    from kernelkit.mux.registry import build_binary

    # the kernel calls a builtin: as clang's, it keeps its hidden arguments (test_kernel_prologue)
    src = "__kernel void k(__global float *o, __local float4 *tmp, float4 v, char c) { o[get_global_id(0)] = v.x + c; }"
    binary = build_binary(src, "gfx1030", ["-mcode-object-version=5"])
    raw = hsa.kernarg_segment(binary, "k", [0x1000, hsa.LocalBuffer(64), [1.0, 2.0, 3.0, 4.0], 7],
                              hsa.Dispatch((256, 4), (64, 2)))
    meta = CodeObject.parse(binary).metadata.kernel("k")
    args = {a.value_kind: a for a in meta.args}
    assert len(raw) == meta.kernarg_segment_size
    assert struct.unpack_from("<Q", raw, 0)[0] == 0x1000
    assert struct.unpack_from("<I", raw, 8)[0] == 0                       # first dynamic LDS block
    assert np.frombuffer(raw[16:32], np.float32).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert raw[32] == 7
    assert struct.unpack_from("<I", raw, args["hidden_dynamic_lds_size"].offset)[0] == 64
    assert struct.unpack_from("<H", raw, args["hidden_grid_dims"].offset)[0] == 2
    assert struct.unpack_from("<II", raw, args["hidden_block_count_x"].offset) == (4, 2)
    bundle = (REFERENCE / "amdgpu" / "bundle" / "saxpy.hipv4.uncompressed.hipfb").read_bytes()
    raw = hsa.kernarg_segment(bundle, "saxpy", [1.0, 1, 2, 3], hsa.Dispatch((64,), (64,)), target="gfx1100")
    assert len(raw) == 288
