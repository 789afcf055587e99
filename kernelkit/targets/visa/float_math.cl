/* Float transcendental builtins computed in float only (kernelkit's builtin library computes them
 * in double, which Intel GPUs without fp64 cannot run, and SKL's finalizer lacks f64 rounding).
 * Operations used: float add/mul/fma/div/sqrt, rint, 32- and 64-bit integer arithmetic; not
 * vISA's exp/log/sin/cos/pow, whose precision IGC's vISA documentation does not state (they serve
 * native_* and half_*). Accuracy aims at OpenCL C 3.0 s7.4 Table "ULP values for single precision
 * builtin math functions" (full profile): sin/cos 4, tan 5, exp/exp2/exp10/log/log2/log10 3,
 * expm1 3, log1p 2, pow 16, atan 5, atan2 6, sinh/cosh 4, tanh 5, hypot 4, rsqrt 2 ulp.
 *
 * Techniques (textbook): exponentials reduce x = k ln2 + r (Cody-Waite with fma) and evaluate the
 * Taylor polynomial of e^r on |r| <= ln2/2, scaled by 2^k in two exact steps; logarithms take
 * x = 2^e m, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m-1)/(m+1) kept as a float pair,
 * so that pow can form y ln x to about 2^-40; sin/cos/tan reduce by pi/2 exactly (Payne-Hanek:
 * the float's 24-bit mantissa times 96 bits of 2/pi taken at the float's exponent, 64-bit fixed
 * point result) and evaluate Taylor polynomials on |r| <= pi/4. Special values follow C99 Annex F
 * (OpenCL C s7.5). Defined as kkv_<name>; kernelkit.targets.visa.irpipeline renames them. */
#define OVL __attribute__((overloadable))
#define KKV static inline

/* 2/pi in binary, 32 bits a word, after one zero word (s4.reduce reads windows at any bit) */
__constant uint kkv_two_over_pi[11] = {
  0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
  0xdebbc561u, 0xb7246e3au, 0x424dd2e0u};

#define KKV_LN2_HI 0x1.62e43p-1f         /* ln 2 = HI + LO */
#define KKV_LN2_LO -0x1.05c61p-29f
#define KKV_LN2_16 0x1.62e4p-1f          /* ln 2 = LN2_16 (16 bits: e LN2_16 exact) + LN2_16_LO */
#define KKV_LN2_16_LO 0x1.7f7d1cp-20f
#define KKV_LOG2E 0x1.715476p+0f         /* 1/ln 2 = LOG2E + LOG2E_LO */
#define KKV_LOG2E_LO 0x1.4ae0cp-26f
#define KKV_LOG10E 0x1.bcb7b2p-2f        /* 1/ln 10 */
#define KKV_LOG10E_LO -0x1.5b235ep-27f
#define KKV_LOG10_2_HI 0x1.344136p-2f    /* log10(2) */
#define KKV_LOG10_2_LO -0x1.ec10cp-27f
#define KKV_LN10 0x1.26bb1cp+1f
#define KKV_LOG2_10 0x1.a934f0p+1f       /* log2(10) */
#define KKV_PI_2 0x1.921fb6p+0f          /* pi/2 = PI_2 + PI_2_LO */
#define KKV_PI_2_LO -0x1.777a5cp-25f
#define KKV_PI_4 0x1.921fb6p-1f
#define KKV_PI_4_LO -0x1.777a5cp-26f
#define KKV_PI 0x1.921fb6p+1f
#define KKV_PI_LO -0x1.777a5cp-24f

/* x * 2^k for k in [-252, 254], in two exact power-of-two steps (one rounding) */
KKV float kkv_scale(float x, int k) {
  int h = k >> 1;
  return (x * as_float((uint)(h + 127) << 23)) * as_float((uint)(k - h + 127) << 23);
}

