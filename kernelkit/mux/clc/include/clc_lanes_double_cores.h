/* Double-precision helper cores for float builtins written for SIMD lanes (host, KK_LIBM).
 *
 * The float functions of clc_lanes_inverse_trig.h, clc_lanes_hyperbolic.h and clc_lanes_algebraic.h
 * evaluate in double through these straight-line cores and round once to float.  Each core is
 * accurate to a relative 2^-40 or better on its range, far inside the float ulp bounds of OpenCL C
 * 3.0 s7.4, so the float result is within about half an ulp.  No branch and no library call: the
 * packetiser turns them into <W x double> code.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_CORES_H
#define KERNELKIT_CLC_LANES_DOUBLE_CORES_H

/* (ln 2 in two parts, pi and pi/2: KK_LN2_HI/LO, KK_PI, KK_PI_2 of clc_math_portable.h; 1/pi:
 * KK_PI_INV of clc_math.h) */

KK_INLINE double kk_ld_from_bits(long i) { return __builtin_astype(i, double); }
KK_INLINE long kk_ld_bits(double x) { return __builtin_astype(x, long); }

/* expm1(r) for |r| <= 0.35: Taylor series to degree 13 (remainder below 2^-56 of r) */
KK_INLINE double kk_ld_expm1_poly(double r) {
  double p = 1.0 / 6227020800.0;
  p = __builtin_fma(p, r, 1.0 / 479001600.0);
  p = __builtin_fma(p, r, 1.0 / 39916800.0);
  p = __builtin_fma(p, r, 1.0 / 3628800.0);
  p = __builtin_fma(p, r, 1.0 / 362880.0);
  p = __builtin_fma(p, r, 1.0 / 40320.0);
  p = __builtin_fma(p, r, 1.0 / 5040.0);
  p = __builtin_fma(p, r, 1.0 / 720.0);
  p = __builtin_fma(p, r, 1.0 / 120.0);
  p = __builtin_fma(p, r, 1.0 / 24.0);
  p = __builtin_fma(p, r, 1.0 / 6.0);
  p = __builtin_fma(p, r, 0.5);
  return __builtin_fma(p * r, r, r);
}

/* exp(x) = 2^k (1 + p), k = rint(x / ln 2), for x clamped to [lo, hi] (within [-708, 709]; NaN becomes
 * a number: callers select it out); *s gets 2^k */
KK_INLINE double kk_ld_exp_parts_in(double x, double lo, double hi, double *s) {
  double c = __builtin_fmin(__builtin_fmax(x, lo), hi);
  double k = __builtin_rint(c * 1.4426950408889634);
  double r = __builtin_fma(-k, KK_LN2_HI, c);
  r = __builtin_fma(-k, KK_LN2_LO, r);
  *s = kk_ld_from_bits((long)((int)k + 1023) << 52);
  return kk_ld_expm1_poly(r);
}

/* the same for x clamped to [-110, 100] (what float results need) */
KK_INLINE double kk_ld_exp_parts(double x, double *s) { return kk_ld_exp_parts_in(x, -110.0, 100.0, s); }

/* exp(x) - 1 for x in [-110, 100] (clamped beyond) */
KK_INLINE double kk_ld_expm1(double x) {
  double s;
  double p = kk_ld_exp_parts(x, &s);
  return __builtin_fma(s, p, s - 1.0);
}

KK_INLINE double kk_ld_exp(double x) {
  double s;
  double p = kk_ld_exp_parts(x, &s);
  return __builtin_fma(s, p, s);
}

/* u = m 2^e with m in [sqrt(1/2), sqrt(2)) for a positive finite double (subnormals scaled by 2^54 first),
 * split on the bits (frexp would be a library call per lane): returns m, *e gets e */
KK_INLINE double kk_ld_split(double u, int *e) {
  int sub = u < 0x1p-1022;
  long bits = kk_ld_bits(sub ? u * 0x1p54 : u);
  long mant = (bits & 0x000fffffffffffffL) | 0x3ff0000000000000L;
  int big = mant > 0x3ff6a09e667f3bcdL;
  *e = (int)((bits >> 52) & 0x7ff) - 1023 + big - (sub ? 54 : 0);
  return kk_ld_from_bits(big ? mant - 0x0010000000000000L : mant);
}

/* log(u) for a positive finite double: log m by clc_math_portable.h's series */
KK_INLINE double kk_ld_log(double u) {
  int ei;
  double m = kk_ld_split(u, &ei);
  double e = (double)ei;
  return __builtin_fma(e, KK_LN2_HI, __builtin_fma(e, KK_LN2_LO, kk_p_log_core(m)));
}

/* log(1 + v) for v > -1 finite: u = 1 + v rounded, plus the rounding error's first-order term */
KK_INLINE double kk_ld_log1p(double v) {
  double u = 1.0 + v;
  return kk_ld_log(u) + (v - (u - 1.0)) / u;
}

/* atan(t) for 0 <= t <= 1: c = the nearest multiple of 1/4, atan t = atan c + atan u with
 * u = (t - c) / (1 + t c), |u| <= 1/8: series to u^17 (remainder < 2^-55 of u) */
KK_INLINE double kk_ld_atan01(double t) {
  double k = __builtin_rint(t * 4.0);
  double c = k * 0.25;
  double u = (t - c) / __builtin_fma(t, c, 1.0);
  double z = u * u;
  double p = 1.0 / 17.0;
  p = __builtin_fma(p, z, -1.0 / 15.0);
  p = __builtin_fma(p, z, 1.0 / 13.0);
  p = __builtin_fma(p, z, -1.0 / 11.0);
  p = __builtin_fma(p, z, 1.0 / 9.0);
  p = __builtin_fma(p, z, -1.0 / 7.0);
  p = __builtin_fma(p, z, 1.0 / 5.0);
  p = __builtin_fma(p, z, -1.0 / 3.0);
  double a = k == 1.0 ? 0x1.f5b75f92c80ddp-3    /* atan(1/4) */
           : k == 2.0 ? 0x1.dac670561bb4fp-2    /* atan(1/2) */
           : k == 3.0 ? 0x1.4978fa3269ee1p-1    /* atan(3/4) */
           : k == 4.0 ? 0x1.921fb54442d18p-1    /* pi/4 */
           : 0.0;
  return a + __builtin_fma(u * z, p, u);
}

/* atan2(ay, ax) for ay, ax >= 0 (infinities too, not NaN), in [0, pi/2] */
KK_INLINE double kk_ld_atan2_abs(double ay, double ax) {
  double n = __builtin_fmin(ay, ax), m = __builtin_fmax(ay, ax);
  double t = n == __builtin_inf() ? 1.0 : m == 0.0 ? 0.0 : n / m;
  double a = kk_ld_atan01(t);
  return ay > ax ? KK_PI_2 - a : a;
}

#endif
