// kernelkit amdhsa: OpenCL 2.0 device-side enqueue as clang lowers it for amdgcn
// (__enqueue_kernel_basic/_basic_events/_varargs/_events_varargs, __get_kernel_*_impl,
// get_default_queue, enqueue_marker and the clk_event_t builtins).  Included by mux_builtins.cl.
//
// The device queue (hidden_default_queue) and the AQL wrapper of the running dispatch
// (hidden_completion_action) are the ROCm runtime's: a 64-byte queue header followed by the
// AQL wrapper slots (each an HSA kernel dispatch packet plus scheduling state and a kernarg
// buffer), bitmasks allocating the slots and the events.  The scheduler kernel of the runtime
// launches a wrapper once its state is READY.  The block's kernel is named through its runtime
// handle {kernel object, private segment size, group segment size}, which the loader fills in
// (kernelkit's amdhsa codegen emits it as clang does: enqueue.block_kernels_to_amdgpu).

typedef struct {
  u32 aql_slot_num;     // wrapper slots (a multiple of 32)
  u32 event_slot_num;
  u64 event_slot_mask;  // -> u32 bitmask
  u64 event_slots;      // -> kk_event[event_slot_num]
  u64 aql_slot_mask;    // -> u32 bitmask
  u32 command_counter;
  u32 wait_size;        // clk_event_t entries a wait list may hold
  u32 arg_size;         // kernarg bytes of a slot
  u32 mask_groups;
  u64 kernel_table;
  u32 reserved[2];
} kk_vqueue;            // the wrapper slots follow the header

typedef struct {        // hsa_kernel_dispatch_packet_t
  u16 header, setup, workgroup_size_x, workgroup_size_y, workgroup_size_z, reserved0;
  u32 grid_size_x, grid_size_y, grid_size_z;
  u32 private_segment_size, group_segment_size;
  u64 kernel_object;
  u64 kernarg_address;
  u64 reserved2;
  u64 completion_signal;
} kk_dispatch_packet;

typedef struct {
  u32 state, enqueue_flags, command_id, child_counter;
  u64 completion;       // kk_event *
  u64 parent_wrap;      // kk_aql_wrap *
  u64 wait_list;        // u64[wait_size]
  u32 wait_num;
  u32 reserved[5];
  kk_dispatch_packet aql;
} kk_aql_wrap;

typedef struct {
  u32 state, counter;
  u64 timer[3];
  u64 capture_info;
} kk_event;

typedef struct {
  u64 kernel_object;
  u32 private_segment_size, group_segment_size;
} kk_runtime_handle;

typedef struct {        // ndrange_t (kernelkit_opencl.h)
  u32 work_dim;
  u64 offset_size[3], global_size[3], local_size[3];
} kk_ndrange;

enum { KK_WRAP_FREE, KK_WRAP_RESERVED, KK_WRAP_READY, KK_WRAP_MARKER, KK_WRAP_BUSY, KK_WRAP_DONE };
enum { KK_CL_COMPLETE = 0, KK_CL_SUBMITTED = 2 };
#define KK_ENQUEUE_FAILURE (-101)
#define KK_INVALID_ARG_SIZE (-51)
#define KK_MAX_WORK_GROUP_SIZE 1024u
#define KK_MAX_LDS 65536u
#define KK_LOCAL_ALIGN 16u

// hidden (implicit) arguments: byte offsets from the implicit argument pointer (tables.HIDDEN_ARGS_V5
// and the V4 order: global offsets, printf buffer, default queue, completion action)
#if KK_COV >= 5
#define IA_PRINTF 72
#define IA_QUEUE 104
#define IA_WRAP 112
#define IA_IMPLICIT_BYTES 256
#else
#define IA_PRINTF 24
#define IA_QUEUE 32
#define IA_WRAP 40
#define IA_IMPLICIT_BYTES 56
#endif
static INLINE u64 implicit_word(u32 at) { return *(__constant u64 *)(implicit_args() + at); }
static INLINE __global kk_vqueue *own_queue(void) { return (__global kk_vqueue *)implicit_word(IA_QUEUE); }
static INLINE __global kk_aql_wrap *own_wrap(void) { return (__global kk_aql_wrap *)implicit_word(IA_WRAP); }
static INLINE u32 round_up(u32 v, u32 a) { return (v + a - 1u) & -a; }

