/* Host double erf, erfc, tgamma and lgamma (lgamma_r's value) written for SIMD lanes (OpenCL C 3.0 s7.4:
 * erf and erfc 16 ulp, tgamma 16; lgamma has no bound): straight-line code with selects and no library call,
 * so the packetiser turns each into <W x double> instructions.  The coefficients are our own
 * fits, made by tools/fit_lane_math.py (mpmath).
 * - erfc(z), z >= 0: t e^(P(s) - z^2) with t = 2 / (2 + z), s an affine map of u = (z - 2) / (z + 2) on
 *   [-1, u(27.3)] (the form of Numerical Recipes' erfcc), P of degree 27 fitted to log(erfc(z) / t) + z^2;
 *   z^2 and the exponent as double-doubles, t multiplied in before the final scaling by 2^k (subnormal
 *   results rounded once), for z >= 1; erfc(-z) = 2 - erfc(z); below 1, 1 -+ erf|x| with erf|x| as a
 *   double-double;
 * - erf(x): x times the Taylor series of erf(x) / x for |x| < 1, 1 - erfc|x| with x's sign beyond;
 * - lgamma and tgamma: x = n + e (n = rint(x), both exact) below 7.5, Gamma(x) = Gamma(2 + e) times the
 *   factors (e + 2)...(e + n - 1) or divided by x or x (x + 1), log Gamma(2 + e) = e G(e) with G of degree 19
 *   fitted on |e| <= 1/2 (no cancellation next to the zeros of lgamma at 1 and 2); Stirling's series to
 *   B_20 / y^19 at 7.5 and above, with (y - 1/2) log y - y as a double-double (tgamma: e^ of it by the
 *   double-double exp); x < -1/2 by reflection, Gamma(x) Gamma(1 - x) = pi / sin(pi x), with 1 - x carried
 *   exactly (n and e, or a two-sum) into the positive part.
 *   lgamma near its zeros left of -2 loses relative accuracy (the reflection's cancellation: the absolute
 *   error stays about an ulp of log Gamma(1 - x)); the C library (glibc) expands around those zeros.
 * The parts only some arguments need (erf's and erfc's erfc beyond 1, the gamma functions' Stirling series and
 * reflection) are in `if`s, which the packetiser linearises with a none-active skip.
 * tests/host/test_vector_math_double.py measures them against mpmath.
 */
#ifndef KERNELKIT_CLC_LANES_DOUBLE_GAMMA_ERF_H
#define KERNELKIT_CLC_LANES_DOUBLE_GAMMA_ERF_H

#include "clc_lanes_double.h"

#define KK_LDD_ERFC_MAX 27.3                  /* erfc(27.3) < 2^-1075: 0 beyond */
#define KK_LDD_ERFC_UMAX 0x1.ba1a362baf9e2p-1 /* u(27.3) = 25.3 / 29.3 */
#define KK_LDD_LOG_PI 0x1.250d048e7a1bdp+0    /* log(pi) and log(2 pi) / 2 as double-doubles */
#define KK_LDD_LOG_PI_LO 0x1.7abf2ad8d5088p-57
#define KK_LDD_HALF_LOG_2PI 0x1.d67f1c864beb5p-1
#define KK_LDD_HALF_LOG_2PI_LO (-0x1.65b5a1b7ff5dfp-55)
#define KK_LDD_STIRLING 7.5                   /* Stirling's series from here on */

/* a + b = result + *err exactly (Knuth's two-sum) */
KK_INLINE double kk_ldd_two_sum(double a, double b, double *err) {
  double s = a + b, bb = s - a;
  *err = (a - (s - bb)) + (b - bb);
  return s;
}

