// OpenCL 3.0 (and 2.0) generic address space and program-scope global variables.
global int call_count = 0;
global float bias[4] = {0.5f, 1.0f, 1.5f, 2.0f};

static float load_any(const float *p, int i) {  // generic pointer parameter
  return p[i];
}

kernel void generic_pointers(global float *g, local float *l, int use_local) {
  size_t lid = get_local_id(0);
  l[lid] = g[get_global_id(0)] * 2.0f;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  float *p = use_local ? (float *)l : (float *)g;
  g[get_global_id(0)] = load_any(p, lid) + bias[lid % 4];
}

kernel void count_calls(global int *out) {
  if (get_global_id(0) == 0)
    out[0] = ++call_count;
}
