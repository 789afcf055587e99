"""OpenCL C 2.0 pipes and device-side enqueue from SPIR-V (issue #14 item 1: corpus pipes_cl20.cl).

clang 22 cannot write SPIR-V for pipes_cl20.cl; the Khronos translator (clang 15 -O0 + llvm-spirv-15) can. The kernels
cannot run on the host device (no pipes, no device queue), so the oracle is the OpenCL C source through kernelkit's
clang frontend: the same signatures, the same runtime calls as clang 22's IR (names and types), and for every target
the same binary metadata (AMDGPU: amdhsa.kernels with pipe/queue value kinds, the hidden default-queue and
completion-action arguments and the block kernel's runtime handle; CL2: the pipe arguments and feature flags) or the
same refusal. What the translator's SPIR-V does not carry is left out and said where: ``const`` on a pointee (it
writes const only as FuncParamAttr NoWrite, which nothing infers at -O0; as in test_spirv_signatures) and the
code-dependent keys of the binaries (registers, code size and offsets, descriptor bits: the translator's -O0 code
differs from clang 22's).
"""

from __future__ import annotations

import re
import struct

import numpy as np
import pytest
from spirv_corpus import CORPUS, translator_spirv

import kernelkit
from kernelkit.abi.signature import signatures_from_ir, signatures_from_source
from kernelkit.builder import build
from kernelkit.commands.inspect import find_inspector
from kernelkit.errors import CompileError, FormatError
from kernelkit.formats.spirv import read_module
from kernelkit.frontend.opencl import compile_opencl
from kernelkit.frontend.spirv import translate

CORPUS_FILE = "pipes_cl20.cl"
# every pipe and device-enqueue builtin: reserve/commit (work-item, work-group and sub-group), packet queries, enqueue_kernel
# with events, local sizes and a block capturing nothing (a global literal), kernel queries (cl_khr_subgroups ones too),
# markers and events
BUILTINS = """
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void reserve_rw(read_only pipe int in, write_only pipe int out, global int *n) {
  reserve_id_t r = reserve_read_pipe(in, 2);
  int v = 0;
  if (is_valid_reserve_id(r)) {
    read_pipe(in, r, 1, &v);
    commit_read_pipe(in, r);
  }
  reserve_id_t w = reserve_write_pipe(out, 1);
  if (is_valid_reserve_id(w)) {
    write_pipe(out, w, 0, &v);
    commit_write_pipe(out, w);
  }
  n[0] = get_pipe_num_packets(in) + get_pipe_max_packets(out);
  reserve_id_t g = work_group_reserve_read_pipe(in, 4);
  work_group_commit_read_pipe(in, g);
  reserve_id_t h = work_group_reserve_write_pipe(out, 4);
  work_group_commit_write_pipe(out, h);
  reserve_id_t s = sub_group_reserve_read_pipe(in, 1);
  sub_group_commit_read_pipe(in, s);
}
kernel void enq_all(global int *out, local int *scratch) {
  queue_t q = get_default_queue();
  clk_event_t evs[2], ev;
  size_t g2[2] = {8, 4};
  ndrange_t r = ndrange_2D(g2);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2, 8, 4), 0, 0, &evs[0], ^{ out[1] = 2; });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local void *a, local void *b){ ((local int*)a)[0] = 1; }, 16u, 32u);
  enqueue_kernel(q, 0, r, 1, evs, &ev, ^(local void *a){ ((local int*)a)[0] = out[0]; }, 8u);
  out[2] = get_kernel_work_group_size(^{ out[3] = 1; });
  out[4] = get_kernel_preferred_work_group_size_multiple(^{ out[3] = 1; });
  out[7] = get_kernel_sub_group_count_for_ndrange(r, ^{ out[3] = 2; });
  out[8] = get_kernel_max_sub_group_size_for_ndrange(r, ^{ out[3] = 3; });
  enqueue_marker(q, 1, evs, &ev);
  clk_event_t u = create_user_event();
  set_user_event_status(u, 0);
  out[5] = is_valid_event(u);
  retain_event(u);
  release_event(u);
  capture_event_profiling_info(ev, CLK_PROFILING_COMMAND_EXEC_TIME, out);
  size_t g3[3] = {2, 2, 2};
  enqueue_kernel(q, 0, ndrange_3D(g3, g3, g3), ^{ out[6] = 3; });
}
"""
# OpBuildNDRange in every form (1D with and without offset and local size, 2D, 3D), fields read back
NDRANGES = """
kernel void ndranges(global ulong *out) {
  size_t g2[2] = {8, 4}, l2[2] = {2, 2}, o3[3] = {1, 2, 3}, g3[3] = {4, 6, 8}, l3[3] = {2, 3, 1};
  ndrange_t r[4];
  r[0] = ndrange_1D(16);
  r[1] = ndrange_1D(3, 16, 4);
  r[2] = ndrange_2D(g2, l2);
  r[3] = ndrange_3D(o3, g3, l3);
  for (int k = 0; k < 4; k++) {
    out[10 * k] = r[k].workDimension;
    for (int d = 0; d < 3; d++) {
      out[10 * k + 1 + d] = r[k].globalWorkOffset[d];
      out[10 * k + 4 + d] = r[k].globalWorkSize[d];
      out[10 * k + 7 + d] = r[k].localWorkSize[d];
    }
  }
}
"""
# binary metadata that depends on the code, not on the kernel interface
CODE_KEYS = frozenset(("resources", "sgpr_count", "vgpr_count", "agpr_count", "sgpr_spill_count", "vgpr_spill_count",
                       "uses_dynamic_stack", "private_segment_fixed_size", "group_segment_fixed_size", "descriptor",
                       "amd_kernel_code_t", "compute_pgm_rsrc1", "compute_pgm_rsrc2", "code_properties"))


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """name -> (OpenCL C path, its translator SPIR-V): the corpus file, the builtins, the ndranges and the corpus
    file's two pipe kernels alone (amdcl2 refuses device-side enqueue, not pipes)."""
    folder = tmp_path_factory.mktemp("pipes")
    corpus = (CORPUS / CORPUS_FILE).read_text()
    texts = {"builtins": BUILTINS, "ndranges": NDRANGES,
             "pipes_only": corpus[:corpus.index("kernel void enqueue_child")]}
    out = {"corpus": (CORPUS / CORPUS_FILE, translator_spirv(CORPUS_FILE, "CL2.0"))}
    for name, text in texts.items():
        path = folder / f"{name}.cl"
        path.write_text(text)
        out[name] = (path, translator_spirv(str(path), "CL2.0"))
    return out


