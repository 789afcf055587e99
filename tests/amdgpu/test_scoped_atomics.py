"""OpenCL C 2.0 atomics keep their memory scope and orders on amdhsa: compare-exchange,
atomic_flag_* and the fetch/load/store/exchange family, on generic objects (OpenCL C 2.0) and on
global and local ones (the overloads OpenCL C 3.0 declares without the generic address space).
Oracle: clang compiling the same operations for amdgcn through its __opencl_atomic_* builtins
(what AMD's device library defines the OpenCL functions with): the same LLVM atomic instructions
with the same syncscopes and orderings, and in the code the instructions of those address spaces."""

from __future__ import annotations

import subprocess
import sys

from amdgpu.atomics_oracle import ir_atomics, objdump_memory_model
from amdgpu.clang_oracle import HEADER
from kernelkit.mux.context import Context
from kernelkit.mux.registry import resolve_target
from kernelkit.targets.amdhsa.codegen import amdgpu_ir

NAMED_SPACES = ["-cl-std=CL3.0", "-cl-ext=-__opencl_c_generic_address_space,-__opencl_c_pipes,"
                "-__opencl_c_device_enqueue,+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device,"
                "+__opencl_c_atomic_scope_all_devices,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics"]

# each OpenCL call and the __opencl_atomic_* builtin call clang's OpenCL library makes of it
# (no order: seq_cst; no scope: device; atomic_flag: an atomic_int, test-and-set an exchange of 1)
CALLS = [
    ("o[0] = atomic_compare_exchange_strong_explicit(a, &e, 5, memory_order_acq_rel, memory_order_acquire, "
     "memory_scope_work_group);",
     "o[0] = __opencl_atomic_compare_exchange_strong(a, &e, 5, memory_order_acq_rel, memory_order_acquire, "
     "memory_scope_work_group);"),
    ("o[1] = atomic_compare_exchange_weak_explicit(a, &e, 7, memory_order_release, memory_order_relaxed);",
     "o[1] = __opencl_atomic_compare_exchange_weak(a, &e, 7, memory_order_release, memory_order_relaxed, "
     "memory_scope_device);"),
    ("o[2] = atomic_compare_exchange_strong(a, &e, 9);",
     "o[2] = __opencl_atomic_compare_exchange_strong(a, &e, 9, memory_order_seq_cst, memory_order_seq_cst, "
     "memory_scope_device);"),
    ("o[3] = atomic_flag_test_and_set_explicit(f, memory_order_acquire, memory_scope_sub_group);",
     "o[3] = __opencl_atomic_exchange(f, 1, memory_order_acquire, memory_scope_sub_group) != 0;"),
    ("atomic_flag_clear_explicit(f, memory_order_release, memory_scope_all_svm_devices);",
     "__opencl_atomic_store(f, 0, memory_order_release, memory_scope_all_svm_devices);"),
    ("o[4] = atomic_flag_test_and_set(f);",
     "o[4] = __opencl_atomic_exchange(f, 1, memory_order_seq_cst, memory_scope_device) != 0;"),
    ("o[5] = atomic_fetch_add_explicit(l, 3, memory_order_relaxed, memory_scope_work_group);",
     "o[5] = __opencl_atomic_fetch_add(l, 3, memory_order_relaxed, memory_scope_work_group);"),
    ("o[6] = atomic_compare_exchange_strong_explicit(l, &e, 1, memory_order_acquire, memory_order_acquire, "
     "memory_scope_work_group);",
     "o[6] = __opencl_atomic_compare_exchange_strong(l, &e, 1, memory_order_acquire, memory_order_acquire, "
     "memory_scope_work_group);"),
    ("o[7] = atomic_fetch_max_explicit(u, 4ul, memory_order_release, memory_scope_work_group);",
     "o[7] = __opencl_atomic_fetch_max(u, 4ul, memory_order_release, memory_scope_work_group);"),
    ("atomic_store_explicit(l, 2, memory_order_release, memory_scope_work_group);",
     "__opencl_atomic_store(l, 2, memory_order_release, memory_scope_work_group);"),
    ("o[8] = atomic_exchange_explicit(a, 6, memory_order_acq_rel);",
     "o[8] = __opencl_atomic_exchange(a, 6, memory_order_acq_rel, memory_scope_device);"),
]


