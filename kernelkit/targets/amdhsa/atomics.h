#ifndef KK_ATOMICS_H
#define KK_ATOMICS_H
// kernelkit amdhsa: the shape of the scoped OpenCL C 2.0 atomics (atomics.cl instantiates them on
// generic pointers, atomics_named.cl on global and local ones). Each goes through clang's
// __opencl_atomic_* builtins, which give each scope its AMDHSA LLVM sync scope (work-group ->
// workgroup, device -> agent, all devices -> system, sub-group -> wavefront), as AMD's device
// library defines them; they replace the portable library's versions, which know no scope
// (codegen.link_builtin_library leaves out the names these libraries define). The functions carry
// the names the SPIR frontend calls: Itanium mangling with the address spaces spelled U3AS<n>
// (SPIR numbers; private unspelled), hence the asm labels. Without _explicit the order is
// seq_cst, without a scope argument the scope is device.

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

#define KK_SEQ memory_order_seq_cst
#define KK_DEV memory_scope_device
// the atomic object in address space AS (SPIR number N); its mangled pointer type. The OpenCL
// functions take volatile objects; as in AMD's device library the volatile is not passed on to
// the builtin: LLVM infers no address space for a volatile atomic on a generic pointer, so a
// global or local object would get flat_atomic_* where AMD's library gives global_*/ds_*.
#define KK_AT(AS, T) AS atomic_##T *
#define KK_P(N, C) "PU3AS" #N "VU7_Atomic" #C
#define KK_O "12memory_order"
#define KK_OS "12memory_order12memory_scope"

