/* Host double exp, exp2, exp10, expm1, log, log2, log10, log1p, pow, sin, cos, tan, sinh, cosh and tanh
 * written for SIMD lanes (OpenCL C 3.0 s7.4: 3 ulp for the exp and log functions, 2 for log1p, 16 for
 * pow, 4 for sin/cos/sinh/cosh, 5 for tan/tanh).
 *
 * The C library's exp/log/sin/... are opaque calls, one per lane of a vectorised kernel.  These are
 * straight-line double code built from clc_math_portable.h's series and reductions, with selects
 * instead of branches, so the packetiser turns each into <W x double> instructions:
 * - exp/exp2/exp10 and pow: e^(t + tl) for a double-double t + tl (x ln 2 and x ln 10 as double-doubles,
 *   y log x from the double-double log of kk_p_log_dd_parts), k = rint(t / ln 2), Taylor series of
 *   clc_math_portable.h, scaling by 2^k in two factors built from bits;
 * - log/log2/log10/log1p: the double-double log of the mantissa split on the bits, rounded once (log2
 *   and log10 multiply it by 1/ln 2 and 1/ln 10 as double-doubles first);
 * - sin/cos/tan: the four-part Cody-Waite reduction by pi/2 of clc_math_portable.h for |x| < 2^20;
 * - expm1/sinh/cosh/tanh through kk_ld_expm1 and the exp above.
 * pow of x <= 0, infinities or NaN and sin/cos/tan of |x| >= 2^20, infinities and NaN take the C
 * library in an `if` (an asm label, as in clc_math_lanes.h), which the packetiser linearises with a
 * none-active skip.  tests/host/test_vector_math_double.py measures them against mpmath.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_H
#define KERNELKIT_CLC_LANES_DOUBLE_H

#include "clc_lanes_double_cores.h"

#define KK_LDD_LN2 0x1.62e42fefa39efp-1          /* ln 2, 1/ln 2, ln 10 and 1/ln 10 as double-doubles */
#define KK_LDD_LN2_LO 0x1.abc9e3b39803fp-56
#define KK_LDD_INV_LN2 0x1.71547652b82fep+0
#define KK_LDD_INV_LN2_LO 0x1.777d0ffda0d24p-56
#define KK_LDD_LN10 0x1.26bb1bbb55516p+1
#define KK_LDD_LN10_LO (-0x1.f48ad494ea3e9p-53)
#define KK_LDD_INV_LN10 0x1.bcb7b1526e50ep-2
#define KK_LDD_INV_LN10_LO 0x1.95355baaafad3p-57
#define KK_LDD_TRIG_FAST 0x1p20

double kk_ldd_libm_pow(double x, double y) __asm__("pow");
double kk_ldd_libm_sin(double x) __asm__("sin");
double kk_ldd_libm_cos(double x) __asm__("cos");
double kk_ldd_libm_tan(double x) __asm__("tan");

/* p 2^k, k in [-1076, 1024], rounded once: two normal factors */
KK_INLINE double kk_ldd_scale(double p, int k) {
  int h = k >> 1;
  return p * kk_ld_from_bits((long)(h + 1023) << 52) * kk_ld_from_bits((long)(k - h + 1023) << 52);
}

/* f e^(t + tl) for t clamped to [-746, 710] (0 and infinity beyond), tl a correction below ulp(t), f a
 * factor in [2^-60, 2^60] multiplied in before the scaling by 2^k (a subnormal result is rounded once) */
KK_INLINE double kk_ldd_exp_dd_times(double t, double tl, double f) {
  double c = __builtin_fmin(__builtin_fmax(t, -746.0), 710.0);
  double k = __builtin_rint(c * KK_INV_LN2);
  double r = __builtin_fma(-k, KK_LN2_HI, c);
  r = __builtin_fma(-k, KK_LN2_LO, r) + (__builtin_fabs(t) < 746.0 ? tl : 0.0);
  return kk_ldd_scale(f * kk_p_exp_poly(r), (int)k);
}

/* e^(t + tl) as above */
KK_INLINE double kk_ldd_exp_dd(double t, double tl) { return kk_ldd_exp_dd_times(t, tl, 1.0); }

