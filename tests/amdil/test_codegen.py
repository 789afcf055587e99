"""kernelkit's AMD IL programs: what the driver writes for the same source, for every device,
through the CLI, and run on the simulator against numpy."""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_sim_reference import thread_dimension_oracle  # noqa: E402  (tests/amdil)

import kernelkit
from kernelkit.cli import main
from kernelkit.errors import CompileError
from kernelkit.formats.amdil import link, parse_program
from kernelkit.mux.registry import build_binary
from kernelkit.mux.result import MuxError
from kernelkit.sim.amdil import SimImage, launch
from kernelkit.targets.amdil.info import DEVICES

# the reconstructed sources of the driver's programs (test_sim_reference.py explains them)
RECONSTRUCTED = """
__kernel void test_thread_dimension_atomic(__global uint *dst, uint final_x_size,
        uint final_y_size, uint final_z_size, ulong start_address, ulong end_address) {
    uint error = 0;
    if (get_global_id(0) >= final_x_size) error = 64;
    if (get_global_id(1) >= final_y_size) error = 128;
    if (get_global_id(2) >= final_z_size) error = 256;
    ulong t_address = (ulong)get_global_id(2) * (ulong)final_y_size * (ulong)final_x_size +
                      (ulong)get_global_id(1) * (ulong)final_x_size + (ulong)get_global_id(0);
    if (t_address >= start_address && t_address < end_address)
        atom_add(&dst[t_address - start_address], 1u);
    if (error)
        atom_or(&dst[t_address - start_address], error);
}
__kernel void clear_memory(__global int *dst) { dst[get_global_id(0)] = 0; }
"""
COPY_IMAGE = """
__kernel void copyImage2D(__read_only image2d_t src, __write_only image2d_t dst,
                          int4 srcOrigin, int4 dstOrigin, int4 size) {
    const sampler_t sampler = 22;
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= size.x || y >= size.y) return;
    uint4 texel = read_imageui(src, sampler, (int2)(x + srcOrigin.x, y + srcOrigin.y));
    write_imageui(dst, (int2)(x + dstOrigin.x, y + dstOrigin.y), texel);
}"""
SAXPY = "__kernel void saxpy(float a, __global const float *x, __global float *y) " \
        "{ int i = get_global_id(0); y[i] = a * x[i] + y[i]; }"


def without_ids(block) -> list[str]:
    """Metadata lines with the unique ids (the compiler's own numbering) blanked."""
    out = []
    for rec in block.records:
        line = rec.to_line()
        if rec.kind in ("uniqueid", "function"):
            line = re.sub(r"\d+$", "N", line)
        out.append(line)
    return out


@pytest.fixture(scope="module")
def reconstructed() -> str:
    return build_binary(RECONSTRUCTED, "amdil:juniper").decode()


def test_reconstructed_kernels_get_the_drivers_metadata(reference, reconstructed):
    ours = parse_program(reconstructed)
    driver = parse_program((reference / "amdil" / "hlc-juniper" /
                            "test_thread_dimension_atomic.01.unlinked.il").read_text())
    for kernel in ("test_thread_dimension_atomic", "clear_memory"):
        assert without_ids(ours.find_kernel(kernel)) == without_ids(driver.find_kernel(kernel))


def test_reconstructed_kernels_compute_what_the_drivers_programs_compute(reference, reconstructed):
    driver = (reference / "amdil" / "hlc-juniper" / "test_thread_dimension_atomic.02.linked.il")
    gsz, lsz, final = (8, 8, 4), (4, 4, 2), (8, 6, 3)
    outputs = []
    for text in (reconstructed, driver.read_text()):
        dst = np.zeros(256, np.uint32)
        launch(text, "test_thread_dimension_atomic", [dst, *final, 0, 256], gsz, lsz)
        outputs.append(dst)
    assert np.array_equal(outputs[0], thread_dimension_oracle(gsz, final, 0, 256))
    assert np.array_equal(outputs[1], outputs[0])


