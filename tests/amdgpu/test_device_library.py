"""The amdhsa device library (images.cl, pipes.cl, enqueue.cl): every image, sampler, pipe and
device-side enqueue builtin of OpenCL C 2.0 resolves and compiles for amdgcn, with the argument
metadata, kernarg sizes and runtime handles clang 22 emits for the same source; LLVM's
disassembler finds the image/buffer instructions; processors without image instructions are
refused with a CompileError (LLVM would abort the process)."""

from __future__ import annotations

import subprocess
from functools import cache

import pytest
from conftest import require_tool

from amdgpu.clang_oracle import clang_code_object, explicit_args
from kernelkit.errors import CompileError
from kernelkit.formats import elf as E
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.mux.registry import build_binary

# (image type, integer coordinate, float coordinate or None: no sampler reads, depth image)
IMAGE_TYPES = [("image1d_t", "int", "float", False), ("image1d_buffer_t", "int", None, False),
               ("image1d_array_t", "int2", "float2", False), ("image2d_t", "int2", "float2", False),
               ("image2d_array_t", "int4", "float4", False), ("image3d_t", "int4", "float4", False),
               ("image2d_depth_t", "int2", "float2", True), ("image2d_array_depth_t", "int4", "float4", True)]
SUFFIXES = {"f": "float4", "i": "int4", "ui": "uint4", "h": "half4"}


def _image_kernel(ty: str, ci: str, cf: str | None, depth: bool, access: str) -> str:
    name = f"k_{ty}_{access}"
    body = [f"  {ci} c = ({ci})(get_global_id(0));", "  float4 acc = 0;"]
    reads = ["f"] if depth else list(SUFFIXES)
    for s in reads:
        conv = "" if depth else f"convert_float4(read_image{s}(img, c))"
        if access != "write_only":
            body.append(f"  acc += {conv or 'read_imagef(img, c)'};")
            if access == "read_only" and cf:
                fc = f"({cf})(1.5f)"
                body.append(f"  acc += {'read_imagef(img, smp, c)' if depth else f'convert_float4(read_image{s}(img, smp, c))'};")
                body.append(f"  acc += {'read_imagef(img, smp, ' + fc + ')' if depth else f'convert_float4(read_image{s}(img, smp, {fc}))'};")
    if access != "read_only" and (ty != "image3d_t" or access == "write_only" or True):
        for s, vt in SUFFIXES.items():
            if depth and s != "f":
                continue
            value = "acc.x" if depth else f"convert_{vt}(acc)"
            body.append(f"  write_image{s}(img, c, {value});")
    queries = ["get_image_width(img)", "get_image_channel_data_type(img)", "get_image_channel_order(img)"]
    if ty.startswith(("image2d", "image3d")):
        queries += ["get_image_height(img)", "get_image_dim(img).x"]
    if ty == "image3d_t":
        queries.append("get_image_depth(img)")
    if "array" in ty:
        queries.append("(int)get_image_array_size(img)")
    body.append(f"  out[get_global_id(0)] = acc + (float)({' + '.join(queries)});")
    sampler = ", sampler_t smp" if access == "read_only" and cf else ""
    return (f"kernel void {name}({access} {ty} img{sampler}, global float4 *out) {{\n" + "\n".join(body)
            + "\n}\n")


def image_source() -> str:
    parts = ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable",
             "#pragma OPENCL EXTENSION cl_khr_depth_images : enable"]
    for ty, ci, cf, depth in IMAGE_TYPES:
        for access in ("read_only", "write_only", "read_write"):
            if ty == "image3d_t" and access != "read_only":
                parts.append("#ifdef cl_khr_3d_image_writes")
            parts.append(_image_kernel(ty, ci, cf, depth, access))
            if ty == "image3d_t" and access != "read_only":
                parts.append("#endif")
    parts.append("constant sampler_t lit = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
                 "kernel void literal_sampler(read_only image2d_t img, global float4 *out) {\n"
                 "  out[0] = read_imagef(img, lit, (float2)(0.25f, 0.75f));\n}\n")
    return "\n".join(parts)


PIPE_SOURCE = """
kernel void all_pipes(read_only pipe int ip, write_only pipe int op, global int *o) {
  int v = 0;
  o[0] = read_pipe(ip, &v) + write_pipe(op, &v);
  reserve_id_t r = reserve_read_pipe(ip, 2);
  if (is_valid_reserve_id(r)) { read_pipe(ip, r, 1, &v); commit_read_pipe(ip, r); }
  reserve_id_t w = reserve_write_pipe(op, 2);
  if (is_valid_reserve_id(w)) { write_pipe(op, w, 0, &v); commit_write_pipe(op, w); }
  reserve_id_t a = work_group_reserve_read_pipe(ip, 4); work_group_commit_read_pipe(ip, a);
  reserve_id_t b = work_group_reserve_write_pipe(op, 4); work_group_commit_write_pipe(op, b);
  reserve_id_t c = sub_group_reserve_read_pipe(ip, 1); sub_group_commit_read_pipe(ip, c);
  reserve_id_t d = sub_group_reserve_write_pipe(op, 1); sub_group_commit_write_pipe(op, d);
  o[1] = v + get_pipe_num_packets(ip) + get_pipe_max_packets(ip) + get_pipe_num_packets(op) + get_pipe_max_packets(op);
}
"""

