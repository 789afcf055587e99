/* Float builtins with exact results (OpenCL C 3.0 s7.4: 0 ulp), computed in float and integer
 * operations only: logb, fract, modf, frexp, remainder, remquo (kernelkit's builtin library computes
 * them in double; its fdim, maxmag, minmag and nextafter are float already).
 * Special values per C99 Annex F / OpenCL C s7.5. Follows float_math.cl in one source (its kkv_
 * helpers); kernelkit.targets.visa.irpipeline renames kkv_<name> to the builtins. */

OVL float kkv_logb(float x) {
  float ax = fabs(x);
  if (x != x) return x;
  if (ax == INFINITY) return ax;
  return ax == 0.0f ? -INFINITY : (float)kkv_exponent(ax);
}

/* remainder: x - n y, n = x/y rounded to even; exact. |x| is first brought below 2|y| with fmod
 * (exact), then at most two exact subtractions of |y| leave |r| <= |y|/2. */
KKV float kkv_remainder_abs(float ax, float ay) {
  float r = ay < 0x1p127f ? kkv_fmod(ax, ay + ay) : ax;
  if (ay < 0x1p-125f) {                      /* y/2 may be inexact: compare doubled values */
    if (r + r > ay) { r -= ay; if (r + r >= ay) r -= ay; }
  } else {
    float mid = 0.5f * ay;
    if (r > mid) { r -= ay; if (r >= mid) r -= ay; }
  }
  return r;
}

OVL float kkv_remainder(float x, float y) {
  float ax = fabs(x), ay = fabs(y);
  if (x != x || y != y || ax == INFINITY || ay == 0.0f) return __builtin_nanf("");
  if (ay == INFINITY) return x;
  float r = kkv_remainder_abs(ax, ay);
  return signbit(x) ? -r : r;
}

/* the remainder, and in *quo the sign of x/y with the 7 lowest bits of |n| (OpenCL: at least 7) */
KKV float kkv_remquo_core(float x, float y, int *quo) {
  float ax = fabs(x), ay = fabs(y);
  *quo = 0;
  if (x != x || y != y || ax == INFINITY || ay == 0.0f) return __builtin_nanf("");
  if (ay == INFINITY) return x;
  float part = ay < 0x1p120f ? kkv_fmod(ax, 128.0f * ay) : ax;    /* n mod 128 is unchanged */
  float r = kkv_remainder_abs(part, ay);
  int n = (int)rint((part - r) / ay) & 127;
  *quo = signbit(x) != signbit(y) ? -n : n;
  return signbit(x) ? -r : r;
}

/* fract: x - floor(x), below 1, and *iptr = floor(x) */
KKV float kkv_fract_core(float x, float *iptr) {
  float f = floor(x);
  *iptr = f;
  if (x != x) return x;
  return fabs(x) == INFINITY ? copysign(0.0f, x) : fmin(x - f, 0x1.fffffep-1f);
}

/* modf: the fractional part with the sign of x, *iptr = trunc(x) */
KKV float kkv_modf_core(float x, float *iptr) {
  float t = trunc(x);
  *iptr = t;
  if (x != x) return x;
  return copysign(fabs(x) == INFINITY ? 0.0f : x - t, x);
}

/* frexp: x = m 2^e with |m| in [1/2, 1); 0, inf and NaN unchanged with e = 0 */
KKV float kkv_frexp_core(float x, int *e) {
  float ax = fabs(x);
  if (x != x || ax == INFINITY || ax == 0.0f) { *e = 0; return x; }
  int k = kkv_exponent(ax) + 1;
  *e = k;
  return kkv_scale(x, -k);
}

/* the pointer-argument builtins for each address space a pointer may point into (OpenCL 1.2) */
#define KKV_POINTER_BUILTIN(NAME, T, SPACE) \
  OVL float kkv_##NAME(float x, SPACE T *p) { T v; float r = kkv_##NAME##_core(x, &v); *p = v; return r; }
#define KKV_POINTER_BUILTINS(NAME, T) \
  KKV_POINTER_BUILTIN(NAME, T, __private) KKV_POINTER_BUILTIN(NAME, T, __global) \
  KKV_POINTER_BUILTIN(NAME, T, __local)
KKV_POINTER_BUILTINS(fract, float)
KKV_POINTER_BUILTINS(modf, float)
KKV_POINTER_BUILTINS(frexp, int)

#define KKV_REMQUO(SPACE) \
  OVL float kkv_remquo(float x, float y, SPACE int *p) { int q; float r = kkv_remquo_core(x, y, &q); *p = q; return r; }
KKV_REMQUO(__private)
KKV_REMQUO(__global)
KKV_REMQUO(__local)

KKV_UNARY_VECTORS(logb)
KKV_BINARY_VECTORS(remainder)