def test_reconstructed_image_copy_matches_the_drivers_metadata_and_results(reference):
    ours = build_binary(COPY_IMAGE, "amdil:juniper").decode()
    driver = (reference / "amdil" / "hlc-juniper" / "copyImage2D.02.linked.il").read_text()
    assert without_ids(parse_program(ours).find_kernel("copyImage2D")) == \
        without_ids(parse_program(driver).find_kernel("copyImage2D"))
    for decl in ("dcl_resource_id(0)_type(2d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)",
                 "dcl_uav_id(2)_type(2d)_fmtx(uint)"):
        assert decl in ours.splitlines() and decl in driver.splitlines()
    rng = np.random.default_rng(3)
    src = rng.integers(0, 2**32, (20, 24, 4), dtype=np.uint64).astype(np.uint32)
    args = [np.array([3, 2, 0, 0], np.int32), np.array([1, 4, 0, 0], np.int32),
            np.array([13, 9, 1, 0], np.int32)]
    results = []
    for text in (ours, driver):
        dst = np.full((16, 16, 4), 5, np.uint32)
        launch(text, "copyImage2D", [SimImage(src), SimImage(dst), *args], (16, 16), (8, 8))
        results.append(dst)
    expected = np.full((16, 16, 4), 5, np.uint32)
    expected[4:13, 1:14] = src[2:11, 3:16]
    assert np.array_equal(results[0], expected) and np.array_equal(results[1], expected)


@pytest.mark.parametrize("device", [d.name for d in DEVICES] + [a for d in DEVICES for a in d.aliases])
def test_every_device_builds_a_program_that_round_trips_links_and_runs(device):
    text = build_binary(SAXPY, f"amdil:{device}").decode()
    program = parse_program(text)
    assert program.to_text() == text
    block = program.find_kernel("saxpy")
    canonical = next(d for d in DEVICES if device in (d.name, *d.aliases))
    assert block.device == canonical.name
    assert ("dcl_arena_uav_id(8)" in text) == (canonical.family != "7XX")
    linked = link(text, "saxpy")
    assert f"call {block.uniqueid};" in linked and "$$$$$$$$$$" not in linked
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, np.float32)
    launch(linked, "saxpy", [np.float32(0.5), x, y], 64, 16)
    np.testing.assert_array_equal(y, 0.5 * np.arange(64, dtype=np.float32) + 1)


def test_cli_build_link_and_run(tmp_path, capsys):
    src = tmp_path / "k.cl"
    src.write_text(SAXPY)
    il = tmp_path / "k.il"
    assert main(["build", str(src), "-t", "amdil:cayman", "-o", str(il)]) == 0
    assert parse_program(il.read_text()).find_kernel("saxpy").device == "cayman"
    out = tmp_path / "k.linked.il"
    assert main(["link", str(il), "-k", "saxpy", "-o", str(out)]) == 0
    assert out.read_text() == link(il.read_text(), "saxpy")
    capsys.readouterr()
    assert main(["run", str(src), "-t", "amdil:juniper", "-g", "8", "--arg", "3",
                 "--arg", "x:[8]=arange", "--arg", "y:[8]=ones", "--print", "y"]) == 0
    printed = capsys.readouterr().out
    values = [float(v) for v in re.findall(r"[-\d.]+(?=[.,\]])", printed.split("[", 1)[1])]
    assert values == [3 * i + 1 for i in range(8)]


def test_api_runs_local_memory_barriers_and_vectors():
    src = """
    kernel void rev(global const float4 *in, global float4 *out, local float4 *tmp) {
        size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
        tmp[l] = in[get_global_id(0)] * 2.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tmp[n - 1 - l] + (float4)(g, 0, 0, 0);
    }"""
    inp = np.arange(512, dtype=np.float32)
    want = (inp.reshape(4, 32, 4)[:, ::-1, :] * 2).copy()
    want[..., 0] += np.arange(4)[:, None]
    for device in ("rv770", "juniper", "cayman"):
        out = np.zeros(512, np.float32)
        prog = kernelkit.Program(src).build(f"amdil:{device}")
        prog.rev(inp, out, kernelkit.LocalMemory(32 * 16), global_size=128, local_size=32)
        np.testing.assert_array_equal(out, want.reshape(-1), err_msg=device)


