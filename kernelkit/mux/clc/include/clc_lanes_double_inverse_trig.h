/* Host double atan, atan2, asin, acos (and atanpi, atan2pi, asinpi, acospi) and cbrt written for SIMD
 * lanes (OpenCL C 3.0 s7.4: atan 5 ulp, atan2 6, asin and acos 4, the pi forms 5 and 6, cbrt 2).
 *
 * Straight-line double code with selects: no branch and no library call, so the packetiser turns each
 * into <W x double> instructions.
 * - atan2(n, m) for 0 <= n <= m reduces by c = k/4, the multiple of 1/4 nearest n / m (chosen by
 *   compares): atan(n / m) = atan(c) + atan(u) with u = (n - c m) / (m + c n) (one division, both fmas
 *   exact before their rounding), |u| <= 1/8, an odd series to u^21 (remainder below 2^-66 of u) and
 *   atan(c) as a double-double; the octant and quadrant add pi/2 or pi as double-doubles;
 * - asin(x) = atan2(x, sqrt(1 - x^2)) and acos(x) = atan2(sqrt(1 - x^2), x), 1 - x^2 by one fma;
 * - the pi forms multiply the double-double angle by 1/pi as a double-double;
 * - cbrt: a first guess from the high word's bits (exponent / 3), two Halley steps, then one Newton
 *   step on the exact residual x - y^3 (y^3 as a double-double).
 * tests/host/test_vector_math_double.py measures them against mpmath.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_INVERSE_TRIG_H
#define KERNELKIT_CLC_LANES_DOUBLE_INVERSE_TRIG_H

#include "clc_lanes_algebraic.h"

#define KK_LDD_PI_HI 0x1.921fb54442d18p+1   /* pi and 1/pi as double-doubles */
#define KK_LDD_PI_LO 0x1.1a62633145c07p-53
#define KK_LDD_INV_PI_HI 0x1.45f306dc9c883p-2
#define KK_LDD_INV_PI_LO (-0x1.6b01ec5417056p-56)

/* atan(n / m) for 0 <= n <= m, m > 0 finite, as hi + *lo */
KK_INLINE double kk_ldd_atan_ratio(double n, double m, double *lo) {
  double k = (double)(n > 0.125 * m) + (double)(n > 0.375 * m) + (double)(n > 0.625 * m) + (double)(n > 0.875 * m);
  double c = 0.25 * k;
  double u = __builtin_fma(-c, m, n) / __builtin_fma(c, n, m);
  double z = u * u;
  double p = -1.0 / 21.0;
  p = __builtin_fma(p, z, 1.0 / 19.0);
  p = __builtin_fma(p, z, -1.0 / 17.0);
  p = __builtin_fma(p, z, 1.0 / 15.0);
  p = __builtin_fma(p, z, -1.0 / 13.0);
  p = __builtin_fma(p, z, 1.0 / 11.0);
  p = __builtin_fma(p, z, -1.0 / 9.0);
  p = __builtin_fma(p, z, 1.0 / 7.0);
  p = __builtin_fma(p, z, -1.0 / 5.0);
  p = __builtin_fma(p, z, 1.0 / 3.0);
  double ah = k == 1.0 ? 0x1.f5b75f92c80ddp-3 : k == 2.0 ? 0x1.dac670561bb4fp-2   /* atan(k / 4) */
            : k == 3.0 ? 0x1.4978fa3269ee1p-1 : k == 4.0 ? 0x1.921fb54442d18p-1 : 0.0;
  double al = k == 1.0 ? 0x1.8ab6e3cf7afbdp-57 : k == 2.0 ? 0x1.a2b7f222f65e2p-56
            : k == 3.0 ? 0x1.2419a87f2a458p-56 : k == 4.0 ? 0x1.1a62633145c07p-55 : 0.0;
  double t = __builtin_fma(-u * z, p, al);   /* atan u = u - u z p */
  double hi = ah + u;
  *lo = (ah - hi + u) + t;                    /* (|ah| >= |u| unless ah = 0: then exact) */
  return hi;
}