def _without_const(sig: dict) -> dict:
    return {**sig, "args": [{**a, "type_qualifiers": [q for q in a["type_qualifiers"] if q != "const"]}
                            for a in sig["args"]]}


@pytest.mark.parametrize("name", ["corpus", "builtins"])
def test_signatures_equal_the_opencl_c_source(sources, name):
    path, spirv = sources[name]
    got = [s.to_json() for s in signatures_from_ir(translate(spirv))]
    want = [s.to_json() for s in signatures_from_source(str(path), ["-cl-std=CL2.0"])]
    assert [_without_const(s) for s in got] == [_without_const(s) for s in want]
    pipes = {(s["name"], a["name"]): (a["kind"], a["access_qualifier"], a["type_name"]) for s in got for a in s["args"]
             if a["kind"] in ("pipe", "queue")}
    if name == "corpus":
        assert pipes == {("pipe_producer", "out_pipe"): ("pipe", "write_only", "int"),
                         ("pipe_consumer", "in_pipe"): ("pipe", "read_only", "float4"),
                         ("enqueue_child", "q"): ("queue", "none", "queue_t")}


def _runtime_declarations(ir_text: str) -> dict[str, str]:
    """Declared functions (not LLVM intrinsics, not work-item functions) -> return and parameter types."""
    out = {}
    for ret, name, params in re.findall(r"^declare [^@\n]*?(\S+) @([\w.$]+)\((.*)\)", ir_text, re.M):
        if not name.startswith(("llvm.", "_Z13get_global_id")):
            out[name] = ret + "(" + re.sub(r"\s*\b(noundef|dead_on_unwind|writable|sret\([^)]*\)|align \d+)", "",
                                           params) + ")"
    return out


def test_runtime_calls_are_the_ones_clang_declares_for_the_source(sources):
    """Every pipe and enqueue instruction becomes the call clang 22 makes for the builtin (same name, same types);
    the block kernels are the source's. Only ndrange_1D/2D/3D are not called: OpBuildNDRange builds the struct."""
    path, spirv = sources["builtins"]
    ours = translate(spirv)
    clang = compile_opencl(path.read_text(), ["-cl-std=CL2.0", "-O0"], use_cache=False).ir_text
    want = {k: v for k, v in _runtime_declarations(clang).items() if not k.startswith("_Z10ndrange_")}
    assert _runtime_declarations(str(ours)) == want
    assert len(want) == 31
    blocks = re.findall(r"^define spir_kernel [^@\n]*@(__\w+_block_invoke\w*_kernel)\(", clang, re.M)
    assert [f.name for f in ours.kernels() if "_block_invoke" in f.name] == blocks
    assert all("kernel_arg_addr_space" not in f.metadata for f in ours.kernels() if f.name in blocks)


def test_ndrange_values_equal_the_opencl_c_library_run(sources):
    """OpBuildNDRange's struct, read back on the host, equals ndrange_1D/2D/3D's from the OpenCL C source (kernelkit's
    ndrange library): the given dimensions as the spec says, then offset 0, size 1, local size 0."""
    path, spirv = sources["ndranges"]
    got, want = np.zeros(40, np.int64), np.zeros(40, np.uint64)
    kernelkit.Program(spirv).build("host").kernel("ndranges")(got, global_size=1)
    kernelkit.Program(path.read_text(), ["-cl-std=CL2.0"]).build("host").kernel("ndranges")(want, global_size=1)
    assert got.view(np.uint64).tolist() == want.tolist()
    assert want.reshape(4, 10)[:, :1].ravel().tolist() == [1, 1, 2, 3]
    assert want.reshape(4, 10)[3].tolist() == [3, 1, 2, 3, 4, 6, 8, 2, 3, 1]


