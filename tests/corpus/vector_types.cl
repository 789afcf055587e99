// Every OpenCL C vector type (n = 2, 3, 4, 8, 16) as a kernel argument and as a value.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define VEC_KERNEL(T)                                                                  \
  kernel void vec_##T(T##2 a, T##3 b, T##4 c, T##8 d, T##16 e, global T##16 *out) {  \
    size_t gid = get_global_id(0);                                                     \
    T##16 r = e;                                                                       \
    r.s01 += a;                                                                        \
    r.s234 += b;                                                                       \
    r.s4567 += c;                                                                      \
    r.s89abcdef += d;                                                                  \
    out[gid] = r;                                                                      \
  }

VEC_KERNEL(char)
VEC_KERNEL(uchar)
VEC_KERNEL(short)
VEC_KERNEL(ushort)
VEC_KERNEL(int)
VEC_KERNEL(uint)
VEC_KERNEL(long)
VEC_KERNEL(ulong)
VEC_KERNEL(float)
VEC_KERNEL(double)
VEC_KERNEL(half)
