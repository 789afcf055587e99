/* Portable double-precision implementations of the transcendental functions, in plain
 * OpenCL C over operations every target has in hardware or as an LLVM intrinsic it can
 * lower without a C library (fma, sqrt, floor/rint/trunc, ldexp, frexp, frem).  Used where
 * there is no libm (AMDGPU) and when KK_PORTABLE_MATH is defined (tests run them on the
 * host against numpy).  float functions call these and round once.
 *
 * sin/cos/tan reduce with a four-part Cody-Waite pi/2 below 2^20 and exactly (Payne-Hanek
 * with 1280 bits of 2/pi) above; pow uses a double-double log.
 */
#ifndef KERNELKIT_CLC_MATH_PORTABLE_H
#define KERNELKIT_CLC_MATH_PORTABLE_H

#define KK_LN2_HI 6.93147180369123816490e-01
#define KK_LN2_LO 1.90821492927058770002e-10
#define KK_INV_LN2 1.44269504088896338700e+00
#define KK_PI 3.14159265358979311600e+00
#define KK_PI_2 1.57079632679489655800e+00
#define KK_PI_LO 1.2246467991473532e-16
#define KK_INF __builtin_inf()
#define KK_NAN __builtin_nan("")

KK_INLINE double kk_p_exp_poly(double r) {
  /* exp(r) for |r| <= 0.35: Taylor series to degree 14 */
  double p = 1.0 / 87178291200.0;
  p = __builtin_fma(p, r, 1.0 / 6227020800.0);
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
  p = __builtin_fma(p, r, 1.0);
  return __builtin_fma(p, r, 1.0);
}

KK_INLINE double kk_p_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return KK_INF;
  if (x < -745.1332191019412) return 0.0;
  double k = __builtin_rint(x * KK_INV_LN2);
  double r = __builtin_fma(-k, KK_LN2_HI, x);
  r = __builtin_fma(-k, KK_LN2_LO, r);
  int ki = (int)k;
  /* two steps so 2^k never overflows before the product underflows/overflows */
  return __builtin_ldexp(__builtin_ldexp(kk_p_exp_poly(r), ki / 2), ki - ki / 2);
}

KK_INLINE double kk_p_exp2(double x) {
  if (x != x) return x;
  if (x >= 1024.0) return KK_INF;
  if (x < -1075.0) return 0.0;
  double k = __builtin_rint(x);
  double r = (x - k) * KK_LN2_HI + (x - k) * KK_LN2_LO;
  int ki = (int)k;
  return __builtin_ldexp(__builtin_ldexp(kk_p_exp_poly(r), ki / 2), ki - ki / 2);
}

KK_INLINE double kk_p_exp10(double x) {
  if (x != x) return x;
  if (x > 308.26) return KK_INF;
  if (x < -324.0) return 0.0;
  double k = __builtin_rint(x * 3.32192809488736234787); /* log2(10) */
  double r = __builtin_fma(-k, 3.01029995663611771306e-01, x);   /* log10(2) hi */
  r = __builtin_fma(-k, 3.69423907715893078616e-13, r);            /* log10(2) lo */
  r = r * 2.30258509299404568402;                                  /* ln(10) */
  int ki = (int)k;
  return __builtin_ldexp(__builtin_ldexp(kk_p_exp_poly(r), ki / 2), ki - ki / 2);
}

KK_INLINE double kk_p_expm1(double x) {
  if (__builtin_fabs(x) < 0.35) {
    /* x (1 + x/2 (1 + x/3 (1 + ... (1 + x/18)))) */
    double p = 1.0;
    for (int n = 18; n >= 2; n--) p = __builtin_fma(x / (double)n, p, 1.0);
    return x * p;
  }
  return kk_p_exp(x) - 1.0;
}