/* erfc(z) for z >= 0 (infinity too; not NaN) */
KK_INLINE double kk_ldd_erfc_pos(double z) {
  double c = __builtin_fmin(z, KK_LDD_ERFC_MAX);
  double t = 2.0 / (2.0 + c);
  double u = (c - 2.0) * t * 0.5;
  double s = __builtin_fma(u, 2.0 / (KK_LDD_ERFC_UMAX + 1.0), (1.0 - KK_LDD_ERFC_UMAX) / (KK_LDD_ERFC_UMAX + 1.0));
  double p;
  p = 0x1.7f53040c1556ep-33;
  p = __builtin_fma(p, s, 0x1.6a61c4b7ffc0bp-34);
  p = __builtin_fma(p, s, -0x1.031c9fc3a5216p-29);
  p = __builtin_fma(p, s, -0x1.82820f4c083d9p-29);
  p = __builtin_fma(p, s, 0x1.c169480bd3be1p-28);
  p = __builtin_fma(p, s, 0x1.9b8f9e8c8f407p-26);
  p = __builtin_fma(p, s, 0x1.ba0429794204dp-27);
  p = __builtin_fma(p, s, -0x1.7f20202195ba2p-24);
  p = __builtin_fma(p, s, -0x1.e58eb7cd4131cp-23);
  p = __builtin_fma(p, s, 0x1.180ac2adf8633p-25);
  p = __builtin_fma(p, s, 0x1.23b447f21fc3ap-20);
  p = __builtin_fma(p, s, 0x1.8e24ada951bc8p-20);
  p = __builtin_fma(p, s, -0x1.57c8fbae65980p-19);
  p = __builtin_fma(p, s, -0x1.43bf452284466p-17);
  p = __builtin_fma(p, s, -0x1.cec64c7969498p-20);
  p = __builtin_fma(p, s, 0x1.38c9ecc488ba9p-15);
  p = __builtin_fma(p, s, 0x1.9f2c0cd56c530p-15);
  p = __builtin_fma(p, s, -0x1.9e840c8487fddp-14);
  p = __builtin_fma(p, s, -0x1.3c8f5b32fa01bp-12);
  p = __builtin_fma(p, s, 0x1.1d751ba2999a6p-13);
  p = __builtin_fma(p, s, 0x1.7258b42d32acfp-10);
  p = __builtin_fma(p, s, 0x1.b4a5efd822a1bp-12);
  p = __builtin_fma(p, s, -0x1.acaf1e63dc73bp-8);
  p = __builtin_fma(p, s, -0x1.4e17a1287441bp-8);
  p = __builtin_fma(p, s, 0x1.45d286c932dc7p-5);
  p = __builtin_fma(p, s, 0x1.0aa4047032e34p-5);
  p = __builtin_fma(p, s, -0x1.43a67b15c6f57p-1);
  p = __builtin_fma(p, s, -0x1.4058650afce5ep-1);
  double zh = c * c, zl = __builtin_fma(c, c, -zh), ea;
  double a = kk_ldd_two_sum(p, -zh, &ea);
  double r = kk_ldd_exp_dd_times(a, ea - zl, t);
  return z > KK_LDD_ERFC_MAX ? 0.0 : r;
}

#define KK_LDD_2_SQRTPI 0x1.20dd750429b6dp+0   /* 2 / sqrt(pi) as a double-double */
#define KK_LDD_2_SQRTPI_LO 0x1.1ae3a914fed80p-56

/* erf(x) / x = 2/sqrt(pi) + z Q(z) for z = x^2 <= 1 (Taylor series to z^17, remainder below 2^-57): this is Q */
KK_INLINE double kk_ldd_erf_tail(double z) {
  double p;
  p = -0x1.a2007af3447f6p-54;
  p = __builtin_fma(p, z, 0x1.d70b3537f4765p-50);
  p = __builtin_fma(p, z, -0x1.f56f071a885cfp-46);
  p = __builtin_fma(p, z, 0x1.f683ae4a97007p-42);
  p = __builtin_fma(p, z, -0x1.d8453cb0c46eap-38);
  p = __builtin_fma(p, z, 0x1.9e6ad5e55a730p-34);
  p = __builtin_fma(p, z, -0x1.51d7181c5d36dp-30);
  p = __builtin_fma(p, z, 0x1.fcc5720624c1cp-27);
  p = __builtin_fma(p, z, -0x1.5f742ec43e71ap-23);
  p = __builtin_fma(p, z, 0x1.b9e6c9dc651a3p-20);
  p = __builtin_fma(p, z, -0x1.f4d25c3e0c2ebp-17);
  p = __builtin_fma(p, z, 0x1.f9a326f9b89b7p-14);
  p = __builtin_fma(p, z, -0x1.c02db40040b86p-11);
  p = __builtin_fma(p, z, 0x1.565bcd0e6a53fp-8);
  p = __builtin_fma(p, z, -0x1.b82ce31288b51p-6);
  p = __builtin_fma(p, z, 0x1.ce2f21a042be2p-4);
  p = __builtin_fma(p, z, -0x1.812746b0379e7p-2);
  return p;
}

