"""A device library cut into the pieces a module needs (kernelkit.targets.amdhsa.library_index)
links into a module as LLVM's linker links the whole library: LLVM itself is the oracle. The
library mixes what the linker treats differently (LinkModules.cpp): strong definitions (always
linked), linkonce_odr and internal definitions (linked when referred to), declarations, a strong
global, a global referring to a function, metadata shared between functions, attribute groups."""

from __future__ import annotations

import pytest

from kernelkit.llvm_binding import llvm
from kernelkit.targets.amdhsa.library_index import LibraryIndex, build_index, declared_names

HEAD = """target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
"""

LIBRARY = HEAD + """
@table = hidden addrspace(4) constant [4 x i32] [i32 1, i32 2, i32 3, i32 5], align 4
@hook = linkonce_odr hidden addrspace(1) global ptr @hooked, align 8
@counter = internal addrspace(3) global i32 poison, align 4

define linkonce_odr hidden i32 @lib_square(i32 %x) #0 {
  %y = mul i32 %x, %x
  %z = call i32 @lib_helper(i32 %y)
  ret i32 %z
}

define internal i32 @lib_helper(i32 %x) #1 {
  %p = getelementptr inbounds [4 x i32], ptr addrspace(4) @table, i64 0, i32 %x
  %v = load i32, ptr addrspace(4) %p, align 4, !tbaa !5
  ret i32 %v
}

define linkonce_odr hidden i32 @lib_unused(i32 %x) #0 {
  %v = load i32, ptr addrspace(3) @counter, align 4, !tbaa !5
  %s = add i32 %v, %x
  ret i32 %s
}

define linkonce_odr hidden i32 @lib_hook_user(i32 %x) #0 {
  %f = load ptr, ptr addrspace(1) @hook, align 8
  %r = call i32 %f(i32 %x)
  %c = call i32 @llvm.umin.i32(i32 %r, i32 7)
  ret i32 %c
}

define linkonce_odr hidden i32 @hooked(i32 %x) #1 {
  %r = call i32 @lib_external(i32 %x), !range !7
  ret i32 %r
}

define hidden i32 @__kk_always(i32 %x) #1 {
  %r = add i32 %x, 1
  ret i32 %r
}

declare i32 @lib_external(i32) #1
declare i32 @llvm.umin.i32(i32, i32)

attributes #0 = { alwaysinline nounwind "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { noinline nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{!"test library"}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !3, i64 0}
!7 = !{i32 0, i32 100}
"""


def _main(calls: list[str]) -> str:
    body = "".join(f"  %r{i} = call i32 @{name}(i32 %x)\n" for i, name in enumerate(calls))
    decls = "".join(f"declare i32 @{name}(i32)\n" for name in calls)
    return HEAD + f"""
define amdgpu_kernel void @k(i32 %x, ptr addrspace(1) %out) {{
{body}  store i32 %x, ptr addrspace(1) %out, align 4
  ret void
}}
{decls}"""


def _linked(main: str, library: str) -> str:
    b = llvm()
    module = b.parse_assembly(main)
    lib = b.parse_assembly(library)
    lib.verify()
    module.link_in(lib)
    module.verify()
    return str(module)


@pytest.fixture(scope="module")
def index() -> LibraryIndex:
    return build_index(LIBRARY)


@pytest.mark.parametrize("calls", [[], ["lib_square"], ["lib_hook_user"], ["lib_unused", "lib_square"],
                                   ["lib_external"], ["lib_hook_user", "lib_square", "lib_unused"]])
def test_needed_pieces_link_as_the_whole_library(index, calls):
    main = _main(calls)
    needed = index.text(declared_names(llvm().parse_assembly(main)))
    assert _linked(main, needed) == _linked(main, LIBRARY)


def test_only_what_is_referred_to_is_kept(index):
    text = index.text(["lib_square"])
    module = llvm().parse_assembly(text)
    module.verify()
    defined = {f.name for f in module.functions if not f.is_declaration}
    # the strong definition always; lib_square and what it refers to; nothing else
    assert defined == {"__kk_always", "lib_square", "lib_helper"}
    assert {g.name for g in module.global_variables} == {"table"}
    hook = index.text(["lib_hook_user"])
    assert "@hooked(" in hook and "@lib_external(" in hook and "@lib_unused(" not in hook


def test_index_round_trips_through_bytes(index):
    again = LibraryIndex.from_bytes(index.to_bytes())
    assert again is not None and again.text(["lib_hook_user"]) == index.text(["lib_hook_user"])
    assert LibraryIndex.from_bytes(b"not an index") is None
    assert index.opencl_definitions == frozenset()


# OpenCL C 3.0 without the generic address space: atomics on global and local objects call the
# AS1/AS3 overloads, which atomics_named.cl defines (codegen.NAMED_ATOMIC_CALL)
NAMED_ATOMICS_OPTIONS = ["-cl-std=CL3.0", "-cl-ext=-__opencl_c_generic_address_space,-__opencl_c_pipes,"
                         "-__opencl_c_device_enqueue,+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device"]
NAMED_ATOMICS_SOURCE = """
kernel void named(global atomic_int *a, global int *out) {
  local atomic_int l;
  if (get_local_id(0) == 0) atomic_store_explicit(&l, 0, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = atomic_fetch_add_explicit(a, 1, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_max_explicit(&l, x, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_load_explicit(&l, memory_order_relaxed, memory_scope_work_group);
}
"""


def test_amdgpu_code_objects_equal_linking_the_whole_device_library(monkeypatch):
    """The real __mux_* library (mux_builtins.cl for gfx90a, code object V6) and the named atomics:
    kernels with barriers and work-group functions, printf, images and scoped atomics build to the
    same bytes when only the index's pieces are linked as when LLVM links the whole libraries."""
    from pathlib import Path

    from kernelkit.mux.registry import build_binary
    from kernelkit.targets.amdhsa import codegen, library_index

    monkeypatch.setenv("KERNELKIT_BUILD_IN_PROCESS", "1")   # both builds in this process, libraries swapped
    texts = {library_index.MUX_BUILTINS: codegen.mux_library_ir("gfx90a", 6),
             library_index.NAMED_ATOMICS: codegen.on_demand_library_ir(library_index.NAMED_ATOMICS, "gfx90a", 6)}
    indexes = {name: build_index(text) for name, text in texts.items()}
    corpus = Path(__file__).resolve().parents[1] / "corpus"
    cases = [(name, (corpus / name).read_text(), options) for name, options in [
        ("workgroup_cl20.cl", ["-cl-std=CL2.0"]), ("printf.cl", ["-cl-std=CL1.2"]),
        ("images_cl20.cl", ["-cl-std=CL2.0"]), ("atomics_c11.cl", ["-cl-std=CL2.0"])]]
    cases.append(("named_atomics.cl", NAMED_ATOMICS_SOURCE, NAMED_ATOMICS_OPTIONS))
    for name, source, options in cases:
        built = []
        for pick in (lambda lib: library_index.WholeLibrary(texts[lib]), lambda lib: indexes[lib]):
            monkeypatch.setattr(library_index, "linkable_library", lambda lib, *_args, pick=pick: pick(lib))
            built.append(build_binary(source, "gfx90a", options, filename=name))
        assert built[0] == built[1], name
