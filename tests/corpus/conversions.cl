// Swizzles, convert_* (with saturation and rounding modes) and as_* reinterpretation.
kernel void swizzles(global float4 *v, global float2 *pairs, global float8 *wide) {
  size_t gid = get_global_id(0);
  float4 a = v[gid];
  float4 b = a.wzyx;
  b.xy = a.zw;
  b.s3 = a.lo.y;
  pairs[gid] = a.even + a.odd + a.hi;
  wide[gid] = (float8)(b, a.xxyy);
  v[gid] = (float4)(a.x, b.yz, 1.0f);
}

kernel void conversions(global const float4 *f, global int4 *i, global uchar4 *u, global short2 *s) {
  size_t gid = get_global_id(0);
  float4 x = f[gid];
  i[gid] = convert_int4_rte(x) + convert_int4(x);
  u[gid] = convert_uchar4_sat(x);
  s[gid] = convert_short2_sat_rtz(x.xy * 1000.0f);
}

kernel void reinterpret(global const float *f, global uint *bits, global const uint2 *pairs, global float2 *back) {
  size_t gid = get_global_id(0);
  bits[gid] = as_uint(f[gid]) ^ 0x80000000u;
  back[gid] = as_float2(pairs[gid]);
}

kernel void int_vector_ops(global int8 *a, global uint16 *b) {
  size_t gid = get_global_id(0);
  int8 x = a[gid];
  a[gid] = select(x, -x, x < (int8)(0)) + (x >> 1);
  uint16 y = b[gid];
  b[gid] = rotate(y, (uint16)(3)) + popcount(y) + clz(y);
}