/* erf(a) for 0 <= a <= 1 as hi + *lo: a 2/sqrt(pi) as a double-double plus a z Q(z) (|a z Q| < |a 2/sqrt(pi)|) */
KK_INLINE double kk_ldd_erf_small_dd(double a, double *lo) {
  double h = a * KK_LDD_2_SQRTPI;
  double l = __builtin_fma(a, KK_LDD_2_SQRTPI, -h) + a * KK_LDD_2_SQRTPI_LO;
  double q = a * (a * a * kk_ldd_erf_tail(a * a));
  double hi = h + q;
  *lo = ((h - hi) + q) + l;
  return hi;
}

/* (the erfc part only when a lane needs it: a none-active skip after packetising) */
KK_INLINE double kk_ldd_erf(double x) {
  double a = __builtin_fabs(x);
  double z = __builtin_fmin(x * x, 1.0);
  double r = x * __builtin_fma(kk_ldd_erf_tail(z), z, KK_LDD_2_SQRTPI);
  if (!(a < 1.0)) r = __builtin_copysign(1.0 - kk_ldd_erfc_pos(a), x);
  return x != x ? x : r;
}

/* 1 -+ erf|x| (as a double-double, summed exactly) below 1, erfc|x| or 2 - erfc|x| (in an if) beyond */
KK_INLINE double kk_ldd_erfc(double x) {
  double a = __builtin_fabs(x), lo, err;
  double hi = kk_ldd_erf_small_dd(__builtin_fmin(a, 1.0), &lo);
  double sign = x < 0.0 ? 1.0 : -1.0;
  double r = kk_ldd_two_sum(1.0, sign * hi, &err);
  r = r + (err + sign * lo);
  if (!(a < 1.0)) {
    double e = kk_ldd_erfc_pos(a);
    r = x < 0.0 ? 2.0 - e : e;
  }
  return x != x ? x : r;
}

#define KK_LDD_LGAMMA2_C0 0x1.b0ee6072093cep-2   /* G(0) = 1 - Euler's gamma, as a double-double */
#define KK_LDD_LGAMMA2_C0_LO 0x1.6cb90701fbfabp-58

/* log Gamma(2 + e) = e G(e) for |e| <= 1/2; this is (G(e) - G(0)) / e */
KK_INLINE double kk_ldd_lgamma2_tail(double e) {
  double g;
  g = 0x1.11fa5e7c86f7bp-24;
  g = __builtin_fma(g, e, -0x1.2009c1a550d0dp-23);
  g = __builtin_fma(g, e, 0x1.b40adb09a1e12p-23);
  g = __builtin_fma(g, e, -0x1.ce17528bcf460p-22);
  g = __builtin_fma(g, e, 0x1.012012be3900ap-20);
  g = __builtin_fma(g, e, -0x1.1276ebd557fb0p-19);
  g = __builtin_fma(g, e, 0x1.258f3057730fap-18);
  g = __builtin_fma(g, e, -0x1.3cb3be36ad88bp-17);
  g = __builtin_fma(g, e, 0x1.580e0afa55850p-16);
  g = __builtin_fma(g, e, -0x1.78de9ab752b81p-15);
  g = __builtin_fma(g, e, 0x1.a127afee53e7dp-14);
  g = __builtin_fma(g, e, -0x1.d3fd4b679c1c4p-13);
  g = __builtin_fma(g, e, 0x1.0b36af8779ca0p-11);
  g = __builtin_fma(g, e, -0x1.38ac5c2d48207p-10);
  g = __builtin_fma(g, e, 0x1.7add6eadb5317p-9);
  g = __builtin_fma(g, e, -0x1.e404fc218dbaep-8);
  g = __builtin_fma(g, e, 0x1.51322ac7d848ap-6);
  g = __builtin_fma(g, e, -0x1.13e001a55760ap-4);
  g = __builtin_fma(g, e, 0x1.4a34cc4a60fa6p-2);
  return g;
}

KK_INLINE double kk_ldd_lgamma2_over_e(double e) { return __builtin_fma(kk_ldd_lgamma2_tail(e), e, KK_LDD_LGAMMA2_C0); }

