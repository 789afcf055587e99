// OpenCL 1.x atomic functions on global and local memory.
kernel void histogram(global const uchar *data, global uint *bins, local uint *local_bins) {
  size_t lid = get_local_id(0);
  if (lid < 16)
    local_bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[data[get_global_id(0)] & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    atomic_add(&bins[lid], local_bins[lid]);
}

kernel void atomic_mix(global int *counters, global const int *values, global int *slots) {
  size_t gid = get_global_id(0);
  int v = values[gid];
  atomic_add(&counters[0], v);
  atomic_sub(&counters[1], 1);
  atomic_max(&counters[2], v);
  atomic_min(&counters[3], v);
  atomic_or(&counters[4], 1 << (v & 31));
  atomic_and(&counters[5], ~(1 << (v & 7)));
  atomic_xor(&counters[6], v);
  atom_add(&counters[7], 2);
  int old = atomic_cmpxchg(&slots[gid], 0, v);
  atomic_xchg(&slots[gid], old + atomic_xchg(&slots[gid], 0));
}
