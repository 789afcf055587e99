// kernelkit amdhsa: the spec 003 __mux_* builtins for AMDGPU, written with clang's amdgcn builtins.
// Compiled by clang for amdgcn-amd-amdhsa with -DKK_COV=<code object version>: code object V5+
// reads the dispatch geometry from the implicit (hidden) kernel arguments, V2-V4 from the HSA
// dispatch packet plus the hidden global offsets.

#define INLINE __attribute__((always_inline))
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long u64;

#ifdef KK_CL2
// AMD CL2 (spec 002): the six setup arguments lead the kernel arguments (global offsets at 0, 8
// and 16, printf buffer at 24, ...): the layout of code object V4's first hidden arguments
static INLINE __constant u8 *implicit_args(void) { return (__constant u8 *)__builtin_amdgcn_kernarg_segment_ptr(); }
#else
static INLINE __constant u8 *implicit_args(void) { return (__constant u8 *)__builtin_amdgcn_implicitarg_ptr(); }
#endif

#if KK_COV >= 5
// hidden_block_count_* at 0, hidden_group_size_* at 12, hidden_remainder_* at 18,
// hidden_global_offset_* at 40, hidden_grid_dims at 64 (tables.HIDDEN_ARGS_V5)
static INLINE u32 group_size(u32 d) { return ((__constant u16 *)(implicit_args() + 12))[d]; }
static INLINE u32 block_count(u32 d) { return ((__constant u32 *)implicit_args())[d]; }
static INLINE u32 remainder(u32 d) { return ((__constant u16 *)(implicit_args() + 18))[d]; }
static INLINE u32 grid_size(u32 d) { return block_count(d) * group_size(d) + remainder(d); }
static INLINE u32 group_count(u32 d) { return block_count(d) + (remainder(d) != 0); }
static INLINE u64 global_offset(u32 d) { return ((__constant u64 *)(implicit_args() + 40))[d]; }
static INLINE u32 work_dim(void) { return *(__constant u16 *)(implicit_args() + 64); }
#else
// hsa_kernel_dispatch_packet_t: setup at 2, workgroup_size_* at 4, grid_size_* at 12;
// hidden_global_offset_* are the first hidden arguments
static INLINE __constant u8 *dispatch(void) { return (__constant u8 *)__builtin_amdgcn_dispatch_ptr(); }
static INLINE u32 group_size(u32 d) { return ((__constant u16 *)(dispatch() + 4))[d]; }
static INLINE u32 grid_size(u32 d) { return ((__constant u32 *)(dispatch() + 12))[d]; }
static INLINE u32 group_count(u32 d) { u32 g = group_size(d); return (grid_size(d) + g - 1) / g; }
static INLINE u64 global_offset(u32 d) { return ((__constant u64 *)implicit_args())[d]; }
static INLINE u32 work_dim(void) { return *(__constant u16 *)(dispatch() + 2) & 3; }
#endif

static INLINE u32 group_id(u32 d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workgroup_id_x();
  case 1: return __builtin_amdgcn_workgroup_id_y();
  default: return __builtin_amdgcn_workgroup_id_z();
  }
}
static INLINE u32 local_id(u32 d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workitem_id_x();
  case 1: return __builtin_amdgcn_workitem_id_y();
  default: return __builtin_amdgcn_workitem_id_z();
  }
}
// the size of this work-group (the last one of a non-uniform NDRange is smaller)
static INLINE u32 local_size(u32 d) {
  u32 g = group_size(d);
  u32 left = grid_size(d) - group_id(d) * g;
  return left < g ? left : g;
}

