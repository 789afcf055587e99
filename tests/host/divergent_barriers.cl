// Barrier kernels whose work-items take different paths around the barriers (issue 10, point 1):
// every work-item of a group reaches every barrier, but bounds tests, tree steps and per-item
// loops send them different ways in between. OpenCL C 2.0: the last group may be smaller.
#ifndef TS
#define TS 8   // the tile (benchmarks/host_vs_peers.py builds it with -DTS=16)
#endif

kernel void sgemm_guarded(int M, int N, int K, global const float *A, global const float *B,
                          global float *C) {
  local float As[TS][TS];
  local float Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < (K + TS - 1) / TS; ++t) {
    int ka = t * TS + tx, kb = t * TS + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    if (kb < K && col < N)
      Bs[ty][tx] = B[kb * N + col];
    else
      Bs[ty][tx] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

kernel void reduce_guarded(int n, global const int *in, global int *partial, local int *tmp) {
  size_t lid = get_local_id(0), gid = get_global_id(0);
  tmp[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = tmp[0];
}

kernel void skip_but_reach(int n, global const int *in, global int *out) {
  local int tmp[64];
  int lid = get_local_id(0), gid = get_global_id(0);
  if (gid < n)
    tmp[lid] = 3 * in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n && (gid ^ 1) < n)
    out[gid] = tmp[lid ^ 1];
}

kernel void varying_work_then_barrier(global const int *in, global int *out) {
  local int tmp[64];
  int lid = get_local_id(0), gid = get_global_id(0), ls = get_local_size(0);
  int acc = 0;
  for (int i = 0; i < lid % 5; ++i)
    acc += in[gid] + i;
  tmp[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tmp[ls - 1 - lid];
}

kernel void group_sum_any_size(global const int *in, global int *partial, local int *tmp) {
  size_t lid = get_local_id(0), ls = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 1; s < ls; s <<= 1) {
    if (lid % (2 * s) == 0 && lid + s < ls)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = tmp[0];
}
