/* Host float expm1, log1p, sinh, cosh, tanh, asinh, acosh and atanh written for SIMD lanes:
 * straight-line double cores (clc_lanes_double_cores.h) with selects for the special values
 * (C99 F.9), rounded once to float.  Bounds (OpenCL C 3.0 s7.4): expm1 3 ulp, log1p 2, sinh/cosh 4,
 * tanh 5, asinh/acosh 4, atanh 5; tests/host/test_vector_math_more.py measures them against numpy.
 */
#ifndef KERNELKIT_CLC_LANES_HYPERBOLIC_H
#define KERNELKIT_CLC_LANES_HYPERBOLIC_H

#include "clc_lanes_double_cores.h"

KK_INLINE float kk_lf_expm1(float x) {
  float y = (float)kk_ld_expm1((double)x);
  return (x == 0.0f || x != x) ? x : y;   /* (expm1(-0) = -0) */
}

KK_INLINE float kk_lf_log1p(float x) {
  float y = (float)kk_ld_log1p((double)x);
  y = x == -1.0f ? -__builtin_inff() : x < -1.0f ? __builtin_nanf("") : y;
  return (x == 0.0f || x != x || x == __builtin_inff()) ? x : y;
}

/* sinh |x| = (e + e / (e + 1)) / 2 with e = expm1 |x| (no cancellation near 0) */
KK_INLINE float kk_lf_sinh(float x) {
  double e = kk_ld_expm1(__builtin_fabs((double)x));
  float y = (float)__builtin_copysign(0.5 * (e + e / (e + 1.0)), (double)x);
  return x != x ? x : y;
}

KK_INLINE float kk_lf_cosh(float x) {
  double e = kk_ld_exp(__builtin_fabs((double)x));
  float y = (float)(0.5 * (e + 1.0 / e));
  return x != x ? x : y;
}

/* tanh |x| = e / (e + 2) with e = expm1(2 |x|) */
KK_INLINE float kk_lf_tanh(float x) {
  double e = kk_ld_expm1(2.0 * __builtin_fabs((double)x));
  float y = (float)__builtin_copysign(e / (e + 2.0), (double)x);
  return x != x ? x : y;
}

/* asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) (x^2 cannot overflow in double) */
KK_INLINE float kk_lf_asinh(float x) {
  double a = __builtin_fabs((double)x);
  double q = a * a;
  float y = (float)__builtin_copysign(kk_ld_log1p(a + q / (1.0 + __builtin_sqrt(1.0 + q))), (double)x);
  return (x != x || __builtin_fabsf(x) == __builtin_inff()) ? x : y;
}

/* acosh x = log1p(t + sqrt(t (t + 2))), t = x - 1 (exact in double) */
KK_INLINE float kk_lf_acosh(float x) {
  double t = (double)x - 1.0;
  float y = (float)kk_ld_log1p(t + __builtin_sqrt(t * (t + 2.0)));
  y = x == __builtin_inff() ? x : y;
  return x >= 1.0f ? y : __builtin_nanf("");
}

/* atanh |x| = log1p(2 |x| / (1 - |x|)) / 2 */
KK_INLINE float kk_lf_atanh(float x) {
  double a = __builtin_fabs((double)x);
  float y = (float)__builtin_copysign(0.5 * kk_ld_log1p(2.0 * a / (1.0 - a)), (double)x);
  y = a == 1.0 ? __builtin_copysignf(__builtin_inff(), x) : y;
  return a <= 1.0 ? y : (x != x ? x : __builtin_nanf(""));
}

#endif
