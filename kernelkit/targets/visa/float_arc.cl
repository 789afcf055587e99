/* Inverse trigonometric and hyperbolic float builtins computed in float (kernelkit's builtin
 * library computes them in double): asin, acos, asinpi, acospi, atanpi, atan2pi, asinh, acosh,
 * atanh. OpenCL C 3.0 s7.4 limits: asin/acos/asinh/acosh 4, asinpi/acospi/atanpi/atanh 5,
 * atan2pi 6 ulp. asin/acos are atan2 of x and sqrt(1 - x^2) (1 - x^2 with one rounding: fma below
 * 1/2, (1 - |x|)(1 + |x|) with 1 - |x| exact above); the *pi forms divide by pi as a float pair;
 * the hyperbolic ones are log1p/log of forms without cancellation. Follows float_math.cl in one
 * source (its kkv_ helpers). */

#define KKV_INV_PI 0x1.45f306p-2f        /* 1/pi = INV_PI + INV_PI_LO */
#define KKV_INV_PI_LO 0x1.b9391p-27f

KKV float kkv_sqrt_one_minus_square(float x) {
  float ax = fabs(x);
  return __builtin_sqrtf(ax < 0.5f ? fma(-ax, ax, 1.0f) : (1.0f - ax) * (1.0f + ax));
}

OVL float kkv_asin(float x) {
  if (!(fabs(x) <= 1.0f)) return __builtin_nanf("");
  return kkv_atan2(x, kkv_sqrt_one_minus_square(x));
}

OVL float kkv_acos(float x) {
  if (!(fabs(x) <= 1.0f)) return __builtin_nanf("");
  return kkv_atan2(kkv_sqrt_one_minus_square(x), x);
}

/* r / pi with 1/pi as a float pair */
KKV float kkv_over_pi(float r) { return fma(r, KKV_INV_PI, r * KKV_INV_PI_LO); }

OVL float kkv_asinpi(float x) { return kkv_over_pi(kkv_asin(x)); }
OVL float kkv_acospi(float x) { return kkv_over_pi(kkv_acos(x)); }
OVL float kkv_atanpi(float x) { return kkv_over_pi(kkv_atan(x)); }
OVL float kkv_atan2pi(float y, float x) { return kkv_over_pi(kkv_atan2(y, x)); }

/* ln(2a) for finite a > 0 */
KKV float kkv_log_twice(float a) {
  float2 l = kkv_log_pair(a);
  return l.x + (KKV_LN2_HI + (l.y + KKV_LN2_LO));
}

OVL float kkv_asinh(float x) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY || ax < 0x1p-12f) return x;
  float r = ax > 0x1p12f ? kkv_log_twice(ax)
                         : kkv_log1p(ax + ax * ax / (1.0f + __builtin_sqrtf(fma(ax, ax, 1.0f))));
  return copysign(r, x);
}

OVL float kkv_acosh(float x) {
  if (!(x >= 1.0f)) return __builtin_nanf("");
  if (x == INFINITY) return x;
  if (x > 0x1p12f) return kkv_log_twice(x);
  if (x >= 2.0f) return kkv_log(2.0f * x - 1.0f / (x + __builtin_sqrtf(fma(x, x, -1.0f))));
  float t = x - 1.0f;                        /* exact */
  return kkv_log1p(t + __builtin_sqrtf(fma(t, t, 2.0f * t)));
}

OVL float kkv_atanh(float x) {
  float ax = fabs(x);
  if (!(ax <= 1.0f)) return __builtin_nanf("");
  if (ax == 1.0f) return copysign(INFINITY, x);
  if (ax < 0x1p-12f) return x;
  return copysign(0.5f * kkv_log1p((ax + ax) / (1.0f - ax)), x);
}

KKV_UNARY_VECTORS(asin)
KKV_UNARY_VECTORS(acos)
KKV_UNARY_VECTORS(asinpi)
KKV_UNARY_VECTORS(acospi)
KKV_UNARY_VECTORS(atanpi)
KKV_BINARY_VECTORS(atan2pi)
KKV_UNARY_VECTORS(asinh)
KKV_UNARY_VECTORS(acosh)
KKV_UNARY_VECTORS(atanh)
