"""KernelSignature of every corpus kernel against the hand-written manifest (tests/corpus/manifest.yaml).

The manifest states, from reading each .cl file, every argument's type name, address space,
qualifiers, size and alignment and every kernel attribute; the sizes follow the OpenCL C spec
(scalar sizes 6.3.1, 3-vectors as 4-vectors 6.3.5, C struct layout).
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from conftest import CORPUS, corpus_manifest

from kernelkit import FormatError, ir
from kernelkit.abi.signature import KernelArg, KernelSignature, signatures_from_ir, signatures_from_source
from kernelkit.frontend import compile_opencl_file

MANIFEST = corpus_manifest()["files"]
FILES = sorted(MANIFEST)


@cache
def _signatures(name: str, opt: str, pointer_size: int):
    entry = MANIFEST[name]
    sigs = signatures_from_source(str(CORPUS / name), [f"-cl-std={entry['cl_std']}", opt],
                                  pointer_size=pointer_size)
    return {s.name: s for s in sigs}, [s.name for s in sigs]


def _expected_arg(spec: dict, pointer_size: int) -> dict:
    """The manifest's argument with its documented defaults filled in."""
    kind = spec["kind"]
    pointer_sized = kind in ("pointer", "image", "sampler", "queue", "event", "pipe")
    out = {
        "name": spec["name"], "type_name": spec["type"], "base_type": spec.get("base", spec["type"]),
        "address_space": spec.get("space", "private"), "access_qualifier": spec.get("access", "none"),
        "type_qualifiers": tuple(spec.get("quals", ())), "kind": kind,
        "size": pointer_size if pointer_sized else spec["size"],
        "align": pointer_size if pointer_sized else spec["align"],
        "image_dim": spec.get("image_dim"),
    }
    if kind in ("scalar", "vector"):
        out["element"], out["vector_width"] = spec["element"], spec["width"]
    if kind == "pointer":
        out["pointee"] = spec["pointee"]
        out["pointee_size"], out["pointee_align"] = spec["pointee_size"], spec["pointee_align"]
        # the pointee's element and width, spelled in its name ("float4", "_Atomic(int)")
        m = re.fullmatch(r"(?:_Atomic\()?([a-z]+?)(2|3|4|8|16)?\)?", spec["pointee"])
        assert m, spec
        out["element"], out["vector_width"] = m[1], int(m[2] or 1)
    return out


def _actual_arg(arg: KernelArg, expected: dict) -> dict:
    return {key: getattr(arg, key) for key in expected}


@pytest.mark.parametrize("opt", ["-O0", "-O3"])
@pytest.mark.parametrize("name", FILES)
def test_signatures_match_manifest(name, opt):
    by_name, order = _signatures(name, opt, 8)
    kernels = MANIFEST[name]["kernels"]
    assert order == [k["name"] for k in kernels]
    for k in kernels:
        sig = by_name[k["name"]]
        assert len(sig.args) == len(k["args"]), k["name"]
        for index, (arg, spec) in enumerate(zip(sig.args, k["args"], strict=True)):
            expected = _expected_arg(spec, 8)
            assert arg.index == index
            assert _actual_arg(arg, expected) == expected, f"{k['name']} argument {index}"
        for attr in ("reqd_work_group_size", "work_group_size_hint"):
            value = k.get(attr)
            assert getattr(sig, attr) == (tuple(value) if value else None), (k["name"], attr)
        assert sig.vec_type_hint == k.get("vec_type_hint")
        assert sig.intel_reqd_sub_group_size == k.get("intel_reqd_sub_group_size")
        assert sig.static_local_mem == k.get("static_local_mem", 0), k["name"]


@pytest.mark.parametrize("name", ["struct_args.cl", "address_spaces.cl", "images.cl", "vector_types.cl"])
def test_signatures_32bit_spir(name):
    """For spir (32-bit) pointers, images and samplers are 4 bytes; nothing else changes."""
    by_name, _ = _signatures(name, "-O2", 4)
    for k in MANIFEST[name]["kernels"]:
        sig = by_name[k["name"]]
        assert sig.pointer_size == 4
        for arg, spec in zip(sig.args, k["args"], strict=True):
            expected = _expected_arg(spec, 4)
            assert _actual_arg(arg, expected) == expected


def test_corpus_covers_issue_point_4():
    """At least 40 kernels; every scalar and vector type as an argument; each listed feature."""
    kernels = [k for entry in MANIFEST.values() for k in entry["kernels"]]
    assert len(kernels) >= 40
    arg_types = {a["type"] for k in kernels for a in k["args"]}
    scalars = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double"]
    for s in scalars:
        assert s in arg_types
        for n in (2, 3, 4, 8, 16):
            assert f"{s}{n}" in arg_types
    kinds = {a["kind"] for k in kernels for a in k["args"]}
    assert {"struct", "union", "pointer", "image", "sampler", "scalar", "vector"} <= kinds
    spaces = {(a.get("space"), a["kind"]) for k in kernels for a in k["args"]}
    assert {("global", "pointer"), ("constant", "pointer"), ("local", "pointer")} <= spaces
    quals = {q for k in kernels for a in k["args"] for q in a.get("quals", ())}
    assert {"const", "restrict", "volatile"} <= quals
    for attr in ("reqd_work_group_size", "work_group_size_hint", "vec_type_hint", "intel_reqd_sub_group_size"):
        assert any(attr in k for k in kernels), attr
    source = "\n".join(p.read_text() for p in sorted(CORPUS.glob("*.cl")))
    features = [r"\bfor \(", r"\bwhile \(", r"\bswitch \(", r"\bstatic \w+ \w+\(", r"\bbarrier\(",
                r"\batomic_inc\(", r"\batomic_fetch_add_explicit\(", r"\bprintf\(", r"\.wzyx\b",
                r"\bconvert_\w+\(", r"\bas_\w+\(", r"\bsin\(", r"^constant float \w+\[",
                r"\bwork_group_reduce_add\(", r"\bwork_group_scan_inclusive_add\("]
    for pattern in features:
        assert re.search(pattern, source, re.MULTILINE), pattern
    per_file = [len(entry["kernels"]) for entry in MANIFEST.values()]
    assert max(per_file) >= 3


