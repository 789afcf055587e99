"""The amdhsa target links kernelkit's OpenCL builtin library (kernelkit.mux.clc, its portable
math: no C library call, no LLVM intrinsic the AMDGPU backend cannot select) for every builtin a
kernel calls, the unmangled CL2.0 address-space casts (__to_global/__to_local/__to_private)
included: the kernels compile for gfx90a with the argument metadata clang 22 emits for the
same source, and the linked code object (ld.lld --no-undefined) imports nothing."""

from __future__ import annotations

import pytest

from amdgpu.clang_oracle import clang_code_object, explicit_args
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.mux.registry import build_binary

SOURCES = {
    # OpenCL C 2.0 6.13.9: to_global/to_local/to_private on a generic pointer
    "address_space_casts": """
kernel void casts(global int *g, local int *l, global int *out) {
  int i = get_global_id(0);
  int x = i;
  generic int *p = (i & 1) ? (generic int *)g : (generic int *)l;
  global int *pg = to_global(p);
  local int *pl = to_local(p);
  private int *pp = to_private((generic int *)&x);
  out[i] = (pg != 0) + 2 * (pl != 0) + 4 * (pp != 0);
}
""",
    # math the target once wrote by hand (pow, atan2, tanh, exp(double), hypot, cbrt) and math
    # with no AMDGPU definition before (acosh, lgamma, erf, expm1 need libm on the SPIR library)
    "math": """
kernel void math(global float *a, global double *d) {
  int i = get_global_id(0);
  float x = a[i];
  a[i] = pow(x, 2.5f) + atan2(x, 1.0f) + tanh(x) + hypot(x, 2.0f) + cbrt(x) + acosh(x) + lgamma(x)
         + erf(x) + expm1(x);
  d[i] = exp(d[i]) + cbrt(d[i]) + hypot(d[i], 1.0);
}
""",
}


@pytest.mark.parametrize("which", sorted(SOURCES))
def test_builtins_link_and_metadata_is_clangs(tmp_path, which):
    path = tmp_path / f"{which}.cl"
    path.write_text(SOURCES[which])
    binary = build_binary(SOURCES[which], "gfx90a", ["-cl-std=CL2.0"])
    ours = CodeObject.parse(binary)
    clang = clang_code_object(str(path), "gfx90a", 5, "CL2.0")
    assert [k.name for k in ours.metadata.kernels] == [k.name for k in clang.metadata.kernels]
    for ref in clang.metadata.kernels:
        k = ours.metadata.kernel(ref.name)
        assert explicit_args(k) == explicit_args(ref)
        assert k.kernarg_segment_size == ref.kernarg_segment_size
    elf = E.ElfFile.parse(binary)
    undefined = [s.name for s in elf.symbols(".dynsym") if s.name and s.shndx == 0]
    assert undefined == []


def test_generic_pointer_casts_ask_the_hardware_apertures(monkeypatch):
    """to_global/to_local/to_private decide by the pointer's aperture (mux_builtins.cl overrides
    the library's weak __kk_generic_address_space, which says "global" for every pointer)."""
    from kernelkit.targets.amdhsa import codegen

    monkeypatch.setenv("KERNELKIT_BUILD_IN_PROCESS", "1")  # the oracle watches this process's codegen
    seen: list[str] = []
    real = codegen._check_unresolved
    monkeypatch.setattr(codegen, "_check_unresolved", lambda text: (seen.append(text), real(text))[1])
    build_binary(SOURCES["address_space_casts"], "gfx90a", ["-cl-std=CL2.0"])
    kernel = seen[-1].split("define protected amdgpu_kernel void @casts(")[1].split("\n}\n")[0]
    assert "@llvm.amdgcn.is.shared(" in kernel and "@llvm.amdgcn.is.private(" in kernel
