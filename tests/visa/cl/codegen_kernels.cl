// Kernels for the vISA code generator tests: uniform and divergent branches, a divergent loop,
// __local memory with barriers, a tiled sgemm, divisions by powers of two, and saxpy.
kernel void branches(global const int *in, global int *out, int limit) {
  size_t gid = get_global_id(0);
  int v = in[gid];
  int r;
  if (v > limit) r = v * 3; else r = v - 7;
  if (limit > 10) r += 1000;
  int acc = 0;
  for (int i = 0; i < (v & 15); ++i) acc += i * r;
  out[gid] = acc + r;
}
kernel void local_sum(global const float *in, global float *out, local float *tmp) {
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
kernel void sgemm_tiled(int n, global const float *A, global const float *B, global float *C) {
  local float As[16][16];
  local float Bs[16][16];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

kernel void divs(global const int *a, global int *q, global int *r, global uint *uq, global uint *ur) {
  size_t i = get_global_id(0);
  int v = a[i];
  q[i] = v / 8; r[i] = v % 8; uq[i] = (uint)v / 16u; ur[i] = (uint)v % 16u;
}
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
typedef struct { float x; int n; float w[3]; } P;
kernel void fields(global const P *ps, global float *out) {
  size_t i = get_global_id(0);
  out[i] = ps[i].w[1] * ps[i].x + ps[i].n;
}
