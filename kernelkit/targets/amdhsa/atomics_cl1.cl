// kernelkit amdhsa: the atomic functions of OpenCL C 1.x (atomic_* of OpenCL 1.1, atom_* of the
// cl_khr_{global,local}_int32_{base,extended}_atomics and cl_khr_int64_{base,extended}_atomics
// extensions) on global and local objects (OpenCL C declares no generic overloads of them). As AMD's device library defines them, each is
// one __opencl_atomic_* builtin, relaxed and at device scope (syncscope "agent-one-as"), on the
// object with its volatile dropped (atomics.h), so that LLVM selects the native global_atomic_* /
// ds_* instructions, where the portable library's versions are compare-exchange loops; inc and
// dec add and subtract 1. Compiled on its own and linked only into modules that call one of them
// (codegen.CL1_ATOMIC_CALL). Names: the SPIR frontend's mangling (volatile pointee: "V").
#include "atomics.h"

#define KK_R memory_order_relaxed
#define KK_PV(N) "PU3AS" #N "V"
// NAME(p, v) -> __opencl_atomic_fetch_<OP>; LEN is the length of NAME
#define KK_RMW(NAME, LEN, OP, T, C, AS, N)                                                          \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T v) __asm__("_Z" #LEN #NAME KK_PV(N) #C #C);           \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T v) {                                                  \
    return __opencl_atomic_fetch_##OP((AS atomic_##T *)p, v, KK_R, KK_DEV);                         \
  }
// NAME(p) -> __opencl_atomic_fetch_<OP>(p, 1)
#define KK_STEP(NAME, LEN, OP, T, C, AS, N)                                                         \
  T kk_##NAME##_##C##_##N(volatile AS T *p) __asm__("_Z" #LEN #NAME KK_PV(N) #C);                   \
  T kk_##NAME##_##C##_##N(volatile AS T *p) { return __opencl_atomic_fetch_##OP((AS atomic_##T *)p, (T)1, KK_R, KK_DEV); }
#define KK_XCHG(NAME, LEN, T, C, AS, N)                                                             \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T v) __asm__("_Z" #LEN #NAME KK_PV(N) #C #C);           \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T v) { return __opencl_atomic_exchange((AS atomic_##T *)p, v, KK_R, KK_DEV); }
#define KK_CMPXCHG(NAME, LEN, T, C, AS, N)                                                          \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T e, T d) __asm__("_Z" #LEN #NAME KK_PV(N) #C #C #C);   \
  T kk_##NAME##_##C##_##N(volatile AS T *p, T e, T d) {                                             \
    __opencl_atomic_compare_exchange_strong((AS atomic_##T *)p, &e, d, KK_R, KK_R, KK_DEV);         \
    return e;                                                                                       \
  }

// every operation of the atomic_ functions (OpenCL 1.1) or of the atom_ ones (extensions) on one
// type; L2, L3, L4 and L7: the lengths of the names with 2, 3, 4 and 7 letters after the prefix
#define KK_CL1_OPS(PRE, L2, L3, L4, L7, T, C, AS, N)                                                \
  KK_RMW(PRE##add, L3, add, T, C, AS, N) KK_RMW(PRE##sub, L3, sub, T, C, AS, N)                     \
  KK_RMW(PRE##min, L3, min, T, C, AS, N) KK_RMW(PRE##max, L3, max, T, C, AS, N)                     \
  KK_RMW(PRE##and, L3, and, T, C, AS, N) KK_RMW(PRE##or, L2, or, T, C, AS, N)                       \
  KK_RMW(PRE##xor, L3, xor, T, C, AS, N) KK_STEP(PRE##inc, L3, add, T, C, AS, N)                    \
  KK_STEP(PRE##dec, L3, sub, T, C, AS, N) KK_XCHG(PRE##xchg, L4, T, C, AS, N)                       \
  KK_CMPXCHG(PRE##cmpxchg, L7, T, C, AS, N)
#define KK_ATOMIC_OPS(T, C, AS, N) KK_CL1_OPS(atomic_, 9, 10, 11, 14, T, C, AS, N)
#define KK_ATOM_OPS(T, C, AS, N) KK_CL1_OPS(atom_, 7, 8, 9, 12, T, C, AS, N)
// atomic_xchg of a float: an exchange of its bits
#define KK_XCHG_FLOAT(AS, N)                                                                        \
  float kk_atomic_xchg_f_##N(volatile AS float *p, float v) __asm__("_Z11atomic_xchg" KK_PV(N) "ff"); \
  float kk_atomic_xchg_f_##N(volatile AS float *p, float v) {                                       \
    return __builtin_astype(__opencl_atomic_exchange((AS atomic_int *)p, __builtin_astype(v, int), KK_R, KK_DEV), \
                            float);                                                                 \
  }
#define KK_CL1_SPACE(AS, N)                                                                         \
  KK_ATOMIC_OPS(int, i, AS, N) KK_ATOMIC_OPS(uint, j, AS, N) KK_XCHG_FLOAT(AS, N)                   \
  KK_ATOM_OPS(int, i, AS, N) KK_ATOM_OPS(uint, j, AS, N) KK_ATOM_OPS(long, l, AS, N)                \
  KK_ATOM_OPS(ulong, m, AS, N)

KK_CL1_SPACE(__global, 1)
KK_CL1_SPACE(__local, 3)
