/* Scalar cores of the math functions: kk_<name>_f (float) and kk_<name>_d (double).
 *
 * The host calls the C library (clang builtins become LLVM intrinsics or libm calls that
 * the host's JIT resolves in-process); targets without a C library (AMDGPU), or builds with
 * KK_PORTABLE_MATH, use clc_math_portable.h, where float functions are evaluated in double
 * and rounded once.  Functions the C library lacks (sinpi, ...) are portable everywhere.
 */
#ifndef KERNELKIT_CLC_MATH_H
#define KERNELKIT_CLC_MATH_H

#include "clc_math_portable.h"

#define KK_PI_INV 3.18309886183790671538e-01

#if defined(KK_TARGET_AMDGPU) || defined(KK_PORTABLE_MATH)
#define KK_LIBM 0
#else
#define KK_LIBM 1
#endif

#define KK_FP_ILOGB0 (-2147483647 - 1)
#define KK_FP_ILOGBNAN 2147483647

#if KK_LIBM
#define KK_M1(name)                                                              \
  KK_INLINE float kk_##name##_f(float x) { return __builtin_##name##f(x); }    \
  KK_INLINE double kk_##name##_d(double x) { return __builtin_##name(x); }
#define KK_M2(name)                                                                          \
  KK_INLINE float kk_##name##_f(float x, float y) { return __builtin_##name##f(x, y); }    \
  KK_INLINE double kk_##name##_d(double x, double y) { return __builtin_##name(x, y); }
#else
#define KK_M1(name)                                                                       \
  KK_INLINE float kk_##name##_f(float x) { return (float)kk_p_##name((double)x); }      \
  KK_INLINE double kk_##name##_d(double x) { return kk_p_##name(x); }
#define KK_M2(name)                                                                                      \
  KK_INLINE float kk_##name##_f(float x, float y) { return (float)kk_p_##name((double)x, (double)y); } \
  KK_INLINE double kk_##name##_d(double x, double y) { return kk_p_##name(x, y); }
#endif
/* float through the lane-friendly cores of clc_math_lanes.h on the host */
#if KK_LIBM
#include "clc_math_lanes.h"
#include "clc_lanes_inverse_trig.h"
#include "clc_lanes_hyperbolic.h"
#include "clc_lanes_algebraic.h"
#include "clc_lanes_gamma_erf.h"
#include "clc_lanes_powers.h"
#include "clc_lanes_double.h"
#include "clc_lanes_double_remainder.h"
#include "clc_lanes_double_inverse_trig.h"
#include "clc_lanes_double_hyperbolic.h"
#include "clc_lanes_double_gamma_erf.h"
/* float through the lane cores; double through dcore (the C library, or clc_lanes_double.h's lane cores) */
#define KK_LANE1(name, dcore)                                                        \
  KK_INLINE float kk_##name##_f(float x) { return kk_lf_##name(x); }               \
  KK_INLINE double kk_##name##_d(double x) { return dcore(x); }
#define KK_LANE2(name, dcore)                                                                  \
  KK_INLINE float kk_##name##_f(float x, float y) { return kk_lf_##name(x, y); }             \
  KK_INLINE double kk_##name##_d(double x, double y) { return dcore(x, y); }
#define KK_L1(name) KK_LANE1(name, __builtin_##name)
#define KK_L2(name) KK_LANE2(name, __builtin_##name)
#define KK_LD1(name) KK_LANE1(name, kk_ldd_##name)
#define KK_LD2(name) KK_LANE2(name, kk_ldd_##name)
#else
#define KK_L1(name) KK_M1(name)
#define KK_L2(name) KK_M2(name)
#define KK_LD1(name) KK_M1(name)
#define KK_LD2(name) KK_M2(name)
#endif
/* always portable */
#define KK_P1(name)                                                                       \
  KK_INLINE float kk_##name##_f(float x) { return (float)kk_p_##name((double)x); }      \
  KK_INLINE double kk_##name##_d(double x) { return kk_p_##name(x); }

KK_LD1(acos) KK_LD1(acosh) KK_LD1(asin) KK_LD1(asinh) KK_LD1(atan) KK_LD1(atanh) KK_LD1(cbrt)
KK_LD1(cos) KK_LD1(cosh) KK_LD1(erfc) KK_LD1(erf) KK_LD1(exp) KK_LD1(exp2) KK_LD1(exp10) KK_LD1(expm1)
KK_LD1(log) KK_LD1(log2) KK_LD1(log10) KK_LD1(log1p) KK_LD1(sin) KK_LD1(sinh) KK_LD1(tan) KK_LD1(tanh)
KK_LD1(tgamma)
KK_LD2(atan2) KK_LD2(pow)
KK_P1(sinpi) KK_P1(cospi) KK_P1(tanpi)