def test_group_size_attributes_and_mattr():
    fixed = "__attribute__((reqd_work_group_size(8, 4, 1))) kernel void k(global int *o) " \
            "{ o[get_global_id(0)] = 1; }"
    text = build_binary(fixed, "amdil:cypress").decode()
    assert "dcl_num_thread_per_group 8, 4, 1" in text
    assert ";cws:8:4:1" in text.splitlines()
    text = build_binary(SAXPY, "amdil:cypress", ["-mattr=mwgs-3-8-8-1"]).decode()
    assert "dcl_max_thread_per_group 64 " in text.splitlines()
    with pytest.raises(MuxError, match=r"\+images is only valid on the Evergreen family"):
        build_binary(SAXPY, "amdil:rv770", ["-mattr=+images"])


def test_unsupported_features_are_named():
    with pytest.raises((CompileError, MuxError), match="OpenCL C 2.0"):
        build_binary("kernel void k(global int *o) { o[0] = 1; }", "amdil:cayman", ["-cl-std=CL2.0"])


def test_debug_sections_with_g_are_stripped_by_the_link_step():
    text = build_binary(SAXPY, "amdil:juniper", ["-g"]).decode()
    program = parse_program(text)
    assert program.to_text() == text
    # the driver's layout: the kernel's symbol and labels close the first section, the DWARF
    # tables the last one (test_debug_info.py compares them with the reference programs)
    assert [s.lines[-4] for s in program.debug_sections][:1] == [".global@__OpenCL_saxpy_kernel"]
    assert len(program.debug_sections) == 2
    assert ";DEBUG" not in link(text, "saxpy")
    assert ";DEBUG" not in build_binary(SAXPY, "amdil:juniper").decode()


def test_printf_metadata_as_spec_000_writes_it():
    """spec 000 "Printf information": printf("Bottom: %d Top: %d InitialSize: %d\\n", 1, 2, 3)
    gives ;printf_fmt:ID:3:4:4:4:35:Bottom: %d Top: %d InitialSize: %d\\n; (ID is the site's)."""
    src = 'kernel void k() { printf("Bottom: %d Top: %d InitialSize: %d\\n", 1, 2, 3); }'
    text = build_binary(src, "amdil:juniper").decode()
    lines = [line for line in text.splitlines() if line.startswith(";printf_fmt:")]
    assert [re.sub(r"^;printf_fmt:\d+:", ";printf_fmt:ID:", x) for x in lines] == \
        [";printf_fmt:ID:3:4:4:4:35:Bottom: %d Top: %d InitialSize: %d\\n;"]
    stats = launch(text, "k", [], 2, 2)
    assert [fmt for fmt, _ in stats.printf] == ["Bottom: %d Top: %d InitialSize: %d\n"] * 2
    assert [[int.from_bytes(raw, "little") for _, raw in values] for _, values in stats.printf] == \
        [[1, 2, 3]] * 2


def test_images_through_the_api():
    src = COPY_IMAGE + """
    kernel void dims(read_only image2d_t img, global int *out) {
        out[0] = get_image_width(img); out[1] = get_image_height(img);
    }"""
    prog = kernelkit.Program(src).build("amdil:cayman")
    image = np.arange(6 * 8 * 4, dtype=np.uint32).reshape(6, 8, 4)
    copy = np.zeros_like(image)
    zero = np.zeros(4, np.int32)
    prog.copyImage2D(image, copy, zero, zero, np.array([8, 6, 1, 0], np.int32), global_size=(8, 6))
    assert np.array_equal(copy, image)
    out = np.zeros(2, np.int32)
    prog.dims(image, out, global_size=1)
    assert out.tolist() == [8, 6]


