// kernelkit amdhsa: the spec 003 __mux_sub_group_* collectives. A sub-group is a wavefront: its
// work-items are the wave's lanes in local linear id order (__mux_get_sub_group_local_id is the
// lane); values move between lanes with ds_bpermute (GFX8+). Reductions are butterflies and scans
// Hillis-Steele steps over the wavefront, lanes past the sub-group's size taking the identity.

// GFX6/GFX7 have no ds_bpermute: no sub-group collectives there (a kernel using them is refused
// for want of their definitions)
#if !(defined(__gfx600__) || defined(__gfx601__) || defined(__gfx602__) || defined(__gfx700__) ||      \
      defined(__gfx701__) || defined(__gfx702__) || defined(__gfx703__) || defined(__gfx704__) ||      \
      defined(__gfx705__))
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

static INLINE u32 kk_lane_u32(u32 v, u32 lane) { return (u32)__builtin_amdgcn_ds_bpermute((int)(lane << 2), (int)v); }
static INLINE u64 kk_lane_u64(u64 v, u32 lane) {
  return (u64)kk_lane_u32((u32)v, lane) | ((u64)kk_lane_u32((u32)(v >> 32), lane) << 32);
}
static INLINE char kk_lane_i8(char v, u32 lane) { return (char)kk_lane_u32((u32)(u8)v, lane); }
static INLINE short kk_lane_i16(short v, u32 lane) { return (short)kk_lane_u32((u32)(u16)v, lane); }
static INLINE int kk_lane_i32(int v, u32 lane) { return (int)kk_lane_u32((u32)v, lane); }
static INLINE long kk_lane_i64(long v, u32 lane) { return (long)kk_lane_u64((u64)v, lane); }
static INLINE half kk_lane_f16(half v, u32 lane) {
  return __builtin_astype((u16)kk_lane_u32((u32)__builtin_astype(v, u16), lane), half);
}
static INLINE float kk_lane_f32(float v, u32 lane) { return __builtin_astype(kk_lane_u32(__builtin_astype(v, u32), lane), float); }
static INLINE double kk_lane_f64(double v, u32 lane) {
  return __builtin_astype(kk_lane_u64(__builtin_astype(v, u64), lane), double);
}

#define KK_ADD(a, b) ((a) + (b))
#define KK_MUL(a, b) ((a) * (b))
#define KK_MIN(a, b) ((a) < (b) ? (a) : (b))
#define KK_MAX(a, b) ((a) > (b) ? (a) : (b))
#define KK_FMIN(a, b) __builtin_elementwise_min(a, b)
#define KK_FMAX(a, b) __builtin_elementwise_max(a, b)
#define KK_AND(a, b) ((a) & (b))
#define KK_OR(a, b) ((a) | (b))
#define KK_XOR(a, b) ((a) ^ (b))
#define KK_LAND(a, b) ((a) && (b))
#define KK_LOR(a, b) ((a) || (b))
#define KK_LXOR(a, b) (!(a) != !(b))

// one operation on one type: reduce, inclusive scan, exclusive scan
#define KK_SUB_GROUP_OP(T, S, NAME, OP, ID)                                                          \
  INLINE T __mux_sub_group_reduce_##NAME##_##S(T x) {                                               \
    u32 lane = __mux_get_sub_group_local_id(), n = __mux_get_sub_group_size();                       \
    T acc = x;                                                                                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      T other = kk_lane_##S(acc, lane ^ d);                                                          \
      acc = OP(acc, ((lane ^ d) < n ? other : (T)(ID)));                                              \
    }                                                                                                \
    return acc;                                                                                      \
  }                                                                                                  \
  INLINE T __mux_sub_group_scan_inclusive_##NAME##_##S(T x) {                                       \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    T acc = x;                                                                                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      T other = kk_lane_##S(acc, lane >= d ? lane - d : lane);                                       \
      acc = lane >= d ? OP(other, acc) : acc;                                                        \
    }                                                                                                \
    return acc;                                                                                      \
  }                                                                                                  \
  INLINE T __mux_sub_group_scan_exclusive_##NAME##_##S(T x) {                                       \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    T inclusive = __mux_sub_group_scan_inclusive_##NAME##_##S(x);                                   \
    T before = kk_lane_##S(inclusive, lane ? lane - 1 : 0);                                          \
    return lane ? before : (T)(ID);                                                                  \
  }

