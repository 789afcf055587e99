// Every OpenCL C scalar type as a kernel argument and as a value.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void scalar_args(char c, uchar uc, short s, ushort us, int i, uint ui,
                        long l, ulong ul, float f, global float *out) {
  size_t gid = get_global_id(0);
  float acc = (float)c + (float)uc + (float)s + (float)us + (float)i + (float)ui
            + (float)l + (float)ul + f;
  out[gid] = acc * (float)gid;
}

kernel void half_double_args(half h, double d, global double *out) {
  size_t gid = get_global_id(0);
  double v = (double)(float)h + d;
  out[gid] = v + (double)gid;
}

kernel void integer_ops(global int *a, global uint *b, global long *c, global ulong *d) {
  size_t gid = get_global_id(0);
  int x = a[gid];
  uint y = b[gid];
  a[gid] = (x * 7 - 3) / 2 % 1000;
  b[gid] = (y << 3) ^ (y >> 2) | 0x10u;
  c[gid] = (long)x * (long)x - 5L;
  d[gid] = ((ulong)y * 0x100000001UL) & 0xffffffffffUL;
}

kernel void small_int_ops(global char *a, global uchar *b, global short *c, global ushort *d) {
  size_t gid = get_global_id(0);
  a[gid] = (char)(a[gid] + 3);
  b[gid] = (uchar)(b[gid] * 2);
  c[gid] = (short)(c[gid] - 100);
  d[gid] = (ushort)(d[gid] / 3);
}
