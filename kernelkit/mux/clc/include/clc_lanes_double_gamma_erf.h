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
 *   Next to the zeros of lgamma left of -2 the reflection cancels: where |lgamma x| < 1 in (-18, -2), an
 *   expansion at the nearest zero (kk_ldd_lgamma_near_zero); left of -18 the zeros are within an ulp of the
 *   poles.
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

/* lgamma's zeros in (-18, -2): truncation error where |lgamma| < 1 at most 4.05e-18 (relative) */
static __constant double kk_ldd_lgamma_mids[16] = {-0x1.4e2c19f679e5ap+1, -0x1.d1514b041b2a8p+1, -0x1.29cea5c1ccbd0p+2, -0x1.6ab2ca18e6ce3p+2, -0x1.ab6b34398a4ffp+2, -0x1.ec04b952a5368p+2, -0x1.1643b3352a3f5p+3, -0x1.367c4b1f635e4p+3, -0x1.56ae014434848p+3, -0x1.76da2d93df103p+3, -0x1.9701cf864ba95p+3, -0x1.b725a99120b77p+3, -0x1.d74652d341c14p+3, -0x1.f76442d8ce088p+3, -0x1.0bbfecd60fcd2p+4, -0x1.1bccb2c0db753p+4};
static __constant double kk_ldd_lgamma_zeros[32 * 24] = {
  -0x1.5fb410a1bd901p+1, 0x1.a19a96d2e6f85p-54, 0x1.6c42c3083b9d2p-1, 0x1.a773d8ad51e1ep-1, -0x1.223705dbf2eefp-3, 0x1.2b9fc98b1810ep-3, -0x1.c7b2559839b8ep-5, 0x1.a0febc4127b5ep-5, -0x1.bc3ec431fb837p-6, 0x1.6dfc0742c9cc4p-6, -0x1.caca317a28712p-7, 0x1.66d94129178cbp-7, -0x1.e9577b1db3194p-8, 0x1.762163b1df981p-8, -0x1.0b1f0e1c3a623p-8, 0x1.951bc2d018a0ap-9, -0x1.290c6baf2e6bap-9, 0x1.c1e784ae4c208p-10, -0x1.4f51fdac6468ap-10, 0x1.fcc65e42db558p-11, -0x1.7f3ea9b524de0p-11, 0x1.239d29a0511f7p-11, -0x1.ba9259add104ap-12, 0x1.51dde38428126p-12,
  -0x1.3a7fc9600f86cp+1, -0x1.55f64f98af8d0p-55, 0x1.2b537bebae5d9p+0, 0x1.8981c383c7cffp-1, 0x1.ba07015be1693p-10, 0x1.d7f8892714c1bp-4, 0x1.e5539f871d0bbp-8, 0x1.000fd4a3d4e8ep-5, 0x1.c002b2f6ea6fcp-9, 0x1.4ec698ddcdedcp-7, 0x1.8ea5e9457c438p-10, 0x1.de2e5790de80bp-9, 0x1.6381c05a4837ap-11, 0x1.675de0d43dab8p-10, 0x1.3dee85eec11f9p-12, 0x1.174c8eefb6732p-11, 0x1.1cdaf3157804ap-13, 0x1.bcd2903d4ebe1p-13, 0x1.ff2247e979de8p-15, 0x1.68ebdbe302741p-14, 0x1.cb1c510a408d2p-16, 0x1.294b54399f302p-15, 0x1.9cd33a15e3e1ap-17, 0x1.efecf185b88a4p-17,
  -0x1.fa471547c2fe5p+1, -0x1.70d4561291237p-56, 0x1.317b9674dd3b2p-1, 0x1.fbcba61e28035p-1, -0x1.2c4e90fe44f74p-2, 0x1.004ca1626be07p-2, -0x1.4635e43e3c342p-3, 0x1.1278c80e00984p-3, -0x1.ad5670b8f2e14p-4, 0x1.6d1701a512a89p-4, -0x1.32a804ac28fc3p-4, 0x1.09556d0630f1dp-4, -0x1.cc2432203a1f8p-5, 0x1.94417e2854992p-5, -0x1.64d62cd9047b0p-5, 0x1.3d48fa7b207eep-5, -0x1.1b61ada52b5cap-5, 0x1.fca82e8ae4dfcp-6, -0x1.ca36b4c57f4e5p-6, 0x1.9e40556125a9ap-6, -0x1.77a57a1ecdbafp-6, 0x1.559891306c3b2p-6, -0x1.3767e539df9c4p-6, 0x1.1c88177ae1891p-6,
  -0x1.9260dbc9e59afp+1, -0x1.f717cd335a7b3p-53, 0x1.fc1d4bd1fc33fp+0, 0x1.cac0e625d6478p-1, 0x1.7e188c07caba0p-3, 0x1.7ffc538fe0611p-3, 0x1.8ca5ebffe4831p-4, 0x1.4b2f401c3e0cap-4, 0x1.bf4601e2093fep-5, 0x1.67ff850bedb12p-5, 0x1.0d8a46ea66a84p-5, 0x1.b089cb302006bp-6, 0x1.5328a38e2152fp-6, 0x1.11e2fbaa038c4p-6, 0x1.b7e79cb509fdcp-7, 0x1.66372ccdc11dbp-7, 0x1.23cd0f886b731p-7, 0x1.def4a906082e9p-8, 0x1.89e70c0497ef1p-8, 0x1.45724f9e4a176p-8, 0x1.0d88df6109355p-8, 0x1.bfe3a0e9a1ad9p-9, 0x1.74f7821f6df4fp-9, 0x1.3755768e9cbf5p-9,
  -0x1.3f7577a6eeafdp+2, 0x1.5de5eab7f12cfp-53, 0x1.729fa3e695501p-1, 0x1.0bb9af9e90836p+0, -0x1.5101cbfee7dc1p-2, 0x1.212baa255f74ep-2, -0x1.883919629241bp-3, 0x1.505934aba95fep-3, -0x1.13afb8f770f54p-3, 0x1.e2d360f06afffp-4, -0x1.a5d43aa80538ap-4, 0x1.7957088589fc8p-4, -0x1.53686df118b0bp-4, 0x1.34b2f530b4c97p-4, -0x1.1a67d30682842p-4, 0x1.04132a357d55ap-4, -0x1.e155852d262c1p-5, 0x1.bf7c1ed1c7c2cp-5, -0x1.a19da6348f75dp-5, 0x1.871ca97a1f611p-5, -0x1.6f6ac34d91439p-5, 0x1.5a1edb4bcf21cp-5, -0x1.46dfbd8ca3ea5p-5, 0x1.35667373d3343p-5,
  -0x1.0284e78599581p+2, 0x1.e78c1e9e43cfep-53, 0x1.368bb8d93208ap+1, 0x1.ff354860de4abp-1, 0x1.212cd6597582ap-2, 0x1.04c396dc60364p-2, 0x1.4ea931558997ap-3, 0x1.1aa723346a456p-3, 0x1.bd3e7e911b754p-4, 0x1.7c2f7e74e0e6cp-4, 0x1.4133fd19d4559p-4, 0x1.173f2aa551911p-4, 0x1.e6e0ad79e08bep-5, 0x1.ade3d6913fbe9p-5, 0x1.7d722b1321f6cp-5, 0x1.54e570cba9e3cp-5, 0x1.320b188d3885dp-5, 0x1.141349230f44fp-5, 0x1.f3f4ae32c2fefp-6, 0x1.c64f783d27273p-6, 0x1.9e17738907e5cp-6, 0x1.7a7de9e9a3297p-6, 0x1.5ad0b120f7648p-6, 0x1.3e83a7a42784dp-6,
  -0x1.7fe92f591f40dp+2, -0x1.7dd4ed62cbd32p-52, 0x1.c063410bc5b51p-1, 0x1.1116eb0c49695p+0, -0x1.57b1b44b0fe81p-2, 0x1.286bde29b47ddp-2, -0x1.96b7a69eeffd9p-3, 0x1.5e5447ea81359p-3, -0x1.21b6759ef535bp-3, 0x1.fe81c7efd7510p-4, -0x1.c16f7eff2ba0dp-4, 0x1.94c12405d9405p-4, -0x1.6eb455fee9aa2p-4, 0x1.4fd94f4d06aacp-4, -0x1.356d7c2d4def1p-4, 0x1.1ef66f67ec040p-4, -0x1.0b6cff7a54acap-4, 0x1.f4bdf5b4297a9p-5, -0x1.d69dd0264a13fp-5, 0x1.bbdb48ec16338p-5, -0x1.a3e85cbebe733p-5, 0x1.8e5bbdb2631cep-5, -0x1.7adc5010b69c2p-5, 0x1.69230f5c3514ep-5,
  -0x1.4086a57f0b6d9p+2, -0x1.95262b72ca9cap-55, 0x1.582c673af19e6p+1, 0x1.0bdab32e0a162p+0, 0x1.4616d4a07d6bep-2, 0x1.2168632778696p-2, 0x1.887bf1cd73599p-3, 0x1.50ce8822798eap-3, 0x1.14243fd51cfa5p-3, 0x1.e3ba26808090cp-4, 0x1.a6b99743f34bbp-4, 0x1.7a3a0721e58bbp-4, 0x1.5449ae279823fp-4, 0x1.359238d9577d7p-4, 0x1.1b4546c850f73p-4, 0x1.04eec14346e95p-4, 0x1.e309161f6992dp-5, 0x1.c12c11dcea2dep-5, 0x1.a34a081eca885p-5, 0x1.88c57fb232c63p-5, 0x1.7110169e6bd37p-5, 0x1.5bc0b29b4b4e3p-5, 0x1.487e208dcce2cp-5, 0x1.37016953e723bp-5,
  -0x1.bffcbf76b86f0p+2, 0x1.853b29347b806p-57, 0x1.041d2203cd6c2p+0, 0x1.1402a574d4fc2p+0, -0x1.581e199ddf600p-2, 0x1.29beee8a4b16dp-2, -0x1.993626a662ae4p-3, 0x1.60c389cc98bd1p-3, -0x1.2429854a74111p-3, 0x1.01ae725087519p-3, -0x1.c64c1aaac9d00p-4, 0x1.999a453d5597cp-4, -0x1.738d1a22883a6p-4, 0x1.54b0796db8dabp-4, -0x1.3a43d257ed563p-4, 0x1.23cba2cd1595ep-4, -0x1.104141a1d1c8ap-4, 0x1.fe6470844ba60p-5, -0x1.e0425a8f614c5p-5, 0x1.c57dd98789c1cp-5, -0x1.ad88fa2cd9ff0p-5, 0x1.97fa65f38d5fdp-5, -0x1.8479052779588p-5, 0x1.72bdd122c8965p-5,
  -0x1.8016b25897c8dp+2, 0x1.27e0f49a4ba72p-54, 0x1.6f567bfcb1afap+1, 0x1.111987fdf030cp+0, 0x1.4fabc5ea11df3p-2, 0x1.286dd93156e24p-2, 0x1.969ebb3ac9f72p-3, 0x1.5e58090a2b221p-3, 0x1.21b9eb355fdadp-3, 0x1.fe894368e749bp-4, 0x1.c176f981adc84p-4, 0x1.94c89a3157f97p-4, 0x1.6ebbca73c9b2dp-4, 0x1.4fe0c02f7c20bp-4, 0x1.3574eaa9301a6p-4, 0x1.1efddb035f360p-4, 0x1.0b746882c88ecp-4, 0x1.f4ccc2636ec16p-5, 0x1.d6ac979c15717p-5, 0x1.bbea0b1ae09d7p-5, 0x1.a3f719b1f89ebp-5, 0x1.8e6a75680eda5p-5, 0x1.7aeb028d15003p-5, 0x1.6931bca02a1dcp-5,
  -0x1.ffff97f8159cfp+2, -0x1.e54f415a91586p-55, 0x1.24049c69a39ebp+0, 0x1.160e20f174e99p+0, -0x1.57a8676dcf534p-2, 0x1.29fc70da9e897p-2, -0x1.99911c6a4dc2bp-3, 0x1.611edcf7c0916p-3, -0x1.2485359c4cf71p-3, 0x1.02096c079e819p-3, -0x1.c70263831cc1ep-4, 0x1.9a502c5cf2024p-4, -0x1.744313024333ep-4, 0x1.556656275c427p-4, -0x1.3af9af9795983p-4, 0x1.248175241e695p-4, -0x1.10f7103487293p-4, 0x1.ffd0006c99858p-5, -0x1.e1ade0cb7f076p-5, 0x1.c6e954aae1262p-5, -0x1.aef46b1bc37e5p-5, 0x1.9965cc532d714p-5, -0x1.85e4613126ea8p-5, 0x1.742922c0115a8p-5,
  -0x1.c0033fdedfe1fp+2, 0x1.20bb7d2324678p-52, 0x1.81f2864fc885ep+1, 0x1.1402e309222efp+0, 0x1.521389579dff8p-2, 0x1.29befb40d2fd9p-2, 0x1.9925e83d686fap-3, 0x1.60c39f1e501bap-3, 0x1.242977e5f5008p-3, 0x1.01ae8793e750bp-3, 0x1.c64c448fbe548p-4, 0x1.999a6fbf794a1p-4, 0x1.738d44a5d61f0p-4, 0x1.54b0a3eb8c60ep-4, 0x1.3a43fcd4e8ef2p-4, 0x1.23cbcd4699004p-4, 0x1.10416c1982826p-4, 0x1.fe64c56eb2471p-5, 0x1.e042af75a2becp-5, 0x1.c57e2e6950ccfp-5, 0x1.ad894f0a5c37ap-5, 0x1.97fabaccb5a24p-5, 0x1.847959fc55337p-5, 0x1.72be25f352eabp-5,
  -0x1.1ffffa3884bd0p+3, -0x1.ff90c9d2ae925p-53, 0x1.407340927fc41p+0, 0x1.17a4207dce4b8p+0, -0x1.57374455736ffp-2, 0x1.2a0c357e6e8cbp-2, -0x1.999b4b5185f1fp-3, 0x1.612a95e49303cp-3, -0x1.2490d88678c5ap-3, 0x1.0214fb2bc1a2dp-3, -0x1.c7198ca15257dp-4, 0x1.9a6749b626357p-4, -0x1.745a332e36932p-4, 0x1.557d7354f2e9ep-4, -0x1.3b10cd69e6fc6p-4, 0x1.24989227f7bf1p-4, -0x1.110e2d51d2949p-4, 0x1.fffe3a20d3d2bp-5, -0x1.e1dc1a6d1f5d1p-5, 0x1.c7178e0ba1641p-5, -0x1.af22a4588ede2p-5, 0x1.99940560739efp-5, -0x1.86129a16223cbp-5, 0x1.74575b79ddfb1p-5,
  -0x1.000034028b3f9p+3, -0x1.f60cb3cec1cedp-52, 0x1.91fec64bba580p+1, 0x1.160e26ba0efc5p+0, 0x1.52f3204eac24ap-2, 0x1.29fc713034ca0p-2, 0x1.99872ec1c629ep-3, 0x1.611edd52f5464p-3, 0x1.2485256b5fbebp-3, 0x1.02096c6217bc5p-3, 0x1.c70263f522327p-4, 0x1.9a502d11de61fp-4, 0x1.744313b6ac6ddp-4, 0x1.556656dc464c9p-4, 0x1.3af9b04c82b54p-4, 0x1.248175d90627ap-4, 0x1.10f710e96f285p-4, 0x1.ffd001d6646a1p-5, 0x1.e1ade23548550p-5, 0x1.c6e95614a772bp-5, 0x1.aef46c8587ac3p-5, 0x1.9965cdbcef25dp-5, 0x1.85e4629ae65e6p-5, 0x1.74292429ce772p-5,
  -0x1.3fffff6c0d7c0p+3, 0x1.197cea8c42d7dp-51, 0x1.5a0c7f4fed3b0p+0, 0x1.18ebf86a8a0dap+0, -0x1.56e0a47db683ep-2, 0x1.2a1369a9438a5p-2, -0x1.999b974f1eaf7p-3, 0x1.612bf9247e035p-3, -0x1.24922633b317cp-3, 0x1.02164837ba5c3p-3, -0x1.c71c27ae7fdcfp-4, 0x1.9a69e3785dd44p-4, -0x1.745ccd434edcfp-4, 0x1.55800d15f8125p-4, -0x1.3b13673f893d9p-4, 0x1.249b2be877448p-4, -0x1.1110c71745924p-4, 0x1.0001b6d0652f2p-4, -0x1.e1e14def2be37p-5, 0x1.c71cc18a8f6f0p-5, -0x1.af27d7d79f268p-5, 0x1.999938de59276p-5, -0x1.8617cd93ad218p-5, 0x1.745c8ef6bb008p-5,
  -0x1.200005c7768fbp+3, -0x1.b5b610ffb70d4p-54, 0x1.a0393b47a2b84p+1, 0x1.17a42100bc72ap+0, 0x1.5371b7b65e039p-2, 0x1.2a0c3581e62e4p-2, 0x1.9994ea7eac45bp-3, 0x1.612a95e5ca9e1p-3, 0x1.2490d00007547p-3, 0x1.0214fb2cee8adp-3, 0x1.c7198c87d3c02p-4, 0x1.9a6749b87fd7cp-4, 0x1.745a33305da9ep-4, 0x1.557d73574c8afp-4, 0x1.3b10cd6c404c4p-4, 0x1.2498922a515f5p-4, 0x1.110e2d542c384p-4, 0x1.fffe3a2587117p-5, 0x1.e1dc1a71d29d4p-5, 0x1.c7178e1054a11p-5, 0x1.af22a45d421aep-5, 0x1.9994056526da5p-5, 0x1.86129a1ad5775p-5, 0x1.74575b7e9134bp-5,
  -0x1.5ffffff28cdd4p+3, 0x1.c9924a65aa486p-53, 0x1.7152478bb928ap+0, 0x1.19facbfa36731p+0, -0x1.569f117054886p-2, 0x1.2a17f46151a09p-2, -0x1.999b136c20abcp-3, 0x1.612c2764dbce0p-3, -0x1.2492471dd7dcbp-3, 0x1.021669eb98fe3p-3, -0x1.c71c6b0d2b819p-4, 0x1.9a6a26b84afe8p-4, -0x1.745d108b6b0d4p-4, 0x1.55805055a08e4p-4, -0x1.3b13aa814c6cbp-4, 0x1.249b6f281df6bp-4, -0x1.11110a57724e6p-4, 0x1.0001fa100a8d6p-4, -0x1.e1e1d46eb8984p-5, 0x1.c71d4809d7853p-5, -0x1.af285e56f6bacp-5, 0x1.9999bf5d9e974p-5, -0x1.86185412f5725p-5, 0x1.745d1575fdca0p-5,
  -0x1.40000093f2777p+3, -0x1.927b45d95e154p-52, 0x1.ad0635825cfd0p+1, 0x1.18ebf87540825p+0, 0x1.53c9db1c1335cp-2, 0x1.2a1369a97697fp-2, 0x1.99974f5a05192p-3, 0x1.612bf92481bfap-3, 0x1.24922181ca7d5p-3, 0x1.02164837bd818p-3, 0x1.c71c27a1f21c6p-4, 0x1.9a69e378641cep-4, 0x1.745ccd43424c3p-4, 0x1.55800d15fe5afp-4, 0x1.3b13673f8f680p-4, 0x1.249b2be87d8d2p-4, 0x1.1110c7174bdabp-4, 0x1.0001b6d06b77cp-4, 0x1.e1e14def3874bp-5, 0x1.c71cc18a9c004p-5, 0x1.af27d7d7abb7cp-5, 0x1.999938de65b8ap-5, 0x1.8617cd93b9b2cp-5, 0x1.745c8ef6c791cp-5,
  -0x1.7ffffffee1127p+3, -0x1.ce1f7906b30f5p-54, 0x1.86a79c07d6475p+0, 0x1.1ade5a961c46dp+0, -0x1.566c81d9c012bp-2, 0x1.2a1b1f01f958bp-2, -0x1.999aaabbbb3d0p-3, 0x1.612c31f7beb9cp-3, -0x1.249249b057653p-3, 0x1.02166d0aa3616p-3, -0x1.c71c7138eed32p-4, 0x1.9a6a2ce281f1fp-4, -0x1.745d16b64a449p-4, 0x1.5580567fbb3f7p-4, -0x1.3b13b0ab986c0p-4, 0x1.249b7552387b4p-4, -0x1.11111081992a5p-4, 0x1.0002003a250eep-4, -0x1.e1e1e0c2f3c39p-5, 0x1.c71d545e0c829p-5, -0x1.af286aab2d3ffp-5, 0x1.9999cbb1d38f0p-5, -0x1.861860672ac9ep-5, 0x1.745d21ca32bc2p-5,
  -0x1.6000000d7322ap+3, -0x1.8aecb2d37ff52p-51, 0x1.b8a922d8d3b03p+1, 0x1.19facbfb06575p+0, 0x1.540b955003fa6p-2, 0x1.2a17f46154c55p-2, 0x1.999818d1cababp-3, 0x1.612c2764dbdcep-3, 0x1.24924463b172dp-3, 0x1.021669eb99052p-3, 0x1.c71c6b071177ep-4, 0x1.9a6a26b84b0c5p-4, 0x1.745d108b6376ep-4, 0x1.55805055a09c1p-4, 0x1.3b13aa814c703p-4, 0x1.249b6f281e048p-4, 0x1.11110a57725c2p-4, 0x1.0001fa100a9b3p-4, 0x1.e1e1d46eb8b3ep-5, 0x1.c71d4809d7a0dp-5, 0x1.af285e56f6d66p-5, 0x1.9999bf5d9eb2dp-5, 0x1.86185412f58dfp-5, 0x1.745d1575fde5ap-5,
  -0x1.9fffffffe9edcp+3, 0x1.84f40342d001cp-51, 0x1.9a58d7093e144p+0, 0x1.1ba03f5a3f90ap+0, -0x1.5644bc1b69db3p-2, 0x1.2a1d6a8dd3350p-2, -0x1.999a62b416d2dp-3, 0x1.612c36dc6115cp-3, -0x1.249249a4deb7bp-3, 0x1.02166d521e165p-3, -0x1.c71c71bce7938p-4, 0x1.9a6a2d66fc593p-4, -0x1.745d173ac7b40p-4, 0x1.5580570428f3fp-4, -0x1.3b13b1300a366p-4, 0x1.249b75d6a61fbp-4, -0x1.1111110607d7fp-4, 0x1.000200be92b34p-4, -0x1.e1e1e1cbcf90cp-5, 0x1.c71d5566e7cb3p-5, -0x1.af286bb408a9bp-5, 0x1.9999ccbaaed79p-5, -0x1.86186170061acp-5, 0x1.745d22d30e04bp-5,
  -0x1.800000011eed9p+3, 0x1.19d5307e1fb5ep-53, 0x1.c353cdf01a754p+1, 0x1.1ade5a962af1bp+0, 0x1.543e287d62dc6p-2, 0x1.2a1b1f01f9889p-2, 0x1.999887e3074c0p-3, 0x1.612c31f7beba3p-3, 0x1.249248082ae6bp-3, 0x1.02166d0aa3617p-3, 0x1.c71c7135ca656p-4, 0x1.9a6a2ce281f21p-4, 0x1.745d16b646ee8p-4, 0x1.5580567fbb3f9p-4, 0x1.3b13b0ab98685p-4, 0x1.249b7552387b6p-4, 0x1.11111081992a6p-4, 0x1.0002003a250f0p-4, 0x1.e1e1e0c2f3c3cp-5, 0x1.c71d545e0c82cp-5, 0x1.af286aab2d402p-5, 0x1.9999cbb1d38f3p-5, 0x1.861860672aca1p-5, 0x1.745d21ca32bc5p-5,
  -0x1.bffffffffe6c7p+3, 0x1.d2a30f3dae0fbp-51, 0x1.aca1fb9a1bfb5p+0, 0x1.1c476e601d727p+0, -0x1.5624e3eca3c76p-2, 0x1.2a1f1f49e8dbcp-2, -0x1.999a30d012de8p-3, 0x1.612c39da0eba2p-3, -0x1.2492497b788e4p-3, 0x1.02166d5a26ca7p-3, -0x1.c71c71c6cd875p-4, 0x1.9a6a2d7141c58p-4, -0x1.745d174507f0dp-4, 0x1.5580570e6851fp-4, -0x1.3b13b13a49df9p-4, 0x1.249b75e0e5772p-4, -0x1.111111104743dp-4, 0x1.000200c8d20aap-4, -0x1.e1e1e1e04e49dp-5, 0x1.c71d557b667a0p-5, -0x1.af286bc8875b1p-5, 0x1.9999cccf2d866p-5, -0x1.8618618484ca3p-5, 0x1.745d22e78cb38p-5,
  -0x1.a000000016124p+3, -0x1.84e03341ee8ddp-51, 0x1.cd2c6b8317c9dp+1, 0x1.1ba03f5a40885p+0, 0x1.5465ee88d3dbdp-2, 0x1.2a1d6a8dd337cp-2, 0x1.9998d073b13f7p-3, 0x1.612c36dc6115cp-3, 0x1.2492489925adcp-3, 0x1.02166d521e165p-3, 0x1.c71c71bb33ccbp-4, 0x1.9a6a2d66fc593p-4, 0x1.745d173ac626cp-4, 0x1.5580570428f3fp-4, 0x1.3b13b1300a34dp-4, 0x1.249b75d6a61fbp-4, 0x1.1111110607d7fp-4, 0x1.000200be92b34p-4, 0x1.e1e1e1cbcf90cp-5, 0x1.c71d5566e7cb3p-5, 0x1.af286bb408a9bp-5, 0x1.9999ccbaaed79p-5, 0x1.86186170061acp-5, 0x1.745d22d30e04bp-5,
  -0x1.dfffffffffe52p+3, 0x1.fcf9ccfd8867ep-51, 0x1.bdb30cab12e8ap+0, 0x1.1cd91113ee151p+0, -0x1.560affe3a68d5p-2, 0x1.2a206ab0f425bp-2, -0x1.999a0d76f9d4fp-3, 0x1.612c3bd12c976p-3, -0x1.2492495f1cff8p-3, 0x1.02166d5c31f97p-3, -0x1.c71c71c757665p-4, 0x1.9a6a2d72012a3p-4, -0x1.745d1745c430ep-4, 0x1.5580570f24ac8p-4, -0x1.3b13b13b063d0p-4, 0x1.249b75e1a1cedp-4, -0x1.11111111039d0p-4, 0x1.000200c98e625p-4, -0x1.e1e1e1e1c6f9ep-5, 0x1.c71d557cdf295p-5, -0x1.af286bca000a9p-5, 0x1.9999ccd0a635bp-5, -0x1.86186185fd799p-5, 0x1.745d22e90562dp-5,
  -0x1.c000000001939p+3, -0x1.d2a2f4a73af63p-51, 0x1.d650fdccf1faep+1, 0x1.1c476e601d81dp+0, 0x1.5485c6bd91638p-2, 0x1.2a1f1f49e8dbep-2, 0x1.999902624f894p-3, 0x1.612c39da0eba2p-3, 0x1.249248cce0932p-3, 0x1.02166d5a26ca7p-3, 0x1.c71c71c5d6f77p-4, 0x1.9a6a2d7141c58p-4, 0x1.745d1745072dcp-4, 0x1.5580570e6851fp-4, 0x1.3b13b13a49defp-4, 0x1.249b75e0e5772p-4, 0x1.111111104743dp-4, 0x1.000200c8d20aap-4, 0x1.e1e1e1e04e49dp-5, 0x1.c71d557b667a0p-5, 0x1.af286bc8875b1p-5, 0x1.9999cccf2d866p-5, 0x1.8618618484ca3p-5, 0x1.745d22e78cb38p-5,
  -0x1.fffffffffffe5p+3, -0x1.80c18cc43ea26p-53, 0x1.cdb30cab11279p+0, 0x1.1d591113eedf4p+0, -0x1.55f5aa8e54e40p-2, 0x1.2a216ab0f74cep-2, -0x1.9999f3dd66c1bp-3, 0x1.612c3d26883b2p-3, -0x1.2492494cda368p-3, 0x1.02166d5d3847dp-3, -0x1.c71c71c74797bp-4, 0x1.9a6a2d720f608p-4, -0x1.745d1745d0b7fp-4, 0x1.5580570f314a9p-4, -0x1.3b13b13b12da0p-4, 0x1.249b75e1ae6b9p-4, -0x1.111111111039dp-4, 0x1.000200c99aff0p-4, -0x1.e1e1e1e1e0336p-5, 0x1.c71d557cf862dp-5, -0x1.af286bca19440p-5, 0x1.9999ccd0bf6f3p-5, -0x1.8618618616b30p-5, 0x1.745d22e91e9c4p-5,
  -0x1.e0000000001aep+3, -0x1.fcf9ccde87210p-51, 0x1.ded9865587955p+1, 0x1.1cd91113ee15fp+0, 0x1.549faac6fc480p-2, 0x1.2a206ab0f425bp-2, 0x1.999925bc2b72ep-3, 0x1.612c3bd12c976p-3, 0x1.249248e9fa02bp-3, 0x1.02166d5c31f97p-3, 0x1.c71c71c6c6879p-4, 0x1.9a6a2d72012a3p-4, 0x1.745d1745c3cc8p-4, 0x1.5580570f24ac8p-4, 0x1.3b13b13b063cbp-4, 0x1.249b75e1a1cedp-4, 0x1.11111111039d0p-4, 0x1.000200c98e625p-4, 0x1.e1e1e1e1c6f9ep-5, 0x1.c71d557cdf295p-5, 0x1.af286bca000a9p-5, 0x1.9999ccd0a635bp-5, 0x1.86186185fd799p-5, 0x1.745d22e90562dp-5,
  -0x1.0ffffffffffffp+4, -0x1.ab4e23f3d49f1p-51, 0x1.dcc21bba201a7p+0, 0x1.1dca736733212p+0, -0x1.55e3e1682c4dep-2, 0x1.2a223390c497dp-2, -0x1.9999e0f5840d1p-3, 0x1.612c3e13c8773p-3, -0x1.24924940e44cfp-3, 0x1.02166d5dd64b9p-3, -0x1.c71c71c737e70p-4, 0x1.9a6a2d72110a8p-4, -0x1.745d1745d176bp-4, 0x1.5580570f3215dp-4, -0x1.3b13b13b13a4ap-4, 0x1.249b75e1af362p-4, -0x1.1111111111046p-4, 0x1.000200c99bc9ap-4, -0x1.e1e1e1e1e1c89p-5, 0x1.c71d557cf9f80p-5, -0x1.af286bca1ad93p-5, 0x1.9999ccd0c1045p-5, -0x1.8618618618483p-5, 0x1.745d22e920317p-5,
  -0x1.000000000000dp+4, -0x1.cfe7ce6768509p-50, 0x1.e6d986558875dp+1, 0x1.1d591113eedf5p+0, 0x1.54b5001c55495p-2, 0x1.2a216ab0f74cep-2, 0x1.99993f55cb92dp-3, 0x1.612c3d26883b2p-3, 0x1.249248fc4982dp-3, 0x1.02166d5d3847dp-3, 0x1.c71c71c6ef9c8p-4, 0x1.9a6a2d720f608p-4, 0x1.745d1745d0821p-4, 0x1.5580570f314a9p-4, 0x1.3b13b13b12d9ep-4, 0x1.249b75e1ae6b9p-4, 0x1.111111111039dp-4, 0x1.000200c99aff0p-4, 0x1.e1e1e1e1e0336p-5, 0x1.c71d557cf862dp-5, 0x1.af286bca19440p-5, 0x1.9999ccd0bf6f3p-5, 0x1.8618618616b30p-5, 0x1.745d22e91e9c4p-5,
  -0x1.2000000000000p+4, 0x1.6827863b97d9ap-53, 0x1.eafaff4858fc5p+0, 0x1.1e2f962b267d8p+0, -0x1.55d4e5bcebd20p-2, 0x1.2a22d36291f57p-2, -0x1.9999d2c0bbc6fp-3, 0x1.612c3ebc27186p-3, -0x1.24924938dfd1bp-3, 0x1.02166d5e3a17dp-3, -0x1.c71c71c72e185p-4, 0x1.9a6a2d7211949p-4, -0x1.745d1745d17c4p-4, 0x1.5580570f32221p-4, -0x1.3b13b13b13b09p-4, 0x1.249b75e1af421p-4, -0x1.1111111111106p-4, 0x1.000200c99bd59p-4, -0x1.e1e1e1e1e1e08p-5, 0x1.c71d557cfa0fep-5, -0x1.af286bca1af12p-5, 0x1.9999ccd0c11c4p-5, -0x1.8618618618602p-5, 0x1.745d22e920496p-5,
  -0x1.1000000000001p+4, 0x1.ab4e23f3d4bbcp-51, 0x1.ee610ddd100b7p+1, 0x1.1dca736733212p+0, 0x1.54c6c9427e557p-2, 0x1.2a223390c497dp-2, 0x1.9999523daf190p-3, 0x1.612c3e13c8773p-3, 0x1.249249084038ap-3, 0x1.02166d5dd64b9p-3, 0x1.c71c71c700e32p-4, 0x1.9a6a2d72110a8p-4, 0x1.745d1745d158cp-4, 0x1.5580570f3215dp-4, 0x1.3b13b13b13a49p-4, 0x1.249b75e1af362p-4, 0x1.1111111111046p-4, 0x1.000200c99bc9ap-4, 0x1.e1e1e1e1e1c89p-5, 0x1.c71d557cf9f80p-5, 0x1.af286bca1ad93p-5, 0x1.9999ccd0c1045p-5, 0x1.8618618618483p-5, 0x1.745d22e920317p-5
};