// one function in its three forms: f(args), f_explicit(args, order), f_explicit(args, order, scope)
// RET result type, F local name, LEN/LENX name lengths, NAME the OpenCL name, M the mangled
// parameters, PARAMS/ARGS the leading parameters and their use, CALL(o, s) the body's expression
#define KK_FORMS(RET, F, LEN, LENX, NAME, M, PARAMS, CALL)                                          \
  RET F##_os(PARAMS, memory_order o, memory_scope s) __asm__("_Z" #LENX NAME "_explicit" M KK_OS);  \
  RET F##_os(PARAMS, memory_order o, memory_scope s) { return CALL(o, s); }                         \
  RET F##_o(PARAMS, memory_order o) __asm__("_Z" #LENX NAME "_explicit" M KK_O);                    \
  RET F##_o(PARAMS, memory_order o) { return CALL(o, KK_DEV); }                                     \
  RET F(PARAMS) __asm__("_Z" #LEN NAME M);                                                          \
  RET F(PARAMS) { return CALL(KK_SEQ, KK_DEV); }

#define KK_COMMA ,
// atomic_fetch_<op>[_explicit] (LENX: length of the name with _explicit, LEN without)
#define KK_FETCH(OP, LEN, LENX, T, C, AS, N)                                                        \
  KK_FORMS(T, kk_fetch_##OP##_##C##_##N, LEN, LENX, "atomic_fetch_" #OP, KK_P(N, C) #C,             \
           KK_AT(AS, T) p KK_COMMA T v, KK_FETCH_CALL_##OP)
#define KK_FETCH_CALL_add(o, s) __opencl_atomic_fetch_add(p, v, o, s)
#define KK_FETCH_CALL_sub(o, s) __opencl_atomic_fetch_sub(p, v, o, s)
#define KK_FETCH_CALL_and(o, s) __opencl_atomic_fetch_and(p, v, o, s)
#define KK_FETCH_CALL_or(o, s) __opencl_atomic_fetch_or(p, v, o, s)
#define KK_FETCH_CALL_xor(o, s) __opencl_atomic_fetch_xor(p, v, o, s)
#define KK_FETCH_CALL_min(o, s) __opencl_atomic_fetch_min(p, v, o, s)
#define KK_FETCH_CALL_max(o, s) __opencl_atomic_fetch_max(p, v, o, s)

#define KK_FETCH_ALL(T, C, AS, N)                                                                   \
  KK_FETCH(add, 16, 25, T, C, AS, N) KK_FETCH(sub, 16, 25, T, C, AS, N)                             \
  KK_FETCH(and, 16, 25, T, C, AS, N) KK_FETCH(or, 15, 24, T, C, AS, N)                              \
  KK_FETCH(xor, 16, 25, T, C, AS, N) KK_FETCH(min, 16, 25, T, C, AS, N)                             \
  KK_FETCH(max, 16, 25, T, C, AS, N)

// atomic_load / atomic_store / atomic_exchange [_explicit]
#define KK_LOAD_CALL(o, s) __opencl_atomic_load(p, o, s)
#define KK_STORE_CALL(o, s) __opencl_atomic_store(p, v, o, s)
#define KK_XCHG_CALL(o, s) __opencl_atomic_exchange(p, v, o, s)
#define KK_MOVES(T, C, AS, N)                                                                       \
  KK_FORMS(T, kk_load_##C##_##N, 11, 20, "atomic_load", KK_P(N, C), KK_AT(AS, T) p, KK_LOAD_CALL)   \
  KK_FORMS(void, kk_store_##C##_##N, 12, 21, "atomic_store", KK_P(N, C) #C,                         \
           KK_AT(AS, T) p KK_COMMA T v, KK_STORE_CALL)                                              \
  KK_FORMS(T, kk_xchg_##C##_##N, 15, 24, "atomic_exchange", KK_P(N, C) #C,                          \
           KK_AT(AS, T) p KK_COMMA T v, KK_XCHG_CALL)

// atomic_compare_exchange_strong/weak[_explicit]: `expected` in address space EAS, mangled EM;
// the _explicit forms take the success and the failure order (the latter mangled as S4_)
#define KK_CAS_STRONG(o, f, s) __opencl_atomic_compare_exchange_strong(p, e, d, o, f, s)
#define KK_CAS_WEAK(o, f, s) __opencl_atomic_compare_exchange_weak(p, e, d, o, f, s)
#define KK_CAS(KIND, LEN, LENX, CALL, T, C, AS, N, EAS, EN, EM)                                     \
  bool kk_cas_##KIND##_##C##_##N##_##EN##_os(KK_AT(AS, T) p, EAS T *e, T d, memory_order o,         \
                                             memory_order f, memory_scope s)                        \
      __asm__("_Z" #LENX "atomic_compare_exchange_" #KIND "_explicit" KK_P(N, C) EM #C #C           \
              "12memory_orderS4_12memory_scope");                                                   \
  bool kk_cas_##KIND##_##C##_##N##_##EN##_os(KK_AT(AS, T) p, EAS T *e, T d, memory_order o,         \
                                             memory_order f, memory_scope s) {                      \
    return CALL(o, f, s);                                                                           \
  }                                                                                                 \
  bool kk_cas_##KIND##_##C##_##N##_##EN##_o(KK_AT(AS, T) p, EAS T *e, T d, memory_order o,          \
                                            memory_order f)                                         \
      __asm__("_Z" #LENX "atomic_compare_exchange_" #KIND "_explicit" KK_P(N, C) EM #C #C           \
              "12memory_orderS4_");                                                                 \
  bool kk_cas_##KIND##_##C##_##N##_##EN##_o(KK_AT(AS, T) p, EAS T *e, T d, memory_order o,          \
                                            memory_order f) {                                       \
    return CALL(o, f, KK_DEV);                                                                      \
  }                                                                                                 \
  bool kk_cas_##KIND##_##C##_##N##_##EN(KK_AT(AS, T) p, EAS T *e, T d)                              \
      __asm__("_Z" #LEN "atomic_compare_exchange_" #KIND KK_P(N, C) EM #C #C);                      \
  bool kk_cas_##KIND##_##C##_##N##_##EN(KK_AT(AS, T) p, EAS T *e, T d) { return CALL(KK_SEQ, KK_SEQ, KK_DEV); }
#define KK_CAS_BOTH(T, C, AS, N, EAS, EN, EM)                                                       \
  KK_CAS(strong, 30, 39, KK_CAS_STRONG, T, C, AS, N, EAS, EN, EM)                                   \
  KK_CAS(weak, 28, 37, KK_CAS_WEAK, T, C, AS, N, EAS, EN, EM)

// atomic_flag_test_and_set / atomic_flag_clear [_explicit]: an atomic_int holding 0 or 1
#define KK_TAS_CALL(o, s) (__opencl_atomic_exchange(p, 1, o, s) != 0)
#define KK_CLEAR_CALL(o, s) __opencl_atomic_store(p, 0, o, s)
#define KK_FLAG(AS, N)                                                                              \
  KK_FORMS(bool, kk_flag_tas_##N, 24, 33, "atomic_flag_test_and_set", KK_P(N, i), KK_AT(AS, int) p, \
           KK_TAS_CALL)                                                                             \
  KK_FORMS(void, kk_flag_clear_##N, 17, 26, "atomic_flag_clear", KK_P(N, i), KK_AT(AS, int) p,      \
           KK_CLEAR_CALL)

// every atomic of one type on objects in one address space
#define KK_INTEGER(T, C, AS, N) KK_FETCH_ALL(T, C, AS, N) KK_MOVES(T, C, AS, N)
#define KK_ALL_TYPES(AS, N)                                                                         \
  KK_INTEGER(int, i, AS, N) KK_INTEGER(uint, j, AS, N) KK_INTEGER(long, l, AS, N)                   \
  KK_INTEGER(ulong, m, AS, N) KK_MOVES(float, f, AS, N) KK_MOVES(double, d, AS, N) KK_FLAG(AS, N)

// compare-exchange of one type on global and local objects, `expected` in global, local or
// private memory (generic objects take a generic `expected`: KK_CAS_BOTH(..., __generic, 4, ...))
#define KK_CAS_NAMED(T, C)                                                                          \
  KK_CAS_BOTH(T, C, __global, 1, __global, g, "PU3AS1")                                             \
  KK_CAS_BOTH(T, C, __global, 1, __local, l, "PU3AS3")                                              \
  KK_CAS_BOTH(T, C, __global, 1, __private, p, "P")                                                 \
  KK_CAS_BOTH(T, C, __local, 3, __global, g, "PU3AS1")                                              \
  KK_CAS_BOTH(T, C, __local, 3, __local, l, "PU3AS3")                                               \
  KK_CAS_BOTH(T, C, __local, 3, __private, p, "P")

#endif
