// atomic_fetch_add on atomic_float (OpenCL C 3.0, __opencl_c_ext_fp32_global_atomic_add): IGC 1.0.12504
// emits lsc_atomic_fadd.ugm for it on DG2 (ocloc -device dg2-g10 -options -cl-std=CL3.0).
kernel void fadd(global float *sum, global const float *v, global float *old) {
  size_t i = get_global_id(0);
  old[i] = atomic_fetch_add_explicit((volatile global atomic_float *)&sum[i & 3], v[i], memory_order_relaxed,
                                     memory_scope_device);
}
