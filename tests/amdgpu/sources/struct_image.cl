// Written for kernelkit's tests (not the reference's source): two kernels with the parameter lists the
// reference struct_image objects (tests/reference/amdgpu/clang14, clang19) record in their metadata.
// params_t is recorded only as a by-value argument of 48 bytes aligned to 16; its members are ours.
// See README.md.
typedef struct {
  float4 scale;
  float4 bias;
  int count;
} params_t;

// struct_arg(params_t, global float4 *, constant const float *)
kernel void struct_arg(params_t p, global float4 *out, constant float *weights) {
  int i = get_global_id(0);
  if (i < p.count)
    out[i] = out[i] * p.scale * weights[i] + p.bias;
}

// image_arg(read_only image2d_t, sampler_t, write_only image2d_t, global int *, params_t)
kernel void image_arg(read_only image2d_t src, sampler_t smp, write_only image2d_t dst,
                      global int *written, params_t p) {
  int2 xy = (int2)(get_global_id(0), get_global_id(1));
  float4 texel = read_imagef(src, smp, xy);
  write_imagef(dst, xy, texel * p.scale + p.bias);
  if (xy.x == 0 && xy.y == 0)
    written[0] = p.count;
}
