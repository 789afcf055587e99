"""KernelSignature of clang 22's SPIR-V against that of the same OpenCL C source (kernelkit's clang
frontend with -cl-kernel-arg-info): equal in everything SPIR-V carries.

What SPIR-V from LLVM's SPIR-V backend does not carry, so left out of the comparison: integer
signedness (``uint`` reads as ``int``), typedef names of structs (``Params`` reads as ``struct
Params``), ``volatile`` on pointees. Pointers the backend typed as ``i8`` (horner's ``coef``,
nested_loops' ``m``, blur5's ``out``) get their pointee from the accesses and are compared too.
"""

from __future__ import annotations

import re

import pytest
import yaml
from spirv_corpus import CORPUS, clang_spirv

from kernelkit.abi.signature import signatures_from_ir, signatures_from_source
from kernelkit.frontend.spirv import translate

FILES = ("scalar_types.cl", "vector_types.cl", "struct_args.cl", "address_spaces.cl", "control_flow.cl",
         "reductions.cl", "atomics.cl", "conversions.cl", "math.cl", "attributes.cl", "constant_data.cl",
         "generic_cl30.cl", "qualifiers.cl", "workgroup_cl20.cl", "images.cl", "images_cl20.cl")
LAYOUT = ("name", "address_space", "access_qualifier", "kind", "size", "align", "vector_width")


def _signed(name: str | None) -> str | None:
    if name is None:
        return None
    name = re.sub(r"\b_Atomic\((\w+)\)", r"\1", name).replace("atomic_", "")
    return re.sub(r"\bu(char|short|int|long)", r"\1", name)


def _cl_std(file: str) -> str:
    return yaml.safe_load((CORPUS / "manifest.yaml").read_text())["files"][file].get("cl_std", "CL1.2")


@pytest.mark.parametrize("file", FILES)
def test_signature_matches_the_opencl_c_frontend(file):
    std = _cl_std(file)
    got = {s.name: s.to_json() for s in signatures_from_ir(translate(clang_spirv(file, std, names=True)))}
    want = {s.name: s.to_json() for s in signatures_from_source(str(CORPUS / file), [f"-cl-std={std}"])}
    assert list(got) == list(want)
    for kernel, sig in want.items():
        for key in ("reqd_work_group_size", "work_group_size_hint", "intel_reqd_sub_group_size"):
            assert got[kernel][key] == sig[key], (kernel, key)
        assert _signed(got[kernel]["vec_type_hint"]) == _signed(sig["vec_type_hint"])
        for ours, theirs in zip(got[kernel]["args"], sig["args"], strict=True):
            where = (kernel, theirs["name"])
            assert {k: ours.get(k) for k in LAYOUT} == {k: theirs.get(k) for k in LAYOUT}, where
            strip = re.compile(r"\b(struct|union) ")
            assert _signed(strip.sub("", ours["type_name"])) == _signed(strip.sub("", theirs["type_name"])), where
            assert (ours.get("pointee_size"), ours.get("pointee_align")) == \
                (theirs.get("pointee_size"), theirs.get("pointee_align")), where
            quals = [q for q in theirs["type_qualifiers"] if q != "volatile"]
            if "volatile" not in theirs["type_qualifiers"]:
                assert ours["type_qualifiers"] == quals, where