/* x c for c = ch + cl (a double-double) as th + *tl */
KK_INLINE double kk_ldd_mul(double x, double ch, double cl, double *tl) {
  double th = x * ch;
  *tl = __builtin_fma(x, ch, -th) + x * cl;
  return th;
}

KK_INLINE double kk_ldd_exp(double x) { return x != x ? x : kk_ldd_exp_dd(x, 0.0); }

KK_INLINE double kk_ldd_exp2(double x) {
  double c = __builtin_fmin(__builtin_fmax(x, -1100.0), 1100.0), tl;
  double th = kk_ldd_mul(c, KK_LDD_LN2, KK_LDD_LN2_LO, &tl);
  return x != x ? x : kk_ldd_exp_dd(th, tl);
}

KK_INLINE double kk_ldd_exp10(double x) {
  double c = __builtin_fmin(__builtin_fmax(x, -330.0), 330.0), tl;
  double th = kk_ldd_mul(c, KK_LDD_LN10, KK_LDD_LN10_LO, &tl);
  return x != x ? x : kk_ldd_exp_dd(th, tl);
}

/* e^x - 1 = s p + (s - 1) with s = 2^k (kk_ld_exp_parts_in) for x in [-40, 709]; e^x beyond 709, -1
 * below -40 */
KK_INLINE double kk_ldd_expm1(double x) {
  double s;
  double p = kk_ld_exp_parts_in(x, -40.0, 709.0, &s);
  double y = __builtin_fma(s, p, s - 1.0);
  y = x > 709.0 ? kk_ldd_exp_dd(x, 0.0) : y;
  return (x == 0.0 || x != x) ? x : y;
}

/* log(x) as hi + *lo for x > 0 finite (subnormals too) */
KK_INLINE double kk_ldd_log_dd(double x, double *lo) {
  int e;
  double m = kk_ld_split(x, &e);
  return kk_p_log_dd_parts(m, e, lo);
}

/* the value of log/log2/log10 at x <= 0, infinity and NaN, else y */
KK_INLINE double kk_ldd_log_special(double x, double y) {
  return x == 0.0 ? -KK_INF : (x < 0.0 || x != x) ? KK_NAN : x == KK_INF ? x : y;
}

/* a positive finite x, or 1 for the lanes kk_ldd_log_special answers */
KK_INLINE double kk_ldd_log_arg(double x) { return x > 0.0 && x < KK_INF ? x : 1.0; }

KK_INLINE double kk_ldd_log(double x) {
  double lo;
  return kk_ldd_log_special(x, kk_ldd_log_dd(kk_ldd_log_arg(x), &lo));
}

/* log(x) c for the double-double c = ch + cl, rounded once */
KK_INLINE double kk_ldd_log_times(double x, double ch, double cl) {
  double lo, hi = kk_ldd_log_dd(kk_ldd_log_arg(x), &lo), tl;
  double th = kk_ldd_mul(hi, ch, cl, &tl);
  return kk_ldd_log_special(x, th + __builtin_fma(lo, ch, tl));
}

KK_INLINE double kk_ldd_log2(double x) { return kk_ldd_log_times(x, KK_LDD_INV_LN2, KK_LDD_INV_LN2_LO); }
KK_INLINE double kk_ldd_log10(double x) { return kk_ldd_log_times(x, KK_LDD_INV_LN10, KK_LDD_INV_LN10_LO); }

/* log(1 + v) = log(u) + (1 + v - u) / u for u = 1 + v rounded (its error exact by two-sum) */
KK_INLINE double kk_ldd_log1p(double v) {
  double u = 1.0 + v;
  double b = u - v;
  double err = (1.0 - b) + (v - (u - b));
  double lo, hi = kk_ldd_log_dd(kk_ldd_log_arg(u), &lo);
  double y = hi + (lo + err / u);
  y = v == -1.0 ? -KK_INF : (v < -1.0 || v != v) ? KK_NAN : v == KK_INF ? v : y;
  return v == 0.0 ? v : y;
}

