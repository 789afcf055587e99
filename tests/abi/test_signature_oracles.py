"""KernelSignature against two oracles that are not kernelkit's code:

* PoCL (pyopencl + Debian's pocl-opencl-icd): clGetKernelArgInfo (argument name, type name,
  address, access and type qualifiers), CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
  CL_KERNEL_LOCAL_MEM_SIZE and CL_KERNEL_ATTRIBUTES (work-group size hint, vector type hint),
  for every corpus kernel PoCL 3.1 can build.
* clang's own ``sizeof``/``__alignof__`` of each argument's declared type (and of each pointer's
  pointee), checked by ``_Static_assert`` inside the source, for spir64 and spir:
  KernelSignature computes sizes from the IR's types, clang from the C declarations.

Besides the corpus, ``EDGE_SOURCE`` declares arguments the corpus does not: an enum, typedef'd
vectors and pointers, a void pointer, aligned and packed structs, all qualifiers at once, a kernel
without arguments.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache

import pytest
from conftest import CORPUS, corpus_manifest

from kernelkit.abi.opencl_types import parse_value_type
from kernelkit.abi.signature import KernelSignature, signatures_from_source
from kernelkit.frontend import compile_opencl

MANIFEST = corpus_manifest()["files"]
FILES = sorted(MANIFEST)
EDGE = "edge"
# Pointers whose pointee type never appears in the IR (opaque pointers: clang emits no
# %union.U_u for a byte access), so only the pointee's alignment (clang's `align N`) is known.
EDGE_UNSIZED_POINTEES = {"ut"}
EDGE_SOURCE = """\
typedef struct { float3 v; char c; } S3;
struct Inner { short a[3]; };
typedef union { int i; float f; double d; } U;
enum Mode { M_A, M_B = 7 };
enum Signed { S_NEG = -1, S_POS = 1 };
typedef float4 vec_t;
typedef __global float *gptr;
typedef struct { int x; } __attribute__((aligned(32))) A32;
typedef struct __attribute__((packed)) { char a; long b; } Packed;
typedef union U_u { int a; char c[12]; } UT;
kernel void edge(__global S3 *ps, __local struct Inner *li, U u, enum Mode m, enum Signed sg, vec_t v,
                 gptr g, __constant vec_t *cv, volatile __global int *vol, __global const volatile uchar16 *restrict q,
                 __global void *vp, __global vec_t *tv, S3 s3, struct Inner in, A32 a, __local A32 *la,
                 __global Packed *pp, Packed pk, __global UT *ut) {
  ps->c = (char)m; li->a[1] = (short)sg; g[0] = v.x + u.f + s3.v.y + in.a[2] + cv->x; tv[0] = v; q[0].x;
  *vol = 1; ((__global int *)vp)[0] = 0; la->x = a.x; pp->b = pk.b; ut->c[3] = 1;
}
kernel void no_args(void) {}
"""
# PoCL 3.1 builds neither these files (C11 atomics with scopes, CL3.0 generic program-scope
# variables, CL2.0 read_write images and pipes) nor any fp16 kernel: those are left to the
# manifest and clang checks.
POCL_CANNOT_BUILD = ("atomics_c11.cl", "generic_cl30.cl", "images_cl20.cl", "pipes_cl20.cl")
# clGetKernelArgInfo bitfields (OpenCL API spec 5.9.3, Table "clGetKernelArgInfo").
CL_ADDRESS_QUALIFIERS = {0x119B: "global", 0x119C: "local", 0x119D: "constant", 0x119E: "private"}
CL_ACCESS_QUALIFIERS = {0x11A0: "read_only", 0x11A1: "write_only", 0x11A2: "read_write", 0x11A3: "none"}
CL_TYPE_QUALIFIERS = {"const": 1 << 0, "restrict": 1 << 1, "volatile": 1 << 2, "pipe": 1 << 3}


def _source(name: str) -> tuple[str, str]:
    """(source text, -cl-std) of a corpus file or of the edge-case source."""
    if name == EDGE:
        return EDGE_SOURCE, "CL1.2"
    return (CORPUS / name).read_text(), MANIFEST[name]["cl_std"]


def _pocl_source(name: str) -> tuple[str, set[str]]:
    """The source PoCL is given (without the kernels it cannot build) and the kernels it keeps."""
    if name == EDGE:
        return EDGE_SOURCE, {"edge", "no_args"}
    sys.path.insert(0, str(CORPUS.parent / "host"))
    from test_corpus_pocl import without_kernels  # drops the named kernel definitions

    kernels = MANIFEST[name]["kernels"]
    keep = {k["name"] for k in kernels if "fp16" not in (k.get("needs") or []) and k.get("pocl", True)}
    return without_kernels((CORPUS / name).read_text(), {k["name"] for k in kernels} - keep), keep


@cache
def _ours(name: str, pointer_size: int) -> dict[str, KernelSignature]:
    source, std = _source(name)
    path = str(CORPUS / name) if name != EDGE else source
    sigs = signatures_from_source(path, [f"-cl-std={std}"], pointer_size=pointer_size)
    return {s.name: s for s in sigs}


@pytest.mark.parametrize("name", [*(f for f in FILES if f not in POCL_CANNOT_BUILD), EDGE])
def test_signatures_match_pocl_arg_info(name, pocl_env):
    cl = pytest.importorskip("pyopencl")
    source, keep = _pocl_source(name)
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    device = ctx.devices[0]
    prog = cl.Program(ctx, source).build(options=[f"-cl-std={_source(name)[1]}", "-cl-kernel-arg-info"])
    ours = _ours(name, device.address_bits // 8)
    info = cl.kernel_arg_info
    for kname in sorted(keep):
        kern, sig = getattr(prog, kname), ours[kname]
        assert kern.num_args == len(sig.args), kname
        for i, arg in enumerate(sig.args):
            quals = sum(CL_TYPE_QUALIFIERS[q] for q in arg.type_qualifiers)
            assert (arg.name, arg.type_name, arg.address_space, arg.access_qualifier, quals) == (
                kern.get_arg_info(i, info.NAME), kern.get_arg_info(i, info.TYPE_NAME),
                CL_ADDRESS_QUALIFIERS[kern.get_arg_info(i, info.ADDRESS_QUALIFIER)],
                CL_ACCESS_QUALIFIERS[kern.get_arg_info(i, info.ACCESS_QUALIFIER)],
                kern.get_arg_info(i, info.TYPE_QUALIFIER)), f"{kname} argument {i}"
        wg = cl.kernel_work_group_info
        assert (sig.reqd_work_group_size or (0, 0, 0)) == tuple(
            kern.get_work_group_info(wg.COMPILE_WORK_GROUP_SIZE, device)), kname
        assert sig.static_local_mem == kern.get_work_group_info(wg.LOCAL_MEM_SIZE, device), kname
        assert _pocl_attributes(sig) == kern.get_info(cl.kernel_info.ATTRIBUTES), kname


def _pocl_attributes(sig: KernelSignature) -> str:
    """CL_KERNEL_ATTRIBUTES as PoCL 3.1 spells it for ``sig``: reqd_work_group_size,
    work_group_size_hint, then vec_type_hint, which it leaves out for scalar hints."""
    parts = []
    for attr in ("reqd_work_group_size", "work_group_size_hint"):
        value = getattr(sig, attr)
        if value:
            parts.append("__attribute__(({}({}, {}, {} )))".format(attr, *value))
    if sig.vec_type_hint and parse_value_type(sig.vec_type_hint)[1] > 1:
        parts.append(f"__attribute__ ((vec_type_hint ({sig.vec_type_hint})))")
    return " ".join(parts)


def _c_type(type_name: str) -> str:
    """A kernel_arg_type spelled as C: ``_Atomic(int)`` is ``atomic_int`` in OpenCL C."""
    return re.sub(r"_Atomic\((\w+)\)", r"atomic_\1", type_name)


@pytest.mark.parametrize("pointer_size", [8, 4])
@pytest.mark.parametrize("name", [*FILES, EDGE])
def test_sizes_match_clang_sizeof(name, pointer_size):
    """Every value argument's size/align and every pointer's pointee size/align, as clang sees
    the declared type (``_Static_assert`` appended to the file; a wrong value fails the compile)."""
    checks = []
    for sig in _ours(name, pointer_size).values():
        for arg in sig.args:
            if arg.kind in ("scalar", "vector", "struct", "union"):
                checks.append((_c_type(arg.type_name), arg.size, arg.align, f"{sig.name}.{arg.name}"))
            elif arg.kind == "pointer" and arg.pointee != "void":
                what = f"{sig.name}.{arg.name} pointee"
                if name == EDGE and arg.name in EDGE_UNSIZED_POINTEES:
                    assert arg.pointee_size is None and arg.pointee_align is not None, what
                    checks.append((_c_type(arg.pointee), f"sizeof({_c_type(arg.pointee)})", arg.pointee_align, what))
                    continue
                assert arg.pointee_size is not None, f"{what}: no size"
                checks.append((_c_type(arg.pointee), arg.pointee_size, arg.pointee_align, what))
    assert checks
    pragmas = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    asserts = "".join(f'_Static_assert(sizeof({t}) == {s} && __alignof__({t}) == {a}, "{what}");\n'
                      for t, s, a, what in checks)
    triple = "spir64-unknown-unknown" if pointer_size == 8 else "spir-unknown-unknown"
    source, std = _source(name)
    filename = os.fspath(CORPUS / name) if name != EDGE else "edge.cl"
    compile_opencl(pragmas + source + "\n" + asserts, [f"-cl-std={std}", "-O0"], triple=triple, filename=filename)
