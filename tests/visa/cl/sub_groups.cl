/* Sub-group builtins (OpenCL 2.1 / cl_khr_subgroups, cl_khr_subgroup_shuffle[_relative], Intel's
   intel_sub_group_shuffle*) for the vISA target's tests (tests/visa/test_visa_sub_groups.py). */

int __attribute__((overloadable)) intel_sub_group_shuffle(int x, uint c);
int __attribute__((overloadable)) intel_sub_group_shuffle_xor(int x, uint c);
int __attribute__((overloadable)) intel_sub_group_shuffle_down(int cur, int next, uint delta);
int __attribute__((overloadable)) intel_sub_group_shuffle_up(int prev, int cur, uint delta);

/* 11 results per work-item: reduce, inclusive and exclusive scan of add, min, max; broadcast of
   lane 1 and of lane ``lane`` (uniform, known at run time) */
#define COLLECTIVES(T)                                                              \
kernel void collectives_##T(global const T *x, global T *out, uint lane) {          \
  size_t i = get_global_id(0), n = get_global_size(0);                              \
  T v = x[i];                                                                       \
  out[i] = sub_group_reduce_add(v);                                                 \
  out[n + i] = sub_group_reduce_min(v);                                             \
  out[2 * n + i] = sub_group_reduce_max(v);                                         \
  out[3 * n + i] = sub_group_scan_inclusive_add(v);                                 \
  out[4 * n + i] = sub_group_scan_inclusive_min(v);                                 \
  out[5 * n + i] = sub_group_scan_inclusive_max(v);                                 \
  out[6 * n + i] = sub_group_scan_exclusive_add(v);                                 \
  out[7 * n + i] = sub_group_scan_exclusive_min(v);                                 \
  out[8 * n + i] = sub_group_scan_exclusive_max(v);                                 \
  out[9 * n + i] = sub_group_broadcast(v, 1);                                       \
  out[10 * n + i] = sub_group_broadcast(v, lane);                                   \
}
COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)

kernel void ids(global uint *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = get_sub_group_size();
  out[n + i] = get_max_sub_group_size();
  out[2 * n + i] = get_num_sub_groups();
  out[3 * n + i] = get_sub_group_id();
  out[4 * n + i] = get_sub_group_local_id();
  out[5 * n + i] = get_enqueued_num_sub_groups();
}

/* only the lanes with an odd x take part: the masked lanes are excluded */
kernel void divergent(global const int *x, global int *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int v = x[i];
  out[i] = sub_group_any(v > 90);
  out[n + i] = sub_group_all(v > -90);
  if (v & 1) {
    out[2 * n + i] = sub_group_reduce_add(v);
    out[3 * n + i] = sub_group_scan_inclusive_max(v);
    out[4 * n + i] = sub_group_scan_exclusive_add(v);
    out[5 * n + i] = sub_group_any(v > 90);
    out[6 * n + i] = sub_group_all(v > -90);
  }
}

kernel void shuffles(global const int *x, global const uint *c, global int *out, uint delta) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int v = x[i];
  uint s = c[i];
  out[i] = sub_group_shuffle(v, s);
  out[n + i] = sub_group_shuffle_xor(v, s);
  out[2 * n + i] = sub_group_shuffle_up(v, delta);
  out[3 * n + i] = sub_group_shuffle_down(v, delta);
  out[4 * n + i] = intel_sub_group_shuffle(v, s);
  out[5 * n + i] = intel_sub_group_shuffle_xor(v, 3u);
  out[6 * n + i] = intel_sub_group_shuffle_down(v, -v, delta);
  out[7 * n + i] = intel_sub_group_shuffle_up(-v, v, delta);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}
