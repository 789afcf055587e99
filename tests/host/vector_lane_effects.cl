// Side effects under divergence for the whole-function vectoriser (tests/host/test_vector_lane_effects.py):
// atomics and printf run once per active lane, in lane order.

kernel void tickets_in_branch(global int *counter, global int *ticket, global int *sum,
                              global const int *x) {
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  int t = -1;
  if (lid % 3 == 0) {
    t = atomic_inc(counter);
    atomic_add(sum, x[gid]);
  }
  ticket[gid] = t;
}

kernel void claim_slots(global int *slots, global int *owner, int nslots) {
  int gid = get_global_id(0);
  int prev = -1;
  if (gid % 2 == 1)
    prev = atomic_cmpxchg(&slots[gid % nslots], 0, gid + 1);
  owner[gid] = prev;
}

kernel void print_some(global const int *x) {
  int gid = get_global_id(0);
  if (x[gid] % 3 == 0)
    printf("item %d has %d\n", gid, x[gid]);
}

kernel void print_until(global const int *x) {
  int gid = get_global_id(0);
  for (int k = x[gid] % 4; k > 0; --k)
    printf("%d:%d\n", gid, k);
}

kernel void volatile_reads(volatile global int *flag, global int *out, int n) {
  int gid = get_global_id(0);
  int v = 0;
  for (int k = 0; k < n; ++k)
    if ((gid + k) % 4 != 1)
      v += flag[(gid + k) % 8];
  out[gid] = v;
}