INLINE u64 __mux_get_local_id(u32 d) { return d < 3 ? local_id(d) : 0; }
INLINE u64 __mux_get_group_id(u32 d) { return d < 3 ? group_id(d) : 0; }
INLINE u64 __mux_get_local_size(u32 d) { return d < 3 ? local_size(d) : 1; }
INLINE u64 __mux_get_enqueued_local_size(u32 d) { return d < 3 ? group_size(d) : 1; }
INLINE u64 __mux_get_global_size(u32 d) { return d < 3 ? grid_size(d) : 1; }
INLINE u64 __mux_get_num_groups(u32 d) { return d < 3 ? group_count(d) : 1; }
INLINE u64 __mux_get_global_offset(u32 d) { return d < 3 ? global_offset(d) : 0; }
INLINE u64 __mux_get_global_id(u32 d) {
  return d < 3 ? (u64)group_id(d) * group_size(d) + local_id(d) + global_offset(d) : 0;
}
INLINE u32 __mux_get_work_dim(void) { return work_dim(); }
INLINE u64 __mux_get_local_linear_id(void) {
  return ((u64)local_id(2) * local_size(1) + local_id(1)) * local_size(0) + local_id(0);
}
INLINE u64 __mux_get_global_linear_id(void) {
  u64 x = __mux_get_global_id(0) - global_offset(0), y = __mux_get_global_id(1) - global_offset(1);
  u64 z = __mux_get_global_id(2) - global_offset(2);
  return (z * grid_size(1) + y) * grid_size(0) + x;
}
INLINE bool __mux_isftz(void) { return false; }
INLINE bool __mux_usefast(void) { return false; }
INLINE bool __mux_isembeddedprofile(void) { return false; }

static INLINE u32 work_group_items(void) { return local_size(0) * local_size(1) * local_size(2); }
INLINE u32 __mux_get_max_sub_group_size(void) { return __builtin_amdgcn_wavefrontsize(); }
INLINE u32 __mux_get_sub_group_id(void) { return (u32)__mux_get_local_linear_id() / __builtin_amdgcn_wavefrontsize(); }
INLINE u32 __mux_get_sub_group_local_id(void) { return (u32)__mux_get_local_linear_id() % __builtin_amdgcn_wavefrontsize(); }
INLINE u32 __mux_get_num_sub_groups(void) {
  u32 w = __builtin_amdgcn_wavefrontsize();
  return (work_group_items() + w - 1) / w;
}
INLINE u32 __mux_get_sub_group_size(void) {
  u32 w = __builtin_amdgcn_wavefrontsize();
  u32 left = work_group_items() - __mux_get_sub_group_id() * w;
  return left < w ? left : w;
}

INLINE void __mux_work_group_barrier(u32 id, u32 scope, u32 semantics) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
INLINE void __mux_sub_group_barrier(u32 id, u32 scope, u32 semantics) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
// a fence at an OpenCL memory scope (spec 003 MemScope: cross-device 0, device 1, work-group 2,
// sub-group 3, work-item 4) -> AMDHSA LLVM sync scopes (spec 001: system "", agent, workgroup,
// wavefront, singlethread)
#define KK_FENCE_AT(ORDER, scope)                                                                   \
  switch (scope) {                                                                                  \
  case 0: __builtin_amdgcn_fence(ORDER, ""); break;                                                 \
  case 1: __builtin_amdgcn_fence(ORDER, "agent"); break;                                            \
  case 2: __builtin_amdgcn_fence(ORDER, "workgroup"); break;                                        \
  case 3: __builtin_amdgcn_fence(ORDER, "wavefront"); break;                                        \
  default: __builtin_amdgcn_fence(ORDER, "singlethread"); break;                                    \
  }
// spec 003 MemSemantics ordering bits: acquire 0x2, release 0x4, acq_rel 0x8, seq_cst 0x10
INLINE void __mux_mem_barrier(u32 scope, u32 semantics) {
  switch (semantics & 0x1f) {
  case 0x2: KK_FENCE_AT(__ATOMIC_ACQUIRE, scope) break;
  case 0x4: KK_FENCE_AT(__ATOMIC_RELEASE, scope) break;
  case 0x8: KK_FENCE_AT(__ATOMIC_ACQ_REL, scope) break;
  case 0x0: break;                                     /* relaxed: no ordering to enforce */
  default: KK_FENCE_AT(__ATOMIC_SEQ_CST, scope) break;
  }
}

