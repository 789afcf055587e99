// __global, __constant and __local pointers, including __local pointer arguments.
kernel void copy_through_local(global const float *src, global float *dst, local float *scratch) {
  size_t lid = get_local_id(0);
  size_t gid = get_global_id(0);
  scratch[lid] = src[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t n = get_local_size(0);
  dst[gid] = scratch[n - 1 - lid];
}

kernel void lookup_constant(constant int *table, global const int *idx, global int *out, uint n) {
  size_t gid = get_global_id(0);
  out[gid] = table[idx[gid] % n];
}

kernel void two_local_buffers(global int *data, local int *a, local int4 *b) {
  size_t lid = get_local_id(0);
  a[lid] = data[get_global_id(0)];
  b[lid] = (int4)(a[lid]);
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = b[lid].x + b[lid].w + a[0];
}