/* log Gamma(2 + e) as hi + *lo: e G(0) as a double-double plus e^2 times the tail */
KK_INLINE double kk_ldd_lgamma2_dd(double e, double *lo) {
  double hi = e * KK_LDD_LGAMMA2_C0;
  *lo = __builtin_fma(e, KK_LDD_LGAMMA2_C0, -hi) + e * __builtin_fma(e, kk_ldd_lgamma2_tail(e), KK_LDD_LGAMMA2_C0_LO);
  return hi;
}

/* for y = n + e (n an integer, |e| <= 1/2, n + e not rounded) below 7.5, Gamma(y) = Gamma(2 + e) num / den:
 * returns num = (e + 2)(e + 3)...(e + n - 1), *den gets y (y + 1) (n = 0), y (n = 1) or 1 */
KK_INLINE double kk_ldd_gamma_factors(double n, double e, double y, double *den) {
  double num = 2.0 < n ? e + 2.0 : 1.0;
  num *= 3.0 < n ? e + 3.0 : 1.0;
  num *= 4.0 < n ? e + 4.0 : 1.0;
  num *= 5.0 < n ? e + 5.0 : 1.0;
  num *= 6.0 < n ? e + 6.0 : 1.0;
  *den = n == 0.0 ? y * (y + 1.0) : n == 1.0 ? y : 1.0;
  return num;
}

/* log Gamma(y) for y = yh + yl >= 7.5 (yl below ulp(yh)/2) as the double-double result + *tl: Stirling's
 * (y - 1/2) log y - y + log(2 pi) / 2 + sum_k B_2k / (2k (2k - 1) y^(2k - 1)), k <= 10 (remainder below
 * 2^-57 at 7.5); yl enters as yl log y (the derivative's main term); y (log y - 1) beyond 2^60 */
KK_INLINE double kk_ldd_lgamma_stirling(double yh, double yl, double *tl) {
  double y = __builtin_fmin(__builtin_fmax(yh, KK_LDD_STIRLING), 0x1.fffffffffffffp+1023);   /* (NaN -> a number) */
  double lo, lh = kk_ldd_log_dd(y, &lo);
  double m = y - 0.5;
  double ph = m * lh;
  double pl = __builtin_fma(m, lh, -ph) + __builtin_fma(m, lo, yl * lh);
  double w = 1.0 / y, w2 = w * w;
  double s = -174611.0 / 125400.0;
  s = __builtin_fma(s, w2, 43867.0 / 244188.0);
  s = __builtin_fma(s, w2, -3617.0 / 122400.0);
  s = __builtin_fma(s, w2, 1.0 / 156.0);
  s = __builtin_fma(s, w2, -691.0 / 360360.0);
  s = __builtin_fma(s, w2, 1.0 / 1188.0);
  s = __builtin_fma(s, w2, -1.0 / 1680.0);
  s = __builtin_fma(s, w2, 1.0 / 1260.0);
  s = __builtin_fma(s, w2, -1.0 / 360.0);
  s = __builtin_fma(s, w2, 1.0 / 12.0);
  double k = __builtin_fma(s, w, KK_LDD_HALF_LOG_2PI);
  double sh = ph - y;                     /* (|ph| > |y| and |sh| > |k|: fast two-sums) */
  double e1 = (ph - sh) - y;
  double th = sh + k;
  double e2 = (sh - th) + k;
  int huge = y > 0x1p60;
  *tl = huge ? 0.0 : e1 + e2 + pl + KK_LDD_HALF_LOG_2PI_LO;
  return huge ? y * (lh - 1.0) : th;
}

/* the parts of x both gamma functions take: x = n + e (n = rint(x), e exact); whether x < -1/2 (reflected:
 * the positive part is taken at 1 - x = *yh + *yl, as *nd + *ed = (1 - n) - e), else at x (*yl = 0) */
KK_INLINE int kk_ldd_gamma_parts(double x, double *nd, double *ed, double *yh, double *yl) {
  int reflect = x < -0.5;
  double n = __builtin_rint(x), e = x - n, l;
  double h = kk_ldd_two_sum(1.0, -x, &l);
  *nd = reflect ? 1.0 - n : n;
  *ed = reflect ? -e : e;
  *yh = reflect ? h : x;
  *yl = reflect ? l : 0.0;
  return reflect;
}

/* |sin(pi x)| for a finite x: x = n/2 + f (n = rint(2x), f exact), pi f = t + tl as a double-double, sin or
 * cos of it to first order in tl (the rounding of pi f would cost about an ulp) */
