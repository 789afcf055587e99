"""The atomic functions of OpenCL C 1.x (atomic_add... of OpenCL 1.1, atom_add... of the
cl_khr_*_atomics extensions) on amdhsa are the native atomic instructions, not compare-exchange
loops. Oracle: AMD's device library defines each of them as one __opencl_atomic_* builtin, relaxed
at device scope, on the object without its volatile (ROCm-Device-Libs opencl/src/misc/atom.cl;
inc and dec add and subtract 1); clang compiles those builtins on the same objects, and our code
has the same LLVM atomics and, in llvm-objdump's disassembly, the same global_atomic_* and ds_*
instructions."""

from __future__ import annotations

from amdgpu.atomics_oracle import clang_compile, ir_atomics, objdump_memory_model
from kernelkit.mux.context import Context
from kernelkit.mux.registry import build_binary, resolve_target
from kernelkit.targets.amdhsa.codegen import amdgpu_ir

R = "memory_order_relaxed, memory_scope_device"


def _rmw(call: str, builtin: str, ptr: str, atomic_type: str, value: str = "") -> tuple[str, str]:
    """An OpenCL 1.x call on ``ptr`` and the builtin AMD's library makes of it."""
    ours = f"r += {call}({ptr}{', ' + value if value else ''});"
    theirs = f"r += {builtin}(({atomic_type} *){ptr}, {value or '1'}, {R});"
    return ours, theirs


def _cmpxchg(call: str, ptr: str, atomic_type: str, scalar: str, e: str, d: str) -> tuple[str, str]:
    ours = f"r += {call}({ptr}, {e}, {d});"
    theirs = (f"{{ {scalar} e = {e}; __opencl_atomic_compare_exchange_strong(({atomic_type} *){ptr}, &e, {d}, "
              f"memory_order_relaxed, {R}); r += e; }}")
    return ours, theirs


GI, GU, LI, LU = "global atomic_int", "global atomic_uint", "local atomic_int", "local atomic_uint"
GL, GM, LL = "global atomic_long", "global atomic_ulong", "local atomic_long"
CALLS = [
    _rmw("atomic_add", "__opencl_atomic_fetch_add", "gi", GI, "1"),
    _rmw("atomic_sub", "__opencl_atomic_fetch_sub", "gi", GI, "2"),
    _rmw("atomic_xchg", "__opencl_atomic_exchange", "gi", GI, "3"),
    _rmw("atomic_inc", "__opencl_atomic_fetch_add", "gi", GI),
    _rmw("atomic_dec", "__opencl_atomic_fetch_sub", "gi", GI),
    _cmpxchg("atomic_cmpxchg", "gi", GI, "int", "4", "5"),
    _rmw("atomic_min", "__opencl_atomic_fetch_min", "gi", GI, "6"),
    _rmw("atomic_max", "__opencl_atomic_fetch_max", "gi", GI, "7"),
    _rmw("atomic_and", "__opencl_atomic_fetch_and", "gi", GI, "8"),
    _rmw("atomic_or", "__opencl_atomic_fetch_or", "gi", GI, "9"),
    _rmw("atomic_xor", "__opencl_atomic_fetch_xor", "gi", GI, "10"),
    _rmw("atomic_min", "__opencl_atomic_fetch_min", "gu", GU, "6u"),
    _rmw("atomic_max", "__opencl_atomic_fetch_max", "lu", LU, "7u"),
    _rmw("atomic_inc", "__opencl_atomic_fetch_add", "lu", LU),
    _rmw("atomic_add", "__opencl_atomic_fetch_add", "li", LI, "1"),
    _rmw("atomic_dec", "__opencl_atomic_fetch_sub", "li", LI),
    _cmpxchg("atomic_cmpxchg", "li", LI, "int", "4", "5"),
    _rmw("atomic_xchg", "__opencl_atomic_exchange", "li", LI, "3"),
    _rmw("atomic_and", "__opencl_atomic_fetch_and", "li", LI, "12"),
    _rmw("atom_add", "__opencl_atomic_fetch_add", "gi", GI, "1"),
    _rmw("atom_inc", "__opencl_atomic_fetch_add", "li", LI),
    _cmpxchg("atom_cmpxchg", "gu", GU, "uint", "1u", "2u"),
    _rmw("atom_xchg", "__opencl_atomic_exchange", "lu", LU, "3u"),
    _rmw("atom_add", "__opencl_atomic_fetch_add", "gl", GL, "1L"),
    _rmw("atom_max", "__opencl_atomic_fetch_max", "gm", GM, "2UL"),
    _cmpxchg("atom_cmpxchg", "ll", LL, "long", "1L", "2L"),
    _rmw("atom_xchg", "__opencl_atomic_exchange", "gl", GL, "5L"),
    _rmw("atom_inc", "__opencl_atomic_fetch_add", "gm", GM),
    _rmw("atom_or", "__opencl_atomic_fetch_or", "ll", LL, "3L"),
    ("r += (long)atomic_xchg(gf, 1.0f);",
     f"r += (long)as_float(__opencl_atomic_exchange((global atomic_int *)gf, as_int(1.0f), {R}));"),
    ("r += (long)atomic_xchg(lf, 2.0f);",
     f"r += (long)as_float(__opencl_atomic_exchange((local atomic_int *)lf, as_int(2.0f), {R}));"),
]


