/* Host float erf, erfc, tgamma and lgamma written for SIMD lanes (OpenCL C 3.0 s7.4: erf and erfc
 * 16 ulp, tgamma 16; lgamma has no bound).  Straight-line double code, rounded once to float: no
 * branch and no library call, so the packetiser turns each into <W x double> instructions.
 * tests/host/test_vector_math_more.py measures them against Python's math module.
 */
#ifndef KERNELKIT_CLC_LANES_GAMMA_ERF_H
#define KERNELKIT_CLC_LANES_GAMMA_ERF_H

#include "clc_lanes_double_cores.h"

/* erf(x) for |x| <= 1: x times the Taylor series of erf(x) / x in x^2 (2/sqrt(pi) (-1)^n / (n! (2n+1)),
 * n <= 14: remainder below 2^-50) */
KK_INLINE double kk_ld_erf_small(double x) {
  double z = x * x;
  double p = 0x1.f683ae4a97007p-42;
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
  p = __builtin_fma(p, z, 0x1.20dd750429b6dp+0);
  return x * p;
}

/* erfc(z) for 0 <= z <= 10.1 (float's erfc underflows beyond) as t exp(-z^2 + P(u)) with t = 2 / (2 + z)
 * and u = (z - 2) / (z + 2) in [-1, 0.67] (the form of Numerical Recipes' erfc): P is a degree-15
 * least-squares fit in (u + 0.165) / 0.835 to log(erfc(z) / t) + z^2, made with mpmath; largest error
 * 3.3e-12 in the exponent.  z^2 is exact for a float z. */
KK_INLINE double kk_ld_erfc_pos(double z) {
  double c = __builtin_fmin(z, 10.1);
  double t = 2.0 / (2.0 + c);
  double s = ((c - 2.0) * t * 0.5 + 0.165) * (1.0 / 0.835);
  double p = -0x1.3a8fdda6c4c09p-22;
  p = __builtin_fma(p, s, -0x1.c4a6ed489cf24p-21);
  p = __builtin_fma(p, s, 0x1.8c43a1ed5b004p-20);
  p = __builtin_fma(p, s, 0x1.1260ec3b1f02cp-17);
  p = __builtin_fma(p, s, 0x1.15f7969b92c68p-19);
  p = __builtin_fma(p, s, -0x1.67bcf3e7a9dc1p-15);
  p = __builtin_fma(p, s, -0x1.1933f6d634844p-14);
  p = __builtin_fma(p, s, 0x1.3ca06993a86b2p-13);
  p = __builtin_fma(p, s, 0x1.2379098bcb507p-11);
  p = __builtin_fma(p, s, -0x1.273333cee4148p-12);
  p = __builtin_fma(p, s, -0x1.ebf945d6c81ddp-9);
  p = __builtin_fma(p, s, -0x1.1d815fb3bd410p-10);
  p = __builtin_fma(p, s, 0x1.e59eeca71d6dfp-6);
  p = __builtin_fma(p, s, 0x1.05e7c92352b19p-6);
  p = __builtin_fma(p, s, -0x1.248c7bdcc0c1fp-1);
  p = __builtin_fma(p, s, -0x1.1e95b444e7b8bp-1);
  double r = t * kk_ld_exp(p - c * c);
  return z > 10.1 ? 0.0 : r;
}

KK_INLINE float kk_lf_erf(float x) {
  double d = (double)x, a = __builtin_fabs(d);
  double big = 1.0 - kk_ld_erfc_pos(a);
  double r = a <= 1.0 ? kk_ld_erf_small(d) : __builtin_copysign(big, d);
  return x != x ? x : (float)r;
}

KK_INLINE float kk_lf_erfc(float x) {
  double d = (double)x;
  double e = kk_ld_erfc_pos(__builtin_fabs(d));
  double r = d < 0.0 ? 2.0 - e : e;
  return x != x ? x : (float)r;
}

/* |sin(pi x)| for a finite double x: x = n/2 + f with n = rint(2x) and |f| <= 1/4, both exact; sin and cos
 * of pi f by clc_math_portable.h's series */
