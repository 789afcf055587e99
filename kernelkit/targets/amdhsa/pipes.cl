// kernelkit amdhsa: OpenCL 2.0 pipe builtins as clang lowers them (__read_pipe_2, __write_pipe_2,
// __reserve_*_pipe, __read_pipe_4/__write_pipe_4, __commit_*_pipe, their work_group_/sub_group_
// forms, __get_pipe_num_packets_*/__get_pipe_max_packets_*, is_valid_reserve_id).
// Included by mux_builtins.cl.
//
// A pipe argument points to the pipe object as the ROCm runtime allocates it: a 128-byte header
// (read index, write index, capacity in packets as 64-bit words) followed by the packets.  The
// indices only grow; a packet's slot is its index modulo the capacity.  A reservation id is the
// first reserved index (~0: reservation failed).

typedef struct {
  u64 read_idx;
  u64 write_idx;
  u64 end_idx;
  u8 pad[128 - 3 * sizeof(u64)];
  u8 packets[];
} kk_pipe;

#define KK_NO_RESERVATION (~(u64)0)
#define RID(r) __builtin_astype((r), u64)
#define TO_RID(i) __builtin_astype((i), reserve_id_t)

static INLINE u64 atomic_get(__global u64 *p) {
  return __scoped_atomic_load_n(p, __ATOMIC_ACQUIRE, __MEMORY_SCOPE_DEVICE);
}

// n consecutive indices from *idx while they stay below lim, or KK_NO_RESERVATION
static INLINE u64 reserve(__global u64 *idx, u64 lim, u64 n) {
  u64 i = __scoped_atomic_load_n(idx, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  for (;;) {
    if (i + n > lim)
      return KK_NO_RESERVATION;
    if (__scoped_atomic_compare_exchange_n(idx, &i, i + n, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED,
                                           __MEMORY_SCOPE_DEVICE))
      return i;
  }
}

static INLINE u64 reserve_read(__global kk_pipe *p, u64 n) { return reserve(&p->read_idx, atomic_get(&p->write_idx), n); }
static INLINE u64 reserve_write(__global kk_pipe *p, u64 n) {
  return reserve(&p->write_idx, atomic_get(&p->read_idx) + p->end_idx, n);
}
static INLINE __global u8 *slot(__global kk_pipe *p, u64 index, u32 size) { return p->packets + (index % p->end_idx) * size; }

static INLINE int read_at(__global kk_pipe *p, u64 index, void *dst, u32 size) {
  if (index == KK_NO_RESERVATION)
    return -1;
  __builtin_memcpy(dst, (void *)slot(p, index, size), size);
  return 0;
}
static INLINE int write_at(__global kk_pipe *p, u64 index, const void *src, u32 size) {
  if (index == KK_NO_RESERVATION)
    return -1;
  __builtin_memcpy((void *)slot(p, index, size), src, size);
  return 0;
}

INLINE int __read_pipe_2(__global kk_pipe *p, void *dst, u32 size, u32 align) { return read_at(p, reserve_read(p, 1), dst, size); }
INLINE int __write_pipe_2(__global kk_pipe *p, const void *src, u32 size, u32 align) {
  return write_at(p, reserve_write(p, 1), src, size);
}
INLINE int __read_pipe_4(__global kk_pipe *p, reserve_id_t rid, u32 index, void *dst, u32 size, u32 align) {
  return read_at(p, RID(rid) == KK_NO_RESERVATION ? KK_NO_RESERVATION : RID(rid) + index, dst, size);
}
INLINE int __write_pipe_4(__global kk_pipe *p, reserve_id_t rid, u32 index, const void *src, u32 size, u32 align) {
  return write_at(p, RID(rid) == KK_NO_RESERVATION ? KK_NO_RESERVATION : RID(rid) + index, src, size);
}

INLINE reserve_id_t __reserve_read_pipe(__global kk_pipe *p, u32 n, u32 size, u32 align) { return TO_RID(reserve_read(p, n)); }
INLINE reserve_id_t __reserve_write_pipe(__global kk_pipe *p, u32 n, u32 size, u32 align) { return TO_RID(reserve_write(p, n)); }
// the packets are copied before the commit: committing only orders the copies
INLINE void __commit_read_pipe(__global kk_pipe *p, reserve_id_t rid, u32 size, u32 align) {
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
}
INLINE void __commit_write_pipe(__global kk_pipe *p, reserve_id_t rid, u32 size, u32 align) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
}

