// kernelkit amdhsa: OpenCL C 2.0 atomics on generic pointers with their memory scope, through
// clang's __opencl_atomic_* builtins (which give each scope its AMDHSA LLVM sync scope:
// work-group -> workgroup, device -> agent, all devices -> system, sub-group -> wavefront). They
// replace the portable library's versions (codegen.link_builtin_library leaves out the names this
// library defines), which know no scope. The functions carry the names the SPIR frontend calls:
// Itanium mangling with the generic address space spelled U3AS4 (on amdgcn it is the default one,
// unspelled, hence the asm labels).

typedef unsigned int uint;
typedef unsigned long ulong;
typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED, memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE, memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;
typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM, memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE, memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
} memory_scope;

#define KK_AT(T) volatile atomic_##T *
#define KK_P(C) "PU3AS4VU7_Atomic" #C
#define KK_SCOPED "12memory_order12memory_scope"

// atomic_fetch_<op>[_explicit] (LEN: length of the name with _explicit, LEN0 without)
#define KK_FETCH(OP, LEN, LEN0, T, C)                                                               \
  T kk_fetch_##OP##_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s)                       \
      __asm__("_Z" #LEN "atomic_fetch_" #OP "_explicit" KK_P(C) #C KK_SCOPED);                      \
  T kk_fetch_##OP##_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s) {                     \
    return __opencl_atomic_fetch_##OP(p, v, o, s);                                                  \
  }                                                                                                 \
  T kk_fetch_##OP##_##C##_o(KK_AT(T) p, T v, memory_order o)                                        \
      __asm__("_Z" #LEN "atomic_fetch_" #OP "_explicit" KK_P(C) #C "12memory_order");               \
  T kk_fetch_##OP##_##C##_o(KK_AT(T) p, T v, memory_order o) {                                      \
    return __opencl_atomic_fetch_##OP(p, v, o, memory_scope_device);                                \
  }                                                                                                 \
  T kk_fetch_##OP##_##C(KK_AT(T) p, T v) __asm__("_Z" #LEN0 "atomic_fetch_" #OP KK_P(C) #C);        \
  T kk_fetch_##OP##_##C(KK_AT(T) p, T v) {                                                          \
    return __opencl_atomic_fetch_##OP(p, v, memory_order_seq_cst, memory_scope_device);             \
  }

#define KK_FETCH_ALL(T, C)                                                                          \
  KK_FETCH(add, 25, 16, T, C) KK_FETCH(sub, 25, 16, T, C) KK_FETCH(and, 25, 16, T, C)               \
  KK_FETCH(or, 24, 15, T, C) KK_FETCH(xor, 25, 16, T, C) KK_FETCH(min, 25, 16, T, C)                \
  KK_FETCH(max, 25, 16, T, C)

// atomic_load / atomic_store / atomic_exchange [_explicit]
#define KK_MOVES(T, C)                                                                              \
  T kk_load_##C##_os(KK_AT(T) p, memory_order o, memory_scope s)                                    \
      __asm__("_Z20atomic_load_explicit" KK_P(C) KK_SCOPED);                                        \
  T kk_load_##C##_os(KK_AT(T) p, memory_order o, memory_scope s) { return __opencl_atomic_load(p, o, s); } \
  T kk_load_##C##_o(KK_AT(T) p, memory_order o) __asm__("_Z20atomic_load_explicit" KK_P(C) "12memory_order"); \
  T kk_load_##C##_o(KK_AT(T) p, memory_order o) { return __opencl_atomic_load(p, o, memory_scope_device); } \
  T kk_load_##C(KK_AT(T) p) __asm__("_Z11atomic_load" KK_P(C));                                     \
  T kk_load_##C(KK_AT(T) p) { return __opencl_atomic_load(p, memory_order_seq_cst, memory_scope_device); } \
  void kk_store_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s)                           \
      __asm__("_Z21atomic_store_explicit" KK_P(C) #C KK_SCOPED);                                    \
  void kk_store_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s) { __opencl_atomic_store(p, v, o, s); } \
  void kk_store_##C##_o(KK_AT(T) p, T v, memory_order o)                                            \
      __asm__("_Z21atomic_store_explicit" KK_P(C) #C "12memory_order");                             \
  void kk_store_##C##_o(KK_AT(T) p, T v, memory_order o) { __opencl_atomic_store(p, v, o, memory_scope_device); } \
  void kk_store_##C(KK_AT(T) p, T v) __asm__("_Z12atomic_store" KK_P(C) #C);                        \
  void kk_store_##C(KK_AT(T) p, T v) { __opencl_atomic_store(p, v, memory_order_seq_cst, memory_scope_device); } \
  T kk_xchg_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s)                               \
      __asm__("_Z24atomic_exchange_explicit" KK_P(C) #C KK_SCOPED);                                 \
  T kk_xchg_##C##_os(KK_AT(T) p, T v, memory_order o, memory_scope s) { return __opencl_atomic_exchange(p, v, o, s); } \
  T kk_xchg_##C##_o(KK_AT(T) p, T v, memory_order o)                                                \
      __asm__("_Z24atomic_exchange_explicit" KK_P(C) #C "12memory_order");                          \
  T kk_xchg_##C##_o(KK_AT(T) p, T v, memory_order o) { return __opencl_atomic_exchange(p, v, o, memory_scope_device); } \
  T kk_xchg_##C(KK_AT(T) p, T v) __asm__("_Z15atomic_exchange" KK_P(C) #C);                         \
  T kk_xchg_##C(KK_AT(T) p, T v) {                                                                  \
    return __opencl_atomic_exchange(p, v, memory_order_seq_cst, memory_scope_device);               \
  }

KK_FETCH_ALL(int, i)
KK_FETCH_ALL(uint, j)
KK_FETCH_ALL(long, l)
KK_FETCH_ALL(ulong, m)
KK_MOVES(int, i)
KK_MOVES(uint, j)
KK_MOVES(long, l)
KK_MOVES(ulong, m)
KK_MOVES(float, f)
KK_MOVES(double, d)
