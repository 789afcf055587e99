"""Spec 003 (ComputeMux compiler), section by section: one test per rule, named after its section.

Oracles: the spec's own text and enums (``mux_spec``), numpy running the kernels, PoCL's view of this
CPU (clinfo) for the host's builtin capabilities, spirv-as/spirv-val for SPIR-V input, a second
Python process for serialization. The argument-check rules of every method are in test_api.py;
specialisation by local size in test_local_size_specialisation.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import require_tool
from mux_spec import enum_values

import kernelkit
from kernelkit.ir import parse
from kernelkit.mux import Context, MuxError, NDRangeOptions, Result
from kernelkit.mux.attributes import get_attribute
from kernelkit.mux.device import AddressCapabilities, BuiltinCapabilities
from kernelkit.mux.names import MemScope, MemSemantics
from kernelkit.mux.passes.fences import lower_mem_barriers
from kernelkit.mux.registry import find_compiler, get_compilers

SOURCE = """
bool __mux_isftz(void); bool __mux_usefast(void); bool __mux_isembeddedprofile(void);
kernel void flags(global int *out) {
  out[0] = __mux_isftz(); out[1] = __mux_usefast(); out[2] = __mux_isembeddedprofile();
}
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void shifted(global float *a, global float *b) {
  local float tmp[4];
  size_t i = get_global_id(0), l = get_local_id(0);
  tmp[l] = a[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] = tmp[(l + 1) % 4];
  printf("item %d of %u\\n", (int)i, (uint)get_local_size(0));
}
kernel void box(global const float *src, global float *dst, local float *tile) {
  event_t e = async_work_group_copy_3D3D(tile, 0, src, 5, sizeof(float), 4, 3, 2, 10, 40, 4, 12, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_3D3D(dst, 1, tile, 0, sizeof(float), 4, 3, 2, 4, 12, 6, 20, 0);
  wait_group_events(1, &e);
}
"""


def host_module(options=(), profile="FULL_PROFILE", source=SOURCE):
    target = find_compiler("host").create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c(source, ["-cl-std=CL3.0", *options], device_profile=profile)
    return module


@pytest.fixture(scope="module")
def finalized():
    module = host_module()
    info = module.finalize()
    return module, info


@pytest.fixture(scope="module")
def program(finalized):
    return kernelkit.Program.from_binary(finalized[0].generic_host_binary().to_bytes())


# -- Context -----------------------------------------------------------------------------------------
def test_context_is_valid_spirv_checks_magic_and_header():
    ctx = Context()
    assert ctx.is_valid_spirv([0x07230203, 0x10000, 0, 1, 0])
    assert not ctx.is_valid_spirv([0x07230203, 0x10000, 0, 1])       # header cut short
    assert not ctx.is_valid_spirv(bytes(20))


def test_context_get_specializable_constants_of_a_module():
    text = ("OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
            "OpDecorate %c SpecId 7\n%int = OpTypeInt 32 0\n%c = OpSpecConstant %int 42\n")
    spv = subprocess.run([require_tool("spirv-as"), "--target-env", "opencl2.0", "-o", "-", "-"],
                         input=text.encode(), capture_output=True, check=True).stdout
    constants = Context().get_specializable_constants(spv)
    assert list(constants) == [7]
    assert (constants[7].constant_type, constants[7].size_in_bits, constants[7].default) == ("int", 32, 42)
    with pytest.raises(MuxError) as err:
        Context().get_specializable_constants(b"not spir-v at all!!")
    assert err.value.result == Result.INVALID_VALUE


# -- Info --------------------------------------------------------------------------------------------
def test_info_create_target_without_a_context_is_refused():
    with pytest.raises(MuxError) as err:
        find_compiler("host").create_target(None, None)
    assert err.value.result == Result.INVALID_VALUE


@pytest.mark.parametrize("info", get_compilers(), ids=lambda i: i.name)
def test_info_get_builtin_capabilities_follows_device_info(info):
    dev, caps = info.device_info, info.get_builtin_capabilities()
    only_32 = bool(dev.address_capabilities & AddressCapabilities.BITS32) and not (
        dev.address_capabilities & AddressCapabilities.BITS64)
    assert bool(caps & BuiltinCapabilities.BITS32) == only_32 == (dev.pointer_size == 4)
    assert bool(caps & BuiltinCapabilities.FP64) == bool(dev.double_capabilities)
    assert bool(caps & BuiltinCapabilities.FP16) == bool(dev.half_capabilities)


def test_info_get_builtin_capabilities_of_the_host_match_pocl_on_this_cpu(monkeypatch):
    monkeypatch.setenv("OCL_ICD_VENDORS", "/etc/OpenCL/vendors/pocl.icd")
    text = subprocess.run([require_tool("clinfo")], capture_output=True, text=True, timeout=60).stdout
    extensions = re.search(r"^\s*Device Extensions\s+(.*)$", text, flags=re.M)
    bits = re.search(r"^\s*Address bits\s+(\d+)", text, flags=re.M)
    assert extensions and bits, "clinfo lists PoCL's CPU device"
    caps = find_compiler("host").get_builtin_capabilities()
    assert bool(caps & BuiltinCapabilities.FP64) == ("cl_khr_fp64" in extensions.group(1))
    assert bool(caps & BuiltinCapabilities.FP16) == ("cl_khr_fp16" in extensions.group(1))
    assert bool(caps & BuiltinCapabilities.BITS32) == (bits.group(1) == "32")


@pytest.mark.parametrize("info", get_compilers(), ids=lambda i: i.name)
def test_info_supports_deferred_compilation_decides_create_kernel(info):
    target = info.create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c("kernel void k(global int *a) { a[get_global_id(0)] = 1; }")
    if info.supports_deferred_compilation:
        assert module.get_kernel("k").name == "k"
    else:
        with pytest.raises(MuxError) as err:
            module.get_kernel("k")
        assert err.value.result == Result.FEATURE_UNSUPPORTED


# -- Module ------------------------------------------------------------------------------------------
def test_module_compile_opencl_c_device_profile_reaches_isembeddedprofile():
    module = host_module(profile="EMBEDDED_PROFILE", source=SOURCE.split("__attribute__")[0])
    module.finalize()
    out = np.zeros(3, np.int32)
    kernelkit.Program.from_binary(module.create_binary()).flags(out, global_size=1)
    assert out[2] == 1


def test_module_finalize_returns_kernels_and_printf_calls(finalized):
    _, info = finalized
    assert [k.name for k in info.kernels] == ["flags", "shifted", "box"]
    calls = {(c.function, c.format, c.argument_types) for c in info.printf_calls}
    assert ("shifted", "item %d of %u\n", ("i32", "i32")) in calls
    assert {c.format for c in info.printf_calls} == {"item %d of %u\n"}


def test_module_finalize_keeps_the_compiled_ir_for_deferred_kernels(finalized):
    module, _ = finalized
    assert "__mux_work_group_barrier" not in str(module.llvm_module) and "__mux_work_group_barrier" in str(
        module.finalized_llvm_module)


def test_module_serialize_deserialize_across_processes(tmp_path):
    path = tmp_path / "module.bin"
    script = textwrap.dedent(f"""
        from kernelkit.mux import Context
        from kernelkit.mux.registry import find_compiler
        t = find_compiler("host").create_target(Context(), None); t.init_with_builtins(None)
        m = t.create_module()
        m.compile_opencl_c("kernel void twice(global int *a) {{ a[get_global_id(0)] *= 2; }}")
        open({str(path)!r}, "wb").write(m.serialize())
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    target = find_compiler("host").create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.deserialize(path.read_bytes())
    assert module.state == module.COMPILED and module.size() == len(module.serialize())
    module.finalize()
    a = np.arange(16, dtype=np.int32)
    kernelkit.Program.from_binary(module.create_binary()).twice(a, global_size=16)
    np.testing.assert_array_equal(a, np.arange(16) * 2)


def test_module_clear_drops_the_ir_and_keeps_the_log():
    module = host_module(source="kernel void k(global int *a) { int unused; a[0] = 1; }")
    module.finalize()
    module.create_binary()
    log = module.log
    module.clear()
    assert module.llvm_module is None and module.finalized_llvm_module is None and module.log == log
    with pytest.raises(MuxError) as err:
        module.serialize()
    assert err.value.result == Result.INVALID_VALUE


def test_module_get_kernel_creates_one_kernel_per_name(finalized):
    module, _ = finalized
    assert module.get_kernel("shifted") is module.get_kernel("shifted")
    with pytest.raises(MuxError) as err:
        module.get_kernel("missing")
    assert err.value.result == Result.INVALID_VALUE


# -- Kernel ------------------------------------------------------------------------------------------
def test_kernel_preferred_local_size_is_the_required_size_or_the_work_width(finalized):
    module, _ = finalized
    shifted = module.get_kernel("shifted")
    assert (shifted.preferred_local_size_x, shifted.preferred_local_size_y,
            shifted.preferred_local_size_z) == (4, 1, 1)
    flags = module.get_kernel("flags")
    width = flags.get_dynamic_work_width(1024, 1, 1)
    assert (flags.preferred_local_size_x, flags.preferred_local_size_y, flags.preferred_local_size_z) == (width, 1, 1)


@pytest.mark.parametrize("size", [(1, 1, 1), (3, 1, 1), (64, 2, 1)])
def test_kernel_get_dynamic_work_width_is_positive_and_at_most_the_group(finalized, size):
    width = finalized[0].get_kernel("flags").get_dynamic_work_width(*size)
    assert 0 < width <= size[0] * size[1] * size[2]


def test_kernel_create_specialized_kernel_gives_a_loadable_binary(finalized):
    kernel = finalized[0].get_kernel("shifted")
    binary = kernel.create_specialized_kernel(NDRangeOptions(local_size=(4, 1, 1), global_size=(8,)))
    a = np.arange(8, dtype=np.float32)
    b = np.zeros_like(a)
    out = kernelkit.Program.from_binary(binary).shifted(a, b, global_size=8, local_size=4)
    np.testing.assert_array_equal(b, np.roll(a.reshape(2, 4), -1, axis=1).ravel())
    assert out.count("of 4\n") == 8


def test_kernel_sub_group_queries_satisfy_their_guarantees(finalized):
    kernel = finalized[0].get_kernel("flags")
    size = kernel.get_sub_group_size()
    assert size > 0 and kernel.query_sub_group_size_for_local_size(16, 1, 1) > 0
    local = kernel.query_local_size_for_sub_group_count(4)
    assert sorted(local)[:2] == [1, 1] and (local[0] * local[1] * local[2]) % size == 0
    assert kernel.query_max_sub_group_count() > 0


# -- Builtins ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "expected"), [
    ((), [0, 0, 0]),
    (("-cl-denorms-are-zero",), [1, 0, 0]),
    (("-cl-fast-relaxed-math",), [0, 1, 0]),
    (("-cl-unsafe-math-optimizations", "-cl-denorms-are-zero"), [1, 1, 0]),
])
def test_builtins_isftz_usefast_isembeddedprofile_follow_the_build_options(options, expected):
    out = np.full(3, 7, np.int32)
    prog = kernelkit.Program(SOURCE.split("__attribute__")[0], ["-cl-std=CL3.0", *options]).build("host")
    prog.flags(out, global_size=1)
    assert out.tolist() == expected


