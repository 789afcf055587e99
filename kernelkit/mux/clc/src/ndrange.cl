/* ndrange_1D/2D/3D (OpenCL C 3.0 s6.15.16.3): fill an ndrange_t.  ndrange_t is kernelkit's base
 * header's (the layout of clang's opencl-c-base.h). */
#include "clc.h"

KK_INLINE ndrange_t kk_ndrange(uint dims, const size_t *off, const size_t *gws, const size_t *lws) {
  ndrange_t r;
  r.workDimension = dims;
  for (uint i = 0; i < MAX_WORK_DIM; i++) {
    r.globalWorkOffset[i] = (i < dims && off) ? off[i] : 0;
    r.globalWorkSize[i] = i < dims ? gws[i] : 1;
    r.localWorkSize[i] = (i < dims && lws) ? lws[i] : 0;
  }
  return r;
}

OVL ndrange_t ndrange_1D(size_t g) { return kk_ndrange(1, 0, &g, 0); }
OVL ndrange_t ndrange_1D(size_t g, size_t l) { return kk_ndrange(1, 0, &g, &l); }
OVL ndrange_t ndrange_1D(size_t o, size_t g, size_t l) { return kk_ndrange(1, &o, &g, &l); }

#define KK_NDRANGE_N(N, AS)                                                                        \
  OVL ndrange_t ndrange_##N##D(const AS size_t *g) {                                               \
    size_t gg[N]; for (int i = 0; i < N; i++) gg[i] = g[i];                                        \
    return kk_ndrange(N, 0, gg, 0); }                                                              \
  OVL ndrange_t ndrange_##N##D(const AS size_t *g, const AS size_t *l) {                           \
    size_t gg[N], ll[N]; for (int i = 0; i < N; i++) { gg[i] = g[i]; ll[i] = l[i]; }              \
    return kk_ndrange(N, 0, gg, ll); }                                                             \
  OVL ndrange_t ndrange_##N##D(const AS size_t *o, const AS size_t *g, const AS size_t *l) {       \
    size_t oo[N], gg[N], ll[N]; for (int i = 0; i < N; i++) { oo[i] = o[i]; gg[i] = g[i]; ll[i] = l[i]; } \
    return kk_ndrange(N, oo, gg, ll); }
KK_NDRANGE_N(2, __private)
KK_NDRANGE_N(3, __private)
KK_NDRANGE_N(2, __generic)
KK_NDRANGE_N(3, __generic)