/* log(1 + w) for w > -1 as hi + *lo: 1 + w as a two-sum, its error to first order */
KK_INLINE double kk_ldd_log1p_dd(double w, double *lo) {
  double err, u = kk_ldd_two_sum(1.0, w, &err);
  double l, h = kk_ldd_log_dd(kk_ldd_log_arg(u), &l);
  *lo = l + err / u;
  return h;
}

/* log(1 + w) for w = d / (a + b) (a + b = z + k: a = z's high part + k, exact, b = z's low part; d the offset
 * from the zero) as hi + *lo: a + b as a two-sum c + cl, the quotient's rounding carried to first order */
KK_INLINE double kk_ldd_log1p_ratio(double d, double a, double b, double *lo) {
  double cl, c = kk_ldd_two_sum(a, b, &cl);
  double w = d / c;
  double wl = (__builtin_fma(-w, c, d) - w * cl) / c;
  double l, h = kk_ldd_log1p_dd(w, &l);
  *lo = l + wl / (1.0 + w);
  return h;
}

/* lgamma(x) for -18 < x < -2 where |lgamma x| < 1, next to its zeros (where the reflection cancels): z the zero
 * on x's side of the minimum of |Gamma| in (-k-1, -k), d = x - z, lgamma(x) = R(z + d) - R(z) - log1p(d / (z + k))
 * - log1p(d / (z + k + 1)) with R = lgamma(x) + log|x + k| + log|x + k + 1| (analytic on (-k-2, -k+1)) by its
 * Taylor series at z to d^22 (rows of kk_ldd_lgamma_zeros: z as a double-double, R^(n)(z) / n!) */
