/* Host double fmod, remainder and remquo written for SIMD lanes (OpenCL C 3.0 s7.4: exact; remquo's
 * quotient bits s6.15.2).
 *
 * LLVM's x86 backend expands a vector `frem` into one fmod call per lane, so __builtin_fmod is no lane
 * form.  While |x / y| < 2^52 the reduction of clc_lanes_algebraic.h (kk_ld_reduce: the quotient
 * rounded by one division, the remainder by one fma, one correction step) is exact in double too:
 * the rounded quotient is never below floor(|x / y|), and |x| - q |y| is a multiple of ulp(|y|) below
 * |y| in magnitude.  Larger quotients (and for fmod infinite x, y = 0 and NaN) take the C library's
 * fmod (an asm label inside an `if`, as in clc_math_lanes.h), which the packetiser linearises with a
 * none-active skip.  tests/host/test_vector_math_double_more.py checks them against the C library.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_REMAINDER_H
#define KERNELKIT_CLC_LANES_DOUBLE_REMAINDER_H

#include "clc_lanes_algebraic.h"

#define KK_LDD_EXACT_QUOTIENT 0x1p52

double kk_ldd_libm_fmod(double x, double y) __asm__("fmod");

/* whether |x / y| < 2^52 for the magnitudes a, b (false for NaN, b = 0 and infinite a; an overflowing
 * b 2^52 means a quotient below 2^52) */
KK_INLINE int kk_ldd_exact_quotient(double a, double b) { return a < b * KK_LDD_EXACT_QUOTIENT; }

KK_INLINE double kk_ldd_fmod(double x, double y) {
  double q, a = __builtin_fabs(x), b = __builtin_fabs(y);
  int fast = kk_ldd_exact_quotient(a, b);
  double r = kk_ld_reduce(fast ? a : 0.0, fast ? b : 1.0, &q);
  double v = b == KK_INF ? x : __builtin_copysign(r, x);
  if (!fast) v = kk_ldd_libm_fmod(x, y);
  return v;
}

/* |x| - n |y| for n = |x / y| rounded to the nearest integer, ties to even (C99 7.12.10.2), and *n the
 * low 7 bits of n (OpenCL C 3.0 s6.15.2's remquo); *bad whether the result is NaN (NaN, infinite x, y = 0).
 * For |x / y| >= 2^52, |x| is first reduced exactly modulo 128 |y| by fmod (behind its `if`), which keeps
 * n's low 7 bits.  (Not the C library's remainder: glibc 2.36 returns -0 for some positive x when y is
 * subnormal, e.g. remainder(2.4697463185838765e-272, 1e-323); C99 F.9.7.2 wants the sign of x.) */
KK_INLINE double kk_ldd_remainder_abs(double x, double y, int *n, int *bad) {
  double a = __builtin_fabs(x), b = __builtin_fabs(y);
  *bad = x != x || y != y || a == KK_INF || b == 0.0;
  if (!kk_ldd_exact_quotient(a, b) && !*bad) a = kk_ldd_libm_fmod(a, b * 128.0);
  int big = b == KK_INF;
  double q, r = kk_ld_reduce(*bad ? 0.0 : a, (*bad || big) ? 1.0 : b, &q);
  int odd = q != 2.0 * __builtin_trunc(q * 0.5);
  int up = 2.0 * r > b || (2.0 * r == b && odd);
  *n = (*bad || big) ? 0 : (int)(((long)q + up) & 0x7f);
  return big ? a : up ? r - b : r;
}

KK_INLINE double kk_ldd_remainder(double x, double y) {
  int n, bad;
  double r = kk_ldd_remainder_abs(x, y, &n, &bad);
  return bad ? KK_NAN : __builtin_signbit(x) ? -r : r;
}

/* remquo: the remainder above and the low 7 bits of n with the sign of x / y; NaN and 0 for NaN, infinite
 * x or y = 0 */
KK_INLINE double kk_ldd_remquo(double x, double y, int *quo) {
  int n, bad;
  double r = kk_ldd_remainder_abs(x, y, &n, &bad);
  *quo = __builtin_signbit(x) != __builtin_signbit(y) ? -n : n;
  return bad ? KK_NAN : __builtin_signbit(x) ? -r : r;
}

#endif
