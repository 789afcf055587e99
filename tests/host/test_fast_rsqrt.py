"""1.0f / sqrt(x) from the rsqrt estimate + one Newton-Raphson step (targets/host/passes/fast_rsqrt.py),
in both forms (with a branch to sqrt + divide, built for x86-64-v3; without, AVX-512, built for
x86-64-v4 where this CPU has AVX-512): the results stay within OpenCL's allowance for a 3-ulp sqrt
followed by a 2.5-ulp division (OpenCL C 3.0 s7.4), checked against numpy in float64 on every normal
mantissa of two binades (the estimate and the arithmetic scale exactly by powers of four, so that
covers every normal input), on denormals and on the special values (bit for bit against numpy's
float32 sqrt and division); -cl-fp32-correctly-rounded-divide-sqrt gives numpy's correctly rounded
float32 results."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.host.cpu import host_cpu
from kernelkit.targets.host.passes import fast_rsqrt

VECTOR = """
kernel void inv_sqrt(global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = 1.0f / sqrt(x[i]);
}"""

RSQRT = """
kernel void inv_sqrt(global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = rsqrt(x[i]);
}"""

# a scalar site inside a loop of the kernel (rewritten with the scalar estimate under -cl-wfv=never)
LOOPED = """
kernel void inv_sqrt_rows(global const float *x, global float *y, int rows) {
  size_t i = get_global_id(0), n = get_global_size(0);
  for (int r = 0; r < rows; ++r)
    y[r * n + i] = 1.0f / sqrt(x[r * n + i]);
}"""

pytestmark = pytest.mark.skipif("sse" not in host_cpu().features, reason="x86 without SSE: the pass does nothing")


def ulp32(v: np.ndarray) -> np.ndarray:
    """float32 ulp at each |v| (float64 values), ulp of the smallest normal below it."""
    a = np.abs(v)
    e = np.floor(np.log2(np.maximum(a, np.finfo(np.float32).tiny)))
    return np.exp2(e - 23)


def allowed(x: np.ndarray, result: np.ndarray) -> np.ndarray:
    """Could a sqrt within 3 ulp followed by a division within 2.5 ulp give ``result`` for ``x``?
    (finite positive x)"""
    s = np.sqrt(x.astype(np.float64))
    s_lo, s_hi = s - fast_rsqrt.SQRT_ULP * ulp32(s), s + fast_rsqrt.SQRT_ULP * ulp32(s)
    q_lo, q_hi = 1.0 / s_hi, 1.0 / s_lo
    r = result.astype(np.float64)
    return (r >= q_lo - fast_rsqrt.DIVIDE_ULP * ulp32(q_lo)) & (r <= q_hi + fast_rsqrt.DIVIDE_ULP * ulp32(q_hi))


ON = "-cl-rsqrt-estimate=always"
AVX512 = {"avx512f", "avx512vl"} <= set(host_cpu().features)
# the CPUs the forms are built for: the one with a branch (AVX2) and the AVX-512 one (skipped on a CPU without it)
BRANCH, NO_BRANCH = "-mcpu=x86-64-v3", "-mcpu=x86-64-v4"
FORMS = [pytest.param(BRANCH, id="branch"),
         pytest.param(NO_BRANCH, id="avx512", marks=pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512"))]


def run(source: str, kernel: str, x: np.ndarray, options=(), rows: int | None = None, mode=ON):
    prog = kernelkit.Program(source, ["-cl-std=CL1.2", *([mode] if mode else []), *options]).build()
    y = np.zeros_like(x)
    if rows is None:
        prog.kernel(kernel)(x, y, global_size=(x.size,), local_size=(256,))
    else:
        prog.kernel(kernel)(x, y, np.int32(rows), global_size=(x.size // rows,), local_size=(256,))
    return y, prog


def special_inputs() -> np.ndarray:
    f = np.finfo(np.float32)
    denormals = np.frombuffer(np.arange(1, 1 << 23, 4099, dtype=np.uint32).tobytes(), np.float32)
    nans = np.array([0x7FC00000, 0x7FC12345, 0xFFC54321, 0x7F812345], np.uint32).view(np.float32)   # (the last: sNaN)
    values = [*nans, 0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -f.tiny, -1e-42, f.tiny, f.max, f.smallest_subnormal,
              np.nextafter(f.tiny, 0, dtype=np.float32), 1.0, 4.0, 0.25, 1e-30, 1e30, 3e38, 1.1754942e-38]
    out = np.concatenate([np.array(values, np.float32), denormals])
    return np.resize(out, (out.size + 255) // 256 * 256)


def check_specials(x: np.ndarray, y: np.ndarray, nan_bits: bool = False) -> None:
    """``nan_bits``: NaN results bit for bit as numpy's float32 sqrt then division (x86 SSE: the
    default NaN for x < 0, a NaN x quieted)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        exact = 1.0 / np.sqrt(x.astype(np.float64))
        exact32 = np.float32(1.0) / np.sqrt(x)
    pos = np.isfinite(x) & (x > 0)
    bad = pos & ~allowed(x, y)
    assert not bad.any(), f"outside the bound: x={x[bad][:5]} got {y[bad][:5]} exact {exact[bad][:5]}"
    rest = ~pos
    # special values exactly as sqrt-then-divide: +-0 -> +-inf, +inf -> 0, negative/NaN -> NaN
    np.testing.assert_array_equal(y[rest], exact[rest].astype(np.float32))
    if nan_bits:
        got, want = y[rest].view(np.uint32), exact32[rest].view(np.uint32)
        assert np.array_equal(got, want), [f"{a:08x}: {b:08x} != {c:08x}" for a, b, c in
                                           zip(x[rest].view(np.uint32), got, want, strict=True) if b != c][:5]


