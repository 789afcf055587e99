/* Scalar helpers shared by the library families: IEEE-754 bit-level operations that must
 * not depend on the C library (AMDGPU has none) or on the current rounding mode. */
#ifndef KERNELKIT_CLC_SCALAR_H
#define KERNELKIT_CLC_SCALAR_H

/* The neighbour of a finite or infinite float/double towards +inf / -inf. */
KK_INLINE float kk_next_up_f(float x) {
  int b = as_int(x);
  if (x != x || b == 0x7f800000) return x;
  if (b == (int)0x80000000 || b == 0) return as_float(1);
  return as_float(b >= 0 ? b + 1 : b - 1);
}
KK_INLINE float kk_next_down_f(float x) { return -kk_next_up_f(-x); }
KK_INLINE double kk_next_up_d(double x) {
  long b = as_long(x);
  if (x != x || b == 0x7ff0000000000000L) return x;
  if (b == (long)0x8000000000000000UL || b == 0) return as_double(1L);
  return as_double(b >= 0 ? b + 1 : b - 1);
}
KK_INLINE double kk_next_down_d(double x) { return -kk_next_up_d(-x); }

/* Correct a round-to-nearest result r of the exact value v to a directed rounding mode,
 * given cmp = sign(r - v) computed exactly by the caller. */
KK_INLINE float kk_fix_round_f(float r, int cmp, int neg, int mode) {
  if (cmp == 0) return r;
  if (mode == KK_RTP) return cmp < 0 ? kk_next_up_f(r) : r;
  if (mode == KK_RTN) return cmp > 0 ? kk_next_down_f(r) : r;
  if (mode == KK_RTZ) {
    if (!neg && cmp > 0) return kk_next_down_f(r);
    if (neg && cmp < 0) return kk_next_up_f(r);
  }
  return r;
}
KK_INLINE double kk_fix_round_d(double r, int cmp, int neg, int mode) {
  if (cmp == 0) return r;
  if (mode == KK_RTP) return cmp < 0 ? kk_next_up_d(r) : r;
  if (mode == KK_RTN) return cmp > 0 ? kk_next_down_d(r) : r;
  if (mode == KK_RTZ) {
    if (!neg && cmp > 0) return kk_next_down_d(r);
    if (neg && cmp < 0) return kk_next_up_d(r);
  }
  return r;
}

/* half <-> float/double in software: exact widening, and narrowing with an explicit
 * rounding mode (OpenCL C 3.0 s6.4.3.2, s6.15.7 vstore_half_rte/rtz/rtp/rtn). */
KK_INLINE float kk_half_bits_to_float(ushort h) {
  uint sign = ((uint)h & 0x8000u) << 16;
  uint e = ((uint)h >> 10) & 0x1fu;
  uint m = (uint)h & 0x3ffu;
  if (e == 0) {
    float v = (float)m * 0x1p-24f;
    return as_float(as_uint(v) | sign);
  }
  if (e == 31) return as_float(sign | 0x7f800000u | (m << 13));
  return as_float(sign | ((e + 112u) << 23) | (m << 13));
}

/* Not inlined: vectors of 16 conversions would otherwise be huge. */
static __attribute__((noinline)) ushort kk_double_to_half_bits(double x, int mode) {
  ulong b = as_ulong(x);
  ushort sign = (ushort)((b >> 48) & 0x8000u);
  int neg = sign != 0;
  if (x != x) return (ushort)(sign | 0x7e00u | (ushort)((b >> 42) & 0x1ffu));
  double a = __builtin_fabs(x);
  if (a == __builtin_inf()) return (ushort)(sign | 0x7c00u);
  /* magnitude rounding: 0 nearest-even, 1 towards zero, 2 away from zero */
  int mag = mode == KK_RTE ? 0 : mode == KK_RTZ ? 1 : mode == KK_RTP ? (neg ? 1 : 2) : (neg ? 2 : 1);
  int e = (int)((b >> 52) & 0x7ff) - 1023;
  if (e > 15) return (ushort)(sign | (mag == 1 ? 0x7bffu : 0x7c00u));
  if (e < -14) e = -14;
  double scaled = a * as_double((ulong)(10 - e + 1023) << 52); /* a / 2^(e-10), exact */
  double m = mag == 0 ? __builtin_rint(scaled) : mag == 1 ? __builtin_trunc(scaled) : __builtin_ceil(scaled);
  uint bits = (uint)m; /* 0..2048 */
  if (e == -14 && bits < 1024u) return (ushort)(sign | bits);
  bits = ((uint)(e + 15) << 10) + (bits - 1024u);
  if (bits >= 0x7c00u) bits = mag == 1 ? 0x7bffu : 0x7c00u;
  return (ushort)(sign | bits);
}

KK_INLINE ushort kk_float_to_half_bits(float x, int mode) {
  return kk_double_to_half_bits((double)x, mode);
}
KK_INLINE half kk_bits_to_half(ushort b) { return as_half(b); }
KK_INLINE ushort kk_half_to_bits(half h) { return as_ushort(h); }
KK_INLINE float kk_half_to_float(half h) { return kk_half_bits_to_float(as_ushort(h)); }
KK_INLINE double kk_half_to_double(half h) { return (double)kk_half_bits_to_float(as_ushort(h)); }
KK_INLINE half kk_float_to_half(float x, int mode) { return as_half(kk_float_to_half_bits(x, mode)); }
KK_INLINE half kk_double_to_half(double x, int mode) { return as_half(kk_double_to_half_bits(x, mode)); }

#endif
