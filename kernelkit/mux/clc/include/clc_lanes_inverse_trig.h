/* Host float atan, atan2, asin, acos and their pi forms written for SIMD lanes: one straight-line
 * double core (kk_ld_atan2_abs, clc_lanes_double_cores.h) with selects for quadrants and special
 * values (C99 F.9.1 / OpenCL C 3.0 s7.5.1), rounded once to float.  Bounds (OpenCL C 3.0 s7.4):
 * atan 5 ulp, atan2 6, asin/acos 4, the pi forms 5/6/5/5; tests/host/test_vector_math_more.py
 * measures them against numpy.
 */
#ifndef KERNELKIT_CLC_LANES_INVERSE_TRIG_H
#define KERNELKIT_CLC_LANES_INVERSE_TRIG_H

#include "clc_lanes_double_cores.h"

/* atan2(y, x) in double, with the signs of y and x (NaN if either is) */
KK_INLINE double kk_ld_atan2(float y, float x) {
  double r = kk_ld_atan2_abs(__builtin_fabs((double)y), __builtin_fabs((double)x));
  r = __builtin_signbit(x) ? KK_PI - r : r;
  r = __builtin_copysign(r, (double)y);
  return (x != x || y != y) ? (double)(x + y) : r;
}

/* atan(x) in double: atan2(x, 1) */
KK_INLINE double kk_ld_atan(float x) {
  double r = kk_ld_atan2_abs(__builtin_fabs((double)x), 1.0);
  return x != x ? (double)x : __builtin_copysign(r, (double)x);
}

/* asin(x) = atan2(x, sqrt((1 - x)(1 + x))) (the product is exact in double); NaN beyond [-1, 1] */
KK_INLINE double kk_ld_asin(float x) {
  double a = __builtin_fabs((double)x);
  double c = __builtin_sqrt(__builtin_fmax((1.0 - a) * (1.0 + a), 0.0));
  double r = __builtin_copysign(kk_ld_atan2_abs(a, c), (double)x);
  return a <= 1.0 ? r : __builtin_nan("");
}

/* acos(x) = atan2(sqrt((1 - x)(1 + x)), x) */
KK_INLINE double kk_ld_acos(float x) {
  double a = __builtin_fabs((double)x);
  double c = __builtin_sqrt(__builtin_fmax((1.0 - a) * (1.0 + a), 0.0));
  double r = kk_ld_atan2_abs(c, a);
  r = x < 0.0f ? KK_PI - r : r;
  return a <= 1.0 ? r : __builtin_nan("");
}

KK_INLINE float kk_lf_atan2(float y, float x) { return (float)kk_ld_atan2(y, x); }
KK_INLINE float kk_lf_atan(float x) { return (float)kk_ld_atan(x); }
KK_INLINE float kk_lf_asin(float x) { return (float)kk_ld_asin(x); }
KK_INLINE float kk_lf_acos(float x) { return (float)kk_ld_acos(x); }
KK_INLINE float kk_lf_atan2pi(float y, float x) { return (float)(kk_ld_atan2(y, x) * KK_PI_INV); }
KK_INLINE float kk_lf_atanpi(float x) { return (float)(kk_ld_atan(x) * KK_PI_INV); }
KK_INLINE float kk_lf_asinpi(float x) { return (float)(kk_ld_asin(x) * KK_PI_INV); }
KK_INLINE float kk_lf_acospi(float x) { return (float)(kk_ld_acos(x) * KK_PI_INV); }

#endif
