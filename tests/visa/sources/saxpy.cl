// Written for kernelkit's tests (not the reference's source): the kernel IGC's DG2 vISA in
// tests/reference/visa/dg2-g10_saxpy/saxpy.visaasm implements, read from that vISA (see README.md):
// two 64-bit pointer arguments (payload bytes 256 and 264) to float buffers, the first loaded and
// stored (binding-table surface 0), the second only loaded (surface 1), then a float (byte 272);
// each work-item, at its global id, stores first = float * second + first (one mad, no bounds check).
kernel void saxpy(global float *y, global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
