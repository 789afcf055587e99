"""OpenCL C 2.0 atomics keep their memory scope and orders on amdhsa: compare-exchange,
atomic_flag_* and the fetch/load/store/exchange family, on generic objects (OpenCL C 2.0) and on
global and local ones (the overloads OpenCL C 3.0 declares without the generic address space).
Oracle: clang compiling the same operations for amdgcn through its __opencl_atomic_* builtins
(what AMD's device library defines the OpenCL functions with): the same LLVM atomic instructions
with the same syncscopes and orderings, and in the code the instructions of those address spaces."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import require_tool

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
    """``q``: a qualifier of the atomic objects (the OpenCL functions take volatile pointers)."""
    return (f"kernel void k({q}global atomic_int *a, {q}global atomic_flag *f, {q}global atomic_ulong *u, "
            f"global int *o) {{\n  {q}local atomic_int l[1]; int e = 0;\n  " + "\n  ".join(calls)
            + "\n  o[9] = e;\n}\n")


# an LLVM atomic instruction: its operation and pointer address space; then its syncscope and orderings
_ATOMIC = re.compile(r"= (cmpxchg|atomicrmw)( weak)?( volatile)?( \w+)? ptr(?: addrspace\((\d+)\))?|"
                     r"(load|store) atomic( volatile)? [^,]*, ptr(?: addrspace\((\d+)\))?")
_SCOPE = re.compile(r'syncscope\("([\w-]+)"\)')
_ORDERS = re.compile(r"\b(unordered|monotonic|acquire|release|acq_rel|seq_cst)\b")


def _atomics(ir_text: str) -> list[tuple]:
    """(operation, address space, syncscope, orderings) of the atomic instructions of kernel k, in order."""
    start = ir_text.index("@k(")
    body = ir_text[start:ir_text.index("\n}", start)]
    out = []
    for line in body.splitlines():
        m = _ATOMIC.search(line)
        if m is None:
            continue
        if m.group(1):
            op, space = m.group(1) + (m.group(3) or "") + (m.group(4) or ""), m.group(5)
        else:
            op, space = m.group(6) + (m.group(7) or ""), m.group(8)
        scope = _SCOPE.search(line)
        out.append((op, space or "0", scope.group(1) if scope else "system", tuple(_ORDERS.findall(line[m.end():]))))
    return out


def _ours(options: list[str]) -> str:
    info, device = resolve_target("gfx90a")
    module = info.create_target(Context(), device).create_module()
    module.compile_opencl_c(_source([ours for ours, _ in CALLS]), options)
    module.finalize()
    return amdgpu_ir(str(module.finalized_llvm_module), module.target.target_id, 5, module.options)


def _clang(tmp_path) -> str:
    src = tmp_path / "k.cl"
    src.write_text(_source([theirs for _, theirs in CALLS], "volatile "))
    out = subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc",
                          "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target",
                          "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib", "-O2", "-S", "-emit-llvm", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True)
    return out.stdout


def test_named_address_space_atomics_are_clangs(tmp_path):
    """Global and local objects (OpenCL C 3.0 overloads): the same instructions, address spaces,
    syncscopes and orderings as clang's __opencl_atomic_* on the same objects."""
    ours, theirs = _atomics(_ours(NAMED_SPACES)), _atomics(_clang(tmp_path))
    assert len(theirs) >= len(CALLS)
    assert ours == theirs
    assert {scope for _, _, scope, _ in ours} == {"workgroup-one-as", "agent-one-as", "wavefront-one-as",
                                                  "one-as", "agent"}


def test_generic_atomics_keep_their_scopes(tmp_path):
    """OpenCL C 2.0 (the generic overloads): the same operations, syncscopes and orderings as
    clang's (the address space aside: the objects reach the library as generic pointers)."""
    ours = [(op, scope, orders) for op, _, scope, orders in _atomics(_ours(["-cl-std=CL2.0"]))]
    theirs = [(op, scope, orders) for op, _, scope, orders in _atomics(_clang(tmp_path))]
    assert ours == theirs


# the memory instructions the scopes and address spaces decide: atomics (global_/flat_/ds_) and
# the cache maintenance LLVM's memory model puts around them (AMDGPUUsage, memory model GFX90A)
_MEMORY_MODEL = re.compile(r"^(global_atomic\w*|flat_atomic\w*|ds_(?:cmpst|add|max|write|wrxchg)\w*|buffer_wbl2|"
                           r"buffer_invl2|buffer_wbinvl1\w*)$")


def _objdump_kernel(path) -> list[str]:
    tool = require_tool("llvm-objdump")
    out = subprocess.run([tool, "-d", "--mcpu=gfx90a", str(path)], capture_output=True, text=True, check=True).stdout
    start = out.index("<k>:")
    end = out.find("\n\n", start)
    words = [line.split()[0] for line in out[start:end if end > 0 else None].splitlines()[1:] if line.strip()]
    return [w for w in words if _MEMORY_MODEL.match(w)]


def test_named_address_space_atomics_disassemble_as_clangs(tmp_path):
    """llvm-objdump on our code object and on clang's object of the same operations: the same
    atomic instructions (global_atomic_* for global objects, ds_* for local ones) and the same
    cache maintenance (acquire at agent scope invalidates L1: buffer_wbinvl1_vol) in the same order."""
    from kernelkit.mux.registry import build_binary

    ours = tmp_path / "ours.hsaco"
    ours.write_bytes(build_binary(_source([c for c, _ in CALLS]), "gfx90a", NAMED_SPACES))
    src = tmp_path / "k.cl"
    src.write_text(_source([theirs for _, theirs in CALLS], "volatile "))
    theirs = tmp_path / "theirs.o"
    subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-nostdinc",
                    "-Xclang", "-fdeclare-opencl-builtins", "-include", str(HEADER), "-target", "amdgcn-amd-amdhsa",
                    "-mcpu=gfx90a", "-nogpulib", "-O2", "-c", str(src), "-o", str(theirs)], check=True)
    mine = _objdump_kernel(ours)
    assert mine == _objdump_kernel(theirs)
    assert {"global_atomic_cmpswap", "global_atomic_swap", "global_atomic_umax_x2", "ds_cmpst_rtn_b32",
            "ds_add_rtn_u32", "ds_write_b32", "buffer_wbinvl1_vol"} <= set(mine)
