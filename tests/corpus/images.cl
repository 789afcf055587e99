// Image and sampler arguments.
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void image_copy(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, nearest, p));
}

kernel void image_sample(read_only image2d_t src, sampler_t smp, global float4 *out, int width) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  float2 uv = (float2)((x + 0.5f) / width, 0.5f);
  out[y * width + x] = read_imagef(src, smp, uv);
}

kernel void image_3d_query(read_only image3d_t vol, global int4 *dims) {
  dims[0] = (int4)(get_image_width(vol), get_image_height(vol), get_image_depth(vol),
                   get_image_channel_order(vol));
}

kernel void image_buffer_and_array(read_only image1d_buffer_t buf, write_only image2d_array_t arr,
                                   read_only image1d_t line) {
  int i = get_global_id(0);
  uint4 v = read_imageui(buf, i);
  float4 w = read_imagef(line, i);
  write_imageui(arr, (int4)(i, 0, 1, 0), v + convert_uint4(w));
}
