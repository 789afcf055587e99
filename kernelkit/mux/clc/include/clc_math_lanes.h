/* Host float cores of exp, exp2, exp10, log, log2, log10, sin, cos, tan and pow written for SIMD lanes.
 *
 * The C library's sinf/expf/... are opaque calls: a kernel the host vectorises across work-items
 * (kernelkit.ir.transforms.packetise) would call them once per lane (LLVM's x86 backend expands
 * llvm.sin.v8f32 into 8 calls of sinf).  These cores are straight-line float code: range reduction,
 * a polynomial and a scaling, with selects instead of branches, so the packetiser turns each into
 * <W x float> instructions.  Arguments outside the fast range (|x| > 8192 for sin/cos, x <= 0,
 * infinities and NaN for pow) take the C library in an `if`, which the packetiser linearises with a
 * none-active skip: lanes that never leave the fast range never pay for it.
 *
 * Accuracy (OpenCL C 3.0 s7.4 allows 3 ulp for the exp and log functions, 4 for sin/cos, 5 for tan,
 * 16 for pow):
 * exp/exp2 reduce with k = rint(x / ln 2) and a two-part ln 2 and use the degree-7 Taylor series
 * of exp on |r| <= ln(2)/2; log/log2 use log(1+f) = 2 atanh(f / (2 + f)) on a mantissa in
 * [sqrt(1/2), sqrt(2)); sin/cos reduce by pi/2 in three floats through fma (r within an ulp for
 * |x| <= 8192) and use the Taylor series on |r| <= pi/4; pow is exp(y log x) in double
 * (clc_lanes_double_cores.h).
 * tests/host/test_vector_math.py measures the largest ulp error of each against numpy.
 */
#ifndef KERNELKIT_CLC_MATH_LANES_H
#define KERNELKIT_CLC_MATH_LANES_H

#include "clc_lanes_double_cores.h"

#define KK_LF_INF __builtin_inff()
#define KK_LF_LN2_HI 0.693359375f            /* 355/512: k * KK_LF_LN2_HI is exact */
#define KK_LF_LN2_LO (-2.12194440e-4f)       /* ln 2 - KK_LF_LN2_HI */
#define KK_LF_PIO2_1 0x1.921fb6p+0f          /* pi/2 in three floats (with fma: r exact to 1 ulp) */
#define KK_LF_PIO2_2 (-0x1.777a5cp-25f)
#define KK_LF_PIO2_3 (-0x1.ee59dap-50f)
#define KK_LF_TRIG_FAST 8192.0f

KK_INLINE float kk_lf_from_bits(int i) { return __builtin_astype(i, float); }
KK_INLINE int kk_lf_bits(float x) { return __builtin_astype(x, int); }

/* p * 2^k for p in [0.5, 2) and k in [-152, 130], rounded once (two exact normal factors). */
KK_INLINE float kk_lf_scale(float p, int k) {
  int h = k >> 1;
  return p * kk_lf_from_bits((h + 127) << 23) * kk_lf_from_bits((k - h + 127) << 23);
}

/* exp(r) for |r| <= 0.35: Taylor series to degree 7 */
KK_INLINE float kk_lf_exp_poly(float r) {
  float p = 1.0f / 5040.0f;
  p = __builtin_fmaf(p, r, 1.0f / 720.0f);
  p = __builtin_fmaf(p, r, 1.0f / 120.0f);
  p = __builtin_fmaf(p, r, 1.0f / 24.0f);
  p = __builtin_fmaf(p, r, 1.0f / 6.0f);
  p = __builtin_fmaf(p, r, 0.5f);
  p = __builtin_fmaf(p, r * r, r);
  return 1.0f + p;
}

KK_INLINE float kk_lf_exp(float x) {
  float c = __builtin_fminf(__builtin_fmaxf(x, -104.0f), 89.0f);   /* (NaN -> a number: no poison) */
  float k = __builtin_rintf(c * 1.44269504088896341f);
  float r = __builtin_fmaf(-k, KK_LF_LN2_HI, c);
  r = __builtin_fmaf(-k, KK_LF_LN2_LO, r);
  float y = kk_lf_scale(kk_lf_exp_poly(r), (int)k);
  return x != x ? x : y;
}

KK_INLINE float kk_lf_exp2(float x) {
  float c = __builtin_fminf(__builtin_fmaxf(x, -152.0f), 130.0f);
  float k = __builtin_rintf(c);
  float y = kk_lf_scale(kk_lf_exp_poly((c - k) * 0.693147180559945309f), (int)k);
  return x != x ? x : y;
}