def _source(calls: list[str], q: str = "") -> str:
    """``q``: a qualifier of the atomic objects. The OpenCL functions take volatile pointers, but
    AMD's device library does not pass the volatile on to the builtins (atom.cl: "Cast away
    volatile before calling clang builtin"), so clang's side gets the objects as they are."""
    return (f"kernel void k({q}global atomic_int *a, {q}global atomic_flag *f, {q}global atomic_ulong *u, "
            f"global int *o) {{\n  {q}local atomic_int l[1]; int e = 0;\n  " + "\n  ".join(calls)
            + "\n  o[9] = e;\n}\n")


def _ours(options: list[str]) -> str:
    info, device = resolve_target("gfx90a")
    module = info.create_target(Context(), device).create_module()
    module.compile_opencl_c(_source([ours for ours, _ in CALLS]), options)
    module.finalize()
    return amdgpu_ir(str(module.finalized_llvm_module), module.target.target_id, 5, module.options)


def _clang(tmp_path) -> str:
    src = tmp_path / "k.cl"
    src.write_text(_source([theirs for _, theirs in CALLS]))
    out = subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc",
                          "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target",
                          "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib", "-O2", "-S", "-emit-llvm", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True)
    return out.stdout


def test_named_address_space_atomics_are_clangs(tmp_path):
    """Global and local objects (OpenCL C 3.0 overloads): the same instructions, address spaces,
    syncscopes and orderings as clang's __opencl_atomic_* on the same objects."""
    ours, theirs = ir_atomics(_ours(NAMED_SPACES)), ir_atomics(_clang(tmp_path))
    assert len(theirs) >= len(CALLS)
    assert ours == theirs
    assert {scope for _, _, scope, _ in ours} == {"workgroup-one-as", "agent-one-as", "wavefront-one-as",
                                                  "one-as", "agent"}


def test_generic_atomics_keep_their_scopes(tmp_path):
    """OpenCL C 2.0 (the generic overloads): the same operations, address spaces, syncscopes and
    orderings as clang's: the objects reach the library as generic pointers, and once the library
    is inlined LLVM infers their global and local address spaces, as for AMD's device library."""
    ours, theirs = ir_atomics(_ours(["-cl-std=CL2.0"])), ir_atomics(_clang(tmp_path))
    assert ours == theirs
    assert {space for _, space, _, _ in ours} == {"1", "3"}


def test_named_address_space_atomics_disassemble_as_clangs(tmp_path):
    """llvm-objdump on our code object and on clang's object of the same operations: the same
    atomic instructions (global_atomic_* for global objects, ds_* for local ones) and the same
    cache maintenance (acquire at agent scope invalidates L1: buffer_wbinvl1_vol) in the same order."""
    from kernelkit.mux.registry import build_binary

    ours = tmp_path / "ours.hsaco"
    ours.write_bytes(build_binary(_source([c for c, _ in CALLS]), "gfx90a", NAMED_SPACES))
    src = tmp_path / "k.cl"
    src.write_text(_source([theirs for _, theirs in CALLS]))
    theirs = tmp_path / "theirs.o"
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-nostdinc",
                    "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target", "amdgcn-amd-amdhsa",
                    "-mcpu=gfx90a", "-nogpulib", "-O2", "-c", str(src), "-o", str(theirs)], check=True)
    mine = objdump_memory_model(ours)
    assert mine == objdump_memory_model(theirs)
    assert {"global_atomic_cmpswap", "global_atomic_swap", "global_atomic_umax_x2", "ds_cmpst_rtn_b32",
            "ds_add_rtn_u32", "ds_write_b32", "buffer_wbinvl1_vol"} <= set(mine)