KK_INLINE double kk_ldd_lgamma_near_zero(double x) {
  double c = __builtin_fmin(__builtin_fmax(x, -17.9999), -2.0001);   /* (an index for every lane) */
  int k = (int)(-__builtin_floor(c)) - 1;
  int side = c > kk_ldd_lgamma_mids[k - 2];
  __constant double *row = kk_ldd_lgamma_zeros + (2 * (k - 2) + side) * 24;
  double d = (x - row[0]) - row[1];   /* (x - z exact: Sterbenz) */
  double p = row[23];
  p = __builtin_fma(p, d, row[22]);
  p = __builtin_fma(p, d, row[21]);
  p = __builtin_fma(p, d, row[20]);
  p = __builtin_fma(p, d, row[19]);
  p = __builtin_fma(p, d, row[18]);
  p = __builtin_fma(p, d, row[17]);
  p = __builtin_fma(p, d, row[16]);
  p = __builtin_fma(p, d, row[15]);
  p = __builtin_fma(p, d, row[14]);
  p = __builtin_fma(p, d, row[13]);
  p = __builtin_fma(p, d, row[12]);
  p = __builtin_fma(p, d, row[11]);
  p = __builtin_fma(p, d, row[10]);
  p = __builtin_fma(p, d, row[9]);
  p = __builtin_fma(p, d, row[8]);
  p = __builtin_fma(p, d, row[7]);
  p = __builtin_fma(p, d, row[6]);
  p = __builtin_fma(p, d, row[5]);
  p = __builtin_fma(p, d, row[4]);
  p = __builtin_fma(p, d, row[3]);
  p = __builtin_fma(p, d, row[2]);
  p *= d;
  double kd = (double)k;   /* (z + k and z + k + 1: exact sums, z's low part beside them) */
  double l1l, l1 = kk_ldd_log1p_ratio(d, row[0] + kd, row[1], &l1l);
  double l2l, l2 = kk_ldd_log1p_ratio(d, row[0] + (kd + 1.0), row[1], &l2l);
  double e1, e2, r = kk_ldd_two_sum(p, -l1, &e1);
  r = kk_ldd_two_sum(r, -l2, &e2);
  return r + ((e1 + e2) - (l1l + l2l));
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
  if (x > -18.0 && x < -2.0 && __builtin_fabs(r) < 1.0) r = kk_ldd_lgamma_near_zero(x);
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
