// SIMD-wide atomics whose old values are used (IGC 1.0.12504 on DG2 emits them as lsc_atomic_*;
// uniform ones with unused results it folds into one-lane svm_atomic/dword_atomic): 64-bit __global
// atomics and every 32-bit __local atomic, each on its own location, each old value stored.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void global64(global long *c, global const long *v, global long *old) {
  size_t i = get_global_id(0), n = get_global_size(0);
  long x = v[i];
  old[i] = atom_add(&c[i & 3], x);
  old[n + i] = atom_max(&c[4], x);
  old[2 * n + i] = atom_min((global ulong *)&c[5], (ulong)x);
  old[3 * n + i] = atom_xchg(&c[6], x);
  old[4 * n + i] = atom_cmpxchg(&c[7 + i], i & 1 ? 0 : 5, x);
}

kernel void local32(global const int *init, global const int *v, global int *old, global int *final,
                    local int *l) {
  size_t i = get_local_id(0), g = get_global_id(0), n = get_global_size(0);
  if (i < 13)
    l[i] = init[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = v[g];
  old[g] = atomic_add(&l[0], x);
  old[n + g] = atomic_sub(&l[1], x);
  old[2 * n + g] = atomic_inc(&l[2]);
  old[3 * n + g] = atomic_dec(&l[3]);
  old[4 * n + g] = atomic_min(&l[4], x);
  old[5 * n + g] = atomic_max(&l[5], x);
  old[6 * n + g] = atomic_min((local uint *)&l[6], (uint)x);
  old[7 * n + g] = atomic_max((local uint *)&l[7], (uint)x);
  old[8 * n + g] = atomic_and(&l[8], x);
  old[9 * n + g] = atomic_or(&l[9], x);
  old[10 * n + g] = atomic_xor(&l[10], x);
  old[11 * n + g] = atomic_xchg(&l[11], x);
  old[12 * n + g] = atomic_cmpxchg(&l[12], init[12], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < 13)
    final[get_group_id(0) * 13 + i] = l[i];
}