def test_builtins_dma_read_and_write_3d_are_produced(finalized):
    text = str(finalized[0].finalized_llvm_module)
    assert re.search(r"call \S+ @__mux_dma_read_3D\(ptr addrspace\(3\)", text)
    assert re.search(r"call \S+ @__mux_dma_write_3D\(ptr addrspace\(1\)", text)


def test_builtins_dma_3d_copies_lines_and_planes(program):
    src = np.arange(200, dtype=np.float32)
    dst = np.full(80, -1, np.float32)
    program.box(src, dst, kernelkit.LocalMemory(24 * 4), global_size=4, local_size=4)
    # cl_khr_extended_async_copies: offsets, line lengths and plane spacings count elements
    tile = np.zeros(24, np.float32)
    expected = np.full(80, -1, np.float32)
    for plane in range(2):
        for line in range(3):
            s, d = 5 + plane * 40 + line * 10, plane * 12 + line * 4
            tile[d:d + 4] = src[s:s + 4]
    for plane in range(2):
        for line in range(3):
            s, d = plane * 12 + line * 4, 1 + plane * 20 + line * 6
            expected[d:d + 4] = tile[s:s + 4]
    np.testing.assert_array_equal(dst, expected)


# -- Memory and Control Barriers --------------------------------------------------------------------
def _ordering_of(semantics: int) -> str | None:
    spec = enum_values("MemSemantics")
    return {spec["MemSemanticsRelaxed"]: None, spec["MemSemanticsAcquire"]: "acquire",
            spec["MemSemanticsRelease"]: "release", spec["MemSemanticsAcquireRelease"]: "acq_rel",
            spec["MemSemanticsSequentiallyConsistent"]: "seq_cst"}[semantics & spec["MemSemanticsMask"]]


