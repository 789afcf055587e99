// Divergent loops for the whole-function vectoriser's loop masks (tests/host/test_vector_loop_masks.py):
// trip counts that depend on the work-item's data, several exits, nested loops, loops under divergent control.

// a data-dependent trip count (Collatz steps), the count a live-out value of the loop
kernel void steps_to_one(global const uint *start, global int *steps) {
  size_t gid = get_global_id(0);
  uint n = start[gid] + 1;
  int s = 0;
  while (n != 1 && s < 500) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    s++;
  }
  steps[gid] = s;
}

// two exits that leave to different places: a break with a value and an early return (a do-while:
// no guard jumps over the loop to the break's target)
kernel void first_match(global const int *a, global int *out, int n, int shift) {
  int gid = get_global_id(0);
  int found = -1;
  int i = 0;
  do {
    if (a[i] == gid + shift) {
      found = i;
      break;
    }
    if (a[i] < 0 && i > gid) {
      out[gid] = -2 - i;
      return;
    }
  } while (++i < n);
  out[gid] = found;
}

// nested loops, both trip counts per work-item
kernel void nested_trips(global const int *count, global float *out) {
  int gid = get_global_id(0);
  float acc = 0.0f;
  for (int i = 0; i < count[gid]; ++i)
    for (int j = 0; j <= i % 4 + (gid & 1); ++j)
      acc += (float)(i * j + 1);
  out[gid] = acc;
}

// a uniform loop under divergent control, and a divergent loop in the other branch
kernel void loop_in_branch(global const float *x, global float *y, int n) {
  int gid = get_global_id(0);
  int lid = get_local_id(0);
  float s = 0.0f;
  if (lid % 3 == 0) {
    for (int k = 0; k < n; ++k)
      s += x[k] * (float)(k + 1);
  } else {
    int k = 0;
    while (k < gid % 5 + 1) {
      s += x[(gid + k) % n];
      ++k;
    }
    s = -s;
  }
  y[gid] = s;
}

// a divergent loop (per-item trip count, guarded) inside a divergent branch
kernel void countdown_in_branch(global const int *x, global int *out) {
  int gid = get_global_id(0);
  int acc = 100;
  if (gid % 2 == 0) {
    for (int k = x[gid] % 7; k > 0; --k)
      acc = acc * 3 + (k ^ gid);
  }
  out[gid] = acc;
}

// a private array indexed per work-item inside a divergent loop (one private copy per lane)
kernel void private_digits(global const uint *x, global uint *out) {
  int gid = get_global_id(0);
  uint digits[10];
  uint v = x[gid];
  int n = 0;
  do {
    digits[n++] = v % 10;
    v /= 10;
  } while (v != 0 && n < 10);
  uint r = 0;
  for (int i = 0; i < n; ++i)
    r = r * 10 + digits[i];
  out[gid] = r;
}