/* atanh(f) = f + f*s*P(s), s = f*f: P = sum 1/(2k+1) s^(k-1), k = 1..12 (|f| < 0.172) */
KK_INLINE double kk_p_atanh_series(double s) {
  double p = 1.0 / 25.0;
  p = __builtin_fma(p, s, 1.0 / 23.0);
  p = __builtin_fma(p, s, 1.0 / 21.0);
  p = __builtin_fma(p, s, 1.0 / 19.0);
  p = __builtin_fma(p, s, 1.0 / 17.0);
  p = __builtin_fma(p, s, 1.0 / 15.0);
  p = __builtin_fma(p, s, 1.0 / 13.0);
  p = __builtin_fma(p, s, 1.0 / 11.0);
  p = __builtin_fma(p, s, 1.0 / 9.0);
  p = __builtin_fma(p, s, 1.0 / 7.0);
  p = __builtin_fma(p, s, 1.0 / 5.0);
  p = __builtin_fma(p, s, 1.0 / 3.0);
  return p;
}

/* log(m) for m in [sqrt(1/2), sqrt(2)) via 2*atanh((m-1)/(m+1)) */
KK_INLINE double kk_p_log_core(double m) {
  double f = (m - 1.0) / (m + 1.0);
  double s = f * f;
  double p = kk_p_atanh_series(s);
  return 2.0 * f + 2.0 * f * s * p;
}

/* x = m * 2^e with m in [sqrt(1/2), sqrt(2)); x finite and > 0 */
KK_INLINE double kk_p_log_split(double x, int *e) {
  int ex;
  double m = __builtin_frexp(x, &ex);
  if (m < 0.70710678118654752440) { m *= 2.0; ex -= 1; }
  *e = ex;
  return m;
}

#define KK_LOG_SPECIAL(x)                          \
  if ((x) != (x)) return (x);                      \
  if ((x) < 0.0) return KK_NAN;                    \
  if ((x) == 0.0) return -KK_INF;                  \
  if ((x) == KK_INF) return KK_INF;

KK_INLINE double kk_p_log(double x) {
  KK_LOG_SPECIAL(x)
  int e;
  double m = kk_p_log_split(x, &e);
  double l = kk_p_log_core(m);
  return __builtin_fma((double)e, KK_LN2_HI, __builtin_fma((double)e, KK_LN2_LO, l));
}

KK_INLINE double kk_p_log2(double x) {
  KK_LOG_SPECIAL(x)
  int e;
  double m = kk_p_log_split(x, &e);
  return (double)e + kk_p_log_core(m) * KK_INV_LN2;
}

KK_INLINE double kk_p_log10(double x) {
  KK_LOG_SPECIAL(x)
  int e;
  double m = kk_p_log_split(x, &e);
  return __builtin_fma((double)e, 3.01029995663981195214e-01, kk_p_log_core(m) * 4.34294481903251827651e-01);
}

KK_INLINE double kk_p_log1p(double x) {
  double u = 1.0 + x;
  if (u == 1.0) return x;
  if (u == KK_INF || x != x || x <= -1.0) return kk_p_log(u);
  return kk_p_log(u) * (x / (u - 1.0));
}

/* sin and cos of r, |r| <= pi/4 */
KK_INLINE double kk_p_sin_poly(double r) {
  double s = r * r;
  double p = -1.0 / 121645100408832000.0; /* -1/19! */
  p = __builtin_fma(p, s, 1.0 / 355687428096000.0);
  p = __builtin_fma(p, s, -1.0 / 1307674368000.0);
  p = __builtin_fma(p, s, 1.0 / 6227020800.0);
  p = __builtin_fma(p, s, -1.0 / 39916800.0);
  p = __builtin_fma(p, s, 1.0 / 362880.0);
  p = __builtin_fma(p, s, -1.0 / 5040.0);
  p = __builtin_fma(p, s, 1.0 / 120.0);
  p = __builtin_fma(p, s, -1.0 / 6.0);
  return __builtin_fma(r * s, p, r);
}
KK_INLINE double kk_p_cos_poly(double r) {
  double s = r * r;
  double p = 1.0 / 6402373705728000.0; /* 1/18! */
  p = __builtin_fma(p, s, -1.0 / 20922789888000.0);
  p = __builtin_fma(p, s, 1.0 / 87178291200.0);
  p = __builtin_fma(p, s, -1.0 / 479001600.0);
  p = __builtin_fma(p, s, 1.0 / 3628800.0);
  p = __builtin_fma(p, s, -1.0 / 40320.0);
  p = __builtin_fma(p, s, 1.0 / 720.0);
  p = __builtin_fma(p, s, -1.0 / 24.0);
  p = __builtin_fma(p, s, 0.5);
  return __builtin_fma(-s, p, 1.0);
}