/* e^r - 1 for |r| <= 0.35 (Taylor to r^9: truncation below 2^-30 relative) */
KKV float kkv_expm1_poly(float r) {
  float p = 0x1.71de3ap-19f;                 /* 1/9! */
  p = fma(p, r, 0x1.a01a02p-16f);            /* 1/8! */
  p = fma(p, r, 0x1.a01a02p-13f);            /* 1/7! */
  p = fma(p, r, 0x1.6c16c2p-10f);            /* 1/6! */
  p = fma(p, r, 0x1.111112p-7f);             /* 1/5! */
  p = fma(p, r, 0x1.555556p-5f);             /* 1/4! */
  p = fma(p, r, 0x1.555556p-3f);             /* 1/3! */
  p = fma(p, r, 0.5f);
  return fma(p * r, r, r);
}

/* e^(x + xl) * 2^adjust, |xl| tiny against x; x is clamped so 2^k stays in kkv_scale's range
 * (the result overflows to inf or underflows to 0 by itself) */
KKV float kkv_exp_pair(float x, float xl, int adjust) {
  float c = fmin(fmax(x, -160.0f), 100.0f);
  xl = c == x ? xl : 0.0f;
  x = c;
  float k = rint(x * KKV_LOG2E);
  float r = fma(-k, KKV_LN2_HI, x);          /* exact */
  r = fma(-k, KKV_LN2_LO, r) + xl;
  return kkv_scale(1.0f + kkv_expm1_poly(r), (int)k + adjust);
}

OVL float kkv_exp(float x) { return x != x ? x : kkv_exp_pair(x, 0.0f, 0); }

OVL float kkv_exp2(float x) {
  if (x != x) return x;
  x = fmin(fmax(x, -160.0f), 160.0f);
  float k = rint(x);
  return kkv_scale(1.0f + kkv_expm1_poly((x - k) * KKV_LN2_HI), (int)k);
}

OVL float kkv_exp10(float x) {
  if (x != x) return x;
  x = fmin(fmax(x, -50.0f), 50.0f);
  float k = rint(x * KKV_LOG2_10);
  float r = fma(-k, KKV_LOG10_2_HI, x);      /* exact */
  r = fma(-k, KKV_LOG10_2_LO, r);
  return kkv_scale(1.0f + kkv_expm1_poly(r * KKV_LN10), (int)k);
}

OVL float kkv_expm1(float x) {
  if (x != x) return x;
  if (fabs(x) < 0.34f) return kkv_expm1_poly(x);
  x = fmin(fmax(x, -30.0f), 100.0f);
  float k = rint(x * KKV_LOG2E);
  float r = fma(-k, KKV_LN2_HI, x);
  r = fma(-k, KKV_LN2_LO, r);
  float u = kkv_expm1_poly(r);
  int ki = (int)k;
  if (ki > 24) return kkv_scale(1.0f + u, ki);
  /* 2^k (1 + u) - 1 = 2^k u + (2^k - 1): both terms exact, one rounding */
  return kkv_scale(u, ki) + (kkv_scale(1.0f, ki) - 1.0f);
}

/* ln x = e ln2 + (hi + lo) for finite x > 0: returns (hi, lo) = ln m as a float pair, *e */
KKV float2 kkv_log_parts(float x, int *e) {
  int bias = 0;
  if (x < 0x1p-126f) { x *= 0x1p24f; bias = -24; }
  uint u = as_uint(x);
  int ex = (int)(u >> 23) - 127 + bias;
  float m = as_float((u & 0x007fffffu) | 0x3f800000u);
  if (m > 0x1.6a09e6p+0f) { m *= 0.5f; ex += 1; }
  *e = ex;
  float f = m - 1.0f;                        /* exact */
  float d = m + 1.0f;
  float dl = m - (d - 1.0f);                 /* m + 1 = d + dl exactly */
  float s = f / d;
  float sl = (fma(-s, d, f) - s * dl) / d;   /* f / (d + dl) = s + sl */
  float z = s * s;
  float p = 0x1.745d18p-3f;                  /* 2/11 ... 2/3: 2 atanh(s) = 2s + s^3 p(s^2) */
  p = fma(p, z, 0x1.c71c72p-3f);
  p = fma(p, z, 0x1.24924ap-2f);
  p = fma(p, z, 0x1.99999ap-2f);
  p = fma(p, z, 0x1.555556p-1f);
  float hi = 2.0f * s;
  float lo = fma(s * z, p, 2.0f * sl);
  float h = hi + lo;
  return (float2)(h, lo - (h - hi));
}

