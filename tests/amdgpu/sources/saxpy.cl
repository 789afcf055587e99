// Written for kernelkit's tests (not the reference's source): a kernel with the parameter list the
// reference saxpy objects (tests/reference/amdgpu/clang14 and clang19) record in their metadata:
// float, const global float *, global float *, int; no printf, no images.
kernel void saxpy(float alpha, global const float *in, global float *out, int count) {
  int i = get_global_id(0);
  if (i < count)
    out[i] = alpha * in[i] + out[i];
}
