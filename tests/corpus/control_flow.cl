// Loops, switch and helper functions.
static int collatz_steps(uint n) {
  int steps = 0;
  while (n != 1 && steps < 1000) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    steps++;
  }
  return steps;
}

float poly(float x, constant float *coef, int degree) {
  float r = 0.0f;
  for (int i = degree; i >= 0; --i)
    r = r * x + coef[i];
  return r;
}

kernel void collatz(global const uint *start, global int *steps) {
  size_t gid = get_global_id(0);
  steps[gid] = collatz_steps(start[gid] + 1);
}

kernel void classify(global const int *in, global int *out) {
  size_t gid = get_global_id(0);
  int v = in[gid];
  int r;
  switch (v & 7) {
  case 0: r = 100; break;
  case 1:
  case 2: r = v * 2; break;
  case 3: r = -v; break;
  case 5: r = v << 1;  // fall through
  case 6: r = v + 1; break;
  default: r = 0;
  }
  out[gid] = r;
}

kernel void horner(global const float *x, constant float *coef, int degree, global float *y) {
  size_t gid = get_global_id(0);
  y[gid] = poly(x[gid], coef, degree);
}

kernel void nested_loops(global const float *m, global float *out, int rows, int cols) {
  size_t gid = get_global_id(0);
  float acc = 0.0f;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c == (int)gid)
        continue;
      acc += m[r * cols + c];
    }
    if (acc > 1.0e6f)
      break;
  }
  int k = 0;
  do {
    acc *= 0.5f;
    k++;
  } while (k < 3);
  out[gid] = acc;
}
