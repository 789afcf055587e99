/* Host float hypot, cbrt and fmod written for SIMD lanes (OpenCL C 3.0 s7.4: hypot 4 ulp, cbrt 2,
 * fmod exact).  hypot and cbrt are straight-line double code; fmod is exact double arithmetic while
 * |x / y| < 2^24 and the C library's fmodf (called through an asm label, so it stays behind its
 * `if`, see clc_math_lanes.h) for the rest.  tests/host/test_vector_math_more.py checks them.
 */
#ifndef KERNELKIT_CLC_LANES_ALGEBRAIC_H
#define KERNELKIT_CLC_LANES_ALGEBRAIC_H

#include "clc_lanes_double_cores.h"

/* x^2 + y^2 is exact in double before its one rounding; an infinity wins over NaN (C99 F.9.4.3) */
KK_INLINE float kk_lf_hypot(float x, float y) {
  float r = (float)__builtin_sqrt(__builtin_fma((double)x, (double)x, (double)y * (double)y));
  return (__builtin_fabsf(x) == __builtin_inff() || __builtin_fabsf(y) == __builtin_inff()) ? __builtin_inff() : r;
}

/* one Halley step towards the cube root of a: the relative error e becomes about e^3 */
KK_INLINE double kk_ld_cbrt_step(double y, double a) {
  double y3 = y * y * y;
  return y * (y3 + 2.0 * a) / (2.0 * y3 + a);
}

/* cube root: a first guess from the float's bits (exponent / 3), three Halley steps in double */
KK_INLINE float kk_lf_cbrt(float x) {
  float ax = __builtin_fabsf(x);
  int sub = ax < 0x1p-126f;
  float g = kk_lf_from_bits(kk_lf_bits(sub ? ax * 0x1p24f : ax) / 3 + 0x2a555555);
  double y = sub ? (double)g * 0x1p-8 : (double)g;
  double a = (double)ax;
  y = kk_ld_cbrt_step(kk_ld_cbrt_step(kk_ld_cbrt_step(y, a), a), a);
  float r = __builtin_copysignf((float)y, x);
  return (x == 0.0f || !(ax < __builtin_inff())) ? x + x : r;
}

float kk_lf_libm_fmod(float x, float y) __asm__("fmodf");

/* |x| - q |y| with q = trunc(|x| / |y|) < 2^24: q |y| and the difference are exact in double, one
 * correction step fixes a quotient rounded up; the remainder has at most 24 bits (exact in float) */
KK_INLINE float kk_lf_fmod(float x, float y) {
  double a = __builtin_fabs((double)x), b = __builtin_fabs((double)y);
  double q = __builtin_trunc(a / b);
  double r = __builtin_fma(-q, b, a);
  r = r < 0.0 ? r + b : r;
  r = r >= b ? r - b : r;
  float v = b == __builtin_inf() ? x : __builtin_copysignf((float)r, x);   /* (q |y| is NaN then) */
  if (!(__builtin_fabsf(x) < __builtin_fabsf(y) * 0x1p24f)) v = kk_lf_libm_fmod(x, y);
  return v;
}

#endif