#if KK_LIBM
KK_INLINE float kk_lgamma_f(float x) { return kk_lf_lgamma(x); }
KK_INLINE double kk_lgamma_d(double x) { return kk_ldd_lgamma(x); }
KK_INLINE float kk_hypot_f(float x, float y) { return kk_lf_hypot(x, y); }
#else
KK_INLINE double kk_p_lgamma(double x) { int s; return kk_p_lgamma_r(x, &s); }
KK_INLINE float kk_lgamma_f(float x) { return (float)kk_p_lgamma((double)x); }
KK_INLINE double kk_lgamma_d(double x) { return kk_p_lgamma(x); }
KK_INLINE float kk_hypot_f(float x, float y) {
  if (__builtin_fabsf(x) == __builtin_inff() || __builtin_fabsf(y) == __builtin_inff()) return __builtin_inff();
  return (float)__builtin_sqrt((double)x * x + (double)y * y);
}
#endif
/* (branch-free after inlining: the host vectorises it too) */
KK_INLINE double kk_hypot_d(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (ax == KK_INF || ay == KK_INF) return KK_INF;
  if (ax != ax || ay != ay) return x + y;
  double m = __builtin_fmax(ax, ay), n = __builtin_fmin(ax, ay);
  if (m == 0.0) return 0.0;
  double r = n / m;
  return m * __builtin_sqrt(1.0 + r * r);
}

/* Sign of Gamma(x) (lgamma_r's sign output). */
KK_INLINE int kk_gamma_sign_d(double x) {
  if (x == 0.0) return __builtin_signbit(x) ? -1 : 1;
  if (x > 0.0 || x != x || __builtin_trunc(x) == x) return 1;
  return ((long)__builtin_floor(x) & 1) ? -1 : 1;
}

#if KK_LIBM
KK_INLINE float kk_acospi_f(float x) { return kk_lf_acospi(x); }
KK_INLINE float kk_asinpi_f(float x) { return kk_lf_asinpi(x); }
KK_INLINE float kk_atanpi_f(float x) { return kk_lf_atanpi(x); }
KK_INLINE float kk_atan2pi_f(float y, float x) { return kk_lf_atan2pi(y, x); }
KK_INLINE float kk_fmod_f(float x, float y) { return kk_lf_fmod(x, y); }
#else
KK_INLINE float kk_acospi_f(float x) { return (float)((double)kk_acos_d((double)x) * KK_PI_INV); }
KK_INLINE float kk_asinpi_f(float x) { return (float)((double)kk_asin_d((double)x) * KK_PI_INV); }
KK_INLINE float kk_atanpi_f(float x) { return (float)((double)kk_atan_d((double)x) * KK_PI_INV); }
KK_INLINE float kk_atan2pi_f(float y, float x) { return (float)(kk_atan2_d((double)y, (double)x) * KK_PI_INV); }
KK_INLINE float kk_fmod_f(float x, float y) { return __builtin_fmodf(x, y); }
#endif
#if KK_LIBM
KK_INLINE double kk_acospi_d(double x) { return kk_ldd_acospi(x); }
KK_INLINE double kk_asinpi_d(double x) { return kk_ldd_asinpi(x); }
KK_INLINE double kk_atanpi_d(double x) { return kk_ldd_atanpi(x); }
KK_INLINE double kk_atan2pi_d(double y, double x) { return kk_ldd_atan2pi(y, x); }
#else
KK_INLINE double kk_acospi_d(double x) { return kk_acos_d(x) * KK_PI_INV; }
KK_INLINE double kk_asinpi_d(double x) { return kk_asin_d(x) * KK_PI_INV; }
KK_INLINE double kk_atanpi_d(double x) { return kk_atan_d(x) * KK_PI_INV; }
KK_INLINE double kk_atan2pi_d(double y, double x) { return kk_atan2_d(y, x) * KK_PI_INV; }
#endif

/* Exact functions on the bit level or through exact operations. */
#if KK_LIBM
KK_INLINE double kk_fmod_d(double x, double y) { return kk_ldd_fmod(x, y); }
#else
KK_INLINE double kk_fmod_d(double x, double y) { return __builtin_fmod(x, y); }
#endif

