// 16x16-tiled sgemm (n a multiple of 16): the tiled kernel of the host, AMD IL and vISA benchmarks
#define TS 16
kernel void sgemm_tiled(int n, global const float *A, global const float *B, global float *C) {
  local float As[TS][TS];
  local float Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TS; ++t) {
    As[ty][tx] = A[row * n + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