// work-group reservations: work-item 0 reserves for the group, an LDS slot broadcasts the id
__local u64 *kk_pipe_lds_slot(void);   // defined in IR (codegen.PIPE_LDS_SLOT_IR)
static INLINE u64 group_broadcast(u64 value) {
  __local u64 *slot = kk_pipe_lds_slot();
  if (__mux_get_local_linear_id() == 0)
    *slot = value;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  u64 out = *slot;
  __builtin_amdgcn_s_barrier();
  return out;
}
static INLINE u64 group_reserve(__global kk_pipe *p, u32 n, bool read) {
  u64 i = KK_NO_RESERVATION;
  if (__mux_get_local_linear_id() == 0)
    i = read ? reserve_read(p, n) : reserve_write(p, n);
  return group_broadcast(i);
}
// sub-group reservations: the first active lane reserves for the wavefront, readfirstlane broadcasts
static INLINE u64 wave_reserve(__global kk_pipe *p, u32 n, bool read) {
  u64 i = KK_NO_RESERVATION;
  u64 exec = __builtin_amdgcn_read_exec();
  u32 lane = __builtin_amdgcn_mbcnt_hi((u32)(exec >> 32), __builtin_amdgcn_mbcnt_lo((u32)exec, 0u));
  if (lane == 0)
    i = read ? reserve_read(p, n) : reserve_write(p, n);
  u32 lo = __builtin_amdgcn_readlane((u32)i, __builtin_ctzl(exec));
  u32 hi = __builtin_amdgcn_readlane((u32)(i >> 32), __builtin_ctzl(exec));
  return (u64)hi << 32 | lo;
}

// the work_group_ and sub_group_ forms: one reservation for the group, commits synchronise it
#define GROUP_PIPE_BUILTINS(SCOPE, RESERVE, SYNC) \
  INLINE reserve_id_t __##SCOPE##_reserve_read_pipe(__global kk_pipe *p, u32 n, u32 size, u32 align) { \
    return TO_RID(RESERVE(p, n, true)); } \
  INLINE reserve_id_t __##SCOPE##_reserve_write_pipe(__global kk_pipe *p, u32 n, u32 size, u32 align) { \
    return TO_RID(RESERVE(p, n, false)); } \
  INLINE void __##SCOPE##_commit_read_pipe(__global kk_pipe *p, reserve_id_t rid, u32 size, u32 align) { \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent"); SYNC(); } \
  INLINE void __##SCOPE##_commit_write_pipe(__global kk_pipe *p, reserve_id_t rid, u32 size, u32 align) { \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent"); SYNC(); }
GROUP_PIPE_BUILTINS(work_group, group_reserve, __builtin_amdgcn_s_barrier)
GROUP_PIPE_BUILTINS(sub_group, wave_reserve, __builtin_amdgcn_wave_barrier)

static INLINE u32 packets_in(__global kk_pipe *p) { return (u32)(atomic_get(&p->write_idx) - atomic_get(&p->read_idx)); }
INLINE u32 __get_pipe_num_packets_ro(__global kk_pipe *p, u32 size, u32 align) { return packets_in(p); }
INLINE u32 __get_pipe_num_packets_wo(__global kk_pipe *p, u32 size, u32 align) { return packets_in(p); }
INLINE u32 __get_pipe_max_packets_ro(__global kk_pipe *p, u32 size, u32 align) { return (u32)p->end_idx; }
INLINE u32 __get_pipe_max_packets_wo(__global kk_pipe *p, u32 size, u32 align) { return (u32)p->end_idx; }

__attribute__((overloadable, always_inline)) bool is_valid_reserve_id(reserve_id_t rid) {
  return RID(rid) != KK_NO_RESERVATION;
}
