"""OpenCL memory scopes reach LLVM's AMDHSA sync scopes: a fence at each scope compiles to the
cache maintenance LLVM's memory model gives a fence with that syncscope (clang compiling the
fence written directly in IR is the oracle)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kernelkit.mux.context import Context
from kernelkit.mux.registry import resolve_target

# the cache maintenance instructions LLVM's memory model emits for fences (AMDGPUUsage)
MEMORY_OPS = ("buffer_wbl2", "buffer_inv", "buffer_wbinvl1", "buffer_invl2", "buffer_gl")
SCOPES = {"memory_scope_work_group": "workgroup", "memory_scope_device": "agent",
          "memory_scope_all_svm_devices": "", "memory_scope_sub_group": "wavefront"}


def _memory_ops(asm: str) -> list[str]:
    """The cache maintenance of kernel k (clang's output also holds the kernel's body as a function)."""
    start = asm.index("\nk:")
    asm = asm[start:asm.index("s_endpgm", start)]
    return sorted(ln.split()[0] for ln in asm.splitlines()
                  if ln.startswith("\t") and ln.split() and ln.split()[0].startswith(MEMORY_OPS))


def _ours(scope: str, order: str) -> str:
    info, device = resolve_target("gfx90a")
    module = info.create_target(Context(), device).create_module()
    module.compile_opencl_c(f"kernel void k(global int *o) {{ o[0] = 1; atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, "
                            f"{order}, {scope}); o[1] = 2; }}", ["-cl-std=CL2.0"])
    module.finalize()
    return module.create_assembly()


def _clang(syncscope: str, order: str, tmp_path) -> str:
    scope = f' syncscope("{syncscope}")' if syncscope else ""
    src = tmp_path / "k.ll"
    src.write_text('target triple = "amdgcn-amd-amdhsa"\n'
                   "define amdgpu_kernel void @k(ptr addrspace(1) %o) {\n"
                   "  store i32 1, ptr addrspace(1) %o\n"
                   f"  fence{scope} {order}\n"
                   "  %p = getelementptr i32, ptr addrspace(1) %o, i64 1\n"
                   "  store i32 2, ptr addrspace(1) %p\n  ret void\n}\n")
    out = subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "ir", "-target", "amdgcn-amd-amdhsa",
                          "-mcpu=gfx90a", "-nogpulib", "-O2", "-S", str(src), "-o", "-"],
                         capture_output=True, text=True, check=True)
    return out.stdout


@pytest.mark.parametrize("scope", sorted(SCOPES))
def test_fence_scopes_are_llvm_syncscopes(tmp_path, scope):
    for order, llvm_order in (("memory_order_release", "release"), ("memory_order_acquire", "acquire"),
                              ("memory_order_seq_cst", "seq_cst")):
        assert _memory_ops(_ours(scope, order)) == _memory_ops(_clang(SCOPES[scope], llvm_order, tmp_path))
    # the scopes differ where the memory model says so (gfx90a: system scope writes L2 back)
    assert ("buffer_wbl2" in _memory_ops(_ours(scope, "memory_order_release"))) == (scope == "memory_scope_all_svm_devices")


def _clang_opencl(source: str, tmp_path) -> str:
    from amdgpu.clang_oracle import HEADER

    src = tmp_path / "a.cl"
    src.write_text(source)
    out = subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc",
                          "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target",
                          "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib", "-O2", "-S", str(src), "-o", "-"],
                         capture_output=True, text=True, check=True)
    return out.stdout


@pytest.mark.parametrize("scope", sorted(SCOPES))
def test_scoped_atomics_are_llvm_syncscopes(tmp_path, scope):
    """atomic_fetch_add_explicit / atomic_load_explicit at a scope compile as clang's own OpenCL
    atomics (__opencl_atomic_* builtins) at that scope do."""
    body = ("atomic_fetch_add_explicit(a, 1, memory_order_acq_rel, {s}); "
            "o[0] = atomic_load_explicit(a + 1, memory_order_acquire, {s});")
    clang_body = ("__opencl_atomic_fetch_add(a, 1, memory_order_acq_rel, {s}); "
                  "o[0] = __opencl_atomic_load(a + 1, memory_order_acquire, {s});")
    info, device = resolve_target("gfx90a")
    module = info.create_target(Context(), device).create_module()
    module.compile_opencl_c(f"kernel void k(global atomic_int *a, global int *o) {{ {body.format(s=scope)} }}",
                            ["-cl-std=CL2.0"])
    module.finalize()
    ours = module.create_assembly()
    theirs = _clang_opencl(f"kernel void k(global atomic_int *a, global int *o) {{ {clang_body.format(s=scope)} }}",
                           tmp_path)
    assert _memory_ops(ours) == _memory_ops(theirs)
    assert "global_atomic_add" in ours or "flat_atomic_add" in ours
