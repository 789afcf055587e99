// OpenCL 2.0 C11-style atomics with memory orders and scopes.
kernel void c11_counter(global atomic_int *counter, global int *tickets) {
  int t = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
  tickets[get_global_id(0)] = t;
}

kernel void c11_flags(global atomic_uint *word, global atomic_int *maxv, global const int *values) {
  int v = values[get_global_id(0)];
  atomic_fetch_or_explicit(word, 1u << (v & 31), memory_order_acq_rel, memory_scope_work_group);
  atomic_fetch_max(maxv, v);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
}

kernel void c11_exchange(global atomic_int *slots, global int *old) {
  size_t gid = get_global_id(0);
  int expected = 0;
  bool won = atomic_compare_exchange_strong(&slots[gid], &expected, (int)gid + 1);
  old[gid] = won ? -1 : expected;
  atomic_store_explicit(&slots[gid], atomic_load(&slots[gid]) * 2, memory_order_seq_cst);
}