/* The first 1280 bits of 2/pi after the binary point, 32 per word (a mathematical constant;
 * tests/clc recomputes it with Machin's formula). */
static __constant uint kk_two_over_pi_bits[40] = {
  0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u,
  0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u,
  0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu,
  0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu,
  0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u, 0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du};

/* 32 bits of 2/pi starting at bit k (k >= 1; bit 1 has weight 2^-1) */
KK_INLINE uint kk_two_over_pi_word(int k) {
  int b = k - 1, w = b >> 5, s = b & 31;
  uint hi = kk_two_over_pi_bits[w];
  uint lo = w + 1 < 40 ? kk_two_over_pi_bits[w + 1] : 0u;
  return s ? (hi << s) | (lo >> (32 - s)) : hi;
}

/* 64 bits of the little-endian 32-bit-limb number p starting at bit b */
KK_INLINE ulong kk_bits64(const uint *p, int b) {
  int w = b >> 5, s = b & 31;
  ulong v = (ulong)p[w] | ((ulong)p[w + 1] << 32);
  return s ? (v >> s) | ((ulong)p[w + 2] << (64 - s)) : v;
}

/* Payne-Hanek reduction for 2^20 <= |x| < inf: x*2/pi = M*2^E * sum(b_i 2^-i); bits with
 * i < E-1 only add multiples of 4, so a 192-bit window of 2/pi from bit max(1, E-1) gives the
 * quadrant and 128 bits of the fraction (exact integer arithmetic). */
KK_INLINE double kk_p_reduce_pio2_large(double x, int *q) {
  ulong bits = as_ulong(x);
  int neg = (long)bits < 0;
  int e = (int)((bits >> 52) & 0x7ff) - 1075;
  ulong m = (bits & 0xfffffffffffffUL) | 0x10000000000000UL;
  int k0 = e - 1 > 1 ? e - 1 : 1;
  uint wle[6];
  for (int j = 0; j < 6; j++) wle[5 - j] = kk_two_over_pi_word(k0 + 32 * j);
  uint mle[2] = {(uint)m, (uint)(m >> 32)};
  uint p[11] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
  for (int j = 0; j < 6; j++) {
    ulong carry = 0;
    for (int i = 0; i < 2; i++) {
      ulong t = (ulong)mle[i] * wle[j] + p[i + j] + carry;
      p[i + j] = (uint)t;
      carry = t >> 32;
    }
    p[j + 2] = (uint)carry;
  }
  int sh = k0 + 191 - e;                 /* value = p / 2^sh */
  int quadrant = (int)(kk_bits64(p, sh) & 3UL);
  ulong fhi = kk_bits64(p, sh - 64), flo = kk_bits64(p, sh - 128);
  int fneg = 0;
  if (fhi >> 63) { /* fraction >= 1/2: use 1 - fraction (negated in 128-bit integers, exactly) */
    flo = ~flo + 1UL;
    fhi = ~fhi + (flo == 0UL ? 1UL : 0UL);
    quadrant += 1;
    fneg = 1;
  }
  double f = ((double)fhi + (double)flo * 0x1p-64) * 0x1p-64;   /* [0, 1/2] */
  if (fneg) f = -f;
  double r = f * 1.57079632679489655800e+00 + f * 6.12323399573676603587e-17;
  if (neg) { r = -r; quadrant = -quadrant; }
  *q = quadrant & 3;
  return r;
}

/* x = k*pi/2 + r for |x| < 2^20; returns r, quadrant in *q */
KK_INLINE double kk_p_reduce_pio2_medium(double x, int *q) {
  double k = __builtin_rint(x * 6.36619772367581382433e-01);
  /* pi/2 = p1 + p2 + p3 + p3t (fdlibm's 33-bit pio2_1, pio2_2, pio2_3 and tail) */
  double r = __builtin_fma(-k, 1.57079632673412561417e+00, x);
  r = __builtin_fma(-k, 6.07710050630396597660e-11, r);
  r = __builtin_fma(-k, 2.02226624871116645580e-21, r);
  r = __builtin_fma(-k, 8.47842766036889956997e-32, r);
  *q = (int)((long)k & 3);
  return r;
}

