// OpenCL 2.0 read_write images and depth images.
kernel void image_inplace(read_write image2d_t img) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(img, p);
  work_group_barrier(CLK_IMAGE_MEM_FENCE);
  write_imagef(img, p, v * 2.0f);
}

kernel void depth_read(read_only image2d_depth_t depth, sampler_t smp, global float *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * get_global_size(0) + p.x] = read_imagef(depth, smp, p);
}