def exhaustive_two_binades() -> np.ndarray:
    return np.frombuffer(np.arange(0x3F800000, 0x40800000, dtype=np.uint32).tobytes(), np.float32)  # [1, 4)


@pytest.mark.parametrize("cpu", FORMS)
def test_every_mantissa_of_two_binades_within_the_opencl_bound(cpu):
    x = exhaustive_two_binades()
    y, prog = run(VECTOR, "inv_sqrt", x, ["-cl-wfv=always", cpu])
    assert prog._binary.kernel("inv_sqrt").vector_width > 1
    ok = allowed(x, y)
    assert ok.all(), f"{(~ok).sum()} inputs outside the bound, e.g. x={x[~ok][:3]} -> {y[~ok][:3]}"
    # the estimate path really ran: its results are not all the correctly rounded ones
    rounded = np.float32(1.0) / np.sqrt(x)
    assert (y != rounded).any()


@pytest.mark.parametrize("cpu", FORMS)
def test_builtin_rsqrt_stays_within_its_2_ulp(cpu):
    """rsqrt() is 1.0f / sqrt(x) in the builtin library, and OpenCL allows it only 2 ulp (s7.4):
    the estimate forms keep within that on every normal mantissa of two binades."""
    x = exhaustive_two_binades()
    y, _ = run(RSQRT, "inv_sqrt", x, ["-cl-wfv=always", cpu])
    exact = 1.0 / np.sqrt(x.astype(np.float64))
    err = np.abs(y.astype(np.float64) - exact) / ulp32(exact)
    assert err.max() <= 2.0, f"{err.max():.3f} ulp at x={x[err.argmax()]}"
    assert (y != exact.astype(np.float32)).any()


@pytest.mark.parametrize("cpu", FORMS)
def test_special_values_and_denormals(cpu):
    x = special_inputs()
    y, _ = run(VECTOR, "inv_sqrt", x, ["-cl-wfv=always", cpu])
    check_specials(x, y, nan_bits=cpu == NO_BRANCH)