/* 10^x = 2^k exp(r), r = x ln 10 - k ln 2: x ln 10 as a float product plus its exact error (fma) */
KK_INLINE float kk_lf_exp10(float x) {
  float c = __builtin_fminf(__builtin_fmaxf(x, -46.0f), 39.0f);
  float k = __builtin_rintf(c * 3.32192802f);
  float p = c * 0x1.26bb1cp+1f;
  float err = __builtin_fmaf(c, 0x1.26bb1cp+1f, -p);
  float r = __builtin_fmaf(-k, KK_LF_LN2_HI, p);
  r = r + __builtin_fmaf(-k, KK_LF_LN2_LO, __builtin_fmaf(c, -0x1.12aabap-25f, err));
  float y = kk_lf_scale(kk_lf_exp_poly(r), (int)k);
  return x != x ? x : y;
}

/* x = m 2^e with m in [sqrt(1/2), sqrt(2)) for x > 0 (denormals too): returns e, *m gets m's bits */
KK_INLINE float kk_lf_split(float x, int *m) {
  int sub = x < 0x1p-126f;
  int bits = kk_lf_bits(sub ? x * 0x1p23f : x);
  int mant = (bits & 0x007fffff) | 0x3f800000;
  int big = mant > 0x3fb504f3;                      /* mantissa > sqrt(2) */
  *m = big ? mant - 0x00800000 : mant;
  return (float)(((bits >> 23) & 0xff) - 127 - (sub ? 23 : 0) + (big ? 1 : 0));
}

/* log(x) = e ln 2 + log(m): *e gets e and the result is log(m) as f - (hfsq - s (hfsq + R)),
 * with f = m - 1 exact and s = f / (2 + f) */
KK_INLINE float kk_lf_log_mantissa(float x, float *e) {
  int m;
  *e = kk_lf_split(x, &m);
  float f = kk_lf_from_bits(m) - 1.0f;
  float s = f / (2.0f + f);
  float z = s * s;
  float R = 2.0f / 13.0f;
  R = __builtin_fmaf(R, z, 2.0f / 11.0f);
  R = __builtin_fmaf(R, z, 2.0f / 9.0f);
  R = __builtin_fmaf(R, z, 2.0f / 7.0f);
  R = __builtin_fmaf(R, z, 2.0f / 5.0f);
  R = __builtin_fmaf(R, z, 2.0f / 3.0f) * z;
  float hfsq = 0.5f * f * f;
  return f - (hfsq - s * (hfsq + R));
}

/* the value of log/log2 for x <= 0, infinity and NaN */
KK_INLINE float kk_lf_log_special(float x, float y) {
  return x == 0.0f ? -KK_LF_INF : (x < 0.0f || x != x) ? __builtin_nanf("") : x == KK_LF_INF ? x : y;
}

KK_INLINE float kk_lf_log(float x) {
  float e;
  float l = kk_lf_log_mantissa(x, &e);
  return kk_lf_log_special(x, __builtin_fmaf(e, KK_LF_LN2_HI, __builtin_fmaf(e, KK_LF_LN2_LO, l)));
}

KK_INLINE float kk_lf_log2(float x) {
  float e;
  float l = kk_lf_log_mantissa(x, &e);
  float hi = kk_lf_from_bits(kk_lf_bits(l) & 0xfffff000);
  float lo = l - hi;
  float t = __builtin_fmaf(lo, 1.44269504088896341f, lo * 1.925963033500011e-8f + hi * 1.925963033500011e-8f);
  return kk_lf_log_special(x, e + __builtin_fmaf(hi, 1.44269504088896341f, t));
}

KK_INLINE float kk_lf_log10(float x) {
  float e;
  float l = kk_lf_log_mantissa(x, &e);
  float hi = kk_lf_from_bits(kk_lf_bits(l) & 0xfffff000);
  float lo = l - hi;
  float t = __builtin_fmaf(lo, 0x1.bcb7b2p-2f, __builtin_fmaf(l, -0x1.5b235ep-27f, e * 0x1.3509f8p-18f));
  return kk_lf_log_special(x, __builtin_fmaf(e, 0x1.344p-2f, __builtin_fmaf(hi, 0x1.bcb7b2p-2f, t)));
}

