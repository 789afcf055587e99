/* kernelkit builtin library: common declarations for every library translation unit.
 *
 * The library is compiled with -cl-std=CL3.0 and every optional feature enabled, so one
 * build defines the overloads a kernel can reference under any OpenCL C version:
 * named-address-space pointers (private/global/local/constant, OpenCL 1.x style) and
 * generic pointers (OpenCL 2.0+).  Names are Itanium-mangled exactly as clang mangles the
 * declarations -fdeclare-opencl-builtins makes for kernels.
 */
#ifndef KERNELKIT_CLC_H
#define KERNELKIT_CLC_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

#define KK_VEC(T)                                              \
  typedef T T##2 __attribute__((ext_vector_type(2)));           \
  typedef T T##3 __attribute__((ext_vector_type(3)));           \
  typedef T T##4 __attribute__((ext_vector_type(4)));           \
  typedef T T##8 __attribute__((ext_vector_type(8)));           \
  typedef T T##16 __attribute__((ext_vector_type(16)));
KK_VEC(char)
KK_VEC(uchar)
KK_VEC(short)
KK_VEC(ushort)
KK_VEC(int)
KK_VEC(uint)
KK_VEC(long)
KK_VEC(ulong)
KK_VEC(float)
KK_VEC(double)
KK_VEC(half)
#undef KK_VEC

/* OpenCL C 3.0 s6.15.12.1: memory_order / memory_scope (the enum names are part of the
 * mangled names of the C11 atomics). */
typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_all_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
} memory_scope;

typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_IMAGE_MEM_FENCE 0x04

typedef atomic_int atomic_flag;

#define OVL __attribute__((overloadable))
#define KK_INLINE static inline __attribute__((always_inline))

#define as_char(x) __builtin_astype((x), char)
#define as_uchar(x) __builtin_astype((x), uchar)
#define as_short(x) __builtin_astype((x), short)
#define as_ushort(x) __builtin_astype((x), ushort)
#define as_int(x) __builtin_astype((x), int)
#define as_uint(x) __builtin_astype((x), uint)
#define as_long(x) __builtin_astype((x), long)
#define as_ulong(x) __builtin_astype((x), ulong)
#define as_float(x) __builtin_astype((x), float)
#define as_double(x) __builtin_astype((x), double)
#define as_half(x) __builtin_astype((x), half)

/* Rounding modes of the software conversions (OpenCL C 3.0 s6.4.3.2). */
#define KK_RTE 0
#define KK_RTZ 1
#define KK_RTP 2
#define KK_RTN 3

/* Per-target switch: KK_TARGET_AMDGPU (no C library: portable math, see clc_math.h). */
#include "clc_scalar.h"

#endif
