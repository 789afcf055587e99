// OpenCL C kernels compiled by IGC (ocloc) in test_finalizer_igc.py: fresh IGC vISA dumps with
// local memory and barriers, global and local atomics, math built-ins, half, switch, 64-bit products,
// bit functions, sub-groups and loops.
__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {
  size_t l = get_local_id(0), g = get_global_id(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

__kernel void atom(__global int *c, __global const int *v) {
  int x = v[get_global_id(0)];
  if (x > 3) atomic_add(c, x); else atomic_max(c + 1, x);
  atomic_inc(c + 2);
}

__kernel void mathk(__global float *a, __global float *d, __global half *h, int n) {
  size_t i = get_global_id(0);
  float x = a[i];
  a[i] = sin(x) * exp(x) + sqrt(fabs(x)) / (1.0f + x * x) + pow(x, 2.5f) + floor(x) + rint(x);
  d[i] = d[i] * 3.0f + (float)n;
  h[i] = h[i] * (half)2.0f;
}

__kernel void sw(__global int *a) {
  int i = get_global_id(0);
  switch (a[i] & 7) {
    case 0: a[i] = 5; break;
    case 1: a[i] *= 3; break;
    case 2: a[i] -= 9; break;
    case 5: a[i] = a[i] << 2; break;
    default: a[i] = ~a[i];
  }
  long q = (long)a[i] * 1234567891L;
  a[i] = (int)(q >> 17);
  a[i] = rotate(a[i], 3) + popcount(a[i]) + clz(a[i]) + mul_hi(a[i], 77) + hadd(a[i], 5) + abs_diff(a[i], 3);
}

__kernel void latom(__global int *o, __local int *l) {
  if (get_local_id(0) == 0) *l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(l, 1); atomic_min(l, (int)get_local_id(0)); atomic_cmpxchg(l, 3, 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_group_id(0)] = *l;
}

__kernel void sg(__global int *o) {
  int x = get_sub_group_local_id();
  o[get_global_id(0)] = sub_group_reduce_add(x) + sub_group_broadcast(x, 0) + intel_sub_group_shuffle(x, 3);
}

__kernel void loops(__global int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) { if (a[i] < 0) continue; s += a[i]; if (s > 1000) break; }
  while (s > 10) s /= 3;
  a[get_global_id(0)] = s;
}