def test_scalar_sites_in_loops_and_random_inputs():
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 0x7F800000, 1 << 16, dtype=np.uint32)   # every positive finite float
    x = np.concatenate([bits.view(np.float32), special_inputs()])
    x = np.resize(x, (x.size + 1023) // 1024 * 1024)
    for options in (["-cl-wfv=never"], ["-cl-wfv=auto"]):
        y, _ = run(LOOPED, "inv_sqrt_rows", x, options, rows=4)
        check_specials(x, y)
        rounded = np.float32(1.0) / np.sqrt(x[x > 0])
        assert (y[x > 0] != rounded).any(), options


def test_correctly_rounded_option_never_and_the_default_without_avx512_turn_it_off():
    rng = np.random.default_rng(9)
    x = rng.random(1 << 14, dtype=np.float32) * np.float32(100.0)
    rounded = np.float32(1.0) / np.sqrt(x)
    for source, kernel, rows in ((VECTOR, "inv_sqrt", None), (LOOPED, "inv_sqrt_rows", 4)):
        for cpu in (BRANCH, *([NO_BRANCH] if AVX512 else [])):
            for mode, off in ((ON, [fast_rsqrt.OFF_OPTION]), ("-cl-rsqrt-estimate=auto", [fast_rsqrt.OFF_OPTION]),
                              (ON, ["-cl-rsqrt-estimate=never"])):
                y, _ = run(source, kernel, x, ["-cl-wfv=always", cpu, *off], rows=rows, mode=mode)
                np.testing.assert_array_equal(y, rounded)
        # the default (auto) is never's build on a CPU without AVX-512
        y, _ = run(source, kernel, x, ["-cl-wfv=always", BRANCH], rows=rows, mode=None)
        np.testing.assert_array_equal(y, rounded)
    with pytest.raises(kernelkit.CompileError, match="-cl-rsqrt-estimate=never\\|auto\\|always"):
        kernelkit.Program(VECTOR, ["-cl-rsqrt-estimate=sometimes"]).build()


@pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512")
@pytest.mark.parametrize("n", [4, 8, 16])
def test_avx512_forms_of_opencl_vector_types(n):
    """float4 / float8 / float16 sites of a kernel that is not vectorised across work-items: the 128-,
    256- and 512-bit forms, on random positive floats, the specials and denormals."""
    src = f"""
kernel void inv_sqrt(global const float{n} *x, global float{n} *y) {{
  size_t i = get_global_id(0);
  y[i] = 1.0f / sqrt(x[i]);
}}"""
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.integers(0, 0x7F800000, 1 << 16, dtype=np.uint32).view(np.float32), special_inputs()])
    x = np.resize(x, (x.size + 256 * n - 1) // (256 * n) * (256 * n))
    prog = kernelkit.Program(src, ["-cl-std=CL1.2", "-cl-wfv=never", NO_BRANCH]).build()
    y = np.zeros_like(x)
    prog.kernel("inv_sqrt")(x, y, global_size=(x.size // n,), local_size=(256,))
    check_specials(x, y, nan_bits=True)
    assert (y[x > 0] != (np.float32(1.0) / np.sqrt(x[x > 0]))).any()


@pytest.mark.skipif(not AVX512, reason="this CPU has no AVX-512")
def test_the_default_takes_the_avx512_form_of_vector_sites():
    rng = np.random.default_rng(11)
    x = rng.random(1 << 14, dtype=np.float32) * np.float32(100.0) + np.float32(1e-3)
    rounded = np.float32(1.0) / np.sqrt(x)
    y, _ = run(VECTOR, "inv_sqrt", x, ["-cl-wfv=always", NO_BRANCH], mode=None)
    assert allowed(x, y).all() and (y != rounded).any()
    # a scalar site in a loop is auto's only under always (the form with the branch)
    y, _ = run(LOOPED, "inv_sqrt_rows", x, ["-cl-wfv=never", NO_BRANCH], rows=4, mode=None)
    np.testing.assert_array_equal(y, rounded)


def test_sites_need_both_allowances():
    from kernelkit import ir

    text = """
define void @k(ptr %p, <8 x float> %v) {
  %s = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %v), !fpmath !0
  %a = fdiv <8 x float> splat (float 1.0), %s, !fpmath !1
  %t = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %v)
  %b = fdiv <8 x float> splat (float 1.0), %t, !fpmath !1
  %c = fdiv <8 x float> splat (float 2.0), %s, !fpmath !1
  store <8 x float> %a, ptr %p
  store <8 x float> %b, ptr %p
  store <8 x float> %c, ptr %p
  ret void
}
declare <8 x float> @llvm.sqrt.v8f32(<8 x float>)
!0 = !{float 3.0}
!1 = !{float 2.5}
"""
    module = ir.parse(text)
    sites = fast_rsqrt.reciprocal_sqrt_sites(module.get_function("k"))
    assert [d.name for d, _ in sites] == ["a"]
    assert fast_rsqrt.lower_reciprocal_sqrts(module, ["k"], ["sse", "avx"]) == 1
    out = str(module)
    assert "llvm.x86.avx.rsqrt.ps.256" in out and "%b = fdiv" in out
    # the division of %a is left only on the path of the packets with special lanes
    blocks = {i.name: i.parent.name for i in module.get_function("k").instructions() if i.opcode == "fdiv"}
    assert blocks["a"].startswith("rsqrt.exact") and not blocks["b"].startswith("rsqrt.exact")
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON, fast_rsqrt.OFF_OPTION]) == text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], []) == text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], ["-cl-rsqrt-estimate=never", ON]) != text
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON, "-cl-rsqrt-estimate=never"]) == text
    assert "rsqrt" in fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], [ON])
    # auto: nothing without AVX-512 (the default: the same as never)
    assert fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx"], ["-cl-rsqrt-estimate=auto"]) == text