/* pow for x > 0 finite and y finite: e^(y log x) with y log x as a double-double */
KK_INLINE double kk_ldd_pow_positive(double x, double y) {
  double lo, hi = kk_ldd_log_dd(x, &lo);
  double th = y * hi;
  double tl = __builtin_fma(y, hi, -th) + y * lo;
  return kk_ldd_exp_dd(th, tl);
}

KK_INLINE double kk_ldd_pow(double x, double y) {
  int fast = x > 0.0 && x < KK_INF && __builtin_fabs(y) < KK_INF;
  double v = kk_ldd_pow_positive(fast ? x : 1.0, fast ? y : 0.0);
  if (!fast) v = kk_ldd_libm_pow(x, y);
  return v;
}

/* sin (cosine = 0) or cos (cosine = 1) of |x| < 2^20 through the quadrant of x / (pi/2) */
KK_INLINE double kk_ldd_trig(double x, int cosine) {
  int q;
  double r = kk_p_reduce_pio2_medium(__builtin_fmin(__builtin_fmax(x, -KK_LDD_TRIG_FAST), KK_LDD_TRIG_FAST), &q);
  q += cosine;
  double v = (q & 1) ? kk_p_cos_poly(r) : kk_p_sin_poly(r);
  return (q & 2) ? -v : v;
}

KK_INLINE double kk_ldd_sin(double x) {
  double y = kk_ldd_trig(x, 0);
  y = x == 0.0 ? x : y;   /* (sin(-0) = -0) */
  if (!(__builtin_fabs(x) < KK_LDD_TRIG_FAST)) y = kk_ldd_libm_sin(x);
  return y;
}

KK_INLINE double kk_ldd_cos(double x) {
  double y = kk_ldd_trig(x, 1);
  if (!(__builtin_fabs(x) < KK_LDD_TRIG_FAST)) y = kk_ldd_libm_cos(x);
  return y;
}

/* tan: sin(r) / cos(r), or -cos(r) / sin(r) in odd quadrants */
KK_INLINE double kk_ldd_tan(double x) {
  int q;
  double r = kk_p_reduce_pio2_medium(__builtin_fmin(__builtin_fmax(x, -KK_LDD_TRIG_FAST), KK_LDD_TRIG_FAST), &q);
  double s = kk_p_sin_poly(r), c = kk_p_cos_poly(r);
  double y = (q & 1) ? -c / s : s / c;
  y = x == 0.0 ? x : y;
  if (!(__builtin_fabs(x) < KK_LDD_TRIG_FAST)) y = kk_ldd_libm_tan(x);
  return y;
}

/* e^|x| / 2 for |x| > 22 as e^(|x| - ln 2) (|x| - KK_LN2_HI is exact) */
KK_INLINE double kk_ldd_half_exp(double a) { return kk_ldd_exp_dd(a - KK_LN2_HI, -KK_LN2_LO); }

/* sinh = (e + e / (e + 1)) / 2 with e = expm1 |x| for |x| <= 22 */
KK_INLINE double kk_ldd_sinh(double x) {
  double a = __builtin_fabs(x);
  double e = kk_ld_expm1(__builtin_fmin(a, 22.0));
  double r = a > 22.0 ? kk_ldd_half_exp(a) : 0.5 * (e + e / (e + 1.0));
  return x != x ? x : __builtin_copysign(r, x);
}

KK_INLINE double kk_ldd_cosh(double x) {
  double a = __builtin_fabs(x);
  double e = kk_ld_exp(__builtin_fmin(a, 22.0));
  double r = a > 22.0 ? kk_ldd_half_exp(a) : 0.5 * e + 0.5 / e;
  return x != x ? x : r;
}

/* tanh = e / (e + 2) with e = expm1(2|x|); +-1 beyond |x| > 22 */
KK_INLINE double kk_ldd_tanh(double x) {
  double a = __builtin_fabs(x);
  double e = kk_ld_expm1(2.0 * __builtin_fmin(a, 22.0));
  double r = a > 22.0 ? 1.0 : e / (e + 2.0);
  return x != x ? x : __builtin_copysign(r, x);
}

#endif
