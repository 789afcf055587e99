// __local atomics in vectorised kernels (tests/host/test_vector_local_atomics.py): each lane's
// read-modify-write on its own, in lane order, also under divergence and in divergent loops.

kernel void local_histogram(global const uint *data, global uint *bins, int n) {
  local uint hist[16];
  int lid = get_local_id(0);
  if (lid < 16)
    hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&hist[data[i] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    atomic_add(&bins[lid], hist[lid]);
}

kernel void local_extremes(global const int *x, global int *out, global int *ticket) {
  local int lo, hi, count;
  int lid = get_local_id(0);
  if (lid == 0) {
    lo = INT_MAX;
    hi = INT_MIN;
    count = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = x[get_global_id(0)];
  atomic_min(&lo, v);
  atomic_max(&hi, v);
  int t = -1;
  if (v % 3 == 0)
    t = atomic_inc(&count);
  ticket[get_global_id(0)] = t;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    out[3 * get_group_id(0)] = lo;
    out[3 * get_group_id(0) + 1] = hi;
    out[3 * get_group_id(0) + 2] = count;
  }
}