def _metadata(binary: bytes) -> dict:
    info = find_inspector(binary, "binary").inspect(binary, "binary")
    info["kernels"] = [{k: v for k, v in kernel.items() if k not in CODE_KEYS} for kernel in info["kernels"]]
    info.pop("compile_options", None)   # CL2 records the build options: the source's -cl-std=CL2.0, none for SPIR-V
    return info


def _const_args(info: dict) -> set[tuple[str, str]]:
    return {(k["name"], a["name"]) for k in info["kernels"] for a in k["args"] if a.get("is_const")}


def _const_dropped(info: dict) -> dict:
    for kernel in info["kernels"]:
        for arg in kernel["args"]:
            arg.pop("is_const", None)
    return info


@pytest.mark.parametrize(("name", "target"), [("corpus", "gfx90a"), ("builtins", "gfx90a"),
                                              ("pipes_only", "amdcl2:tonga")])
def test_spirv_binary_metadata_equals_the_source_build(sources, name, target):
    path, spirv = sources[name]
    ours = _metadata(build("", target, spirv=spirv).binary)
    theirs = _metadata(build(path.read_text(), target, ["-cl-std=CL2.0"], filename=path.name).binary)
    assert _const_args(theirs) - _const_args(ours) <= {("pipe_producer", "src")}
    assert _const_dropped(ours) == _const_dropped(theirs)
    kinds = {a.get("value_kind") or a.get("kind") for k in theirs["kernels"] for a in k["args"]}
    if target.startswith("gfx"):
        assert {"pipe", "hidden_default_queue", "hidden_completion_action"} <= kinds
        assert ("queue" in kinds) == (name == "corpus")
        assert [k["device_enqueue_symbol"] for k in ours["kernels"] if "_block_invoke" in k["name"]] == \
            [k["name"] + ".runtime.handle" for k in theirs["kernels"] if "_block_invoke" in k["name"]]
    else:
        assert "pipe" in kinds


@pytest.mark.parametrize("target", ["host", "amdcl2:tonga", "visa:tgllp"])
def test_targets_refuse_the_spirv_as_they_refuse_the_source(sources, target):
    path, spirv = sources["corpus"]
    with pytest.raises(CompileError) as from_spirv:
        build("", target, spirv=spirv)
    with pytest.raises(CompileError) as from_source:
        build(path.read_text(), target, ["-cl-std=CL2.0"], filename=path.name)
    assert str(from_spirv.value).replace("<spirv>", path.name) == str(from_source.value)


def test_amd_il_refuses_the_spirv_at_its_first_pipe_call(sources):
    """AMD IL refuses the source for its OpenCL C version (2.0; those devices run 1.2). The SPIR-V carries no build
    option: it is refused where code generation meets the first pipe builtin."""
    path, spirv = sources["corpus"]
    with pytest.raises(CompileError, match=r"OpenCL C 2\.0 is not supported by AMD IL devices"):
        build(path.read_text(), "amdil:juniper", ["-cl-std=CL2.0"], filename=path.name)
    with pytest.raises(CompileError, match=r"call to __write_pipe_2: not an OpenCL builtin kernelkit defines"):
        build("", "amdil:juniper", spirv=spirv)


_PIPE_OPCODES = frozenset(range(274, 289)) | frozenset(range(291, 305)) | {35, 36, 37, 38}


def test_malformed_pipe_and_enqueue_operands_are_format_errors(sources):
    """Each operand word of every pipe, enqueue and pipe/queue type instruction of the corpus module replaced by
    another id (a type, a constant, a function, nothing) or the instruction cut one word short: the reader
    translates or refuses with a FormatError naming the offset (never another exception)."""
    _, spirv = sources["corpus"]
    words = list(struct.unpack(f"<{len(spirv) // 4}I", spirv))
    module = read_module(spirv)
    ids = sorted({inst.operands[0] for inst in module.instructions if inst.name.startswith("Type")})
    functions = [inst.operands[1] for inst in module.instructions if inst.name == "Function"]
    refused = 0
    for inst in module.instructions:
        if inst.opcode not in _PIPE_OPCODES:
            continue
        at = inst.offset // 4
        count = words[at] >> 16
        variants = []
        for k in range(1, count):
            for value in (ids[0], ids[-1], functions[0], words[0x3], 0xFFFF):
                variants.append([*words[:at + k], value, *words[at + k + 1:]])
        variants.append([*words[:at], ((count - 1) << 16) | inst.opcode, *words[at + 1:at + count - 1], 1 << 16,
                         *words[at + count:]])
        for damaged in variants:
            try:
                translate(struct.pack(f"<{len(damaged)}I", *damaged))
            except FormatError as exc:
                assert exc.offset is not None, str(exc)
                refused += 1
    assert refused > 50
