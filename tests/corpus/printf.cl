// printf with format strings of several kinds.
kernel void hello(int tag) {
  if (get_global_id(0) == 0)
    printf("hello from kernel %d\n", tag);
}

kernel void print_values(global const float *v, uint n) {
  size_t gid = get_global_id(0);
  if (gid < n)
    printf("v[%u] = %.3f (%s)\n", (uint)gid, v[gid], v[gid] < 0.0f ? "neg" : "pos");
}

kernel void print_vector(float4 v, long big) {
  if (get_global_id(0) == 0)
    printf("%v4hlf %ld %c%x\n", v, big, 'k', 0xbeefu);
}
