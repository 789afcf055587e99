/* Host float erf, erfc, tgamma and lgamma written for SIMD lanes (OpenCL C 3.0 s7.4: erf and erfc 16 ulp,
 * tgamma 16; lgamma has no bound).  No library call, so the packetiser turns each into <W x float> (erf,
 * erfc) or <W x double> (the gamma functions) instructions:
 * - erf and erfc in float, the forms of clc_lanes_double_gamma_erf.h with float fits of
 *   tools/fit_lane_math.py: erf(x) = x P(x^2) below 1 (degree 7), erfc(z) = t e^(P(s) - z^2) with
 *   P = (1 + s) Q(s) (degree 9, z <= 10.1: erfcf underflows beyond) with z^2 and the exponent as float pairs and t multiplied in before
 *   the scaling by 2^k; erf's erfc part in an `if` (a none-active skip after packetising);
 * - tgamma and lgamma: the double forms of clc_lanes_double_gamma_erf.h rounded once (in float, lgamma
 *   would lose its relative accuracy next to its zeros left of -2, and tgamma's exponent its last bits).
 * tests/host/test_vector_math_more.py measures them against Python's math module.
 */
#ifndef KERNELKIT_CLC_LANES_GAMMA_ERF_H
#define KERNELKIT_CLC_LANES_GAMMA_ERF_H

#include "clc_math_lanes.h"
#include "clc_lanes_double_gamma_erf.h"

#define KK_LF_ERFC_MAX 10.1f                    /* erfcf(10.1) < 2^-150: 0 beyond */
#define KK_LF_ERFC_UMAX (8.1f / 12.1f)          /* u(10.1) */

/* erfc(z) for z >= 0 (infinity too; not NaN) */
KK_INLINE float kk_lf_erfc_pos(float z) {
  float c = __builtin_fminf(z, KK_LF_ERFC_MAX);
  float t = 2.0f / (2.0f + c);
  float u = (c - 2.0f) * t * 0.5f;
  float s = __builtin_fmaf(u, 2.0f / (KK_LF_ERFC_UMAX + 1.0f), (1.0f - KK_LF_ERFC_UMAX) / (KK_LF_ERFC_UMAX + 1.0f));
  /* P = (1 + s) Q(s), 1 + s = c t 2 / (u(10.1) + 1) without cancellation: P keeps its relative accuracy
   * next to z = 0, where P -> 0 and erfc -> 1 */
  float p;
  p = -0x1.ad2efcp-16f;
  p = __builtin_fmaf(p, s, -0x1.0969f4p-15f);
  p = __builtin_fmaf(p, s, 0x1.6046a8p-13f);
  p = __builtin_fmaf(p, s, 0x1.8b3556p-12f);
  p = __builtin_fmaf(p, s, -0x1.56d41ep-11f);
  p = __builtin_fmaf(p, s, -0x1.94e254p-9f);
  p = __builtin_fmaf(p, s, 0x1.07145ep-9f);
  p = __builtin_fmaf(p, s, 0x1.c43faep-6f);
  p = __builtin_fmaf(p, s, -0x1.7e0e9ep-7f);
  p = __builtin_fmaf(p, s, -0x1.1e7bc2p-1f);
  p *= c * t * (2.0f / (KK_LF_ERFC_UMAX + 1.0f));
  /* e^(p - c^2) = 2^k e^r e^(ea - zl): the exponent a + ea - zl exactly, r = a - k ln 2 */
  float zh = c * c, zl = __builtin_fmaf(c, c, -zh);
  float a = p - zh, bb = a - p;
  float ea = (p - (a - bb)) + (-zh - bb);
  float k = __builtin_rintf(a * 1.44269504088896341f);
  float r = __builtin_fmaf(-k, KK_LF_LN2_HI, a);
  r = __builtin_fmaf(-k, KK_LF_LN2_LO, r);
  float m = t * kk_lf_exp_poly(r);
  return z > KK_LF_ERFC_MAX ? 0.0f : kk_lf_scale(__builtin_fmaf(m, ea - zl, m), (int)k);
}

/* erf(x) / x for z = x^2 <= 1 */
KK_INLINE float kk_lf_erf_small(float z) {
  float p;
  p = -0x1.445f48p-17f;
  p = __builtin_fmaf(p, z, 0x1.d8875p-14f);
  p = __builtin_fmaf(p, z, -0x1.bccf66p-11f);
  p = __builtin_fmaf(p, z, 0x1.562a6p-8f);
  p = __builtin_fmaf(p, z, -0x1.b829c8p-6f);
  p = __builtin_fmaf(p, z, 0x1.ce2f08p-4f);
  p = __builtin_fmaf(p, z, -0x1.812746p-2f);
  p = __builtin_fmaf(p, z, 0x1.20dd76p+0f);
  return p;
}

KK_INLINE float kk_lf_erf(float x) {
  float a = __builtin_fabsf(x);
  float r = x * kk_lf_erf_small(__builtin_fminf(x * x, 1.0f));
  if (!(a < 1.0f)) r = __builtin_copysignf(1.0f - kk_lf_erfc_pos(a), x);
  return x != x ? x : r;
}

KK_INLINE float kk_lf_erfc(float x) {
  float e = kk_lf_erfc_pos(__builtin_fabsf(x));
  float r = x < 0.0f ? 2.0f - e : e;
  return x != x ? x : r;
}

KK_INLINE float kk_lf_lgamma(float x) { return (float)kk_ldd_lgamma((double)x); }
KK_INLINE float kk_lf_tgamma(float x) { return (float)kk_ldd_tgamma((double)x); }

#endif
