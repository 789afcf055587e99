"""KernelSignature of clang 22's SPIR-V against that of the same OpenCL C source (kernelkit's clang
frontend with -cl-kernel-arg-info): equal in everything SPIR-V carries.

What SPIR-V from LLVM's SPIR-V backend does not carry, so left out of the comparison: integer
signedness (``uint`` reads as ``int``), typedef names of structs (``Params`` reads as ``struct
Params``), ``volatile`` on pointees; from the Khronos translator (clang 15 -O0, the second producer) also
``const`` on pointees. Pointers the backend typed as ``i8`` (horner's ``coef``,
nested_loops' ``m``, blur5's ``out``) get their pointee from the accesses and are compared too.
"""

from __future__ import annotations

import functools
import re

import pytest
from conftest import corpus_manifest
from spirv_corpus import CORPUS, clang_spirv, translator_spirv

from kernelkit.abi.signature import signatures_from_ir, signatures_from_source
from kernelkit.frontend.spirv import translate

FILES = ("scalar_types.cl", "vector_types.cl", "struct_args.cl", "address_spaces.cl", "control_flow.cl",
         "reductions.cl", "atomics.cl", "conversions.cl", "math.cl", "attributes.cl", "constant_data.cl",
         "generic_cl30.cl", "qualifiers.cl", "workgroup_cl20.cl", "images.cl", "images_cl20.cl")
# the Khronos translator (second producer): every file it writes valid SPIR-V for (images.cl: it aborts, see
# test_spirv_translator_runs; pipes_cl20.cl: compared in test_spirv_pipes, with its binaries)
TRANSLATOR_FILES = (*(f for f in FILES if f != "images.cl"), "atomics_c11.cl", "printf.cl")
LAYOUT = ("name", "address_space", "access_qualifier", "kind", "size", "align", "vector_width")


def _signed(name: str | None) -> str | None:
    if name is None:
        return None
    name = re.sub(r"\b_Atomic\((\w+)\)", r"\1", name).replace("atomic_", "")
    return re.sub(r"\bu(char|short|int|long)", r"\1", name)


@functools.cache
def _cl_std(file: str) -> str:
    return corpus_manifest()["files"][file].get("cl_std", "CL1.2")


@pytest.mark.parametrize("producer,file", [*(("clang", f) for f in FILES),
                                           *(("translator", f) for f in TRANSLATOR_FILES)])
def test_signature_matches_the_opencl_c_frontend(producer, file):
    std = _cl_std(file)
    spirv = clang_spirv(file, std, names=True) if producer == "clang" else translator_spirv(file, std)
    got = {s.name: s.to_json() for s in signatures_from_ir(translate(spirv))}
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
            # the translator writes const only as FuncParamAttr NoWrite, which it takes from LLVM's readonly:
            # at -O0 nothing infers that, so it carries no const
            dropped = ("volatile",) if producer == "clang" else ("volatile", "const")
            quals = [q for q in theirs["type_qualifiers"] if q not in dropped]
            if "volatile" not in theirs["type_qualifiers"]:
                assert [q for q in ours["type_qualifiers"] if q not in dropped] == quals, where
