// Math, common, geometric and integer builtins.
kernel void math_float(global const float *x, global float *y) {
  size_t gid = get_global_id(0);
  float v = x[gid];
  y[gid] = sin(v) + cos(v) * exp(-fabs(v)) + sqrt(fabs(v)) + log(1.0f + v * v)
         + pow(fabs(v), 1.5f) + fmin(v, 0.5f) + fmax(v, -0.5f) + floor(v) + ceil(v)
         + mad(v, 2.0f, 1.0f) + fma(v, v, -1.0f) + native_sin(v) + half_cos(v) + rsqrt(1.0f + v * v)
         + atan2(v, 2.0f) + tanh(v) + hypot(v, 3.0f) + trunc(v) + round(v);
}

kernel void math_vector(global const float4 *a, global const float4 *b, global float *dots, global float4 *n) {
  size_t gid = get_global_id(0);
  float4 p = a[gid], q = b[gid];
  dots[gid] = dot(p, q) + length(p) + distance(p, q);
  n[gid] = normalize(p + (float4)(1.0f, 0.0f, 0.0f, 0.0f)) + cross(p, q) + clamp(q, -1.0f, 1.0f)
         + mix(p, q, 0.25f) + step(0.0f, p) + smoothstep(-1.0f, 1.0f, q);
}

kernel void math_double(global double *d) {
  size_t gid = get_global_id(0);
  double v = d[gid];
  d[gid] = sqrt(fabs(v)) + exp(v / 100.0) + cbrt(v) + fmod(v, 3.0) + M_PI;
}

kernel void math_integer(global int *a, global uint *b) {
  size_t gid = get_global_id(0);
  int x = a[gid];
  uint y = b[gid];
  a[gid] = abs(x) + min(x, 10) + max(x, -10) + mul24(x, 3) + mad24(x, 2, 1) + hadd(x, 7) + clamp(x, -5, 5);
  b[gid] = abs_diff(x, 3) + add_sat(y, 0xfffffff0u) + sub_sat(y, 5u) + mul_hi(y, 0x9e3779b9u) + upsample((ushort)y, (ushort)3);
}
