// OpenCL 2.0 pipes and device-side enqueue arguments (not runnable on the host device).
kernel void pipe_producer(global const int *src, write_only pipe int out_pipe) {
  int v = src[get_global_id(0)];
  write_pipe(out_pipe, &v);
}

kernel void pipe_consumer(read_only pipe float4 in_pipe, global float4 *dst) {
  float4 v;
  if (read_pipe(in_pipe, &v) == 0)
    dst[get_global_id(0)] = v;
}

kernel void enqueue_child(queue_t q, global int *out) {
  ndrange_t range = ndrange_1D(4);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, range, ^{ out[get_global_id(0)] = 7; });
}