/* atan2(y, x) as hi + *lo (NaN arguments give a number: callers select them out) */
KK_INLINE double kk_ldd_atan2_dd(double y, double x, double *lo) {
  double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
  double n = __builtin_fmin(ay, ax), m = __builtin_fmax(ay, ax);
  /* both infinite: pi/4; m alone infinite or m = 0: 0 */
  int both = n == KK_INF;
  n = both ? 1.0 : m == KK_INF ? 0.0 : n;
  m = (both || m == KK_INF || m == 0.0) ? 1.0 : m;
  double s = m > 0x1p1000 ? 0x1p-600 : m < 0x1p-900 ? 0x1p600 : 1.0;   /* (exact scaling) */
  double al, a = kk_ldd_atan_ratio(n * s, m * s, &al);
  /* octant and quadrant: r = b + sign a with b in {0, pi/2, pi} */
  int swap = ay > ax, left = __builtin_signbit(x);
  double bh = left ? (swap ? 0.5 * KK_LDD_PI_HI : KK_LDD_PI_HI) : (swap ? 0.5 * KK_LDD_PI_HI : 0.0);
  double bl = left ? (swap ? 0.5 * KK_LDD_PI_LO : KK_LDD_PI_LO) : (swap ? 0.5 * KK_LDD_PI_LO : 0.0);
  int minus = swap != left;
  a = minus ? -a : a;
  al = minus ? -al : al;
  double hi = bh + a;
  *lo = (bh == 0.0 ? 0.0 : bh - hi + a) + al + bl;   /* (|bh| >= |a| when bh != 0) */
  return hi;
}

/* hi + lo rounded, with the sign of y (NaN for NaN arguments) */
KK_INLINE double kk_ldd_angle(double hi, double lo, double y, double x) {
  double r = __builtin_copysign(hi + lo, y);
  return (x != x || y != y) ? x + y : r;
}

/* (hi + lo) / pi rounded, with the sign of y (NaN for NaN arguments) */
KK_INLINE double kk_ldd_angle_pi(double hi, double lo, double y, double x) {
  double h = hi * KK_LDD_INV_PI_HI;
  double l = __builtin_fma(hi, KK_LDD_INV_PI_HI, -h) + __builtin_fma(hi, KK_LDD_INV_PI_LO, lo * KK_LDD_INV_PI_HI);
  double r = __builtin_copysign(h + l, y);
  return (x != x || y != y) ? x + y : r;
}

KK_INLINE double kk_ldd_atan2(double y, double x) {
  double lo, hi = kk_ldd_atan2_dd(y, x, &lo);
  return kk_ldd_angle(hi, lo, y, x);
}

KK_INLINE double kk_ldd_atan2pi(double y, double x) {
  double lo, hi = kk_ldd_atan2_dd(y, x, &lo);
  return kk_ldd_angle_pi(hi, lo, y, x);
}

KK_INLINE double kk_ldd_atan(double x) { return kk_ldd_atan2(x, 1.0); }
KK_INLINE double kk_ldd_atanpi(double x) { return kk_ldd_atan2pi(x, 1.0); }

/* sqrt(1 - x^2) (NaN for |x| > 1) */
KK_INLINE double kk_ldd_cos_of_sin(double x) { return __builtin_sqrt(__builtin_fma(-x, x, 1.0)); }

KK_INLINE double kk_ldd_asin(double x) { return kk_ldd_atan2(x, kk_ldd_cos_of_sin(x)); }
KK_INLINE double kk_ldd_asinpi(double x) { return kk_ldd_atan2pi(x, kk_ldd_cos_of_sin(x)); }
KK_INLINE double kk_ldd_acos(double x) { return kk_ldd_atan2(kk_ldd_cos_of_sin(x), x); }
KK_INLINE double kk_ldd_acospi(double x) { return kk_ldd_atan2pi(kk_ldd_cos_of_sin(x), x); }

/* cube root: the guess (high word / 3 + bias, fdlibm's constant) is within 4%; Halley's steps cube the
 * relative error (2^-14, 2^-40); Newton's step on the residual x - y^3, exact but for its last rounding,
 * squares it.  |x| outside [2^-600, 2^600] is scaled by 2^600 or 2^-600 first (2^-200 or 2^200 after),
 * so that no step overflows or underflows (subnormals included). */
KK_INLINE double kk_ldd_cbrt(double x) {
  double a = __builtin_fabs(x);
  int tiny = a < 0x1p-600, huge = a > 0x1p600;
  double b = tiny ? a * 0x1p600 : huge ? a * 0x1p-600 : a;
  int high = (int)(kk_ld_bits(b) >> 32);
  double y = kk_ld_from_bits((long)(high / 3 + 0x2a9f7893) << 32);
  y = kk_ld_cbrt_step(kk_ld_cbrt_step(y, b), b);
  double y2 = y * y, e2 = __builtin_fma(y, y, -y2);
  double y3 = y2 * y, e3 = __builtin_fma(y2, y, -y3) + e2 * y;
  double res = (b - y3) - e3;
  y = __builtin_fma(y, res / (3.0 * y3), y);
  double r = __builtin_copysign(tiny ? y * 0x1p-200 : huge ? y * 0x1p200 : y, x);
  return (x == 0.0 || !(a < KK_INF)) ? x + x : r;
}

#endif
