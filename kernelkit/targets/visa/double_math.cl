/* Double builtins for the vISA target on platforms with fp64 (SKL) whose library versions need an
 * instruction GenX_IR lacks: fmod (frem). Exact, as C99 F.9.7.1: the remainder loses ay 2^k, the
 * largest such multiple below it, until it is below ay (each subtraction is exact: t <= r < 2t).
 * Defined as kkv_<name>; kernelkit.targets.visa.irpipeline renames them. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OVL __attribute__((overloadable))

OVL double kkv_fmod(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  if (x != x || y != y || isinf(ax) || ay == 0.0) return (double)NAN;
  double r = ax;
  int ey;
  frexp(ay, &ey);
  while (r >= ay) {
    int er;
    frexp(r, &er);
    double t = ldexp(ay, er - ey);
    r -= t > r ? 0.5 * t : t;
  }
  return copysign(r, x);
}
OVL double2 kkv_fmod(double2 x, double2 y) { return (double2)(kkv_fmod(x.s0, y.s0), kkv_fmod(x.s1, y.s1)); }
OVL double3 kkv_fmod(double3 x, double3 y) {
  return (double3)(kkv_fmod(x.s0, y.s0), kkv_fmod(x.s1, y.s1), kkv_fmod(x.s2, y.s2)); }
OVL double4 kkv_fmod(double4 x, double4 y) { return (double4)(kkv_fmod(x.lo, y.lo), kkv_fmod(x.hi, y.hi)); }
OVL double8 kkv_fmod(double8 x, double8 y) { return (double8)(kkv_fmod(x.lo, y.lo), kkv_fmod(x.hi, y.hi)); }
OVL double16 kkv_fmod(double16 x, double16 y) { return (double16)(kkv_fmod(x.lo, y.lo), kkv_fmod(x.hi, y.hi)); }