/* sin and cos of r for |r| <= pi/4: Taylor series (degree 11 and 12) */
KK_INLINE float kk_lf_sin_poly(float r) {
  float z = r * r;
  float p = -1.0f / 39916800.0f;
  p = __builtin_fmaf(p, z, 1.0f / 362880.0f);
  p = __builtin_fmaf(p, z, -1.0f / 5040.0f);
  p = __builtin_fmaf(p, z, 1.0f / 120.0f);
  p = __builtin_fmaf(p, z, -1.0f / 6.0f);
  return __builtin_fmaf(p * z, r, r);
}

KK_INLINE float kk_lf_cos_poly(float r) {
  float z = r * r;
  float p = 1.0f / 479001600.0f;
  p = __builtin_fmaf(p, z, -1.0f / 3628800.0f);
  p = __builtin_fmaf(p, z, 1.0f / 40320.0f);
  p = __builtin_fmaf(p, z, -1.0f / 720.0f);
  p = __builtin_fmaf(p, z, 1.0f / 24.0f);
  float hz = 0.5f * z;
  float w = 1.0f - hz;
  return w + (((1.0f - w) - hz) + z * z * p);
}

/* sin (cosine = 0) or cos (cosine = 1) of |x| <= 8192 through the quadrant of x / (pi/2) */
KK_INLINE float kk_lf_trig(float x, int cosine) {
  float c = __builtin_fminf(__builtin_fmaxf(x, -KK_LF_TRIG_FAST), KK_LF_TRIG_FAST);
  float k = __builtin_rintf(c * 0.636619772367581343f);
  float r = __builtin_fmaf(-k, KK_LF_PIO2_1, c);
  r = __builtin_fmaf(-k, KK_LF_PIO2_2, r);
  r = __builtin_fmaf(-k, KK_LF_PIO2_3, r);
  int q = (int)k + cosine;
  float s = kk_lf_sin_poly(r), co = kk_lf_cos_poly(r);
  float v = (q & 1) ? co : s;
  return (q & 2) ? -v : v;
}

/* The C library's sinf/cosf/powf under names LLVM knows neither as intrinsics nor as speculatable:
 * the `if` around them stays a branch through every optimisation, so a vectorised kernel calls
 * them only for its lanes outside the fast range, and only when there is one. */
float kk_lf_libm_sin(float x) __asm__("sinf");
float kk_lf_libm_cos(float x) __asm__("cosf");
float kk_lf_libm_pow(float x, float y) __asm__("powf");
float kk_lf_libm_tan(float x) __asm__("tanf");

/* tan of |x| <= 8192: sin(r) / cos(r), or -cos(r) / sin(r) in odd quadrants */
KK_INLINE float kk_lf_tan_fast(float x) {
  float c = __builtin_fminf(__builtin_fmaxf(x, -KK_LF_TRIG_FAST), KK_LF_TRIG_FAST);
  float k = __builtin_rintf(c * 0.636619772367581343f);
  float r = __builtin_fmaf(-k, KK_LF_PIO2_1, c);
  r = __builtin_fmaf(-k, KK_LF_PIO2_2, r);
  r = __builtin_fmaf(-k, KK_LF_PIO2_3, r);
  float s = kk_lf_sin_poly(r), co = kk_lf_cos_poly(r);
  float y = ((int)k & 1) ? -co / s : s / co;
  return x == 0.0f ? x : y;
}

KK_INLINE float kk_lf_sin(float x) {
  float y = kk_lf_trig(x, 0);
  y = x == 0.0f ? x : y;   /* (sin(-0) = -0) */
  if (!(__builtin_fabsf(x) <= KK_LF_TRIG_FAST)) y = kk_lf_libm_sin(x);
  return y;
}

KK_INLINE float kk_lf_cos(float x) {
  float y = kk_lf_trig(x, 1);
  if (!(__builtin_fabsf(x) <= KK_LF_TRIG_FAST)) y = kk_lf_libm_cos(x);
  return y;
}

KK_INLINE float kk_lf_tan(float x) {
  float y = kk_lf_tan_fast(x);
  if (!(__builtin_fabsf(x) <= KK_LF_TRIG_FAST)) y = kk_lf_libm_tan(x);
  return y;
}

/* pow for x > 0 finite and y finite: exp(y log x) in double, rounded once */
KK_INLINE float kk_lf_pow_positive(float x, float y) {
  return (float)kk_ld_exp((double)y * kk_ld_log((double)x));
}

KK_INLINE float kk_lf_pow(float x, float y) {
  float v = kk_lf_pow_positive(x, y);
  if (!(x > 0.0f && x < KK_LF_INF && __builtin_fabsf(y) < KK_LF_INF)) v = kk_lf_libm_pow(x, y);
  return v;
}

#endif
