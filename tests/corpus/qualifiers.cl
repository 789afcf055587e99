// const, restrict and volatile on pointer arguments.
kernel void saxpy_restrict(global const float *restrict x, global float *restrict y, float a) {
  size_t gid = get_global_id(0);
  y[gid] = a * x[gid] + y[gid];
}

kernel void volatile_flag(volatile global int *flag, global const volatile int *other, global int *out) {
  size_t gid = get_global_id(0);
  out[gid] = *flag + *other + (int)gid;
}

kernel void const_value_args(const int n, const float4 v, constant float *restrict k, global float4 *out) {
  size_t gid = get_global_id(0);
  out[gid] = v * k[gid % n];
}