/* x = k*pi/2 + r; returns r, quadrant in *q */
KK_INLINE double kk_p_reduce_pio2(double x, int *q) {
  if (__builtin_fabs(x) >= 0x1p20) return kk_p_reduce_pio2_large(x, q);
  return kk_p_reduce_pio2_medium(x, q);
}

KK_INLINE double kk_p_sin(double x) {
  if (x != x || __builtin_fabs(x) == KK_INF) return KK_NAN;
  if (__builtin_fabs(x) < 0x1p-26) return x;
  int q;
  double r = kk_p_reduce_pio2(x, &q);
  double v = (q & 1) ? kk_p_cos_poly(r) : kk_p_sin_poly(r);
  return (q & 2) ? -v : v;
}
KK_INLINE double kk_p_cos(double x) {
  if (x != x || __builtin_fabs(x) == KK_INF) return KK_NAN;
  int q;
  double r = kk_p_reduce_pio2(x, &q);
  double v = (q & 1) ? kk_p_sin_poly(r) : kk_p_cos_poly(r);
  return ((q + 1) & 2) ? -v : v;
}
KK_INLINE double kk_p_tan(double x) {
  if (x != x || __builtin_fabs(x) == KK_INF) return KK_NAN;
  if (__builtin_fabs(x) < 0x1p-26) return x;
  int q;
  double r = kk_p_reduce_pio2(x, &q);
  double s = kk_p_sin_poly(r), c = kk_p_cos_poly(r);
  return (q & 1) ? -c / s : s / c;
}

/* sin(pi*x), cos(pi*x) with exact argument reduction */
KK_INLINE double kk_p_sinpi(double x) {
  if (x != x || __builtin_fabs(x) == KK_INF) return KK_NAN;
  double r = x - 2.0 * __builtin_rint(x * 0.5);           /* [-1, 1], exact */
  double n = __builtin_rint(2.0 * r);                      /* -2..2 */
  double f = (r - 0.5 * n) * KK_PI;                        /* |f| <= pi/4 */
  int q = (int)n & 3;
  double v = (q & 1) ? kk_p_cos_poly(f) : kk_p_sin_poly(f);
  v = (q & 2) ? -v : v;
  return v == 0.0 ? __builtin_copysign(0.0, x) : v;
}
KK_INLINE double kk_p_cospi(double x) {
  if (x != x || __builtin_fabs(x) == KK_INF) return KK_NAN;
  double r = x - 2.0 * __builtin_rint(x * 0.5);
  double n = __builtin_rint(2.0 * r);
  double f = (r - 0.5 * n) * KK_PI;
  int q = (int)n & 3;
  double v = (q & 1) ? kk_p_sin_poly(f) : kk_p_cos_poly(f);
  v = ((q + 1) & 2) ? -v : v;
  return v == 0.0 ? 0.0 : v;
}
KK_INLINE double kk_p_tanpi(double x) {
  double s = kk_p_sinpi(x), c = kk_p_cospi(x);
  if (c == 0.0) return __builtin_copysign(KK_INF, s);
  return s / c;
}

KK_INLINE double kk_p_atan(double x) {
  if (x != x) return x;
  double a = __builtin_fabs(x);
  double base = 0.0;
  int inv = a > 1.0;
  if (inv) a = 1.0 / a;
  if (a > 0.26794919243112270) { /* tan(pi/12) */
    a = (a * 1.73205080756887719318 - 1.0) / (a + 1.73205080756887719318);
    base = 5.23598775598298815659e-01; /* pi/6 */
  }
  double s = a * a;
  double p = -1.0 / 35.0;
  for (int k = 33; k >= 3; k -= 2) p = __builtin_fma(p, s, ((k >> 1) & 1 ? -1.0 : 1.0) / (double)k);
  double r = base + __builtin_fma(a * s, p, a);
  if (inv) r = (KK_PI_2 - r) + 6.123233995736766e-17;
  return __builtin_copysign(r, x);
}

