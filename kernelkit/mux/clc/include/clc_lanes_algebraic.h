/* Host float hypot, cbrt, fmod and remainder written for SIMD lanes (OpenCL C 3.0 s7.4: hypot 4 ulp,
 * cbrt 2, fmod and remainder exact).  hypot and cbrt are straight-line double code; fmod and
 * remainder are exact double arithmetic while |x / y| < 2^24 and the C library's fmodf/remainderf (called through an asm label, so it stays behind its
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
float kk_lf_libm_remainder(float x, float y) __asm__("remainderf");

/* |x| - q |y| for |y| finite and q = trunc(|x| / |y|) < 2^25: q |y| and the difference are exact
 * in double; one correction step each way fixes a rounded quotient; *n gets q (r in [0, |y|)) */
KK_INLINE double kk_ld_reduce(double a, double b, double *n) {
  double q = __builtin_trunc(a / b);
  double r = __builtin_fma(-q, b, a);
  q = r < 0.0 ? q - 1.0 : q;
  r = r < 0.0 ? r + b : r;
  *n = r >= b ? q + 1.0 : q;
  return r >= b ? r - b : r;
}

/* the remainder has at most 24 bits (exact in float) */
KK_INLINE float kk_lf_fmod(float x, float y) {
  double q;
  double r = kk_ld_reduce(__builtin_fabs((double)x), __builtin_fabs((double)y), &q);
  float v = __builtin_fabsf(y) == __builtin_inff() ? x : __builtin_copysignf((float)r, x);
  if (!(__builtin_fabsf(x) < __builtin_fabsf(y) * 0x1p24f)) v = kk_lf_libm_fmod(x, y);
  return v;
}

/* x - n y with n = |x| / |y| rounded to the nearest integer, ties to even (C99 7.12.10.2) */
KK_INLINE float kk_lf_remainder(float x, float y) {
  double q, b = __builtin_fabs((double)y);
  double r = kk_ld_reduce(__builtin_fabs((double)x), b, &q);
  int odd = q != 2.0 * __builtin_trunc(q * 0.5);
  r = (2.0 * r > b || (2.0 * r == b && odd)) ? r - b : r;
  float v = __builtin_fabsf(y) == __builtin_inff() ? x : (float)(__builtin_signbit(x) ? -r : r);
  if (!(__builtin_fabsf(x) < __builtin_fabsf(y) * 0x1p24f)) v = kk_lf_libm_remainder(x, y);
  return v;
}

/* remquo: the remainder of kk_lf_remainder and the low 7 bits of the quotient n (OpenCL C 3.0 s6.15.2)
 * with the sign of x / y.  Beyond |x / y| >= 2^24, x is first reduced exactly modulo 128 |y| by
 * fmodf (behind its `if`, as above), which keeps n's low 7 bits; NaN and 0 for NaN, infinite x or
 * y = 0 */
KK_INLINE float kk_lf_remquo(float x, float y, int *quo) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  float a = ax;
  if (!(ax < ay * 0x1p24f) && ax < __builtin_inff() && ay > 0.0f) a = kk_lf_libm_fmod(ax, ay * 128.0f);
  double q, b = (double)ay;
  double r = kk_ld_reduce((double)a, b, &q);
  int odd = q != 2.0 * __builtin_trunc(q * 0.5);
  int up = 2.0 * r > b || (2.0 * r == b && odd);
  r = up ? r - b : r;
  int n = (((int)__builtin_fmin(q, 0x1p24) + up) & 0x7f);
  int bad = x != x || y != y || ax == __builtin_inff() || ay == 0.0f;
  int big = ay == __builtin_inff();
  n = (bad || big) ? 0 : n;
  *quo = __builtin_signbit(x) != __builtin_signbit(y) ? -n : n;
  float v = big ? x : (float)(__builtin_signbit(x) ? -r : r);
  return bad ? __builtin_nanf("") : v;
}

#endif