// the operations of an integer type (signed min/max as S, unsigned as U)
#define KK_SUB_GROUP_INT(T, UT, S, SMIN, SMAX, UMAX)                                                 \
  KK_SUB_GROUP_OP(T, S, add, KK_ADD, 0)                                                             \
  KK_SUB_GROUP_OP(T, S, mul, KK_MUL, 1)                                                             \
  KK_SUB_GROUP_OP(T, S, smin, KK_MIN, SMAX)                                                         \
  KK_SUB_GROUP_OP(T, S, smax, KK_MAX, SMIN)                                                         \
  KK_SUB_GROUP_OP(T, S, and, KK_AND, -1)                                                            \
  KK_SUB_GROUP_OP(T, S, or, KK_OR, 0)                                                               \
  KK_SUB_GROUP_OP(T, S, xor, KK_XOR, 0)                                                             \
  KK_SUB_GROUP_OP(T, S, logical_and, KK_LAND, 1)                                                    \
  KK_SUB_GROUP_OP(T, S, logical_or, KK_LOR, 0)                                                      \
  KK_SUB_GROUP_OP(T, S, logical_xor, KK_LXOR, 0)                                                    \
  INLINE T __mux_sub_group_reduce_umin_##S(T x) { return (T)kk_umin_##S((UT)x); }                   \
  INLINE T __mux_sub_group_reduce_umax_##S(T x) { return (T)kk_umax_##S((UT)x); }                   \
  INLINE T __mux_sub_group_scan_inclusive_umin_##S(T x) { return (T)kk_scan_umin_##S((UT)x); }      \
  INLINE T __mux_sub_group_scan_inclusive_umax_##S(T x) { return (T)kk_scan_umax_##S((UT)x); }      \
  INLINE T __mux_sub_group_scan_exclusive_umin_##S(T x) { return (T)kk_xscan_umin_##S((UT)x); }     \
  INLINE T __mux_sub_group_scan_exclusive_umax_##S(T x) { return (T)kk_xscan_umax_##S((UT)x); }

// unsigned min/max: the same steps on the unsigned type
#define KK_UNSIGNED_MINMAX(UT, S, UMAX)                                                              \
  static INLINE UT kk_lane_u##S(UT v, u32 lane) { return (UT)kk_lane_##S(v, lane); }               \
  static INLINE UT kk_umin_##S(UT x) {                                                               \
    u32 lane = __mux_get_sub_group_local_id(), n = __mux_get_sub_group_size();                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      UT o = kk_lane_u##S(x, lane ^ d); x = KK_MIN(x, ((lane ^ d) < n ? o : (UT)(UMAX)));            \
    }                                                                                                \
    return x;                                                                                        \
  }                                                                                                  \
  static INLINE UT kk_umax_##S(UT x) {                                                               \
    u32 lane = __mux_get_sub_group_local_id(), n = __mux_get_sub_group_size();                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      UT o = kk_lane_u##S(x, lane ^ d); x = KK_MAX(x, ((lane ^ d) < n ? o : (UT)0));                 \
    }                                                                                                \
    return x;                                                                                        \
  }                                                                                                  \
  static INLINE UT kk_scan_umin_##S(UT x) {                                                          \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      UT o = kk_lane_u##S(x, lane >= d ? lane - d : lane); x = lane >= d ? KK_MIN(o, x) : x;         \
    }                                                                                                \
    return x;                                                                                        \
  }                                                                                                  \
  static INLINE UT kk_scan_umax_##S(UT x) {                                                          \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    for (u32 d = 1; d < (u32)__builtin_amdgcn_wavefrontsize(); d <<= 1) {                           \
      UT o = kk_lane_u##S(x, lane >= d ? lane - d : lane); x = lane >= d ? KK_MAX(o, x) : x;         \
    }                                                                                                \
    return x;                                                                                        \
  }                                                                                                  \
  static INLINE UT kk_xscan_umin_##S(UT x) {                                                         \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    UT b = kk_lane_u##S(kk_scan_umin_##S(x), lane ? lane - 1 : 0);                                   \
    return lane ? b : (UT)(UMAX);                                                                    \
  }                                                                                                  \
  static INLINE UT kk_xscan_umax_##S(UT x) {                                                         \
    u32 lane = __mux_get_sub_group_local_id();                                                       \
    UT b = kk_lane_u##S(kk_scan_umax_##S(x), lane ? lane - 1 : 0);                                   \
    return lane ? b : (UT)0;                                                                         \
  }