# one block per kernel: kernelkit.abi.signature recognises only the first block kernel of a
# kernel (``__k_block_invoke_kernel``, not ``__k_block_invoke_2_kernel``) as clang-generated
ENQUEUE_SOURCE = """
kernel void basic(global int *o, queue_t q) {
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), ^{ o[get_global_id(0)] = 7; });
}
kernel void with_events(global int *o) {
  queue_t q = get_default_queue();
  clk_event_t ev, ev2;
  size_t g[2] = {4, 4}, l[2] = {2, 2};
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(g, l), 0, 0, &ev, ^{ o[0] = 1; });
  enqueue_marker(q, 1, &ev, &ev2);
  clk_event_t u = create_user_event();
  retain_event(u); release_event(u); set_user_event_status(u, 0);
  o[3] = is_valid_event(u);
  capture_event_profiling_info(ev2, CLK_PROFILING_COMMAND_EXEC_TIME, (global void *)o);
}
kernel void with_locals(global int *o) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64, 16),
                 ^(local void *a){ ((local int *)a)[0] = 1; }, 16u);
}
kernel void with_events_and_locals(global int *o, queue_t q) {
  clk_event_t ev = create_user_event();
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 1, &ev, 0,
                 ^(local void *a, local void *b){ o[2] = 3; }, 16u, 32u);
}
kernel void queries(global int *o) {
  void (^blk)(void) = ^{ o[4] = 5; };
  ndrange_t r = ndrange_1D(64, 32);
  o[5] = get_kernel_work_group_size(blk) + get_kernel_preferred_work_group_size_multiple(blk)
       + get_kernel_max_sub_group_size_for_ndrange(r, blk) + get_kernel_sub_group_count_for_ndrange(r, blk);
}
"""

SOURCES = {"images": image_source(), "pipes": PIPE_SOURCE, "enqueue": ENQUEUE_SOURCE}


@cache
def _binary(which: str, version: int) -> bytes:
    return build_binary(SOURCES[which], "gfx90a:xnack-", ["-cl-std=CL2.0", f"-mcode-object-version={version}"])


def _ours(which: str, version: int) -> CodeObject:
    return CodeObject.parse(_binary(which, version))


SAMPLED_READ = """kernel void k(read_only image2d_t img, sampler_t s, global float4 *o) {
  o[0] = read_imagef(img, s, (float2)(0.5f, 0.5f));
}"""


def _clang(tmp_path, which: str, version: int) -> CodeObject:
    path = tmp_path / f"{which}.cl"
    path.write_text(SOURCES[which])
    # -O2 as ours: above -O0 clang gives call-free (block) kernels no hidden arguments
    return clang_code_object(str(path), "gfx90a", max(version, 4), "CL2.0", "-O2")


@pytest.mark.parametrize("which,version", [("images", 5), ("images", 2), ("pipes", 5), ("pipes", 4),
                                           ("enqueue", 5), ("enqueue", 4), ("enqueue", 2)])
def test_every_builtin_compiles_like_clang(tmp_path, which, version):
    ours, clang = _ours(which, version), _clang(tmp_path, which, version)
    # every kernel clang emits (the block kernels of enqueue_kernel included), same arguments
    assert sorted(k.name for k in ours.metadata.kernels) == sorted(k.name for k in clang.metadata.kernels)
    for ref in clang.metadata.kernels:
        k = ours.metadata.kernel(ref.name)
        assert explicit_args(k) == explicit_args(ref, as_version=version), ref.name
        assert k.kernarg_segment_size == ref.kernarg_segment_size, ref.name
        assert k.device_enqueue_symbol == ref.device_enqueue_symbol, ref.name
    if which == "enqueue":
        handles = [k.device_enqueue_symbol for k in ours.metadata.kernels if k.device_enqueue_symbol]
        assert len(handles) == 5       # four enqueued blocks and the one the queries name
        symbols = {s.name: s for s in ours.elf.symbols(".dynsym")}
        clang_symbols = {s.name: s for s in clang.elf.symbols(".symtab")}
        for h in handles:              # {kernel object, private size, group size} for the loader
            assert symbols[h].size == clang_symbols[h].size == 16
            assert (symbols[h].type_name, symbols[h].visibility_name) == \
                (clang_symbols[h].type_name, clang_symbols[h].visibility_name)
            assert ours.elf.sections[symbols[h].shndx].name == ".amdgpu.kernel.runtime.handle"