/* remquo: x - n*y with n the integral quotient rounded to nearest even; *q gets n's sign and
 * low 3 bits (OpenCL C 3.0 s6.15.2 requires at least 7 bits; 3 is C99's minimum -- we give 7). */
#if KK_LIBM
KK_INLINE double kk_remquo_d(double x, double y, int *quo) { return kk_ldd_remquo(x, y, quo); }
#else
KK_INLINE double kk_remquo_d(double x, double y, int *quo) {
  *quo = 0;
  if (x != x || y != y || __builtin_fabs(x) == KK_INF || y == 0.0) return KK_NAN;
  double ay = __builtin_fabs(y);
  double a = __builtin_fabs(x);
  if (ay == KK_INF) return x;
  double m = ay * 128.0;
  if (m != KK_INF) a = __builtin_fmod(a, m);     /* exact */
  int q = 0;
  for (int k = 64; k >= 1; k >>= 1) {
    double ky = ay * (double)k;
    if (ky != KK_INF && a >= ky) { a -= ky; q += k; }   /* exact (Sterbenz) */
  }
  /* round the quotient to nearest even: a in [0, ay) */
  if (a > ay - a || (a == ay - a && (q & 1))) { a -= ay; q += 1; }
  q &= 0x7f;
  int neg = __builtin_signbit(x) != __builtin_signbit(y);
  *quo = neg ? -q : q;
  return __builtin_signbit(x) ? -a : a;
}
#endif
#if KK_LIBM
KK_INLINE float kk_remquo_f(float x, float y, int *quo) { return kk_lf_remquo(x, y, quo); }
KK_INLINE float kk_remainder_f(float x, float y) { return kk_lf_remainder(x, y); }
#else
KK_INLINE float kk_remquo_f(float x, float y, int *quo) { return (float)kk_remquo_d((double)x, (double)y, quo); }
KK_INLINE float kk_remainder_f(float x, float y) { int q; return kk_remquo_f(x, y, &q); }
#endif
#if KK_LIBM
KK_INLINE double kk_remainder_d(double x, double y) { return kk_ldd_remainder(x, y); }
#else
KK_INLINE double kk_remainder_d(double x, double y) { int q; return kk_remquo_d(x, y, &q); }
#endif

KK_INLINE int kk_ilogb_d(double x) {
  if (x != x) return KK_FP_ILOGBNAN;
  if (x == 0.0) return KK_FP_ILOGB0;
  if (__builtin_fabs(x) == KK_INF) return 2147483647;
  int e;
  (void)__builtin_frexp(x, &e);
  return e - 1;
}
KK_INLINE int kk_ilogb_f(float x) { return kk_ilogb_d((double)x); }
KK_INLINE double kk_logb_d(double x) {
  if (x != x) return x;
  if (x == 0.0) return -KK_INF;
  if (__builtin_fabs(x) == KK_INF) return KK_INF;
  return (double)kk_ilogb_d(x);
}
KK_INLINE float kk_logb_f(float x) { return (float)kk_logb_d((double)x); }

KK_INLINE float kk_nextafter_f(float x, float y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0f) return __builtin_copysignf(as_float(1), y);
  return (y > x) ? kk_next_up_f(x) : kk_next_down_f(x);
}
KK_INLINE double kk_nextafter_d(double x, double y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0) return __builtin_copysign(as_double(1L), y);
  return (y > x) ? kk_next_up_d(x) : kk_next_down_d(x);
}

