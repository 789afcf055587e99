// OpenCL 2.0 work-group functions (PoCL 3.1 cannot build these).
kernel void wg_reduce(global const int *in, global int *sums, global float *maxes) {
  size_t gid = get_global_id(0);
  int s = work_group_reduce_add(in[gid]);
  float m = work_group_reduce_max((float)in[gid]);
  if (get_local_id(0) == 0) {
    sums[get_group_id(0)] = s;
    maxes[get_group_id(0)] = m;
  }
}

kernel void wg_scan(global const uint *in, global uint *incl, global uint *excl) {
  size_t gid = get_global_id(0);
  incl[gid] = work_group_scan_inclusive_add(in[gid]);
  excl[gid] = work_group_scan_exclusive_add(in[gid]);
}

kernel void wg_vote_broadcast(global const int *in, global int *out) {
  size_t gid = get_global_id(0);
  int v = in[gid];
  int first = work_group_broadcast(v, 0);
  int any = work_group_any(v < 0);
  int all = work_group_all(v >= 0);
  out[gid] = first + any * 10 + all * 100;
}