@pytest.mark.parametrize("scope", list(MemScope), ids=lambda s: s.name)
@pytest.mark.parametrize("ordering", [MemSemantics.RELAXED, MemSemantics.ACQUIRE, MemSemantics.RELEASE,
                                      MemSemantics.ACQUIRE_RELEASE, MemSemantics.SEQUENTIALLY_CONSISTENT],
                         ids=lambda s: s.name)
def test_memory_and_control_barriers_mem_barrier_honours_scope_and_semantics(scope, ordering):
    spec_scopes = enum_values("MemScope")
    semantics = int(ordering) | int(MemSemantics.CROSS_WORK_GROUP_MEMORY)
    module = parse(f"""
declare void @__mux_mem_barrier(i32, i32)
define void @k() {{
  call void @__mux_mem_barrier(i32 {int(scope)}, i32 {semantics})
  ret void
}}""")
    single = (spec_scopes["MemScopeWorkGroup"], spec_scopes["MemScopeSubGroup"])
    assert lower_mem_barriers(module, [MemScope(s) for s in single]) == 1
    body = str(module.get_function("k"))
    expected = None if scope == spec_scopes["MemScopeWorkItem"] else _ordering_of(semantics)
    fences = re.findall(r"fence (?:syncscope\(\"(\w+)\"\) )?(\w+)", body)
    if expected is None:
        assert fences == []
    else:
        assert fences == [("singlethread" if int(scope) in single else "", expected)]
    assert "__mux_mem_barrier" not in body


