/* sinpi, cospi, tanpi and sincos computed in float (kernelkit's builtin library computes them in
 * double). OpenCL C 3.0 s7.4 limits: sinpi/cospi 4, tanpi 6 ulp; sincos as sin and cos.
 * x pi is reduced exactly: n = rint(2|x|) (2|x| is exact), f = |x| - n/2 in [-1/4, 1/4] (exact),
 * pi f as a float pair, the quadrant n mod 4 picks sin/cos and the sign; integers and half
 * integers give the exact zeros and infinities of OpenCL C s7.5. Follows float_math.cl in one
 * source (its kkv_ helpers). */

/* sin (of the pair pi f) in .x, cos in .y, *n = rint(2|x|) mod 4; |x| < 2^24, finite */
KKV float2 kkv_sincos_pi(float ax, int *n) {
  float k = rint(ax + ax);
  float f = ax - 0.5f * k;
  float h = f * KKV_PI;
  float l = fma(f, KKV_PI, -h) + f * KKV_PI_LO;
  *n = (int)k & 3;
  return (float2)(kkv_sin_poly(h) + l, kkv_cos_poly(h) - l * h);
}

OVL float kkv_sinpi(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY) return __builtin_nanf("");
  if (ax >= 0x1p23f || ax == rint(ax)) return copysign(0.0f, x);     /* integers */
  int n;
  float2 sc = kkv_sincos_pi(ax, &n);
  float v = (n & 1) ? sc.y : sc.x;
  v = (n & 2) ? -v : v;
  return x < 0.0f ? -v : v;
}

OVL float kkv_cospi(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY) return __builtin_nanf("");
  if (ax >= 0x1p24f) return 1.0f;                                   /* even integers */
  int n;
  float2 sc = kkv_sincos_pi(ax, &n);
  float v = (n & 1) ? -sc.x : sc.y;
  v = (n & 2) ? -v : v;
  return v + 0.0f;                          /* half integers: +0 */
}

OVL float kkv_tanpi(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY) return __builtin_nanf("");
  int n = 0;
  float v;
  if (ax >= 0x1p24f) {
    v = 0.0f;                                                       /* even integers */
  } else {
    float2 sc = kkv_sincos_pi(ax, &n);
    float f = ax - 0.5f * rint(ax + ax);
    if (f == 0.0f)                          /* n: integers +-0 (sign of the integer's parity), half: +-inf */
      v = (n & 1) ? ((n & 2) ? -INFINITY : INFINITY) : ((n & 2) ? -0.0f : 0.0f);
    else
      v = (n & 1) ? -sc.y / sc.x : sc.x / sc.y;
  }
  return signbit(x) ? -v : v;
}

KKV float kkv_sincos_core(float x, float *c) {
  *c = kkv_cos(x);
  return kkv_sin(x);
}
KKV_POINTER_BUILTINS(sincos, float)

KKV_UNARY_VECTORS(sinpi)
KKV_UNARY_VECTORS(cospi)
KKV_UNARY_VECTORS(tanpi)