def test_64_bit_integer_arithmetic():
    src = """
    kernel void k(global const long *a, global const long *b, global long *q, global long *r,
                  global ulong *uq, global ulong *ur, global long *m) {
        size_t i = get_global_id(0);
        q[i] = a[i] / b[i]; r[i] = a[i] % b[i];
        uq[i] = (ulong)a[i] / (ulong)b[i]; ur[i] = (ulong)a[i] % (ulong)b[i];
        m[i] = (a[i] * b[i]) ^ (a[i] >> (i % 64)) ^ (long)((ulong)b[i] << (i % 61));
    }"""
    rng = np.random.default_rng(9)
    a = rng.integers(-2**62, 2**62, 64, dtype=np.int64)
    b = rng.integers(-2**40, 2**40, 64, dtype=np.int64)
    b[b == 0] = 7
    b[:8] = rng.integers(-50, 50, 8)
    b[b == 0] = 3
    outs = [np.zeros(64, np.int64) for _ in range(2)] + [np.zeros(64, np.uint64) for _ in range(2)] + \
        [np.zeros(64, np.int64)]
    kernelkit.Program(src).build("amdil:juniper").k(a, b, *outs, global_size=64, local_size=16)
    ai, bi = [int(x) for x in a], [int(x) for x in b]
    q = [abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1) for x, y in zip(ai, bi, strict=True)]
    assert outs[0].tolist() == q
    assert outs[1].tolist() == [x - y * z for x, y, z in zip(ai, bi, q, strict=True)]
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    assert np.array_equal(outs[2], ua // ub) and np.array_equal(outs[3], ua % ub)
    i = np.arange(64)
    want = (a * b) ^ (a >> (i % 64)) ^ (ub << (i % 61).astype(np.uint64)).view(np.int64)
    assert np.array_equal(outs[4], want)


def test_sampler_arguments_set_the_coordinate_type_at_run_time():
    src = """kernel void rd(read_only image2d_t img, sampler_t s, global float4 *out, float scale) {
        int x = get_global_id(0), y = get_global_id(1);
        out[y * 4 + x] = read_imagef(img, s, (float2)((x + 0.5f) * scale, (y + 0.5f) * scale));
    }"""
    prog = kernelkit.Program(src).build("amdil:juniper")
    block = parse_program(prog.binary.decode()).find_kernel("rd")
    assert ";sampler:s:0:0:0" in [rec.to_line() for rec in block.records]
    image = np.arange(64, dtype=np.float32).reshape(4, 4, 4)
    for sampler, scale in ((0x11, 0.25), (0x10, 1.0)):     # normalised / pixel coordinates
        out = np.zeros(64, np.float32)
        prog.rd(image, np.uint32(sampler), out, np.float32(scale), global_size=(4, 4))
        assert np.array_equal(out.reshape(4, 4, 4), image), hex(sampler)


def test_a_kernel_without_memory_writes_gets_the_compiler_write():
    """spec 000 "Reserved Memory Location" / "Reserved Memory Write"."""
    text = build_binary("kernel void idle(global int *p) { int x = p[0]; (void)x; }",
                        "amdil:juniper").decode()
    records = [rec.to_line() for rec in parse_program(text).find_kernel("idle").records]
    assert ";memory:compilerwrite" in records
    assert "uav_raw_store_id(1) mem0.x___, cb0[3].x, r0.0" in text.splitlines()
    launch(text, "idle", [np.arange(4, dtype=np.int32)], 4, 4)     # the guarded write never runs
    assert ";memory:compilerwrite" not in build_binary(SAXPY, "amdil:juniper").decode()


def test_corpus_image_kernels_build_and_query_a_3d_image():
    from conftest import CORPUS
    prog = kernelkit.Program((CORPUS / "images.cl").read_text()).build("amdil:cayman")
    assert set(prog.kernel_names) >= {"image_copy", "image_sample", "image_3d_query"}
    dims = np.zeros(4, np.int32)
    prog.image_3d_query(np.zeros((3, 5, 7, 4), np.float32), dims, global_size=1)
    assert dims[:3].tolist() == [7, 5, 3]
