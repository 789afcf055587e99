"""OpenCL C sources whose printf calls clang numbers in an order that is neither the source's nor
its reverse (shared by the amdhsa and CL2 printf tests)."""

# a helper defined after the kernel that calls it, a static helper (clang emits it late), a printf
# in a loop, a vector format and a kernel that prints nothing
LATE = """
void later(int x);
static void quiet(float f) { printf("quiet %f %d\\n", f, 7); }
kernel void first(global int *a) {
  printf("kernel first %d\\n", a[0]);
  later(a[1]);
  for (int i = 0; i < a[2]; i++) printf("loop %d %s\\n", i, "str");
  quiet(1.5f);
}
void later(int x) { printf("later %d %lu\\n", x, (ulong)x); quiet((float)x); }
kernel void second(global int *a) { later(a[0]); printf("vec %v4d\\n", (int4)(1, 2, 3, 4)); }
kernel void none(global int *a) { a[0] = 1; }
"""
