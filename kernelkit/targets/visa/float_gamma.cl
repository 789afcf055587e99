/* tgamma, lgamma and lgamma_r computed in float (kernelkit's builtin library computes them in
 * double). OpenCL C 3.0 s7.4: tgamma 16 ulp (lgamma: no limit). For x >= 8, ln gamma(x) = (x - 1/2)
 * ln x - x + ln(2 pi)/2 + 1/(12x) - 1/(360x^3) + 1/(1260x^5) - 1/(1680x^7) (Stirling) as a float
 * pair; 0 < x < 8 is shifted up, gamma(x) = gamma(x + n) / (x (x+1) .. (x+n-1)) with the product as
 * a float pair; x < 0 by reflection, gamma(x) = pi / (sin(pi x) gamma(1 - x)) with float_pi.cl's
 * exact reduction. Follows float_math.cl and float_pi.cl in one source (their kkv_ helpers). */

#define KKV_HALF_LN_2PI 0x1.d67f1cp-1f     /* ln(2 pi)/2 = HI + LO */
#define KKV_HALF_LN_2PI_LO 0x1.d1c2b6p-27f

/* ln gamma(x) for 8 <= x < inf, as a float pair */
KKV float2 kkv_lgamma_stirling(float x) {
  float2 l = kkv_log_pair(x);
  float a = x - 0.5f;                        /* exact below 2^23; a rounding above does not show */
  float h = a * l.x;
  float t = fma(a, l.x, -h) + a * l.y;
  float s = h - x;                           /* (h + t) - x + (ln(2 pi)/2 + series) */
  float sl = ((h - s) - x) + t;
  float w = 1.0f / x, w2 = w * w;
  float series = w * fma(w2, fma(w2, fma(w2, -0x1.381382p-11f, 0x1.a01a02p-11f), -0x1.6c16c2p-9f), 0x1.555556p-4f);
  float r = s + KKV_HALF_LN_2PI;
  float rl = ((s - r) + KKV_HALF_LN_2PI) + (sl + (KKV_HALF_LN_2PI_LO + series));
  float v = r + rl;
  return (float2)(v, rl - (v - r));
}

/* ln gamma(x) for 0 < x < inf as a float pair; for x < 8 also the rising product x (x+1) ..
 * (x+n-1), x + n >= 8, in *p (else *p = (1, 0)): ln gamma(x) = pair - ln p. The factors x + k are
 * float pairs (the sums round), the product a pair, the shifted argument's low part enters as
 * low * digamma(x + n) ~ low (ln(x + n) - 1/(2(x + n))). */
KKV float2 kkv_lgamma_shifted(float x, float xl, float2 *p) {
  float ph = 1.0f, pl = 0.0f, yh = x, yl = xl;
  while (yh < 8.0f) {
    float h = ph * yh;
    pl = fma(ph, yh, -h) + (ph * yl + pl * yh);
    ph = h;
    float s = yh + 1.0f;                     /* two-sum: yh + 1 = s + e exactly */
    float v = s - yh;
    yl += (yh - (s - v)) + (1.0f - v);
    yh = s;
  }
  *p = (float2)(ph, pl);
  float2 z = kkv_lgamma_stirling(yh);
  float2 ly = kkv_log_pair(yh);
  return (float2)(z.x, z.y + yl * (ly.x - 0.5f / yh));
}

/* gamma(x + xl) for x > 0, |xl| below half an ulp of x, times 2^-scale */
KKV float kkv_gamma_positive(float x, float xl, int scale) {
  float2 p;
  float2 z = kkv_lgamma_shifted(x, xl, &p);
  float c = (float)scale * KKV_LN2_HI;       /* exact; z - scale ln 2 stays in kkv_exp_pair's range */
  float h = z.x - c;
  float e = kkv_exp_pair(h, ((z.x - h) - c) + (z.y - (float)scale * KKV_LN2_LO), 0);
  return e / p.x * (1.0f - p.y / p.x);
}

OVL float kkv_tgamma(float x) {
  if (x != x || x == INFINITY) return x;
  if (x == 0.0f) return copysign(INFINITY, x);
  if (x > 0.0f) return x > 35.1f ? INFINITY : kkv_gamma_positive(x, 0.0f, 0);
  if (x == -INFINITY || rint(x) == x) return __builtin_nanf("");
  if (x < -50.0f) return ((int)floor(x) & 1) ? -0.0f : 0.0f;   /* underflows; the sign of sin(pi x) */
  float s = kkv_sinpi(x);
  int big = x < -30.0f;
  float t = 1.0f - x;                       /* 1 - x = t + tl exactly */
  float v = t - 1.0f;
  float tl = (1.0f - (t - v)) + (-x - v);
  float g = kkv_gamma_positive(t, tl, big ? 128 : 0);  /* 2^-128 gamma(1 - x) when it would overflow */
  float r = KKV_PI / (s * g);
  return big ? kkv_scale(r, -128) : r;
}

/* ln |gamma(x + xl)| for x > 0 */
KKV float kkv_lgamma_positive(float x, float xl) {
  float2 p;
  float2 z = kkv_lgamma_shifted(x, xl, &p);
  float2 lp = kkv_log_pair(p.x);
  return (z.x - lp.x) + ((z.y - lp.y) - p.y / p.x);
}

/* ln |gamma(x)|, and *sign the sign of gamma(x) (0 at the poles) */
KKV float kkv_lgamma_core(float x, int *sign) {
  *sign = 1;
  if (x != x) return x;
  if (fabs(x) == INFINITY) return INFINITY;
  if (x <= 0.0f && rint(x) == x) { *sign = x == 0.0f ? (signbit(x) ? -1 : 1) : 0; return INFINITY; }
  if (x > 0x1p60f) return x * (kkv_log(x) - 1.0f);     /* (the pair would overflow to inf - inf) */
  if (x > 0.0f) return kkv_lgamma_positive(x, 0.0f);
  float s = kkv_sinpi(x);                    /* gamma(x) = pi / (sin(pi x) gamma(1 - x)) */
  *sign = s < 0.0f ? -1 : 1;
  float2 ls = kkv_log_pair(fabs(s) * 0x1.45f306p-2f);
  float t = 1.0f - x;
  float v = t - 1.0f;
  return -ls.x - (ls.y + kkv_lgamma_positive(t, (1.0f - (t - v)) + (-x - v)));
}

OVL float kkv_lgamma(float x) { int s; return kkv_lgamma_core(x, &s); }

#define KKV_LGAMMA_R(SPACE) \
  OVL float kkv_lgamma_r(float x, SPACE int *p) { int s; float r = kkv_lgamma_core(x, &s); *p = s; return r; }
KKV_LGAMMA_R(__private)
KKV_LGAMMA_R(__global)
KKV_LGAMMA_R(__local)

KKV_UNARY_VECTORS(tgamma)
KKV_UNARY_VECTORS(lgamma)
