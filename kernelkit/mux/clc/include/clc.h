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

/* The OpenCL C types, enums, fence flags and as_<type>() of kernels: kernelkit's base header
 * (kernelkit/frontend/include, on the include path of every library build). */
#include "kernelkit_opencl.h"

typedef atomic_int atomic_flag;

#define OVL __attribute__((overloadable))
#define KK_INLINE static inline __attribute__((always_inline))

/* Rounding modes of the software conversions (OpenCL C 3.0 s6.4.3.2). */
#define KK_RTE 0
#define KK_RTZ 1
#define KK_RTP 2
#define KK_RTN 3

/* Per-target switch: KK_TARGET_AMDGPU (no C library: portable math, see clc_math.h). */
#include "clc_scalar.h"

#endif