/* ln x as a float pair for finite x > 0 */
KKV float2 kkv_log_pair(float x) {
  int e;
  float2 m = kkv_log_parts(x, &e);
  float eh = (float)e * KKV_LN2_16;
  float h = eh + m.x;
  float t = fabs(eh) >= fabs(m.x) ? (eh - h) + m.x : (m.x - h) + eh;
  t += fma((float)e, KKV_LN2_16_LO, m.y);
  float r = h + t;
  return (float2)(r, t - (r - h));
}

/* special values of log, log2, log10: NaN below 0 and for NaN, -inf at 0, inf at inf */
KKV int kkv_log_special(float x, float *out) {
  if (x != x || x < 0.0f) { *out = __builtin_nanf(""); return 1; }
  if (x == 0.0f) { *out = -INFINITY; return 1; }
  if (x == INFINITY) { *out = x; return 1; }
  return 0;
}

OVL float kkv_log(float x) {
  float out;
  if (kkv_log_special(x, &out)) return out;
  return kkv_log_pair(x).x;
}

OVL float kkv_log2(float x) {
  float out;
  if (kkv_log_special(x, &out)) return out;
  int e;
  float2 m = kkv_log_parts(x, &e);
  float ph = m.x * KKV_LOG2E;
  float pl = fma(m.x, KKV_LOG2E, -ph) + fma(m.x, KKV_LOG2E_LO, m.y * KKV_LOG2E);
  float h = (float)e + ph;                    /* |ph| <= 1/2 <= |e| or e = 0 */
  return h + ((((float)e - h) + ph) + pl);
}

OVL float kkv_log10(float x) {
  float out;
  if (kkv_log_special(x, &out)) return out;
  float2 l = kkv_log_pair(x);
  float ph = l.x * KKV_LOG10E;
  return ph + (fma(l.x, KKV_LOG10E, -ph) + fma(l.x, KKV_LOG10E_LO, l.y * KKV_LOG10E));
}

/* log(1 + x): u = 1 + x rounded, plus the first-order correction of that rounding (x - (u - 1)) / u */
OVL float kkv_log1p(float x) {
  if (x != x || x < -1.0f) return __builtin_nanf("");
  if (x == -1.0f) return -INFINITY;
  if (x == INFINITY || fabs(x) < 0x1p-24f) return x;
  float u = 1.0f + x;
  float2 l = kkv_log_pair(u);
  return l.x + (l.y + (x - (u - 1.0f)) / u);
}

/* |y| is an odd integer */
KKV int kkv_odd(float y) { return fabs(y) < 0x1p24f && rint(y) == y && ((int)y & 1); }