#define KK_SUB_GROUP_FLOAT(T, S, INF)                                                                \
  KK_SUB_GROUP_OP(T, S, fadd, KK_ADD, 0)                                                            \
  KK_SUB_GROUP_OP(T, S, fmul, KK_MUL, 1)                                                            \
  KK_SUB_GROUP_OP(T, S, fmin, KK_FMIN, INF)                                                         \
  KK_SUB_GROUP_OP(T, S, fmax, KK_FMAX, -(INF))

// broadcast and shuffles of one type. shuffle_up (prev, curr, delta): lane id - delta of curr, or
// when that is below 0 lane id - delta + size of prev; shuffle_down (curr, next, delta): lane
// id + delta of curr, or past the sub-group lane id + delta - size of next (spec 003). Both
// candidates are read with ds_bpermute in every lane (a lane can only read active lanes' values,
// AMD's device library does the same), then selected.
#define KK_SUB_GROUP_MOVES(T, S)                                                                     \
  INLINE T __mux_sub_group_broadcast_##S(T x, u32 id) { return kk_lane_##S(x, id); }               \
  INLINE T __mux_sub_group_shuffle_##S(T x, u32 id) { return kk_lane_##S(x, id); }                 \
  INLINE T __mux_sub_group_shuffle_xor_##S(T x, u32 mask) {                                          \
    return kk_lane_##S(x, __mux_get_sub_group_local_id() ^ mask);                                    \
  }                                                                                                  \
  INLINE T __mux_sub_group_shuffle_up_##S(T prev, T curr, u32 delta) {                              \
    u32 lane = __mux_get_sub_group_local_id(), n = __mux_get_sub_group_size();                       \
    T from_curr = kk_lane_##S(curr, lane - delta);                                                   \
    T from_prev = kk_lane_##S(prev, lane - delta + n);                                               \
    return lane >= delta ? from_curr : from_prev;                                                    \
  }                                                                                                  \
  INLINE T __mux_sub_group_shuffle_down_##S(T curr, T next, u32 delta) {                            \
    u32 lane = __mux_get_sub_group_local_id(), n = __mux_get_sub_group_size();                       \
    T from_curr = kk_lane_##S(curr, lane + delta);                                                   \
    T from_next = kk_lane_##S(next, lane + delta - n);                                               \
    return lane + delta < n ? from_curr : from_next;                                                 \
  }

KK_UNSIGNED_MINMAX(u8, i8, 0xff)
KK_UNSIGNED_MINMAX(u16, i16, 0xffff)
KK_UNSIGNED_MINMAX(u32, i32, 0xffffffffu)
KK_UNSIGNED_MINMAX(u64, i64, 0xfffffffffffffffful)
KK_SUB_GROUP_INT(char, u8, i8, (-128), 127, 0xff)
KK_SUB_GROUP_INT(short, u16, i16, (-32768), 32767, 0xffff)
KK_SUB_GROUP_INT(int, u32, i32, (-2147483647 - 1), 2147483647, 0xffffffffu)
KK_SUB_GROUP_INT(long, u64, i64, (-9223372036854775807L - 1), 9223372036854775807L, 0xfffffffffffffffful)
KK_SUB_GROUP_FLOAT(half, f16, __builtin_inf())
KK_SUB_GROUP_FLOAT(float, f32, __builtin_inff())
KK_SUB_GROUP_FLOAT(double, f64, __builtin_inf())
KK_SUB_GROUP_MOVES(char, i8)
KK_SUB_GROUP_MOVES(short, i16)
KK_SUB_GROUP_MOVES(int, i32)
KK_SUB_GROUP_MOVES(long, i64)
KK_SUB_GROUP_MOVES(half, f16)
KK_SUB_GROUP_MOVES(float, f32)
KK_SUB_GROUP_MOVES(double, f64)

// all / any on i1 predicates
INLINE bool __mux_sub_group_all_i1(bool p) { return __mux_sub_group_reduce_logical_and_i32(p) != 0; }
INLINE bool __mux_sub_group_any_i1(bool p) { return __mux_sub_group_reduce_logical_or_i32(p) != 0; }
#endif