KK_INLINE double kk_p_atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  int sy = __builtin_signbit(y) != 0, sx = __builtin_signbit(x) != 0;
  double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
  double r;
  if (ay == 0.0) r = sx ? KK_PI : 0.0;
  else if (ax == 0.0) r = KK_PI_2;
  else if (ax == KK_INF && ay == KK_INF) r = sx ? 3.0 * KK_PI / 4.0 : KK_PI / 4.0;
  else if (ax == KK_INF) r = sx ? KK_PI : 0.0;
  else if (ay == KK_INF) r = KK_PI_2;
  else {
    r = kk_p_atan(ay / ax);
    if (sx) r = (KK_PI - r) + KK_PI_LO;
  }
  return sy ? -r : r;
}

KK_INLINE double kk_p_asin(double x) {
  if (__builtin_fabs(x) > 1.0) return KK_NAN;
  return kk_p_atan2(x, __builtin_sqrt((1.0 - x) * (1.0 + x)));
}
KK_INLINE double kk_p_acos(double x) {
  if (__builtin_fabs(x) > 1.0) return KK_NAN;
  return kk_p_atan2(__builtin_sqrt((1.0 - x) * (1.0 + x)), x);
}

KK_INLINE double kk_p_sinh(double x) {
  double a = __builtin_fabs(x);
  double r;
  if (a > 709.0) {
    r = kk_p_exp(a - 6.93147180559945286227e-01); /* e^a / 2 */
  } else {
    double e = kk_p_expm1(a);
    r = 0.5 * (e + e / (e + 1.0));
  }
  return __builtin_copysign(r, x);
}
KK_INLINE double kk_p_cosh(double x) {
  double a = __builtin_fabs(x);
  if (a > 709.0) return kk_p_exp(a - 6.93147180559945286227e-01);
  double e = kk_p_exp(a);
  return 0.5 * e + 0.5 / e;
}
KK_INLINE double kk_p_tanh(double x) {
  double a = __builtin_fabs(x);
  if (x != x) return x;
  if (a > 22.0) return __builtin_copysign(1.0, x);
  double e = kk_p_expm1(2.0 * a);
  return __builtin_copysign(e / (e + 2.0), x);
}
KK_INLINE double kk_p_asinh(double x) {
  double a = __builtin_fabs(x);
  if (x != x || a == KK_INF) return x;
  double r;
  if (a > 0x1p28) r = kk_p_log(a) + 6.93147180559945286227e-01;
  else r = kk_p_log1p(a + a * a / (1.0 + __builtin_sqrt(1.0 + a * a)));
  return __builtin_copysign(r, x);
}
KK_INLINE double kk_p_acosh(double x) {
  if (x != x) return x;
  if (x < 1.0) return KK_NAN;
  if (x > 0x1p28) return kk_p_log(x) + 6.93147180559945286227e-01;
  double t = x - 1.0;
  return kk_p_log1p(t + __builtin_sqrt(2.0 * t + t * t));
}
KK_INLINE double kk_p_atanh(double x) {
  double a = __builtin_fabs(x);
  if (a > 1.0) return KK_NAN;
  return __builtin_copysign(0.5 * kk_p_log1p(2.0 * a / (1.0 - a)), x);
}

KK_INLINE double kk_p_cbrt(double x) {
  if (x != x || x == 0.0 || __builtin_fabs(x) == KK_INF) return x;
  double a = __builtin_fabs(x);
  int e;
  double m = __builtin_frexp(a, &e);           /* a = m 2^e */
  int r3 = ((e % 3) + 3) % 3;
  m = __builtin_ldexp(m, r3);                   /* a = m 2^(e - r3), e - r3 divisible by 3 */
  double y = kk_p_exp(kk_p_log(m) / 3.0);
  y = y - (y * y * y - m) / (3.0 * y * y);
  y = y - (y * y * y - m) / (3.0 * y * y);
  return __builtin_copysign(__builtin_ldexp(y, (e - r3) / 3), x);
}