KK_INLINE double kk_ld_abs_sinpi(double x) {
  double n = __builtin_rint(2.0 * x);
  double t = (x - 0.5 * n) * KK_PI;
  int odd = n != 2.0 * __builtin_trunc(0.5 * n);
  return __builtin_fabs(odd ? kk_p_cos_poly(t) : kk_p_sin_poly(t));
}

/* log Gamma(y) for y >= 0.5 finite: Stirling's series at z = y + 8 (y < 8) or y, to 1/z^15 (remainder
 * below 2^-50 for z >= 8), less log(y (y+1) ... (y+7)) when shifted */
KK_INLINE double kk_ld_lgamma_pos(double y) {
  int shift = y < 8.0;
  double z = shift ? y + 8.0 : y;
  double prod = y * (y + 1.0) * (y + 2.0) * (y + 3.0) * (y + 4.0) * (y + 5.0) * (y + 6.0) * (y + 7.0);
  double w = 1.0 / z, w2 = w * w;
  double s = -3617.0 / 122400.0;
  s = __builtin_fma(s, w2, 1.0 / 156.0);
  s = __builtin_fma(s, w2, -691.0 / 360360.0);
  s = __builtin_fma(s, w2, 1.0 / 1188.0);
  s = __builtin_fma(s, w2, -1.0 / 1680.0);
  s = __builtin_fma(s, w2, 1.0 / 1260.0);
  s = __builtin_fma(s, w2, -1.0 / 360.0);
  s = __builtin_fma(s, w2, 1.0 / 12.0);
  double l = __builtin_fma(z - 0.5, kk_ld_log(z), 0x1.d67f1c864beb5p-1 - z) + s * w;   /* + log(2 pi) / 2 */
  return shift ? l - kk_ld_log(prod) : l;
}

/* log |Gamma(x)| for a finite float x (as double), and log(pi / |sin(pi x)|) - log Gamma(1 - x) below 1/2
 * (reflection); *sin0 gets whether sin(pi x) is 0 (x a non-positive integer) */
KK_INLINE double kk_ld_lgamma_any(double x, int *sin0) {
  int reflect = x < 0.5;
  double g = kk_ld_lgamma_pos(reflect ? 1.0 - x : x);
  double sp = kk_ld_abs_sinpi(x);
  *sin0 = sp == 0.0;
  double r = 0x1.250d048e7a1bdp+0 - kk_ld_log(sp == 0.0 ? 1.0 : sp) - g;   /* log(pi) - ... */
  return reflect ? r : g;
}

/* lgamma(x): +inf at non-positive integers and infinities, NaN for NaN */
KK_INLINE float kk_lf_lgamma(float x) {
  int sin0;
  double r = kk_ld_lgamma_any(__builtin_fmin(__builtin_fmax((double)x, -0x1p126), 0x1p126), &sin0);
  float v = (float)r;
  v = (sin0 && x <= 0.0f) || __builtin_fabsf(x) == __builtin_inff() ? __builtin_inff() : v;
  return x != x ? x : v;
}

/* tgamma(x) = exp(lgamma(x)) with the sign of Gamma: for x < 0 negative where floor(x) is odd; NaN at
 * negative integers and -inf, +-inf at +-0, +inf at +inf (C99 F.9.5.4) */
KK_INLINE float kk_lf_tgamma(float x) {
  int sin0;
  double d = __builtin_fmin(__builtin_fmax((double)x, -0x1p126), 64.0);
  double m = kk_ld_exp(kk_ld_lgamma_any(d, &sin0));
  double f = __builtin_floor(d);
  int neg = d < 0.0 && f != 2.0 * __builtin_floor(0.5 * d);
  float v = (float)(neg ? -m : m);
  v = x == 0.0f ? __builtin_copysignf(__builtin_inff(), x) : ((sin0 && x < 0.0f) || x == -__builtin_inff()) ? __builtin_nanf("") : v;
  return x != x ? x : v;
}

#endif
