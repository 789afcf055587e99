// Barriers and __local memory: work-group reductions and a local transpose.
kernel void reduce_sum(global const float *in, global float *partial, local float *tmp) {
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = tmp[0];
}

kernel void __attribute__((reqd_work_group_size(16, 16, 1)))
transpose_tile(global const float *in, global float *out, int width, int height) {
  local float tile[16][17];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_group_id(0) * 16 + lx;
  int y = get_group_id(1) * 16 + ly;
  if (x < width && y < height)
    tile[ly][lx] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * 16 + lx;
  y = get_group_id(0) * 16 + ly;
  if (x < height && y < width)
    out[y * height + x] = tile[lx][ly];
}

kernel void __attribute__((reqd_work_group_size(64, 1, 1)))
reduce_max_static(global const int *in, global int *out) {
  local int scratch[64];
  local int winner;
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int m = scratch[0];
    for (int i = 1; i < 64; ++i)
      m = max(m, scratch[i]);
    winner = m;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = winner;
}