/* log(m 2^e) as hi + lo (about 2^-70 relative) for m in [sqrt(1/2), sqrt(2)) */
KK_INLINE double kk_p_log_dd_parts(double m, int e, double *lo) {
  double num = m - 1.0;                  /* exact */
  double den = m + 1.0;
  double den_lo = m - (den - 1.0);       /* exact rounding error of den */
  double rden = 1.0 / den;               /* (one division: f's own rounding is in f_lo's residual) */
  double f = num * rden;
  double f_lo = (__builtin_fma(-f, den, num) - f * den_lo) * rden;
  double s = f * f;
  double p = kk_p_atanh_series(s);
  double mh = 2.0 * f, ml = 2.0 * f_lo + 2.0 * f * s * p;
  double a = (double)e * KK_LN2_HI;      /* exact: LN2_HI has trailing zero bits */
  double sh = a + mh;
  double sl = (__builtin_fabs(a) >= __builtin_fabs(mh) ? (a - sh) + mh : (mh - sh) + a) + ml + (double)e * KK_LN2_LO;
  double hi = sh + sl;
  *lo = sl - (hi - sh);
  return hi;
}

/* log(x) as hi + lo, x finite and > 0: for pow's y*log(x) */
KK_INLINE double kk_p_log_dd(double x, double *lo) {
  int e;
  double m = kk_p_log_split(x, &e);
  return kk_p_log_dd_parts(m, e, lo);
}

KK_INLINE double kk_p_pow(double x, double y) {
  /* C99 F.9.4.4 special cases */
  if (y == 0.0) return 1.0;
  if (x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ay = __builtin_fabs(y);
  int y_int = __builtin_trunc(y) == y;
  int y_odd = y_int && ay < 0x1p53 && __builtin_fmod(ay, 2.0) == 1.0;
  if (ay == KK_INF) {
    double ax = __builtin_fabs(x);
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0) ? KK_INF : 0.0;
  }
  if (x == 0.0) {
    if (y < 0) return y_odd ? __builtin_copysign(KK_INF, x) : KK_INF;
    return y_odd ? x : 0.0;
  }
  if (__builtin_fabs(x) == KK_INF) {
    double r = y < 0 ? 0.0 : KK_INF;
    return (x < 0 && y_odd) ? -r : r;
  }
  if (x < 0 && !y_int) return KK_NAN;
  double llo, lhi = kk_p_log_dd(__builtin_fabs(x), &llo);
  double th = y * lhi;
  double tl = __builtin_fma(y, lhi, -th) + y * llo;
  double r = kk_p_exp(th);
  if (r != KK_INF && r != 0.0) r = __builtin_fma(r, tl, r);
  else if (th + tl > 709.782712893384) r = KK_INF;
  return (x < 0 && y_odd) ? -r : r;
}

KK_INLINE double kk_p_erf(double x);
KK_INLINE double kk_p_erfc_pos(double x) {
  /* x >= 0.84: continued fraction erfc(x) = exp(-x^2)/sqrt(pi) / (x + 1/2/(x + 1/(x + 3/2/(x + ...))));
     it converges slowly near 1, hence more terms there */
  double f = x;
  for (int k = x < 2.0 ? 500 : 100; k >= 1; k--) f = x + (0.5 * (double)k) / f;
  /* exp(-x^2) without the rounding error of x*x: xh has 26 bits, so xh*xh is exact */
  double xh = as_double(as_ulong(x) & 0xfffffffff8000000UL);
  double e = kk_p_exp(-xh * xh) * kk_p_exp(-(x - xh) * (x + xh));
  return e * 5.64189583547756279280e-01 / f;
}
KK_INLINE double kk_p_erf_series(double x) {
  /* |x| < 2: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)) */
  double s = x * x, term = x, sum = x;
  for (int n = 1; n < 60; n++) {
    term *= -s / (double)n;
    sum += term / (double)(2 * n + 1);
  }
  return sum * 1.12837916709551257390;
}
KK_INLINE double kk_p_erf(double x) {
  if (x != x) return x;
  double a = __builtin_fabs(x);
  if (a < 2.0) return kk_p_erf_series(x);
  if (a > 6.0) return __builtin_copysign(1.0, x);
  return __builtin_copysign(1.0 - kk_p_erfc_pos(a), x);
}
KK_INLINE double kk_p_erfc(double x) {
  if (x != x) return x;
  if (x < -6.0) return 2.0;
  if (x < 0.84) return 1.0 - kk_p_erf(x);
  if (x > 27.3) return 0.0;
  return kk_p_erfc_pos(x);
}