def _source(calls: list[str]) -> str:
    return ("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
            "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
            "kernel void k(global int *gi, global uint *gu, global long *gl, global ulong *gm, global float *gf, "
            "global long *out) {\n  local int li[1]; local uint lu[1]; local long ll[1]; local float lf[1];\n"
            "  long r = 0;\n  " + "\n  ".join(calls) + "\n  out[0] = r;\n}\n")


def test_cl1_atomics_are_clangs_instructions(tmp_path):
    """OpenCL C 1.2: the LLVM atomics of our kernel are clang's for the builtins (operation,
    address space, syncscope agent-one-as, monotonic), and so are the instructions."""
    info, device = resolve_target("gfx90a")
    module = info.create_target(Context(), device).create_module()
    module.compile_opencl_c(_source([ours for ours, _ in CALLS]), ["-cl-std=CL1.2"])
    module.finalize()
    ours = ir_atomics(amdgpu_ir(str(module.finalized_llvm_module), module.target.target_id, 5, module.options))
    src = tmp_path / "theirs.cl"
    src.write_text(_source([theirs for _, theirs in CALLS]))
    theirs = ir_atomics(clang_compile(src, tmp_path / "theirs.ll", emit_llvm=True))
    assert len(theirs) == len(CALLS)
    assert ours == theirs
    assert {scope for _, _, scope, _ in ours} == {"agent-one-as"}

    binary = tmp_path / "ours.hsaco"
    binary.write_bytes(build_binary(_source([ours for ours, _ in CALLS]), "gfx90a", ["-cl-std=CL1.2"]))
    clang_compile(src, tmp_path / "theirs.o")
    mine = objdump_memory_model(binary)
    assert mine == objdump_memory_model(tmp_path / "theirs.o")
    assert {"global_atomic_add", "global_atomic_smin", "global_atomic_umax_x2", "global_atomic_cmpswap",
            "ds_add_rtn_u32", "ds_cmpst_rtn_b64", "ds_wrxchg_rtn_b32"} <= set(mine)


# OpenCL C 2.0 atomics on generic pointers (OpenCL 1.x declares no generic atomic_add...)
GENERIC = """
int bump(volatile generic atomic_int *p, int v) {
  int e = v;
  return atomic_fetch_add(p, v) + atomic_exchange_explicit(p, 4, memory_order_relaxed)
         + atomic_compare_exchange_strong(p, &e, 3) + e;
}
long top(volatile generic atomic_long *p) { return atomic_fetch_max_explicit(p, 5L, memory_order_acq_rel); }
kernel void k(global atomic_int *g, global atomic_long *gl, global long *out) {
  local atomic_int l[1]; local atomic_long ll[1];
  out[0] = bump(g, 1) + bump(l, 2) + top(gl) + top(ll);
}
"""
S = "memory_order_seq_cst, memory_scope_device"
GENERIC_BY_BUILTINS = f"""
int bump(volatile generic atomic_int *p, int v) {{
  generic atomic_int *a = (generic atomic_int *)p; int e = v;
  return __opencl_atomic_fetch_add(a, v, {S}) + __opencl_atomic_exchange(a, 4, {R})
         + __opencl_atomic_compare_exchange_strong(a, &e, 3, memory_order_seq_cst, {S}) + e;
}}
long top(volatile generic atomic_long *p) {{
  return __opencl_atomic_fetch_max((generic atomic_long *)p, 5L, memory_order_acq_rel, memory_scope_device);
}}
kernel void k(global atomic_int *g, global atomic_long *gl, global long *out) {{
  local atomic_int l[1]; local atomic_long ll[1];
  out[0] = bump(g, 1) + bump(l, 2) + top(gl) + top(ll);
}}
"""


def test_generic_object_atomics_become_global_and_local(tmp_path):
    """OpenCL C 2.0, atomics on generic pointers in helper functions called with global and local
    objects: once inlined, their address spaces are inferred as in clang's compile of AMD's
    definitions, so the code has global_atomic_* and ds_* where it had flat_atomic_*."""
    ours = tmp_path / "ours.hsaco"
    ours.write_bytes(build_binary(GENERIC, "gfx90a", ["-cl-std=CL2.0"]))
    src = tmp_path / "theirs.cl"
    src.write_text(GENERIC_BY_BUILTINS)
    clang_compile(src, tmp_path / "theirs.o")
    mine = objdump_memory_model(ours)
    assert mine == objdump_memory_model(tmp_path / "theirs.o")
    assert not [i for i in mine if i.startswith("flat_")]
    assert {"global_atomic_add", "global_atomic_swap", "global_atomic_cmpswap", "global_atomic_smax_x2",
            "ds_add_rtn_u32", "ds_wrxchg_rtn_b32", "ds_cmpst_rtn_b32", "ds_max_rtn_i64"} <= set(mine)
