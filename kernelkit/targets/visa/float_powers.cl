/* cbrt, pown, powr, rootn, ldexp and ilogb computed in float (kernelkit's builtin library computes
 * them in double). OpenCL C 3.0 s7.4 limits: cbrt 2, pown/powr/rootn 16 ulp, ldexp and ilogb exact;
 * special values per OpenCL C s7.5 (powr, pown, rootn have their own). cbrt: an exponent/3 first
 * guess, Newton steps, a last step whose residual t^3 - x is formed exactly (fma); pown/rootn: the
 * exponent n resp. 1/n as a float pair into float_math.cl's y ln x. Follows float_math.cl and
 * float_exact.cl in one source (their kkv_ helpers). */

OVL float kkv_cbrt(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY || ax == 0.0f) return x;
  float scale = 1.0f;
  if (ax < 0x1p-100f) { ax *= 0x1p120f; scale = 0x1p-40f; }
  float t = as_float(as_uint(ax) / 3u + 0x2a555555u);
  for (int i = 0; i < 3; i++) t = t - (t * t * t - ax) / (3.0f * t * t);
  float t2 = t * t;
  float e2 = fma(t, t, -t2);
  float t3 = t2 * t;
  float e3 = fma(t2, t, -t3) + e2 * t;
  t = t - ((t3 - ax) + e3) / (3.0f * t2);
  return copysign(t * scale, x);
}

/* |x|^(y + yl) for finite x != 0 */
KKV float kkv_pow_pair(float ax, float y, float yl) {
  float2 l = kkv_log_pair(ax);
  float zh = y * l.x;
  float zl = fma(y, l.x, -zh) + (y * l.y + yl * l.x);
  return kkv_exp_pair(zh, zl, 0);
}

OVL float kkv_pown(float x, int n) {
  if (n == 0) return 1.0f;
  if (x != x) return x;
  float ax = fabs(x);
  int odd = n & 1;
  if (ax == 0.0f || ax == INFINITY) {
    float r = (ax == 0.0f) == (n < 0) ? INFINITY : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  float y = (float)n;
  float r = kkv_pow_pair(ax, y, (float)((long)n - (long)y));
  return x < 0.0f && odd ? -r : r;
}

OVL float kkv_powr(float x, float y) {
  if (x != x || y != y || x < 0.0f) return __builtin_nanf("");
  if (x == 0.0f) return y == 0.0f ? __builtin_nanf("") : (y < 0.0f ? INFINITY : 0.0f);
  if (x == INFINITY) return y == 0.0f ? __builtin_nanf("") : (y < 0.0f ? 0.0f : INFINITY);
  if (x == 1.0f) return fabs(y) == INFINITY ? __builtin_nanf("") : 1.0f;
  return kkv_pow(x, y);
}

OVL float kkv_rootn(float x, int n) {
  if (n == 0 || x != x) return __builtin_nanf("");
  int odd = n & 1;
  if (x < 0.0f && !odd) return __builtin_nanf("");
  float ax = fabs(x);
  if (ax == 0.0f || ax == INFINITY) {
    float r = (ax == 0.0f) == (n < 0) ? INFINITY : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  float d = (float)n;
  float dl = (float)((long)n - (long)d);     /* n = d + dl */
  float y = 1.0f / d;
  float yl = (fma(-y, d, 1.0f) - y * dl) / d;   /* 1/n = y + yl */
  float r = kkv_pow_pair(ax, y, yl);
  return x < 0.0f ? -r : r;
}

/* x 2^n, one rounding: the steps keep the value normal; a subnormal result is rounded by the last
 * product alone */
OVL float kkv_ldexp(float x, int n) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY || ax == 0.0f || n == 0) return x;
  if (n > 0) return kkv_scale(kkv_scale(x, min(n, 254)), clamp(n - 254, 0, 254));
  int e = kkv_exponent(ax);
  if (e + n >= -126) return kkv_scale(kkv_scale(x, n / 2), n - n / 2);   /* normal result: exact steps */
  int first = -126 - e;                                 /* to [2^-126, 2^-125): exact */
  float y = kkv_scale(kkv_scale(x, first / 2), first - first / 2);
  int last = max(n - first, -30);                       /* below 2^-151 the result rounds to 0 */
  return y * as_float((uint)(last + 127) << 23);
}

OVL int kkv_ilogb(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY) return 2147483647;      /* FP_ILOGBNAN; INT_MAX for inf */
  return ax == 0.0f ? (-2147483647 - 1) : kkv_exponent(ax);    /* FP_ILOGB0 */
}

KKV_UNARY_VECTORS(cbrt)
KKV_BINARY_VECTORS(powr)
