"""KernelSignature against two oracles that are not kernelkit's code:

* PoCL (pyopencl + Debian's pocl-opencl-icd): clGetKernelArgInfo (argument name, type name,
  address, access and type qualifiers), CL_KERNEL_COMPILE_WORK_GROUP_SIZE and
  CL_KERNEL_LOCAL_MEM_SIZE, for every corpus kernel PoCL 3.1 can build.
* clang's own ``sizeof``/``__alignof__`` of each argument's declared type (and of each pointer's
  pointee), checked by ``_Static_assert`` inside the corpus source, for spir64 and spir:
  KernelSignature computes sizes from the IR's types, clang from the C declarations.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache

import pytest
import yaml
from conftest import CORPUS

from kernelkit.abi.signature import KernelSignature, signatures_from_source
from kernelkit.frontend import compile_opencl

MANIFEST = yaml.safe_load((CORPUS / "manifest.yaml").read_text())["files"]
FILES = sorted(MANIFEST)
# PoCL 3.1 builds neither these files (C11 atomics with scopes, CL3.0 generic program-scope
# variables, CL2.0 read_write images and pipes) nor any fp16 kernel: those are left to the
# manifest and clang checks.
POCL_CANNOT_BUILD = ("atomics_c11.cl", "generic_cl30.cl", "images_cl20.cl", "pipes_cl20.cl")
# clGetKernelArgInfo bitfields (OpenCL API spec 5.9.3, Table "clGetKernelArgInfo").
CL_ADDRESS_QUALIFIERS = {0x119B: "global", 0x119C: "local", 0x119D: "constant", 0x119E: "private"}
CL_ACCESS_QUALIFIERS = {0x11A0: "read_only", 0x11A1: "write_only", 0x11A2: "read_write", 0x11A3: "none"}
CL_TYPE_QUALIFIERS = {"const": 1 << 0, "restrict": 1 << 1, "volatile": 1 << 2, "pipe": 1 << 3}


def _pocl_kernels(name: str) -> set[str]:
    return {k["name"] for k in MANIFEST[name]["kernels"]
            if "fp16" not in (k.get("needs") or []) and k.get("pocl", True)}


@cache
def _ours(name: str, pointer_size: int) -> dict[str, KernelSignature]:
    sigs = signatures_from_source(str(CORPUS / name), [f"-cl-std={MANIFEST[name]['cl_std']}"],
                                  pointer_size=pointer_size)
    return {s.name: s for s in sigs}


@pytest.mark.parametrize("name", [f for f in FILES if f not in POCL_CANNOT_BUILD])
def test_signatures_match_pocl_arg_info(name, pocl_env):
    cl = pytest.importorskip("pyopencl")
    sys.path.insert(0, str(CORPUS.parent / "host"))
    from test_corpus_pocl import without_kernels  # drops the kernels PoCL cannot build

    keep = _pocl_kernels(name)
    source = without_kernels((CORPUS / name).read_text(),
                             {k["name"] for k in MANIFEST[name]["kernels"]} - keep)
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    device = ctx.devices[0]
    prog = cl.Program(ctx, source).build(options=[f"-cl-std={MANIFEST[name]['cl_std']}", "-cl-kernel-arg-info"])
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


def _c_type(type_name: str) -> str:
    """A kernel_arg_type spelled as C: ``_Atomic(int)`` is ``atomic_int`` in OpenCL C."""
    return re.sub(r"_Atomic\((\w+)\)", r"atomic_\1", type_name)


@pytest.mark.parametrize("pointer_size", [8, 4])
@pytest.mark.parametrize("name", FILES)
def test_sizes_match_clang_sizeof(name, pointer_size):
    """Every value argument's size/align and every pointer's pointee size/align, as clang sees
    the declared type (``_Static_assert`` appended to the file; a wrong value fails the compile)."""
    checks = []
    for sig in _ours(name, pointer_size).values():
        for arg in sig.args:
            if arg.kind in ("scalar", "vector", "struct", "union"):
                checks.append((_c_type(arg.type_name), arg.size, arg.align, f"{sig.name}.{arg.name}"))
            elif arg.kind == "pointer" and arg.pointee_size is not None:
                checks.append((_c_type(arg.pointee), arg.pointee_size, arg.pointee_align,
                               f"{sig.name}.{arg.name} pointee"))
            elif arg.kind == "pointer":
                pytest.fail(f"{sig.name}.{arg.name}: pointer without pointee size")
    assert checks
    pragmas = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    asserts = "".join(f'_Static_assert(sizeof({t}) == {s} && __alignof__({t}) == {a}, "{what}");\n'
                      for t, s, a, what in checks)
    triple = "spir64-unknown-unknown" if pointer_size == 8 else "spir-unknown-unknown"
    source = pragmas + (CORPUS / name).read_text() + "\n" + asserts
    compile_opencl(source, [f"-cl-std={MANIFEST[name]['cl_std']}", "-O0"], triple=triple,
                   filename=os.fspath(CORPUS / name))