def test_missing_arg_metadata_is_a_format_error():
    text = compile_opencl_file(CORPUS / "qualifiers.cl").ir_text
    stripped = re.sub(r" !kernel_arg_type !\d+", "", text)
    with pytest.raises(FormatError, match="kernel_arg_type"):
        signatures_from_ir(ir.parse(stripped))


def test_to_json_document():
    by_name, _ = _signatures("attributes.cl", "-O0", 8)
    doc = by_name["all_attributes"].to_json()
    assert doc["reqd_work_group_size"] == [8, 8, 1]
    assert doc["vec_type_hint"] == "char16"
    assert doc["args"][0]["type_qualifiers"] == []
    assert {"name", "type_name", "base_type", "address_space", "access_qualifier", "type_qualifiers",
            "size", "align"} <= set(doc["args"][0])


def _damage(node, rng) -> None:
    """Damage a metadata node in place: drop, duplicate, reorder or replace operands."""
    from kernelkit.ir import types as T
    from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
    from kernelkit.ir.values import ConstantInt, poison

    junk = [MDString("bogus"), MDString(""), MDString("struct Nope*"), MDString("image9d_t"),
            MDString("float5"), MDString("restrict const const"), MDString("read_mostly"), None, MDNode([]),
            ValueAsMetadata(ConstantInt(T.i32, 7)), ValueAsMetadata(ConstantInt(T.i32, -1)),
            ValueAsMetadata(ConstantInt(T.i64, 99999999999)), ValueAsMetadata(poison(T.VectorType(T.i8, 2)))]
    ops = node.operands
    choice = rng.randrange(5)
    if choice == 0 and ops:
        ops.pop(rng.randrange(len(ops)))
    elif choice == 1 and ops:
        ops.append(rng.choice(ops))
    elif choice == 2 and ops:
        ops[rng.randrange(len(ops))] = rng.choice(junk)
    elif choice == 3:
        ops.clear()
    else:
        ops.reverse()


@pytest.mark.parametrize("name", ["struct_args.cl", "images.cl", "attributes.cl", "pipes_cl20.cl"])
def test_damaged_metadata_raises_format_error_only(name):
    """Corrupted kernel_arg_*/attribute metadata: signatures_from_ir returns or raises FormatError,
    never IndexError/KeyError/ValueError/TypeError."""
    import random

    text = compile_opencl_file(CORPUS / name, [f"-cl-std={MANIFEST[name]['cl_std']}", "-O3"]).ir_text
    module = ir.parse(text)
    rng = random.Random(name)
    raised = 0
    for _ in range(300):
        kernel = rng.choice([k for k in module.kernels() if k.metadata])
        key = rng.choice(sorted(kernel.metadata))
        node = kernel.metadata[key]
        saved = list(node.operands)
        _damage(node, rng)
        try:
            signatures_from_ir(module)
        except FormatError:
            raised += 1
        finally:
            node.operands[:] = saved
    assert raised > 0
    signatures_from_ir(module)  # restored


@pytest.mark.parametrize("name", ["struct_args.cl", "images.cl", "attributes.cl", "pipes_cl20.cl"])
def test_json_round_trip(name):
    by_name, order = _signatures(name, "-O0", 8)
    for kernel in order:
        sig = by_name[kernel]
        doc = json.loads(json.dumps(sig.to_json()))
        assert KernelSignature.from_json(doc) == sig


@pytest.mark.parametrize("damage", [
    lambda d: d.pop("name"),
    lambda d: d.update(args="x"),
    lambda d: d["args"][0].pop("size"),
    lambda d: d["args"][0].update(size=True),
    lambda d: d["args"][0].update(address_space="heap"),
    lambda d: d["args"][0].update(type_qualifiers=["mutable"]),
    lambda d: d.update(reqd_work_group_size=[1, 2]),
    lambda d: d["args"].append(7),
])
def test_from_json_rejects_bad_documents(damage):
    by_name, _ = _signatures("attributes.cl", "-O0", 8)
    doc = json.loads(json.dumps(by_name["all_attributes"].to_json()))
    damage(doc)
    with pytest.raises(FormatError):
        KernelSignature.from_json(doc)


def test_kernels_enqueueing_several_blocks_have_only_their_source_signatures():
    """clang names the second block's kernel ``__k_block_invoke_2_kernel``; only ``two`` is in the source."""
    from kernelkit.abi.signature import signatures_from_source

    source = """
    kernel void two(global int *a) {
        queue_t q = get_default_queue();
        enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[0] = 1; });
        enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[1] = 2; });
    }
    """
    sigs = signatures_from_source(source, ["-cl-std=CL2.0"])
    assert [s.name for s in sigs] == ["two"]
    assert [(a.name, a.type_name, a.address_space) for a in sigs[0].args] == [("a", "int*", "global")]
