"""OpenCL -> __mux_* lowering on IR from the frontend, verified by llvmlite; encodings per spec 003."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS
from lowering_helpers import calls, fn_attributes, lowered, std_for

from kernelkit.mux.builtins import is_opencl_lowered_name
from kernelkit.mux.mangling import try_demangle
from kernelkit.mux.names import MemScope, MemSemantics

CORPUS_FILES = sorted(p.name for p in CORPUS.glob("*.cl"))
# kernelkit's MemScope/MemSemantics under spec 003's names (test_builtins checks them against the spec)
SCOPE = {f"MemScope{k.title().replace('_', '')}": int(v) for k, v in MemScope.__members__.items()}
SEM = {f"MemSemantics{k.title().replace('_', '')}": int(v) for k, v in MemSemantics.__members__.items()}


@pytest.mark.parametrize("opt", ["-O0", "-O3"])
@pytest.mark.parametrize("filename", CORPUS_FILES)
def test_corpus_lowers_and_verifies(filename, opt):
    path = CORPUS / filename
    source = path.read_text()
    text, ref = lowered(source, (f"-cl-std={std_for(filename, source)}", opt), str(path))
    assert "spirv.Event" not in text
    for fn in ref.functions:
        demangled = try_demangle(fn.name)
        assert demangled is None or not is_opencl_lowered_name(demangled[0]), f"{fn.name} was not lowered"
        if fn.is_declaration:
            continue
        attrs = fn_attributes(ref, fn.name)
        if re.search(rf"define [^@]*spir_kernel [^@]*@{re.escape(fn.name)}\(", text):
            assert attrs.get("mux-kernel") == "entry-point"
            assert attrs.get("mux-orig-fn") == fn.name and attrs.get("mux-base-fn-name") == fn.name
            assert attrs.get("mux-work-item-order") == "xyz"
        else:
            assert "mux-kernel" not in attrs


def _one(text: str, callee: str) -> list[str]:
    found = calls(text, callee)
    assert len(found) == 1, (callee, found)
    return found[0]


def test_barriers_and_fences_encode_scope_and_semantics():
    src = """
    kernel void k(global int *p) {
      barrier(CLK_LOCAL_MEM_FENCE);
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
      sub_group_barrier(CLK_LOCAL_MEM_FENCE);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      read_mem_fence(CLK_LOCAL_MEM_FENCE);
      write_mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_sub_group);
      p[0] = 1;
    }"""
    text, _ = lowered(src)
    seq, wg_mem, xwg_mem = (SEM["MemSemanticsSequentiallyConsistent"], SEM["MemSemanticsWorkGroupMemory"],
                            SEM["MemSemanticsCrossWorkGroupMemory"])
    wg = calls(text, "__mux_work_group_barrier")
    assert [a[1:] for a in wg] == [
        [f"i32 {SCOPE['MemScopeWorkGroup']}", f"i32 {seq | wg_mem}"],
        [f"i32 {SCOPE['MemScopeWorkGroup']}", f"i32 {seq | wg_mem | xwg_mem}"],
        [f"i32 {SCOPE['MemScopeDevice']}", f"i32 {seq | xwg_mem}"],
    ]
    sg = _one(text, "__mux_sub_group_barrier")
    assert sg[1:] == [f"i32 {SCOPE['MemScopeSubGroup']}", f"i32 {seq | wg_mem}"]
    ids = [int(a[0].split()[1]) for a in [*wg, sg]]
    assert len(set(ids)) == len(ids), "barrier ids must be unique"
    fences = calls(text, "__mux_mem_barrier")
    assert fences == [
        [f"i32 {SCOPE['MemScopeWorkGroup']}", f"i32 {SEM['MemSemanticsAcquireRelease'] | xwg_mem}"],
        [f"i32 {SCOPE['MemScopeWorkGroup']}", f"i32 {SEM['MemSemanticsAcquire'] | wg_mem}"],
        [f"i32 {SCOPE['MemScopeWorkGroup']}", f"i32 {SEM['MemSemanticsRelease'] | xwg_mem}"],
        [f"i32 {SCOPE['MemScopeSubGroup']}", f"i32 {SEM['MemSemanticsRelease'] | wg_mem}"],
    ]


def test_async_copies_become_dma():
    src = """
    kernel void k(global float4 *g, local float4 *l, global float *gs, local float *ls, global short *cs,
                  local short *lsh) {
      event_t e = async_work_group_copy(l, g, 8, 0);
      e = async_work_group_copy(g, l, 8, e);
      e = async_work_group_strided_copy(ls, gs, 5, 3, e);
      e = async_work_group_strided_copy(gs, ls, 5, 7, e);
      e = async_work_group_copy(lsh, cs, 10, e);
      wait_group_events(1, &e);
      prefetch(g, 4);
    }"""
    text, _ = lowered(src)
    reads = calls(text, "__mux_dma_read_1D")
    assert [r[2] for r in reads] == ["i64 128", "i64 20"]  # 8 float4 = 128 bytes; 10 shorts = 20 bytes
    assert reads[0][0].startswith("ptr addrspace(3)") and reads[0][1].startswith("ptr addrspace(1)")
    write = _one(text, "__mux_dma_write_1D")
    assert write[0].startswith("ptr addrspace(1)") and write[2] == "i64 128"
    # read_2D(dst, src, width, dst_stride, src_stride, height, event): element by element
    r2 = _one(text, "__mux_dma_read_2D")
    assert r2[2:6] == ["i64 4", "i64 4", "i64 12", "i64 5"]
    w2 = _one(text, "__mux_dma_write_2D")
    assert w2[2:6] == ["i64 4", "i64 28", "i64 4", "i64 5"]
    wait = _one(text, "__mux_dma_wait")
    assert wait[0] == "i32 1" and wait[1].startswith("ptr ")
    assert reads[0][3].startswith("ptr ")  # __mux_dma_event_t is kernelkit's default event type
    assert "prefetch" not in text


def test_work_item_queries_map_one_to_one():
    src = """
    kernel void k(global ulong *o) {
      o[0] = get_global_id(2) + get_local_id(1) + get_group_id(0) + get_global_size(0) + get_local_size(1)
           + get_num_groups(2) + get_global_offset(0) + get_work_dim() + get_enqueued_local_size(0)
           + get_global_linear_id() + get_local_linear_id() + get_sub_group_size() + get_sub_group_id()
           + get_sub_group_local_id() + get_max_sub_group_size() + get_num_sub_groups();
    }"""
    text, ref = lowered(src)
    assert _one(text, "__mux_get_global_id") == ["i32 2"]
    assert _one(text, "__mux_get_local_id") == ["i32 1"]
    for name in ("group_id", "global_size", "local_size", "num_groups", "global_offset", "enqueued_local_size"):
        assert len(calls(text, f"__mux_get_{name}")) == 1
    for name in ("work_dim", "global_linear_id", "local_linear_id", "sub_group_size", "sub_group_id",
                 "sub_group_local_id", "max_sub_group_size", "num_sub_groups"):
        assert _one(text, f"__mux_get_{name}") == []
    assert re.search(r"declare i64 @__mux_get_global_id\(i32\)", text)
    assert re.search(r"declare i32 @__mux_get_work_dim\(\)", text)


def test_spir32_size_t_is_i32():
    src = """kernel void k(global uint *o, local uint *l) {
      event_t e = async_work_group_copy(l, o, 3, 0);
      o[get_global_id(0)] = get_local_size(0) + work_group_broadcast(o[1], 1);
      wait_group_events(1, &e);
    }"""
    text, _ = lowered(src, triple="spir-unknown-unknown")
    assert re.search(r"declare i32 @__mux_get_global_id\(i32\)", text)
    assert _one(text, "__mux_dma_read_1D")[2] == "i32 12"
    assert _one(text, "__mux_work_group_broadcast_i32")[2:] == ["i32 1", "i32 0", "i32 0"]


def test_collectives():
    src = """
    kernel void k(global int *i, global uint *u, global float *f, global double *d, global half *h,
                  global long *l) {
      i[0] = work_group_reduce_add(i[1]) + work_group_reduce_min(i[2]) + work_group_scan_inclusive_max(i[3]);
      u[0] = work_group_reduce_max(u[1]) + work_group_scan_exclusive_min(u[2]) + sub_group_reduce_add(u[3]);
      f[0] = work_group_reduce_add(f[1]) + work_group_reduce_min(f[2]) + sub_group_scan_exclusive_max(f[3]);
      d[0] = work_group_broadcast(d[1], 2, 3) + sub_group_broadcast(d[2], 1u);
      i[4] = work_group_all(i[5]) + work_group_any(i[6]) + sub_group_any(i[7]) + sub_group_all(i[8]);
      l[0] = work_group_broadcast(l[1], 5, 6, 7);
    }"""
    text, _ = lowered(src)
    expected = {
        "__mux_work_group_reduce_add_i32": 1, "__mux_work_group_reduce_smin_i32": 1,
        "__mux_work_group_scan_inclusive_smax_i32": 1, "__mux_work_group_reduce_umax_i32": 1,
        "__mux_work_group_scan_exclusive_umin_i32": 1, "__mux_sub_group_reduce_add_i32": 1,
        "__mux_work_group_reduce_fadd_f32": 1, "__mux_work_group_reduce_fmin_f32": 1,
        "__mux_sub_group_scan_exclusive_fmax_f32": 1, "__mux_work_group_broadcast_f64": 1,
        "__mux_sub_group_broadcast_f64": 1, "__mux_work_group_all_i1": 1, "__mux_work_group_any_i1": 1,
        "__mux_sub_group_any_i1": 1, "__mux_sub_group_all_i1": 1, "__mux_work_group_broadcast_i64": 1,
    }
    for name, count in expected.items():
        assert len(calls(text, name)) == count, name
    b = _one(text, "__mux_work_group_broadcast_f64")
    assert b[2:] == ["i64 2", "i64 3", "i64 0"]  # unused indices are zero
    assert _one(text, "__mux_work_group_broadcast_i64")[2:] == ["i64 5", "i64 6", "i64 7"]
    assert _one(text, "__mux_sub_group_broadcast_f64")[1] == "i32 1"
    # every work-group operation has a distinct barrier id as its first argument
    ids = [int(c[0].split()[1]) for n in expected if n.startswith("__mux_work_group") for c in calls(text, n)]
    assert len(ids) == len(set(ids)) == 11


def test_any_all_take_i1_and_return_int():
    text, ref = lowered("kernel void k(global int *o, int v) { o[0] = work_group_any(v); }", ("-cl-std=CL2.0", "-O3"))
    assert re.search(r"icmp ne i32 %\w+, 0", text)
    assert re.search(r"zext i1 %\w+ to i32", text)


@pytest.mark.parametrize(("body", "dims"), [
    ("o[get_global_id(0)] = 1;", 1),
    ("o[get_global_id(0) + get_local_size(1)] = 1;", 2),
    ("o[get_group_id(2)] = 1;", 3),
    ("o[get_local_linear_id()] = 1;", 3),
    ("o[helper()] = 1;", 2),
    ("o[get_global_id(d)] = 1;", 3),
    ("o[0] = work_group_reduce_add(1);", 3),
    ("o[0] = 1;", 1),
])
def test_max_work_dim(body, dims):
    src = f"size_t helper(void) {{ return get_global_id(1); }}\nkernel void k(global int *o, uint d) {{ {body} }}"
    text, ref = lowered(src, ("-cl-std=CL2.0", "-O0"))
    m = re.search(r"define [^\n]*@k\([^\n]*!max_work_dim (![0-9]+)", text)
    if dims == 3:
        assert m is None
    else:
        assert m is not None
        assert re.search(rf"^{m.group(1)} = !{{i32 {dims}}}$", text, flags=re.M)


def test_mux_no_subgroups():
    src = """
    int helper(int x) { return sub_group_reduce_add(x); }
    int plain(int x) { return x + 1; }
    kernel void uses_sg(global int *o) { o[0] = helper(o[1]); }
    kernel void uses_id(global int *o) { o[0] = get_sub_group_local_id(); }
    kernel void no_sg(global int *o) { o[0] = plain(o[1]) + get_local_id(0); }
    """
    text, ref = lowered(src, ("-cl-std=CL2.0", "-O0"))
    assert "mux-no-subgroups" not in fn_attributes(ref, "uses_sg")
    assert "mux-no-subgroups" not in fn_attributes(ref, "uses_id")
    assert "mux-no-subgroups" not in fn_attributes(ref, "helper")
    assert "mux-no-subgroups" in fn_attributes(ref, "no_sg")
    assert "mux-no-subgroups" in fn_attributes(ref, "plain")


def test_reqd_work_group_size_keeps_spec_form():
    text, ref = lowered("__attribute__((reqd_work_group_size(8, 4, 2))) kernel void k(global int *o) { o[0] = 1; }")
    m = re.search(r"define [^\n]*@k\([^\n]*!reqd_work_group_size (![0-9]+)", text)
    assert m and re.search(rf"^{m.group(1)} = !{{i32 8, i32 4, i32 2}}$", text, flags=re.M)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_local_memory_usage(opt):
    src = """
    kernel void small(global float *o) { local double d[3]; d[get_local_id(0) % 3] = 1.0; o[0] = d[1]; }
    kernel void tiles(global float *o) {
      local float tile[16][16];
      local int count;
      local char c;
      tile[get_local_id(1)][get_local_id(0)] = o[get_global_id(0)];
      count = (int)o[1]; c = (char)o[2];
      barrier(CLK_LOCAL_MEM_FENCE);
      o[get_global_id(0)] = tile[0][get_local_id(0)] + count + c;
    }
    kernel void via_callee(global float *o) { small(o); o[0] = 1.0f; }
    kernel void none(global float *o, local float *dyn) { dyn[0] = o[0]; o[1] = dyn[1]; }
    """
    text, ref = lowered(src, ("-cl-std=CL1.2", opt))
    # OpenCL C 3.0 §6.3.1 sizes: 16*16 floats + int + char, in declaration order with natural alignment
    assert fn_attributes(ref, "tiles").get("mux-local-mem-usage") == str(16 * 16 * 4 + 4 + 1)
    assert fn_attributes(ref, "via_callee").get("mux-local-mem-usage") == str(3 * 8)
    assert "mux-local-mem-usage" not in fn_attributes(ref, "none")  # __local arguments are not static


def test_barrier_schedule_attribute_on_call_sites():
    from kernelkit.frontend import compile_opencl
    from kernelkit.ir import parse
    from kernelkit.ir.instructions import CallInst
    from kernelkit.mux.attributes import get_barrier_schedule, set_barrier_schedule
    from kernelkit.mux.names import BarrierSchedule
    from kernelkit.mux.passes.lower_builtins import lower_opencl_builtins

    module = parse(compile_opencl("kernel void k(global int *o) { barrier(CLK_LOCAL_MEM_FENCE); o[0] = 1; }",
                                  ["-cl-std=CL2.0", "-O2"]).ir_text)
    lower_opencl_builtins(module)
    barrier = next(i for i in module.get_function("k").instructions()
                   if isinstance(i, CallInst) and i.callee.name == "__mux_work_group_barrier")
    assert get_barrier_schedule(barrier) is BarrierSchedule.UNORDERED
    set_barrier_schedule(barrier, BarrierSchedule.LINEAR)
    text = str(module)
    ref = __import__("llvmlite.binding", fromlist=["x"]).parse_assembly(text)
    ref.verify()
    call = next(i for b in ref.get_function("k").blocks for i in b.instructions
                if i.opcode == "call" and "__mux_work_group_barrier" in str(i))
    assert any(b'"mux-barrier-schedule"="linear"' in a for a in call.attributes)
    assert get_barrier_schedule(barrier) is BarrierSchedule.LINEAR


def test_sub_group_shuffles():
    src = """kernel void k(global int *o, global float *f) {
      o[0] = sub_group_shuffle(o[1], 2u) + sub_group_shuffle_xor(o[2], 1u);
      f[0] = sub_group_shuffle_up(f[3], 1u) + sub_group_shuffle_down(f[4], 5u);
    }"""
    text, _ = lowered(src)
    assert _one(text, "__mux_sub_group_shuffle_i32")[1] == "i32 2"
    assert _one(text, "__mux_sub_group_shuffle_xor_i32")[1] == "i32 1"
    up = _one(text, "__mux_sub_group_shuffle_up_f32")      # (prev, curr, delta): both the value
    assert up[0] == up[1] and up[2] == "i32 1"
    down = _one(text, "__mux_sub_group_shuffle_down_f32")  # (curr, next, delta)
    assert down[0] == down[1] and down[2] == "i32 5"


@pytest.mark.parametrize(("std", "version"), [("CL1.2", (1, 2)), ("CL2.0", (2, 0)), ("CL3.0", (3, 0))])
def test_opencl_version_metadata(std, version):
    from kernelkit.frontend import compile_opencl
    from kernelkit.ir import parse
    from kernelkit.mux.passes.kernel_attributes import opencl_c_version

    module = parse(compile_opencl("kernel void k(global int *o) { o[0] = 1; }", [f"-cl-std={std}"]).ir_text)
    assert opencl_c_version(module) == version
    del module.named_metadata["opencl.ocl.version"]
    assert opencl_c_version(module) == (1, 2)  # the spec's default


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("new", ["ptr", "i32"])
def test_dma_events_get_a_concrete_type(opt, new):
    from kernelkit.frontend import compile_opencl
    from kernelkit.ir import parse
    from kernelkit.ir import types as T
    from kernelkit.mux.passes.dma_events import retype_dma_events
    from kernelkit.mux.passes.lower_builtins import lower_opencl_builtins

    src = """
    event_t start(local float *l, global const float *g) { return async_work_group_copy(l, g, 16, 0); }
    kernel void k(global float *g, local float *l, int flag) {
      event_t e = start(l, g);
      event_t f = flag ? async_work_group_copy(g, l, 16, e) : e;
      event_t both[2] = {e, f};
      wait_group_events(2, both);
    }"""
    module = parse(compile_opencl(src, ["-cl-std=CL2.0", opt]).ir_text)
    lower_opencl_builtins(module)
    assert retype_dma_events(module, {"ptr": T.pointer(0), "i32": T.i32}[new]) > 0
    text = str(module)
    assert "spirv.Event" not in text
    import llvmlite.binding as llvm

    ref = llvm.parse_assembly(text)
    ref.verify()
    assert re.search(rf"declare {new} @__mux_dma_read_1D\(ptr addrspace\(3\), ptr addrspace\(1\), i64, {new}\)", text)
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine()
    ref.triple = llvm.get_default_triple()
    ref.data_layout = str(machine.target_data)
    # the host back end can now generate code for it (it cannot for target("spirv.Event"))
    assert machine.emit_object(ref)