def test_avx512_form_has_no_branch_and_no_divider():
    from kernelkit import ir

    def lowered(lanes: int, features: list[str], options: list[str]) -> str:
        text = f"""
define void @k(ptr %p, <{lanes} x float> %v) {{
  %s = call <{lanes} x float> @llvm.sqrt.v{lanes}f32(<{lanes} x float> %v), !fpmath !0
  %a = fdiv <{lanes} x float> splat (float 1.0), %s, !fpmath !1
  store <{lanes} x float> %a, ptr %p
  ret void
}}
declare <{lanes} x float> @llvm.sqrt.v{lanes}f32(<{lanes} x float>)
!0 = !{{float 3.0}}
!1 = !{{float 2.5}}
"""
        out = fast_rsqrt.lower_module_text(text, ["k"], ["sse", "avx", *features], options)
        ir.parse(out)   # (well formed)
        return out

    for lanes, width, features in ((16, 512, ["avx512f"]), (32, 512, ["avx512f"]), (8, 256, ["avx512f", "avx512vl"]),
                                   (4, 128, ["avx512f", "avx512vl"])):
        for options in ([], [ON]):
            out = lowered(lanes, features, options)
            assert f"llvm.x86.avx512.rsqrt14.ps.{width}" in out and f"llvm.x86.avx512.mask.fixupimm.ps.{width}" in out
            assert "fdiv" not in out and "@llvm.sqrt" not in out.split("declare")[0] and "rsqrt.exact" not in out
            assert str(fast_rsqrt.FIXUP_TABLE) in out
    # 8 lanes without AVX-512VL: auto leaves the site, always takes the form with the branch
    assert "rsqrt" not in lowered(8, ["avx512f"], [])
    out = lowered(8, ["avx512f"], [ON])
    assert "llvm.x86.avx.rsqrt.ps.256" in out and "rsqrt.exact" in out