// DMA (async_work_group_copy): every work-item of the group copies a strided share of the bytes;
// each shape is defined for both directions (read: global -> local, write: local -> global)
#define KK_DMA_1D(NAME, DST, SRC)                                                               \
  INLINE u32 NAME(DST u8 *dst, SRC const u8 *src, u64 width, u32 event) {                        \
    for (u64 i = __mux_get_local_linear_id(); i < width; i += work_group_items())                \
      dst[i] = src[i];                                                                           \
    return event;                                                                                \
  }
#define KK_DMA_2D(NAME, DST, SRC)                                                               \
  INLINE u32 NAME(DST u8 *dst, SRC const u8 *src, u64 width, u64 dst_stride, u64 src_stride,     \
                  u64 height, u32 event) {                                                       \
    for (u64 i = __mux_get_local_linear_id(); i < width * height; i += work_group_items())       \
      dst[(i / width) * dst_stride + i % width] = src[(i / width) * src_stride + i % width];     \
    return event;                                                                                \
  }
#define KK_DMA_3D(NAME, DST, SRC)                                                               \
  INLINE u32 NAME(DST u8 *dst, SRC const u8 *src, u64 width, u64 dst_line, u64 src_line,        \
                  u64 height, u64 dst_plane, u64 src_plane, u64 depth, u32 event) {              \
    for (u64 i = __mux_get_local_linear_id(); i < width * height * depth; i += work_group_items()) { \
      u64 x = i % width, y = (i / width) % height, z = i / (width * height);                     \
      dst[z * dst_plane + y * dst_line + x] = src[z * src_plane + y * src_line + x];             \
    }                                                                                            \
    return event;                                                                                \
  }
KK_DMA_1D(__mux_dma_read_1D, __local, __global)
KK_DMA_1D(__mux_dma_write_1D, __global, __local)
KK_DMA_2D(__mux_dma_read_2D, __local, __global)
KK_DMA_2D(__mux_dma_write_2D, __global, __local)
INLINE void __mux_dma_wait(u32 count, __private u32 *events) { __mux_work_group_barrier(0, 2, 0); }
KK_DMA_3D(__mux_dma_read_3D, __local, __global)
KK_DMA_3D(__mux_dma_write_3D, __global, __local)

// printf: LLVM's AMDGPU printf runtime binding calls __printf_alloc(size) for each printf; the
// buffer (hidden_printf_buffer) starts with a u32 write offset and a u32 capacity.
#if KK_COV >= 5
#define PRINTF_BUFFER_OFFSET 72
#else
#define PRINTF_BUFFER_OFFSET 24
#endif
INLINE __global u8 *__printf_alloc(u32 size) {
  __global u8 *buffer = (__global u8 *)*(__constant u64 *)(implicit_args() + PRINTF_BUFFER_OFFSET);
  __global u32 *control = (__global u32 *)buffer;
  u32 offset = __atomic_fetch_add(control, size, __ATOMIC_RELAXED);
  if (offset + size + 8 > control[1])
    return 0;
  return buffer + 8 + offset;
}

// the builtin library's hook for to_global/to_local/to_private (kernelkit.mux.clc): the named
// address space (SPIR numbering: private 0, global 1, local 3) a generic pointer points into
int __kk_generic_address_space(__generic void *p) {
  return __builtin_amdgcn_is_shared(p) ? 3 : (__builtin_amdgcn_is_private(p) ? 0 : 1);
}

// image, sampler, pipe and device-side enqueue builtins
#include "subgroups.cl"
#include "atomics.cl"
#include "images.cl"
#include "pipes.cl"
#include "enqueue.cl"
