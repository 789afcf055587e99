/* Address space qualifier functions (OpenCL C 3.0 s6.15.10.x, OpenCL C 2.0+): to_global,
 * to_local, to_private (clang calls __to_global/__to_local/__to_private) and get_fence.
 *
 * Which named space a generic pointer points into is target knowledge: AMDGPU answers it in
 * hardware; other targets override the weak hook __kk_generic_address_space (returns 1 for
 * global, 3 for local, 0 for private, as SPIR numbers them).  The default answers "global",
 * right for every pointer on a target whose local and private memory are ordinary memory
 * unless it tells the spaces apart.
 */
#include "clc.h"

#define KK_SPACE_PRIVATE 0u
#define KK_SPACE_GLOBAL 1u
#define KK_SPACE_LOCAL 3u

#if defined(KK_TARGET_AMDGPU)
KK_INLINE uint kk_space_of(const __generic void *p) {
  if (__builtin_amdgcn_is_shared(p)) return KK_SPACE_LOCAL;
  if (__builtin_amdgcn_is_private(p)) return KK_SPACE_PRIVATE;
  return KK_SPACE_GLOBAL;
}
#else
__attribute__((weak)) uint __kk_generic_address_space(const __generic void *p) { return KK_SPACE_GLOBAL; }
KK_INLINE uint kk_space_of(const __generic void *p) { return __kk_generic_address_space(p); }
#endif

__global void *__to_global(__generic void *p) {
  return kk_space_of(p) == KK_SPACE_GLOBAL ? (__global void *)p : (__global void *)0;
}
__local void *__to_local(__generic void *p) {
  return kk_space_of(p) == KK_SPACE_LOCAL ? (__local void *)p : (__local void *)0;
}
__private void *__to_private(__generic void *p) {
  return kk_space_of(p) == KK_SPACE_PRIVATE ? (__private void *)p : (__private void *)0;
}

OVL cl_mem_fence_flags get_fence(__generic void *p) {
  return kk_space_of(p) == KK_SPACE_LOCAL ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
OVL cl_mem_fence_flags get_fence(const __generic void *p) {
  return kk_space_of(p) == KK_SPACE_LOCAL ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
