/* Host double asinh, acosh and atanh written for SIMD lanes (OpenCL C 3.0 s7.4: asinh and acosh 4 ulp,
 * atanh 5), through clc_lanes_double.h's double-double log and log1p: straight-line code with selects,
 * no branch and no library call.
 * - asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) below 2^28, log |x| + ln 2 above;
 * - acosh x = log1p(t + sqrt(t (x + 1))) with t = x - 1 below 2^28, log x + ln 2 above;
 * - atanh |x| = log1p(2 |x| / (1 - |x|)) / 2.
 * tests/host/test_vector_math_double.py measures them against mpmath.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_HYPERBOLIC_H
#define KERNELKIT_CLC_LANES_DOUBLE_HYPERBOLIC_H

#include "clc_lanes_double.h"

#define KK_LDD_LOG_BIG 0x1p28   /* beyond it, x^2 + 1 rounds to x^2: log(2 |x|) */

/* log(2 a) for a > 0 finite, rounded once */
KK_INLINE double kk_ldd_log_twice(double a) {
  double lo, hi = kk_ldd_log_dd(kk_ldd_log_arg(a), &lo);
  double s = hi + KK_LDD_LN2;
  return s + ((hi - s + KK_LDD_LN2) + (lo + KK_LDD_LN2_LO));   /* (|hi| >= ln 2 for a > 2^28) */
}

KK_INLINE double kk_ldd_asinh(double x) {
  double a = __builtin_fabs(x);
  int big = a > KK_LDD_LOG_BIG;
  double s = big ? 0.0 : a, q = s * s;
  double r = big ? kk_ldd_log_twice(a) : kk_ldd_log1p(s + q / (1.0 + __builtin_sqrt(1.0 + q)));
  r = a == KK_INF ? a : r;
  return x != x ? x : __builtin_copysign(r, x);
}

KK_INLINE double kk_ldd_acosh(double x) {
  int big = x > KK_LDD_LOG_BIG;
  double t = (big || !(x >= 1.0)) ? 0.0 : x - 1.0;
  double r = big ? kk_ldd_log_twice(x) : kk_ldd_log1p(t + __builtin_sqrt(t * (t + 2.0)));
  return x == KK_INF ? x : x >= 1.0 ? r : KK_NAN;   /* (NaN for x < 1 and NaN) */
}

KK_INLINE double kk_ldd_atanh(double x) {
  double a = __builtin_fabs(x);
  double r = 0.5 * kk_ldd_log1p(a < 1.0 ? 2.0 * a / (1.0 - a) : 0.0);
  r = a == 1.0 ? KK_INF : a < 1.0 ? r : KK_NAN;
  return x != x ? x : __builtin_copysign(r, x);
}

#endif
