// Written for kernelkit's tests (not the reference's source): a kernel with what the reference
// hello_printf objects (tests/reference/amdgpu/clang14, clang19) record in their metadata: one kernel
// hello_printf(const global int *, float) and two printf calls whose format strings and argument sizes
// are the metadata's printf entries ("1:1:4:..." a %s of a string of at most 3 characters, stored in
// 4 bytes; "2:3:4:4:4:..." two ints and a float). See README.md.
kernel void hello_printf(global const int *values, float scale) {
  int gid = get_global_id(0);
  if (gid == 0)
    printf("hello from %s\n", "cpu");
  printf("gid=%d x=%d f=%f\n", gid, values[gid], scale * values[gid]);
}
