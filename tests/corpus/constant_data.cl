// Program-scope __constant data: tables, structs and strings.
constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};

typedef struct { float gain; int offset; } Calib;
constant Calib calib = {1.5f, -3};
constant uchar lut[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};

kernel void blur5(global const float *in, global float *out, int n) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = -2; k <= 2; ++k) {
    int j = clamp(i + k, 0, n - 1);
    acc += weights[k + 2] * in[j];
  }
  out[i] = acc;
}

kernel void calibrate(global const int *raw, global float *out) {
  size_t gid = get_global_id(0);
  out[gid] = (raw[gid] + calib.offset) * calib.gain + primes[gid % 8] + lut[gid % 16];
}