KK_INLINE float kk_fdim_f(float x, float y) { if (x != x || y != y) return x + y; return x > y ? x - y : 0.0f; }
KK_INLINE double kk_fdim_d(double x, double y) { if (x != x || y != y) return x + y; return x > y ? x - y : 0.0; }
KK_INLINE float kk_maxmag_f(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax > ay ? x : (ay > ax ? y : __builtin_fmaxf(x, y));
}
KK_INLINE double kk_maxmag_d(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax > ay ? x : (ay > ax ? y : __builtin_fmax(x, y));
}
KK_INLINE float kk_minmag_f(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax < ay ? x : (ay < ax ? y : __builtin_fminf(x, y));
}
KK_INLINE double kk_minmag_d(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax < ay ? x : (ay < ax ? y : __builtin_fmin(x, y));
}
/* powr: pow for x >= 0 with the special values of OpenCL C 3.0 s6.15.2 (not C99's pow). */
KK_INLINE double kk_powr_special_d(double x, double y, int *done) {
  *done = 1;
  if (x != x || y != y || x < 0.0) return KK_NAN;
  if (x == 0.0) {
    if (y == 0.0) return KK_NAN;
    return y < 0.0 ? KK_INF : 0.0;
  }
  if (x == KK_INF) {
    if (y == 0.0) return KK_NAN;
    return y < 0.0 ? 0.0 : KK_INF;
  }
  if (x == 1.0) return __builtin_fabs(y) == KK_INF ? KK_NAN : 1.0;
  if (y == 0.0) return 1.0;
  *done = 0;
  return 0.0;
}
KK_INLINE float kk_powr_f(float x, float y) {
  int done;
  double r = kk_powr_special_d((double)x, (double)y, &done);
  return done ? (float)r : kk_pow_f(x, y);
}
KK_INLINE double kk_powr_d(double x, double y) {
  int done;
  double r = kk_powr_special_d(x, y, &done);
  return done ? r : kk_pow_d(x, y);
}
#if KK_LIBM
KK_INLINE float kk_pown_f(float x, int n) { return kk_lf_pown(x, n); }
#else
KK_INLINE float kk_pown_f(float x, int n) { return (float)kk_pow_d((double)x, (double)n); }
#endif
KK_INLINE double kk_pown_d(double x, int n) { return kk_pow_d(x, (double)n); }
KK_INLINE double kk_rootn_d(double x, int n) {
  if (n == 0) return KK_NAN;
  if (x < 0.0) {
    if ((n & 1) == 0) return KK_NAN;
    return -kk_pow_d(-x, 1.0 / (double)n);
  }
  if (x == 0.0) return n > 0 ? x : ((n & 1) ? __builtin_copysign(KK_INF, x) : KK_INF);
  return kk_pow_d(x, 1.0 / (double)n);
}
#if KK_LIBM
KK_INLINE float kk_rootn_f(float x, int n) { return kk_lf_rootn(x, n); }
#else
KK_INLINE float kk_rootn_f(float x, int n) { return (float)kk_rootn_d((double)x, n); }
#endif
KK_INLINE float kk_rsqrt_f(float x) { return 1.0f / __builtin_sqrtf(x); }
KK_INLINE double kk_rsqrt_d(double x) { return 1.0 / __builtin_sqrt(x); }

KK_INLINE float kk_fract_f(float x, float *ip) {
  float fl = __builtin_floorf(x);
  *ip = fl;
  if (x != x) return x;
  if (__builtin_fabsf(x) == __builtin_inff()) return __builtin_copysignf(0.0f, x);
  return __builtin_fminf(x - fl, 0x1.fffffep-1f);
}
KK_INLINE double kk_fract_d(double x, double *ip) {
  double fl = __builtin_floor(x);
  *ip = fl;
  if (x != x) return x;
  if (__builtin_fabs(x) == KK_INF) return __builtin_copysign(0.0, x);
  return __builtin_fmin(x - fl, 0x1.fffffffffffffp-1);
}
KK_INLINE float kk_modf_f(float x, float *ip) {
  float t = __builtin_truncf(x);
  *ip = t;
  if (__builtin_fabsf(x) == __builtin_inff()) return __builtin_copysignf(0.0f, x);
  return __builtin_copysignf(x - t, x);
}
KK_INLINE double kk_modf_d(double x, double *ip) {
  double t = __builtin_trunc(x);
  *ip = t;
  if (__builtin_fabs(x) == KK_INF) return __builtin_copysign(0.0, x);
  return __builtin_copysign(x - t, x);
}
KK_INLINE float kk_frexp_f(float x, int *e) {
  if (x != x || __builtin_fabsf(x) == __builtin_inff()) { *e = 0; return x; }
  return __builtin_frexpf(x, e);
}
KK_INLINE double kk_frexp_d(double x, int *e) {
  if (x != x || __builtin_fabs(x) == KK_INF) { *e = 0; return x; }
  return __builtin_frexp(x, e);
}
KK_INLINE float kk_sincos_f(float x, float *c) { *c = kk_cos_f(x); return kk_sin_f(x); }
KK_INLINE double kk_sincos_d(double x, double *c) { *c = kk_cos_d(x); return kk_sin_d(x); }
KK_INLINE float kk_lgamma_r_f(float x, int *s) { *s = kk_gamma_sign_d((double)x); return kk_lgamma_f(x); }
KK_INLINE double kk_lgamma_r_d(double x, int *s) { *s = kk_gamma_sign_d(x); return kk_lgamma_d(x); }

#endif
