/* Host float pown and rootn written for SIMD lanes (OpenCL C 3.0 s7.4: 16 ulp each): |x|^n and
 * |x|^(1/n) as exp(n log |x|) and exp(log |x| / n) in double (clc_lanes_double_cores.h), rounded once,
 * with the sign of x for odd n; the special values of OpenCL C 3.0 s6.15.2 by selects, so no branch
 * and no library call.  tests/host/test_vector_math_more.py checks them.
 */
#ifndef KERNELKIT_CLC_LANES_POWERS_H
#define KERNELKIT_CLC_LANES_POWERS_H

#include "clc_lanes_double_cores.h"

/* |x|^e as exp(e log |x|) for x finite and non-zero; 0 or inf for x = +-0 or +-inf by the sign of e
 * (positive: x^e's magnitude; negative: its reciprocal's); the sign of x when odd */
KK_INLINE float kk_lf_pow_int_form(float x, double e, int odd) {
  float ax = __builtin_fabsf(x);
  int finite = ax > 0.0f && ax < __builtin_inff();
  double m = kk_ld_exp(e * kk_ld_log(finite ? (double)ax : 1.0));
  float edge = (ax == 0.0f) == (e > 0.0) ? 0.0f : __builtin_inff();
  float v = finite ? (float)m : edge;
  return odd ? __builtin_copysignf(v, x) : v;
}

/* pown(x, 0) is 1 for every x, NaN included */
KK_INLINE float kk_lf_pown(float x, int n) {
  float v = kk_lf_pow_int_form(x, (double)n, n & 1);
  v = x != x ? x : v;
  return n == 0 ? 1.0f : v;
}

/* rootn: NaN for n = 0 and for x < 0 with n even */
KK_INLINE float kk_lf_rootn(float x, int n) {
  float v = kk_lf_pow_int_form(x, 1.0 / (double)(n == 0 ? 1 : n), n & 1);
  return (x != x || n == 0 || (x < 0.0f && !(n & 1))) ? __builtin_nanf("") : v;
}

#endif