KK_INLINE double kk_ldd_abs_sinpi(double x) {
  double n = __builtin_rint(2.0 * x);
  double f = x - 0.5 * n;
  double t = f * KK_PI;
  double tl = __builtin_fma(f, KK_PI, -t) + f * KK_PI_LO;
  double s = kk_p_sin_poly(t), c = kk_p_cos_poly(t);
  int odd = n != 2.0 * __builtin_trunc(0.5 * n);
  return __builtin_fabs(odd ? __builtin_fma(-tl, s, c) : __builtin_fma(tl, c, s));
}

KK_INLINE double kk_ldd_lgamma(double x) {
  double nd, ed, yh, yl, tl, den, ll, e1, e2;
  int reflect = kk_ldd_gamma_parts(x, &nd, &ed, &yh, &yl);
  /* below 7.5: e G(e) + log(num) or - log(den), as a double-double */
  double num = kk_ldd_gamma_factors(nd, ed, yh, &den);
  double lh = kk_ldd_log_dd(kk_ldd_log_arg(__builtin_fabs(nd <= 1.0 ? den : num)), &ll);
  double sl, dh = kk_ldd_two_sum(kk_ldd_lgamma2_dd(ed, &sl), nd <= 1.0 ? -lh : lh, &e1);
  double dl = (e1 + sl) + (nd <= 1.0 ? -ll : ll);
  double gh = dh, gl = dl;
  if (!(yh < KK_LDD_STIRLING)) gh = kk_ldd_lgamma_stirling(yh, yl, &gl);
  double r = gh + gl;
  /* x < -1/2: log(pi) - log|sin(pi x)| - log Gamma(1 - x), summed as double-doubles (next to the zeros of
   * lgamma the terms cancel) */
  if (reflect) {
    double sh = kk_ldd_log_dd(kk_ldd_log_arg(kk_ldd_abs_sinpi(x)), &sl);
    double rh = kk_ldd_two_sum(KK_LDD_LOG_PI, -sh, &e1);
    rh = kk_ldd_two_sum(rh, -gh, &e2);
    r = rh + (((e1 + e2) + (KK_LDD_LOG_PI_LO - sl)) - gl);
  }
  r = (x <= 0.0 && x == __builtin_rint(x)) || __builtin_fabs(x) == KK_INF ? KK_INF : r;   /* poles */
  return x != x ? x : r;
}

KK_INLINE double kk_ldd_tgamma(double x) {
  double nd, ed, yh, yl, tl, den;
  int reflect = kk_ldd_gamma_parts(x, &nd, &ed, &yh, &yl);
  /* below 7.5: e^(e G(e)) num or / den */
  double num = kk_ldd_gamma_factors(nd, ed, yh, &den);
  double g2 = kk_ldd_exp_dd(ed * kk_ldd_lgamma2_over_e(ed), 0.0);
  double direct = (nd <= 1.0 ? g2 : g2 * num) / den;   /* (selects, one division: no diamond for clang) */
  double r = direct, sp = 1.0;
  if (reflect) {
    sp = kk_ldd_abs_sinpi(x);
    r = KK_PI / (sp * direct);
  }
  /* 7.5 and above: e^(Stirling) (infinite beyond 171.7); reflected, e^(log(pi) - log|sin(pi x)| - Stirling)
   * in one exp (subnormal from -170.6 on, 0 below -184) */
  if (!(yh < KK_LDD_STIRLING)) {
    double th = kk_ldd_lgamma_stirling(__builtin_fmin(yh, 200.0), yl, &tl), sl, e1, e2;
    double sh = kk_ldd_log_dd(kk_ldd_log_arg(sp), &sl);
    double eh = kk_ldd_two_sum(KK_LDD_LOG_PI, -sh, &e1);
    eh = kk_ldd_two_sum(eh, -th, &e2);
    double el = e1 + e2 + (KK_LDD_LOG_PI_LO - sl - tl);
    r = kk_ldd_exp_dd(reflect ? eh : th, reflect ? el : tl);   /* (one exp) */
  }
  double f = __builtin_floor(x);
  r = reflect && f != 2.0 * __builtin_floor(0.5 * f) ? -r : r;   /* Gamma < 0 where floor(x) is odd */
  r = (x < 0.0 && x == __builtin_rint(x)) || x == -KK_INF ? KK_NAN : r;   /* (+-0: +-inf from 1 / den) */
  return x != x ? x : r;
}

#endif