OVL float kkv_pow(float x, float y) {
  float ax = fabs(x), ay = fabs(y);
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return x + y;
  int odd = kkv_odd(y);
  if (ay == INFINITY) {
    if (ax == 1.0f) return 1.0f;
    return (ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
  }
  if (ax == 0.0f || ax == INFINITY) {
    float r = (ax == 0.0f) == (y < 0.0f) ? INFINITY : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  if (x < 0.0f && rint(y) != y) return __builtin_nanf("");
  float2 l = kkv_log_pair(ax);
  float zh = y * l.x;
  float zl = fma(y, l.x, -zh) + y * l.y;
  float r = kkv_exp_pair(zh, zl, 0);
  return x < 0.0f && odd ? -r : r;
}

/* sin (0) or cos (1) of r, |r| <= pi/4 (Taylor to r^13 / r^12) */
KKV float kkv_sin_poly(float r) {
  float z = r * r;
  float p = -0x1.ae6456p-26f;                /* -1/11! */
  p = fma(p, z, 0x1.71de3ap-19f);            /* 1/9! */
  p = fma(p, z, -0x1.a01a02p-13f);           /* -1/7! */
  p = fma(p, z, 0x1.111112p-7f);             /* 1/5! */
  p = fma(p, z, -0x1.555556p-3f);            /* -1/3! */
  return fma(r * z, p, r);
}

KKV float kkv_cos_poly(float r) {
  float z = r * r;
  float p = 0x1.1eed8ep-29f;                 /* 1/12! */
  p = fma(p, z, -0x1.27e4fcp-22f);           /* -1/10! */
  p = fma(p, z, 0x1.a01a02p-16f);            /* 1/8! */
  p = fma(p, z, -0x1.6c16c2p-10f);           /* -1/6! */
  p = fma(p, z, 0x1.555556p-5f);             /* 1/4! */
  float hz = 0.5f * z;
  float w = 1.0f - hz;
  return w + (((1.0f - w) - hz) + z * z * p);
}

/* |x| = q pi/2 + r, |r| <= pi/4 (about), for finite x: returns r, *q = q mod 4. Payne-Hanek: x =
 * m 2^E (m: 24-bit integer); the bits of 2/pi of weight >= 2^(2-E) give multiples of 4 and are
 * skipped; 96 bits from there times m give x 2/pi mod 4 in 64-bit fixed point (unit 2^-62). */
KKV float kkv_reduce_pi_2(float x, int *q) {
  float ax = fabs(x);
  if (ax <= KKV_PI_4) { *q = 0; return ax; }
  uint u = as_uint(ax);
  int E = (int)(u >> 23) - 150;
  ulong m = (ulong)((u & 0x007fffffu) | 0x00800000u);
  int i0 = E + 30;                           /* first bit (from the zero word's top) to use */
  int j = i0 >> 5, s = i0 & 31;
  ulong a = ((ulong)kkv_two_over_pi[j] << 32) | kkv_two_over_pi[j + 1];
  ulong b = ((ulong)kkv_two_over_pi[j + 2] << 32) | kkv_two_over_pi[j + 3];
  ulong c = (ulong)kkv_two_over_pi[j + 4] << 32;
  ulong top = (a << s) | ((b >> 1) >> (63 - s));
  ulong bottom = (b << s) | ((c >> 1) >> (63 - s));
  ulong lo = m * (bottom >> 32);
  ulong mid = m * (top & 0xffffffffUL) + (lo >> 32);
  ulong hi = m * (top >> 32) + (mid >> 32);
  ulong R = (hi << 32) | (mid & 0xffffffffUL);
  ulong quadrant = (R + (1UL << 61)) >> 62;
  long f = (long)(R - (quadrant << 62));     /* in [-2^61, 2^61) */
  *q = (int)quadrant;
  int g = (int)(f >> 30);                    /* f = g 2^30 + rest */
  int rest = (int)(f & 0x3fffffffL);
  float gh = (float)g;
  float fh = gh * 0x1p30f;
  float fl = fma((float)(g - (int)gh), 0x1p30f, (float)rest);
  float rh = fh * KKV_PI_2;
  float rl = fma(fh, KKV_PI_2, -rh) + fma(fh, KKV_PI_2_LO, fl * KKV_PI_2);
  return (rh + rl) * 0x1p-62f;
}

OVL float kkv_sin(float x) {
  int q;
  float r = kkv_reduce_pi_2(x, &q);
  float v = (q & 1) ? kkv_cos_poly(r) : kkv_sin_poly(r);
  v = (q & 2) ? -v : v;
  return x != x || fabs(x) == INFINITY ? x - x : (x < 0.0f ? -v : v);
}

OVL float kkv_cos(float x) {
  int q;
  float r = kkv_reduce_pi_2(x, &q);
  float v = (q & 1) ? kkv_sin_poly(r) : kkv_cos_poly(r);
  v = ((q + 1) & 2) ? -v : v;
  return x != x || fabs(x) == INFINITY ? x - x : v;
}

OVL float kkv_tan(float x) {
  int q;
  float r = kkv_reduce_pi_2(x, &q);
  float s = kkv_sin_poly(r), c = kkv_cos_poly(r);
  float v = (q & 1) ? -c / s : s / c;
  return x != x || fabs(x) == INFINITY ? x - x : (x < 0.0f ? -v : v);
}

/* atan t for 0 <= t <= 1 as a float pair: above tan(pi/8), pi/4 + atan((t-1)/(t+1)); Taylor to a^19 */
KKV float2 kkv_atan01(float t) {
  int big = t > 0x1.a8279ap-2f;
  float a = big ? (t - 1.0f) / (t + 1.0f) : t;
  float z = a * a;
  float p = 0x1.af286cp-5f;                  /* 1/19 */
  p = fma(p, z, -0x1.e1e1e2p-5f);            /* -1/17 */
  p = fma(p, z, 0x1.111112p-4f);             /* 1/15 */
  p = fma(p, z, -0x1.3b13b2p-4f);            /* -1/13 */
  p = fma(p, z, 0x1.745d18p-4f);             /* 1/11 */
  p = fma(p, z, -0x1.c71c72p-4f);            /* -1/9 */
  p = fma(p, z, 0x1.24924ap-3f);             /* 1/7 */
  p = fma(p, z, -0x1.99999ap-3f);            /* -1/5 */
  p = fma(p, z, 0x1.555556p-2f);             /* 1/3 */
  float tail = -(a * z) * p;                 /* atan a = a + tail */
  if (!big) return (float2)(a, tail);
  float h = KKV_PI_4 + a;
  return (float2)(h, ((KKV_PI_4 - h) + a) + (tail + KKV_PI_4_LO));
}

OVL float kkv_atan(float x) {
  float ax = fabs(x);
  float2 v = kkv_atan01(ax > 1.0f ? 1.0f / ax : ax);
  float r = ax > 1.0f ? KKV_PI_2 - (v.x - (KKV_PI_2_LO - v.y)) : v.x + v.y;
  return x != x ? x : copysign(r, x);
}

OVL float kkv_atan2(float y, float x) {
  float ax = fabs(x), ay = fabs(y);
  int swap = ay > ax;
  float t = swap ? ax / ay : ay / ax;
  t = ax == ay ? (ax == 0.0f ? 0.0f : 1.0f) : t;   /* 0/0 and inf/inf */
  float2 v = kkv_atan01(t);
  float h = v.x, l = v.y;
  if (swap) {                                       /* pi/2 - atan */
    float n = KKV_PI_2 - h;
    l = ((KKV_PI_2 - n) - h) + (KKV_PI_2_LO - l);
    h = n;
  }
  if (signbit(x)) {                                 /* pi - angle */
    float n = KKV_PI - h;
    l = ((KKV_PI - n) - h) + (KKV_PI_LO - l);
    h = n;
  }
  float r = h + l;
  return x != x || y != y ? x + y : copysign(r, y);
}

OVL float kkv_tanh(float x) {
  float ax = fabs(x);
  float t = kkv_expm1(2.0f * fmin(ax, 10.0f));
  float r = ax > 9.1f ? 1.0f : t / (t + 2.0f);
  return x != x ? x : copysign(r, x);
}

OVL float kkv_sinh(float x) {
  float ax = fabs(x);
  float r;
  if (ax < 1.0f) {
    float t = kkv_expm1(ax);
    r = 0.5f * (t + t / (t + 1.0f));
  } else if (ax < 88.0f) {
    float e = kkv_exp_pair(ax, 0.0f, 0);
    r = 0.5f * (e - 1.0f / e);
  } else {
    r = kkv_exp_pair(fmin(ax, 100.0f), 0.0f, -1);
  }
  return x != x ? x : copysign(r, x);
}

OVL float kkv_cosh(float x) {
  float ax = fabs(x);
  float e = kkv_exp_pair(fmin(ax, 100.0f), 0.0f, ax < 88.0f ? 0 : -1);
  return x != x ? x : (ax < 88.0f ? 0.5f * (e + 1.0f / e) : e);
}

OVL float kkv_hypot(float x, float y) {
  float a = fmax(fabs(x), fabs(y)), b = fmin(fabs(x), fabs(y));
  float scale = a > 0x1p60f ? 0x1p-70f : (a < 0x1p-60f ? 0x1p70f : 1.0f);
  float sa = a * scale, sb = b * scale;
  float r = __builtin_sqrtf(fma(sa, sa, sb * sb)) / scale;
  if (fabs(x) == INFINITY || fabs(y) == INFINITY) return INFINITY;
  return x != x || y != y ? x + y : (a == 0.0f ? 0.0f : r);
}

OVL float kkv_rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }

/* vector overloads: per component */
#define KKV_UNARY_VECTORS(N) \
  OVL float2 kkv_##N(float2 x) { return (float2)(kkv_##N(x.s0), kkv_##N(x.s1)); } \
  OVL float3 kkv_##N(float3 x) { return (float3)(kkv_##N(x.s0), kkv_##N(x.s1), kkv_##N(x.s2)); } \
  OVL float4 kkv_##N(float4 x) { return (float4)(kkv_##N(x.lo), kkv_##N(x.hi)); } \
  OVL float8 kkv_##N(float8 x) { return (float8)(kkv_##N(x.lo), kkv_##N(x.hi)); } \
  OVL float16 kkv_##N(float16 x) { return (float16)(kkv_##N(x.lo), kkv_##N(x.hi)); }
#define KKV_BINARY_VECTORS(N) \
  OVL float2 kkv_##N(float2 x, float2 y) { return (float2)(kkv_##N(x.s0, y.s0), kkv_##N(x.s1, y.s1)); } \
  OVL float3 kkv_##N(float3 x, float3 y) { \
    return (float3)(kkv_##N(x.s0, y.s0), kkv_##N(x.s1, y.s1), kkv_##N(x.s2, y.s2)); } \
  OVL float4 kkv_##N(float4 x, float4 y) { return (float4)(kkv_##N(x.lo, y.lo), kkv_##N(x.hi, y.hi)); } \
  OVL float8 kkv_##N(float8 x, float8 y) { return (float8)(kkv_##N(x.lo, y.lo), kkv_##N(x.hi, y.hi)); } \
  OVL float16 kkv_##N(float16 x, float16 y) { return (float16)(kkv_##N(x.lo, y.lo), kkv_##N(x.hi, y.hi)); }

KKV_UNARY_VECTORS(exp)
KKV_UNARY_VECTORS(exp2)
KKV_UNARY_VECTORS(exp10)
KKV_UNARY_VECTORS(expm1)
KKV_UNARY_VECTORS(log)
KKV_UNARY_VECTORS(log2)
KKV_UNARY_VECTORS(log10)
KKV_UNARY_VECTORS(log1p)
KKV_UNARY_VECTORS(sin)
KKV_UNARY_VECTORS(cos)
KKV_UNARY_VECTORS(tan)
KKV_UNARY_VECTORS(atan)
KKV_UNARY_VECTORS(tanh)
KKV_UNARY_VECTORS(sinh)
KKV_UNARY_VECTORS(cosh)
KKV_UNARY_VECTORS(rsqrt)
KKV_BINARY_VECTORS(pow)
KKV_BINARY_VECTORS(atan2)
KKV_BINARY_VECTORS(hypot)

/* fmod: exact (C99 F.9.7.1): the remainder loses ay 2^k, the largest such multiple below it, until
 * it is below ay (each subtraction is exact: t <= r < 2t) */
KKV int kkv_exponent(float a) {             /* floor(log2 a) for finite a > 0 */
  int bias = a < 0x1p-126f ? 24 : 0;
  return (int)(as_uint(bias ? a * 0x1p24f : a) >> 23) - 127 - bias;
}

OVL float kkv_fmod(float x, float y) {
  float ax = fabs(x), ay = fabs(y);
  if (x != x || y != y || ax == INFINITY || ay == 0.0f) return __builtin_nanf("");
  float r = ax;
  while (r >= ay) {
    int k = kkv_exponent(r) - kkv_exponent(ay);
    float t = kkv_scale(kkv_scale(ay, k >> 1), k - (k >> 1));
    r -= t > r ? 0.5f * t : t;
  }
  return copysign(r, x);
}
KKV_BINARY_VECTORS(fmod)