// a free bit of a bitmask of n bits (n a multiple of 32), set atomically; -1 if none
static INLINE int take_slot(__global u32 *mask, u32 n, u32 spread) {
  u32 words = n >> 5;
  if (words == 0)
    return -1;
  u32 w = (u32)(__mux_get_local_linear_id() * (spread ? spread : 1u)) % words;
  for (u32 tries = 0; tries < words; ++tries) {
    u32 v = __scoped_atomic_load_n(mask + w, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
    while (~v) {
      u32 bit = (u32)__builtin_ctz(~v);
      if (__scoped_atomic_compare_exchange_n(mask + w, &v, v | (1u << bit), false, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE))
        return (int)(w * 32u + bit);
    }
    w = w + 1u == words ? 0u : w + 1u;
  }
  return -1;
}
static INLINE void give_slot(__global u32 *mask, u32 i) {
  __scoped_atomic_fetch_and(mask + (i >> 5), ~(1u << (i & 31u)), __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}

static INLINE __global kk_aql_wrap *wrap_slot(__global kk_vqueue *vq, int i) {
  return (__global kk_aql_wrap *)(vq + 1) + i;
}

static INLINE __global kk_event *new_event(__global kk_vqueue *vq) {
  int e = take_slot((__global u32 *)vq->event_slot_mask, vq->event_slot_num, 1u);
  if (e < 0)
    return 0;
  __global kk_event *ev = (__global kk_event *)vq->event_slots + e;
  ev->state = KK_CL_SUBMITTED;
  ev->counter = 2;        // the enqueuer's reference and the scheduler's
  ev->capture_info = 0;
  return ev;
}

static INLINE void retain_waits(__global u64 *dst, const u64 *events, u32 n) {
  for (u32 i = 0; i < n; ++i) {
    __scoped_atomic_fetch_add(&((__global kk_event *)events[i])->counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
    dst[i] = events[i];
  }
}

static INLINE u32 group_dim(const __private kk_ndrange *r, u32 d) {
  if (d >= r->work_dim)
    return 1u;
  u32 l = (u32)r->local_size[d];
  return l ? l : (d == 0 ? ((u32)r->global_size[0] < 64u ? (u32)r->global_size[0] : 64u) : 1u);
}

// hidden arguments of the child, behind its explicit arguments in its kernarg buffer
static INLINE void child_hidden_args(__global u8 *at, const __private kk_ndrange *r, __global kk_aql_wrap *wrap) {
  __global u64 *h = (__global u64 *)at;
  for (u32 i = 0; i < IA_IMPLICIT_BYTES / 8; ++i)
    h[i] = 0;
#if KK_COV >= 5
  __global u32 *w32 = (__global u32 *)at;
  __global u16 *w16 = (__global u16 *)at;
  for (u32 d = 0; d < 3; ++d) {
    u32 g = (u32)(d < r->work_dim ? r->global_size[d] : 1u), l = group_dim(r, d);
    w32[d] = g / l;            // hidden_block_count_*
    w16[6 + d] = (u16)l;       // hidden_group_size_*
    w16[9 + d] = (u16)(g % l); // hidden_remainder_*
    h[5 + d] = d < r->work_dim ? r->offset_size[d] : 0;   // hidden_global_offset_*
  }
  w16[32] = (u16)r->work_dim;  // hidden_grid_dims
  h[24] = implicit_word(192);  // hidden_private_base / hidden_shared_base
  h[25] = implicit_word(200);  // hidden_queue_ptr
#else
  for (u32 d = 0; d < 3; ++d)
    h[d] = d < r->work_dim ? r->offset_size[d] : 0;
#endif
  h[IA_PRINTF / 8] = implicit_word(IA_PRINTF);
  h[IA_QUEUE / 8] = (u64)own_queue();
  h[IA_WRAP / 8] = (u64)wrap;
}

// one enqueue: explicit kernarg = block literal (+ LDS offsets of `local void *` block parameters)
static INLINE int enqueue(queue_t q, u32 flags, const __private kk_ndrange *r, u32 nwait, const u64 *waits,
                          u64 *ret_event, const void *handle, const void *literal, u32 nlocal,
                          const __private u64 *local_sizes) {
  __global kk_vqueue *vq = __builtin_astype(q, __global kk_vqueue *);
  const __global kk_runtime_handle *rt = (const __global kk_runtime_handle *)handle;
  u32 size = ((const u32 *)literal)[0], align = ((const u32 *)literal)[1];
  u32 lds = rt->group_segment_size;
  for (u32 i = 0; i < nlocal; ++i)
    lds = round_up(lds, KK_LOCAL_ALIGN) + (u32)local_sizes[i];
  u32 hidden_at = round_up(round_up(size, 4u) + 4u * nlocal, 8u);
  if (hidden_at + IA_IMPLICIT_BYTES > vq->arg_size || nwait > vq->wait_size || lds > KK_MAX_LDS ||
      group_dim(r, 0) * group_dim(r, 1) * group_dim(r, 2) > KK_MAX_WORK_GROUP_SIZE)
    return KK_ENQUEUE_FAILURE;
  int slot = take_slot((__global u32 *)vq->aql_slot_mask, vq->aql_slot_num, vq->mask_groups);
  if (slot < 0)
    return KK_ENQUEUE_FAILURE;
  __global kk_event *ev = 0;
  if (ret_event) {
    ev = new_event(vq);
    if (!ev) {
      give_slot((__global u32 *)vq->aql_slot_mask, (u32)slot);
      return KK_ENQUEUE_FAILURE;
    }
    *ret_event = (u64)ev;
  }
  __global kk_aql_wrap *aw = wrap_slot(vq, slot);
  __global u8 *args = (__global u8 *)aw->aql.kernarg_address;
  __builtin_memcpy((void *)args, literal, size);
  __global u32 *local_offsets = (__global u32 *)(args + round_up(size, 4u));
  lds = rt->group_segment_size;
  for (u32 i = 0; i < nlocal; ++i) {
    local_offsets[i] = round_up(lds, KK_LOCAL_ALIGN);
    lds = local_offsets[i] + (u32)local_sizes[i];
  }
  child_hidden_args(args + hidden_at, r, aw);
  __global kk_aql_wrap *me = own_wrap();
  aw->enqueue_flags = flags;
  aw->command_id = __scoped_atomic_fetch_add(&vq->command_counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  aw->completion = (u64)ev;
  aw->parent_wrap = (u64)me;
  if (nwait)
    retain_waits((__global u64 *)aw->wait_list, waits, nwait);
  aw->wait_num = nwait;
  // HSA packet header as the ROCm device queue expects it: kernel dispatch (type 2), no barrier,
  // agent-scope (1) acquire (bits 9-10) and release (bits 11-12) fences
  aw->aql.header = (u16)(2u | 1u << 9 | 1u << 11);
  aw->aql.setup = (u16)r->work_dim;
  aw->aql.workgroup_size_x = (u16)group_dim(r, 0);
  aw->aql.workgroup_size_y = (u16)group_dim(r, 1);
  aw->aql.workgroup_size_z = (u16)group_dim(r, 2);
  aw->aql.grid_size_x = (u32)r->global_size[0];
  aw->aql.grid_size_y = r->work_dim > 1 ? (u32)r->global_size[1] : 1u;
  aw->aql.grid_size_z = r->work_dim > 2 ? (u32)r->global_size[2] : 1u;
  aw->aql.private_segment_size = rt->private_segment_size;
  aw->aql.group_segment_size = lds;
  aw->aql.kernel_object = rt->kernel_object;
  aw->aql.completion_signal = 0;
  __scoped_atomic_fetch_add(&me->child_counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  __scoped_atomic_store_n(&aw->state, (u32)KK_WRAP_READY, __ATOMIC_RELEASE, __MEMORY_SCOPE_DEVICE);
  return 0;
}

INLINE int __enqueue_kernel_basic(queue_t q, u32 flags, const __private kk_ndrange *r, const void *handle,
                                  const void *literal) {
  return enqueue(q, flags, r, 0, 0, 0, handle, literal, 0, 0);
}
INLINE int __enqueue_kernel_basic_events(queue_t q, u32 flags, const __private kk_ndrange *r, u32 nwait,
                                         const u64 *waits, u64 *ret_event, const void *handle, const void *literal) {
  return enqueue(q, flags, r, nwait, waits, ret_event, handle, literal, 0, 0);
}
INLINE int __enqueue_kernel_varargs(queue_t q, u32 flags, const __private kk_ndrange *r, const void *handle,
                                    const void *literal, u32 nlocal, const __private u64 *sizes) {
  return enqueue(q, flags, r, 0, 0, 0, handle, literal, nlocal, sizes);
}
INLINE int __enqueue_kernel_events_varargs(queue_t q, u32 flags, const __private kk_ndrange *r, u32 nwait,
                                           const u64 *waits, u64 *ret_event, const void *handle,
                                           const void *literal, u32 nlocal, const __private u64 *sizes) {
  return enqueue(q, flags, r, nwait, waits, ret_event, handle, literal, nlocal, sizes);
}

// a marker: a wrapper that waits for its wait list and completes its event, never dispatched
__attribute__((overloadable, always_inline)) int
enqueue_marker(queue_t q, u32 nwait, const u64 *waits, u64 *ret_event)
    __asm("_Z14enqueue_marker9ocl_queuejPU3AS4K12ocl_clkeventPU3AS4S0_");   // the SPIR (generic AS 4) name
__attribute__((overloadable, always_inline)) int
enqueue_marker(queue_t q, u32 nwait, const u64 *waits, u64 *ret_event) {
  __global kk_vqueue *vq = __builtin_astype(q, __global kk_vqueue *);
  if (nwait > vq->wait_size)
    return KK_ENQUEUE_FAILURE;
  int slot = take_slot((__global u32 *)vq->aql_slot_mask, vq->aql_slot_num, vq->mask_groups);
  if (slot < 0)
    return KK_ENQUEUE_FAILURE;
  __global kk_event *ev = new_event(vq);
  if (!ev) {
    give_slot((__global u32 *)vq->aql_slot_mask, (u32)slot);
    return KK_ENQUEUE_FAILURE;
  }
  __global kk_aql_wrap *aw = wrap_slot(vq, slot), *me = own_wrap();
  aw->enqueue_flags = 0;
  aw->command_id = __scoped_atomic_fetch_add(&vq->command_counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  aw->child_counter = 0;
  aw->completion = (u64)ev;
  aw->parent_wrap = (u64)me;
  if (nwait)
    retain_waits((__global u64 *)aw->wait_list, waits, nwait);
  aw->wait_num = nwait;
  __scoped_atomic_fetch_add(&me->child_counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  __scoped_atomic_store_n(&aw->state, (u32)KK_WRAP_MARKER, __ATOMIC_RELEASE, __MEMORY_SCOPE_DEVICE);
  *ret_event = (u64)ev;
  return 0;
}

__attribute__((overloadable, always_inline)) queue_t get_default_queue(void) {
  return __builtin_astype(own_queue(), queue_t);
}

// kernel queries: the limits enqueue() checks and the wavefront size
INLINE u32 __get_kernel_work_group_size_impl(const void *handle, const void *literal) { return KK_MAX_WORK_GROUP_SIZE; }
INLINE u32 __get_kernel_preferred_work_group_size_multiple_impl(const void *handle, const void *literal) {
  return __builtin_amdgcn_wavefrontsize();
}
INLINE u32 __get_kernel_max_sub_group_size_for_ndrange_impl(const __private kk_ndrange *r, const void *handle,
                                                            const void *literal) {
  u32 n = group_dim(r, 0) * group_dim(r, 1) * group_dim(r, 2), w = __builtin_amdgcn_wavefrontsize();
  return n < w ? n : w;
}
INLINE u32 __get_kernel_sub_group_count_for_ndrange_impl(const __private kk_ndrange *r, const void *handle,
                                                         const void *literal) {
  u32 n = group_dim(r, 0) * group_dim(r, 1) * group_dim(r, 2), w = __builtin_amdgcn_wavefrontsize();
  return (n + w - 1u) / w;
}

// clk_event_t: a kk_event in the device queue's event slots; the counter holds the references
#define EVENT(e) __builtin_astype((e), __global kk_event *)
__attribute__((overloadable, always_inline)) clk_event_t create_user_event(void) {
  __global kk_event *ev = new_event(own_queue());
  return __builtin_astype(ev, clk_event_t);
}
__attribute__((overloadable, always_inline)) bool is_valid_event(clk_event_t e) { return EVENT(e) != 0; }
__attribute__((overloadable, always_inline)) void retain_event(clk_event_t e) {
  __scoped_atomic_fetch_add(&EVENT(e)->counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
__attribute__((overloadable, always_inline)) void release_event(clk_event_t e) {
  __global kk_event *ev = EVENT(e);
  if (__scoped_atomic_fetch_sub(&ev->counter, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE) == 1u) {
    __global kk_vqueue *vq = own_queue();
    give_slot((__global u32 *)vq->event_slot_mask, (u32)(ev - (__global kk_event *)vq->event_slots));
  }
}
__attribute__((overloadable, always_inline)) void set_user_event_status(clk_event_t e, int status) {
  __scoped_atomic_store_n(&EVENT(e)->state, (u32)status, __ATOMIC_RELEASE, __MEMORY_SCOPE_DEVICE);
}
// CLK_PROFILING_COMMAND_EXEC_TIME: the scheduler writes {end - start, complete - start} to value
__attribute__((overloadable, always_inline)) void capture_event_profiling_info(clk_event_t e, int name,
                                                                                __global void *value)
    __asm("_Z28capture_event_profiling_info12ocl_clkevent18clk_profiling_infoPU3AS1v");   // SPIR name
__attribute__((overloadable, always_inline)) void capture_event_profiling_info(clk_event_t e, int name,
                                                                                __global void *value) {
  __scoped_atomic_store_n(&EVENT(e)->capture_info, (u64)value, __ATOMIC_RELEASE, __MEMORY_SCOPE_DEVICE);
}