def test_memory_and_control_barriers_work_group_barrier_carries_scope_and_semantics():
    src = """kernel void k(global int *a) {
      barrier(CLK_LOCAL_MEM_FENCE);
      work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
      a[0] = 1; }"""
    module = host_module(source=src)
    module.finalize()
    calls = re.findall(r"call void @__mux_work_group_barrier\(i32 (\d+), i32 (\d+), i32 (\d+)\)",
                       str(module.finalized_llvm_module))
    scope, sem = enum_values("MemScope"), enum_values("MemSemantics")
    seq = sem["MemSemanticsSequentiallyConsistent"]
    assert {(int(s), int(m)) for _, s, m in calls} == {
        (scope["MemScopeWorkGroup"], seq | sem["MemSemanticsWorkGroupMemory"]),
        (scope["MemScopeDevice"], seq | sem["MemSemanticsCrossWorkGroupMemory"])}
    assert len({i for i, _, _ in calls}) == len(calls)    # unique barrier ids


# -- Metadata and Function Attributes ----------------------------------------------------------------
def test_metadata_reqd_work_group_size_and_max_work_dim(finalized):
    fn = finalized[0].finalized_llvm_module.get_function("shifted")
    text = str(finalized[0].finalized_llvm_module)
    assert "!reqd_work_group_size" in str(fn).splitlines()[0] and "!{i32 4, i32 1, i32 1}" in text
    assert "!max_work_dim" in str(fn).splitlines()[0]


def test_function_attributes_mark_kernel_entry_points(finalized):
    module = finalized[0].finalized_llvm_module
    for name in ("flags", "shifted", "box"):
        fn = module.get_function(name)
        assert get_attribute(fn, "mux-kernel") == "entry-point"
        assert get_attribute(fn, "mux-orig-fn") == name == get_attribute(fn, "mux-base-fn-name")
        assert get_attribute(fn, "mux-work-item-order") == "xyz"
        assert get_attribute(fn, "mux-no-subgroups") is not None
    assert get_attribute(module.get_function("shifted"), "mux-local-mem-usage") == "16"


def test_metadata_codeplay_ca_wrapper_describes_each_entry_points_loops():
    from kernelkit.targets.host import codegen
    from kernelkit.targets.host.module import build_host_binary

    src = """kernel void bar(global float *o, local float *t) {
      t[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = t[0]; }"""
    module = host_module(source=src)
    module.finalize()
    mux_ir = str(module.finalized_llvm_module)
    width = build_host_binary(mux_ir, module.program_info.kernels, module.options).kernel("bar").vector_width
    for fixed, tail in ((None, width > 1), ((width * 2, 1, 1), False)):
        codegen.compile_host(mux_ir, keep_ir=True, local_sizes={"bar": fixed} if fixed else None)
        text = codegen._LAST_IR["text"]
        head = re.search(r"^define [^\n]*@kk\.run\.bar\([^\n]*", text, flags=re.M).group(0)
        node = re.search(r"!codeplay_ca_wrapper !(\d+)", head).group(1)
        main, rest = re.search(rf"^!{node} = !{{!(\d+), (null|!\d+)}}$", text, flags=re.M).groups()
        assert re.search(rf"^!{main} = !{{i32 {width}, i1 false, i32 0, i1 false}}$", text, flags=re.M)
        assert (rest != "null") == tail
