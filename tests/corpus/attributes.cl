// Kernel attributes: reqd_work_group_size, work_group_size_hint, vec_type_hint,
// intel_reqd_sub_group_size.
kernel void __attribute__((reqd_work_group_size(64, 1, 1))) fixed_group(global int *out) {
  out[get_global_id(0)] = get_local_id(0);
}

kernel void __attribute__((work_group_size_hint(32, 4, 2))) hinted(global int *out) {
  out[get_global_id(0)] = get_group_id(0);
}

kernel void __attribute__((vec_type_hint(float4))) vec_hinted(global float4 *v) {
  v[get_global_id(0)] *= 2.0f;
}

kernel void __attribute__((vec_type_hint(uint)))
uint_hinted(global uint *v) {
  v[get_global_id(0)] += 1u;
}

kernel void __attribute__((reqd_work_group_size(8, 8, 1))) __attribute__((work_group_size_hint(8, 8, 1)))
__attribute__((vec_type_hint(char16))) all_attributes(global char16 *v) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  v[i] = v[i] + (char16)(1);
}

kernel void __attribute__((intel_reqd_sub_group_size(16))) sub_group_sized(global int *out) {
  out[get_global_id(0)] = 16;
}