/* Lanczos approximation (g = 7, n = 9) of Gamma for x >= 0.5 */
KK_INLINE double kk_p_lanczos_sum(double z) {
  double a = 0.99999999999980993;
  a += 676.5203681218851 / (z + 1.0);
  a += -1259.1392167224028 / (z + 2.0);
  a += 771.32342877765313 / (z + 3.0);
  a += -176.61502916214059 / (z + 4.0);
  a += 12.507343278686905 / (z + 5.0);
  a += -0.13857109526572012 / (z + 6.0);
  a += 9.9843695780195716e-6 / (z + 7.0);
  a += 1.5056327351493116e-7 / (z + 8.0);
  return a;
}
KK_INLINE double kk_p_lgamma_pos(double x) { /* x >= 0.5 */
  double z = x - 1.0, t = z + 7.5;
  return 0.91893853320467274178 + (z + 0.5) * kk_p_log(t) - t + kk_p_log(kk_p_lanczos_sum(z));
}
/* Gamma(x) for finite x >= 0.5 (no recursion: OpenCL C forbids it) */
KK_INLINE double kk_p_tgamma_pos(double x) {
  if (x > 171.7) return KK_INF;
  if (x == __builtin_trunc(x) && x <= 23.0) { double r = 1.0; for (double k = 2.0; k < x; k += 1.0) r *= k; return r; }
  /* Gamma(x) = Gamma(x + n) / (x (x+1) ... (x+n-1)) with x + n >= 10 */
  double d = 1.0;
  while (x < 10.0) { d *= x; x += 1.0; }
  /* Stirling: sqrt(2 pi) x^(x-1/2) e^-x exp(1/(12x) - 1/(360x^3) + ...), with
     x^(x-1/2) = p*p so nothing overflows before the final product */
  double r = 1.0 / x, r2 = r * r;
  double c = r * (1.0 / 12.0 + r2 * (-1.0 / 360.0 + r2 * (1.0 / 1260.0 + r2 * (-1.0 / 1680.0 +
             r2 * (1.0 / 1188.0 - r2 * (691.0 / 360360.0))))));
  double p = kk_p_pow(x, 0.5 * (x - 0.5));
  return 2.50662827463100050242 * p * (p * kk_p_exp(-x)) * kk_p_exp(c) / d;
}
KK_INLINE double kk_p_tgamma(double x) {
  if (x != x) return x;
  if (x == KK_INF) return KK_INF;
  if (x == 0.0) return __builtin_copysign(KK_INF, x);
  if (x < 0.0 && __builtin_trunc(x) == x) return KK_NAN;
  if (x == -KK_INF) return KK_NAN;
  if (x < 0.5) return KK_PI / (kk_p_sinpi(x) * kk_p_tgamma_pos(1.0 - x));
  return kk_p_tgamma_pos(x);
}
KK_INLINE double kk_p_lgamma_r(double x, int *sign) {
  *sign = 1;
  if (x != x) return x;
  if (__builtin_fabs(x) == KK_INF) return KK_INF;
  if (x <= 0.0 && __builtin_trunc(x) == x) { if (x == 0.0 && __builtin_signbit(x)) *sign = -1; return KK_INF; }
  if (x == 1.0 || x == 2.0) return 0.0;
  if (x < 0.5) {
    double s = kk_p_sinpi(x);
    if (s < 0) *sign = -1;
    return 1.14472988584940017414 - kk_p_log(__builtin_fabs(s)) - kk_p_lgamma_pos(1.0 - x); /* log(pi) */
  }
  return kk_p_lgamma_pos(x);
}

#endif
