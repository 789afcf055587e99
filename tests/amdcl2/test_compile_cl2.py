"""`kernelkit build k.cl -t amdcl2:<device>`: OpenCL C compiled to AMD CL2 binaries (spec 002).

Oracle: reference/amdcl2/ksetup1.clo.reconf, a driver's binary whose first eight kernels are
reconstructed here from what the binary says of them (names, argument types, which arguments they
read and write, which dispatch values they use): their metadata blobs, user-SGPR enable bits and
kernarg sizes equal the driver's. The reader reads every binary back with the kernel signature's
arguments and spec 002's features."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kernelkit.abi.cl2 import args_from_metadata, args_from_signature, lay_out, user_data
from kernelkit.abi.signature import signatures_from_ir
from kernelkit.errors import CompileError
from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.formats.amdcl2.inspect import kernel_features
from kernelkit.frontend import compile_opencl
from kernelkit.mux.registry import build_binary

KSETUP1 = """
kernel void kernelSetup1(uint n) { }
kernel void kernelSetup1x(global uint *inout) { inout[0] = 1; }
kernel void kernelSetup2(global uint *inout) { inout[get_group_id(0)] += get_local_size(0); }
kernel void kernelSetup3(global uint *inout) { inout[get_group_id(0)] += 3; }
kernel void kernelSetup4(global uint *inout) { inout[get_group_id(0)] += get_global_size(0); }
kernel void kernelSetup5(global uint *inout) { inout[get_group_id(0)] += get_num_groups(0); }
kernel void kernelSetup6(global uint *inout) { inout[get_group_id(0)] *= 7; }
kernel void sqrtKernel(global float *inout) { size_t i = get_global_id(0); inout[i] = sqrt(inout[i]); }
"""

VARIED = """
typedef struct { float x; int n; char c; } P;
kernel void varied(global const float *a, global float *b, float s, int4 v, P p, local uint *tmp,
                   constant float4 *k, ulong big, uchar small) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = (uint)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] = a[i] * s + v.y + p.x * p.n + k[0].z + tmp[0] + big + small + get_global_offset(0);
}
kernel void __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((vec_type_hint(float4)))
__attribute__((work_group_size_hint(64, 1, 1))) fixed(global int *o) { o[get_global_id(0)] = 1; }
"""


def _user_sgpr_bits(code) -> tuple:
    props = code.properties()
    return (code.rsrc2()["USER_SGPR_COUNT"], sorted(k for k, v in props.items() if v and k.startswith("ENABLE_SGPR")),
            code.kernarg_segment_byte_size)


def _float_mode(code) -> tuple:
    rsrc1 = code.rsrc1()
    return tuple(rsrc1.get(f, 0) for f in ("FLOAT_ROUND_MODE_32", "FLOAT_ROUND_MODE_16_64", "FLOAT_DENORM_MODE_32",
                                           "FLOAT_DENORM_MODE_16_64", "ENABLE_DX10_CLAMP", "ENABLE_IEEE_MODE"))


def test_reconstructed_kernels_equal_the_drivers(reference):
    ours = read_cl2(build_binary(KSETUP1, "amdcl2:bonaire", ["-cl-std=CL2.0", "-mamdcl2-driver-version=191205"]))
    ref = read_cl2((reference / "amdcl2" / "ksetup1.clo.reconf").read_bytes())
    assert (ours.device, ours.driver_version, ours.e_flags) == ("Bonaire", 191205, ref.e_flags)
    assert [k.name for k in ours.kernels] == [k.name for k in ref.kernels[:8]]
    for k in ours.kernels:
        r = ref.kernel(k.name)
        assert k.metadata.to_bytes() == r.metadata.to_bytes(), k.name
        assert _user_sgpr_bits(k.kernel_code) == _user_sgpr_bits(r.kernel_code), k.name
        assert kernel_features(k) == kernel_features(r)
        for field in ("amd_kernel_code_version_major", "amd_kernel_code_version_minor", "amd_machine_version_major",
                      "kernarg_segment_alignment", "wavefront_size", "call_convention"):
            assert getattr(k.kernel_code, field) == getattr(r.kernel_code, field), field
        assert k.kernel_code.properties()["IS_PTR64"] == 1
        assert _float_mode(k.kernel_code) == _float_mode(r.kernel_code), k.name   # f32 denormals flushed


@pytest.mark.parametrize("device,driver", [("bonaire", None), ("tonga", 203603), ("fiji", 200406),
                                           ("hawaii", 191205)])
def test_read_back_with_the_signature(tmp_path, device, driver):
    src = tmp_path / "k.cl"
    src.write_text(VARIED)
    out = tmp_path / "k.clo"
    cmd = [sys.executable, "-m", "kernelkit", "build", str(src), "-t", f"amdcl2:{device}", "-o", str(out),
           "--cl-std", "CL2.0"] + ([f"--driver-version={driver}"] if driver else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    b = read_cl2(out.read_bytes())
    assert b.device.lower() == device and b.bits == 64
    assert b.driver_version == (driver or 223600)           # newest layout: read as "223600 or later"
    sigs = {s.name: s for s in signatures_from_ir(compile_opencl(VARIED, ["-cl-std=CL2.0"]).module())}
    for k in b.kernels:
        sig = sigs[k.name]
        from_md = lay_out(args_from_metadata(k.metadata), 64, with_setup=False)
        from_sig = lay_out(args_from_signature(sig), 64)
        assert [a.to_json() for a in from_md] == [a.to_json() for a in from_sig]
        features = kernel_features(k)
        assert k.kernel_code.rsrc2()["USER_SGPR_COUNT"] == user_data(features).count
        assert k.kernel_code.kernarg_segment_byte_size == (from_sig[-1].offset + from_sig[-1].size + 15) // 16 * 16
    fixed = b.kernel("fixed").metadata
    assert fixed.reqd_work_group_size == (64, 1, 1)
    if (driver or 258000) >= 200406:
        assert (fixed.vec_type_hint, fixed.work_group_size_hint) == ("float4", (64, 1, 1))
    usage = {a.name: a.get("is_pointer_or_pipe") for a in b.kernel("varied").metadata.args}
    assert (usage["a"], usage["b"], usage["tmp"]) == (1, 2, 3)


def test_refusals_are_clear():
    with pytest.raises(CompileError, match="device-side enqueue is not supported"):
        build_binary("kernel void k(global int *o) { queue_t q = get_default_queue(); "
                     "enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ o[0] = 1; }); }",
                     "amdcl2:bonaire", ["-cl-std=CL2.0"])
    with pytest.raises(CompileError, match="driver version must be"):
        build_binary("kernel void k() {}", "amdcl2:bonaire", ["-mamdcl2-driver-version=x"])
    with pytest.raises(CompileError, match="no code object version"):
        build_binary("kernel void k() {}", "amdcl2:bonaire", ["-mcode-object-version=4"])
    with pytest.raises(CompileError, match="no CL2 code in driver 191205"):
        build_binary("kernel void k() {}", "amdcl2:gfx900", ["-mamdcl2-driver-version=191205"])