def test_image_code_uses_image_and_buffer_instructions(tmp_path):
    """LLVM's disassembler (llvm-objdump) reads image_load/image_sample/image_store and the typed
    buffer accesses of 1D buffer images in the kernels' code."""
    tool = require_tool("llvm-objdump")
    path = tmp_path / "images.hsaco"
    path.write_bytes(_binary("images", 5))
    out = subprocess.run([tool, "-d", "--mcpu=gfx90a", str(path)], capture_output=True, text=True, check=True).stdout
    for insn in ("image_load ", "image_sample ", "image_store ", "buffer_load_format_xyzw", "buffer_store_format_xyzw"):
        assert insn in out, insn
    other = tmp_path / "images.gfx1030.hsaco"   # sample_lz where the processor has it
    other.write_bytes(build_binary(SAMPLED_READ, "gfx1030", ["-cl-std=CL2.0"]))
    out = subprocess.run([tool, "-d", "--mcpu=gfx1030", str(other)], capture_output=True, text=True, check=True).stdout
    assert "image_sample_lz " in out and E.ElfFile.parse(other.read_bytes()).e_type == E.ET_DYN


def test_processor_without_image_instructions_is_a_compile_error():
    with pytest.raises(CompileError) as exc:
        build_binary(SAMPLED_READ, "gfx950", ["-cl-std=CL2.0"])
    assert "gfx950 has no image instructions" in str(exc.value)
    # pipes and enqueue need no image instructions
    assert CodeObject.parse(build_binary(PIPE_SOURCE, "gfx942", ["-cl-std=CL2.0"])).metadata.kernels


@pytest.mark.parametrize("version", [4, 5])
def test_kernarg_bytes_from_our_and_clangs_metadata_agree(tmp_path, version):
    """The runtime packs a dispatch's kernarg segment (queue and image handles, the default queue
    and completion action the device library reads) identically from our code object's metadata
    and from clang's, with each pointer where clang's metadata puts its hidden argument."""
    import struct

    from amdgpu.clang_oracle import CORPUS, gfx90a_corpus_object
    from kernelkit.abi import hsa

    for name, std, kernel, values in (("pipes_cl20.cl", "CL2.0", "enqueue_child", [0x5000, 0x6000]),
                                      ("images.cl", "CL1.2", "image_sample", [0x1000, 0x2000, 0x3000, 7])):
        # -cl-std as std; the build test_compile checks against clang too (one build per run)
        ours = CodeObject.parse(gfx90a_corpus_object(name, version))
        clang = clang_code_object(str(CORPUS / name), "gfx90a", version, std)
        dispatch = hsa.Dispatch((256, 2), (64, 1), (3, 0), default_queue=0x7000, completion_action=0x8000,
                                printf_buffer=0x9000)
        mine = hsa.pack_kernargs(ours.metadata.kernel(kernel), values, dispatch)
        theirs = hsa.pack_kernargs(clang.metadata.kernel(kernel), values, dispatch)
        assert mine == theirs
        hidden = {a.value_kind: a.offset for a in clang.metadata.kernel(kernel).args if a.is_hidden}
        assert struct.unpack_from("<Q", mine, hidden["hidden_default_queue"])[0] == 0x7000
        assert struct.unpack_from("<Q", mine, hidden["hidden_completion_action"])[0] == 0x8000
        assert struct.unpack_from("<Q", mine, hidden["hidden_global_offset_x"])[0] == 3


def test_device_library_hidden_offsets_are_the_spec_tables():
    """enqueue.cl reads the printf buffer, default queue and completion action at fixed offsets of
    the implicit arguments: V5+ those of tables.HIDDEN_ARGS_V5, V2-V4 the slots of HIDDEN_SLOTS_V2_V4."""
    import re
    from pathlib import Path

    from kernelkit.formats.amdgpu import tables as T
    from kernelkit.targets.amdhsa import codegen

    text = (Path(codegen.__file__).parent / "enqueue.cl").read_text()
    v5, v4 = re.search(r"#if KK_COV >= 5\n(.*?)#else\n(.*?)#endif", text, re.S).groups()

    def offsets(block: str) -> dict[str, int]:
        return {m[0]: int(m[1]) for m in re.findall(r"#define IA_(\w+) (\d+)", block)}

    kinds = {"PRINTF": "hidden_printf_buffer", "QUEUE": "hidden_default_queue", "WRAP": "hidden_completion_action"}
    for key, kind in kinds.items():
        assert offsets(v5)[key] == T.HIDDEN_ARGS_V5[kind][0]
        slot = next(i for i, allowed in enumerate(T.HIDDEN_SLOTS_V2_V4) if kind in allowed)
        assert offsets(v4)[key] == slot * T.HIDDEN_SLOT_SIZE_V2_V4
    assert offsets(v5)["IMPLICIT_BYTES"] == T.HIDDEN_BLOCK_SIZE_V5
    assert offsets(v4)["IMPLICIT_BYTES"] == len(T.HIDDEN_SLOTS_V2_V4) * T.HIDDEN_SLOT_SIZE_V2_V4
