/* kernelkit_opencl.h — kernelkit's own OpenCL C base header.
 *
 * Included before every OpenCL C source kernelkit compiles (clang's -include), together with
 * clang's -fdeclare-opencl-builtins, which declares the builtin functions. This header supplies
 * what those declarations and OpenCL C programs need besides the language itself: the scalar
 * and vector type names, size_t/ptrdiff_t/intptr_t/uintptr_t, cl_mem_fence_flags, memory_order,
 * memory_scope, as_<type>(), the standard macros and the CLK_* constants (OpenCL C 3.0 spec
 * sections 6.3 and 6.15; numeric values of image constants as in the OpenCL API headers).
 * Image, sampler, event, queue, reserve_id and pipe types are built into clang.
 */
#ifndef KERNELKIT_OPENCL_H
#define KERNELKIT_OPENCL_H

#define __KERNELKIT__ 1

/* 6.13 (predefined macros): the device's OpenCL version; clang defines only __OPENCL_C_VERSION__. */
#ifndef __OPENCL_VERSION__
#define __OPENCL_VERSION__ __OPENCL_C_VERSION__
#endif

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define __KERNELKIT_HAS_DOUBLE 1
#endif
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define __KERNELKIT_HAS_HALF 1
#endif

/* Feature macros clang leaves to the header. -fdeclare-opencl-builtins offers a builtin only
 * when the macro its declaration is tied to is defined. (OpenCL C 3.0 spec 6.2.1) */
#if (__OPENCL_C_VERSION__ == 300) && (defined(__SPIR__) || defined(__SPIRV__))
#ifndef __opencl_c_work_group_collective_functions
#define __opencl_c_work_group_collective_functions 1
#endif
#ifndef __opencl_c_read_write_images
#define __opencl_c_read_write_images 1
#endif
#endif
#if !defined(__opencl_c_generic_address_space)
/* builtins with pointer parameters get __global/__local/__private overloads */
#define __opencl_c_named_address_space_builtins 1
#endif
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
#define __opencl_subgroup_builtins 1
#endif

/* ---- scalar types (6.3.1) ---- */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

/* ---- vector types, n = 2, 3, 4, 8, 16 (6.3.2) ---- */
typedef char char2 __attribute__((ext_vector_type(2)));
typedef char char3 __attribute__((ext_vector_type(3)));
typedef char char4 __attribute__((ext_vector_type(4)));
typedef char char8 __attribute__((ext_vector_type(8)));
typedef char char16 __attribute__((ext_vector_type(16)));
typedef uchar uchar2 __attribute__((ext_vector_type(2)));
typedef uchar uchar3 __attribute__((ext_vector_type(3)));
typedef uchar uchar4 __attribute__((ext_vector_type(4)));
typedef uchar uchar8 __attribute__((ext_vector_type(8)));
typedef uchar uchar16 __attribute__((ext_vector_type(16)));
typedef short short2 __attribute__((ext_vector_type(2)));
typedef short short3 __attribute__((ext_vector_type(3)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef ushort ushort2 __attribute__((ext_vector_type(2)));
typedef ushort ushort3 __attribute__((ext_vector_type(3)));
typedef ushort ushort4 __attribute__((ext_vector_type(4)));
typedef ushort ushort8 __attribute__((ext_vector_type(8)));
typedef ushort ushort16 __attribute__((ext_vector_type(16)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int3 __attribute__((ext_vector_type(3)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef int int8 __attribute__((ext_vector_type(8)));
typedef int int16 __attribute__((ext_vector_type(16)));
typedef uint uint2 __attribute__((ext_vector_type(2)));
typedef uint uint3 __attribute__((ext_vector_type(3)));
typedef uint uint4 __attribute__((ext_vector_type(4)));
typedef uint uint8 __attribute__((ext_vector_type(8)));
typedef uint uint16 __attribute__((ext_vector_type(16)));
typedef long long2 __attribute__((ext_vector_type(2)));
typedef long long3 __attribute__((ext_vector_type(3)));
typedef long long4 __attribute__((ext_vector_type(4)));
typedef long long8 __attribute__((ext_vector_type(8)));
typedef long long16 __attribute__((ext_vector_type(16)));
typedef ulong ulong2 __attribute__((ext_vector_type(2)));
typedef ulong ulong3 __attribute__((ext_vector_type(3)));
typedef ulong ulong4 __attribute__((ext_vector_type(4)));
typedef ulong ulong8 __attribute__((ext_vector_type(8)));
typedef ulong ulong16 __attribute__((ext_vector_type(16)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float3 __attribute__((ext_vector_type(3)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef float float16 __attribute__((ext_vector_type(16)));
#ifdef __KERNELKIT_HAS_DOUBLE
typedef double double2 __attribute__((ext_vector_type(2)));
typedef double double3 __attribute__((ext_vector_type(3)));
typedef double double4 __attribute__((ext_vector_type(4)));
typedef double double8 __attribute__((ext_vector_type(8)));
typedef double double16 __attribute__((ext_vector_type(16)));
#endif
#ifdef __KERNELKIT_HAS_HALF
typedef half half2 __attribute__((ext_vector_type(2)));
typedef half half3 __attribute__((ext_vector_type(3)));
typedef half half4 __attribute__((ext_vector_type(4)));
typedef half half8 __attribute__((ext_vector_type(8)));
typedef half half16 __attribute__((ext_vector_type(16)));
#endif

/* ---- as_<type>() reinterpretation (6.5.2) ---- */
#define as_char(x) __builtin_astype((x), char)
#define as_char2(x) __builtin_astype((x), char2)
#define as_char3(x) __builtin_astype((x), char3)
#define as_char4(x) __builtin_astype((x), char4)
#define as_char8(x) __builtin_astype((x), char8)
#define as_char16(x) __builtin_astype((x), char16)
#define as_uchar(x) __builtin_astype((x), uchar)
#define as_uchar2(x) __builtin_astype((x), uchar2)
#define as_uchar3(x) __builtin_astype((x), uchar3)
#define as_uchar4(x) __builtin_astype((x), uchar4)
#define as_uchar8(x) __builtin_astype((x), uchar8)
#define as_uchar16(x) __builtin_astype((x), uchar16)
#define as_short(x) __builtin_astype((x), short)
#define as_short2(x) __builtin_astype((x), short2)
#define as_short3(x) __builtin_astype((x), short3)
#define as_short4(x) __builtin_astype((x), short4)
#define as_short8(x) __builtin_astype((x), short8)
#define as_short16(x) __builtin_astype((x), short16)
#define as_ushort(x) __builtin_astype((x), ushort)
#define as_ushort2(x) __builtin_astype((x), ushort2)
#define as_ushort3(x) __builtin_astype((x), ushort3)
#define as_ushort4(x) __builtin_astype((x), ushort4)
#define as_ushort8(x) __builtin_astype((x), ushort8)
#define as_ushort16(x) __builtin_astype((x), ushort16)
#define as_int(x) __builtin_astype((x), int)
#define as_int2(x) __builtin_astype((x), int2)
#define as_int3(x) __builtin_astype((x), int3)
#define as_int4(x) __builtin_astype((x), int4)
#define as_int8(x) __builtin_astype((x), int8)
#define as_int16(x) __builtin_astype((x), int16)
#define as_uint(x) __builtin_astype((x), uint)
#define as_uint2(x) __builtin_astype((x), uint2)
#define as_uint3(x) __builtin_astype((x), uint3)
#define as_uint4(x) __builtin_astype((x), uint4)
#define as_uint8(x) __builtin_astype((x), uint8)
#define as_uint16(x) __builtin_astype((x), uint16)
#define as_long(x) __builtin_astype((x), long)
#define as_long2(x) __builtin_astype((x), long2)
#define as_long3(x) __builtin_astype((x), long3)
#define as_long4(x) __builtin_astype((x), long4)
#define as_long8(x) __builtin_astype((x), long8)
#define as_long16(x) __builtin_astype((x), long16)
#define as_ulong(x) __builtin_astype((x), ulong)
#define as_ulong2(x) __builtin_astype((x), ulong2)
#define as_ulong3(x) __builtin_astype((x), ulong3)
#define as_ulong4(x) __builtin_astype((x), ulong4)
#define as_ulong8(x) __builtin_astype((x), ulong8)
#define as_ulong16(x) __builtin_astype((x), ulong16)
#define as_float(x) __builtin_astype((x), float)
#define as_float2(x) __builtin_astype((x), float2)
#define as_float3(x) __builtin_astype((x), float3)
#define as_float4(x) __builtin_astype((x), float4)
#define as_float8(x) __builtin_astype((x), float8)
#define as_float16(x) __builtin_astype((x), float16)
#ifdef __KERNELKIT_HAS_DOUBLE
#define as_double(x) __builtin_astype((x), double)
#define as_double2(x) __builtin_astype((x), double2)
#define as_double3(x) __builtin_astype((x), double3)
#define as_double4(x) __builtin_astype((x), double4)
#define as_double8(x) __builtin_astype((x), double8)
#define as_double16(x) __builtin_astype((x), double16)
#endif
#ifdef __KERNELKIT_HAS_HALF
#define as_half(x) __builtin_astype((x), half)
#define as_half2(x) __builtin_astype((x), half2)
#define as_half3(x) __builtin_astype((x), half3)
#define as_half4(x) __builtin_astype((x), half4)
#define as_half8(x) __builtin_astype((x), half8)
#define as_half16(x) __builtin_astype((x), half16)
#endif

/* ---- memory fences and synchronisation (6.15.9) ---- */
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_IMAGE_MEM_FENCE 0x04

#if defined(__OPENCL_CPP_VERSION__) || (__OPENCL_C_VERSION__ >= CL_VERSION_2_0)
/* ---- C11 atomics (6.15.12) ---- */
typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
#if defined(__opencl_c_atomic_order_seq_cst) || (__OPENCL_C_VERSION__ == CL_VERSION_2_0)
  memory_order_seq_cst = __ATOMIC_SEQ_CST
#endif
} memory_order;

typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
#if defined(__opencl_c_atomic_scope_all_devices) || (__OPENCL_C_VERSION__ == CL_VERSION_2_0)
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_all_devices = memory_scope_all_svm_devices,
#endif
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
#endif
} memory_scope;

#define ATOMIC_VAR_INIT(x) (x)
#define ATOMIC_FLAG_INIT 0

/* ---- device-side enqueue (6.15.16) ---- */
#define CLK_NULL_QUEUE 0
/* Null handles are zero: in SPIR IR clk_event_t and reserve_id_t are target extension types,
 * whose only constant is zeroinitializer (an all-ones value crashes clang 22 or yields IR that
 * does not verify). */
#define CLK_NULL_EVENT (__builtin_astype(((void *)0), clk_event_t))
#define CLK_NULL_RESERVE_ID (__builtin_astype(((void *)0), reserve_id_t))
#define CLK_SUCCESS 0
#define CLK_ENQUEUE_FAILURE -101
#define CLK_INVALID_QUEUE -102
#define CLK_INVALID_NDRANGE -160
#define CLK_INVALID_EVENT_WAIT_LIST -57
#define CLK_DEVICE_QUEUE_FULL -161
#define CLK_INVALID_ARG_SIZE -51
#define CLK_EVENT_ALLOCATION_FAILURE -100
#define CLK_OUT_OF_RESOURCES -5
#define MAX_WORK_DIM 3

typedef enum kernel_enqueue_flags_t {
  CLK_ENQUEUE_FLAGS_NO_WAIT = 0,
  CLK_ENQUEUE_FLAGS_WAIT_KERNEL = 1,
  CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP = 2
} kernel_enqueue_flags_t;

typedef enum clk_profiling_info {
  CLK_PROFILING_COMMAND_EXEC_TIME = 1
} clk_profiling_info;

typedef struct {
  unsigned int workDimension;
  size_t globalWorkOffset[MAX_WORK_DIM];
  size_t globalWorkSize[MAX_WORK_DIM];
  size_t localWorkSize[MAX_WORK_DIM];
} ndrange_t;
#endif /* OpenCL C 2.0+ */

/* ---- samplers (6.15.15.1) ---- */
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_NORMALIZED_COORDS_TRUE 1
#define CLK_ADDRESS_NONE 0
#define CLK_ADDRESS_CLAMP_TO_EDGE 2
#define CLK_ADDRESS_CLAMP 4
#define CLK_ADDRESS_REPEAT 6
#define CLK_ADDRESS_MIRRORED_REPEAT 8
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20

/* ---- image channel data types and orders (6.15.15.7; values of the API's CL_* names) ---- */
#define CLK_SNORM_INT8 0x10D0
#define CLK_SNORM_INT16 0x10D1
#define CLK_UNORM_INT8 0x10D2
#define CLK_UNORM_INT16 0x10D3
#define CLK_UNORM_SHORT_565 0x10D4
#define CLK_UNORM_SHORT_555 0x10D5
#define CLK_UNORM_INT_101010 0x10D6
#define CLK_SIGNED_INT8 0x10D7
#define CLK_SIGNED_INT16 0x10D8
#define CLK_SIGNED_INT32 0x10D9
#define CLK_UNSIGNED_INT8 0x10DA
#define CLK_UNSIGNED_INT16 0x10DB
#define CLK_UNSIGNED_INT32 0x10DC
#define CLK_HALF_FLOAT 0x10DD
#define CLK_FLOAT 0x10DE
#define CLK_UNORM_INT24 0x10DF
#define CLK_UNORM_INT_101010_2 0x10E0

#define CLK_R 0x10B0
#define CLK_A 0x10B1
#define CLK_RG 0x10B2
#define CLK_RA 0x10B3
#define CLK_RGB 0x10B4
#define CLK_RGBA 0x10B5
#define CLK_BGRA 0x10B6
#define CLK_ARGB 0x10B7
#define CLK_INTENSITY 0x10B8
#define CLK_LUMINANCE 0x10B9
#define CLK_Rx 0x10BA
#define CLK_RGx 0x10BB
#define CLK_RGBx 0x10BC
#define CLK_DEPTH 0x10BD
#define CLK_DEPTH_STENCIL 0x10BE
#define CLK_sRGB 0x10BF
#define CLK_sRGBx 0x10C0
#define CLK_sRGBA 0x10C1
#define CLK_sBGRA 0x10C2
#define CLK_ABGR 0x10C3

/* ---- integer limits (6.15.3) ---- */
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL

/* ---- floating-point limits and constants (6.15.2) ---- */
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f

#define MAXFLOAT FLT_MAX
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define FP_ILOGB0 INT_MIN
#define FP_ILOGBNAN INT_MAX

#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f

#ifdef __KERNELKIT_HAS_DOUBLE
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52

#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
#endif

#ifdef __KERNELKIT_HAS_HALF
#define HALF_DIG 3
#define HALF_MANT_DIG 11
#define HALF_MAX_10_EXP +4
#define HALF_MAX_EXP +16
#define HALF_MIN_10_EXP -4
#define HALF_MIN_EXP -13
#define HALF_RADIX 2
#define HALF_MAX ((0x1.ffcp15h))
#define HALF_MIN ((0x1.0p-14h))
#define HALF_EPSILON ((0x1.0p-10h))
#endif

/* ---- printf (6.15.14): OpenCL C 1.2 and later (1.0/1.1 forbid variadic functions) ---- */
#if __OPENCL_C_VERSION__ >= 120
int printf(__constant const char *restrict format, ...) __attribute__((format(printf, 1, 2)));
#endif

/* ---- kernel attribute shorthands (6.11) ---- */
#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) \
    __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel_exec(X, typen)

/* ---- cl_khr_extended_async_copies (OpenCL extension spec, "Extended Async Copies"): not among
 * clang's builtin tables; kernelkit.mux lowers them to __mux_dma_{read,write}_{2D,3D}. Offsets and
 * strides count elements of num_bytes_per_element bytes. ---- */
#define cl_khr_extended_async_copies 1
event_t __attribute__((overloadable)) async_work_group_copy_2D2D(
    __local void *dst, size_t dst_offset, const __global void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t src_total_line_length, size_t dst_total_line_length, event_t event);
event_t __attribute__((overloadable)) async_work_group_copy_2D2D(
    __global void *dst, size_t dst_offset, const __local void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines,
    size_t src_total_line_length, size_t dst_total_line_length, event_t event);
event_t __attribute__((overloadable)) async_work_group_copy_3D3D(
    __local void *dst, size_t dst_offset, const __global void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines, size_t num_planes,
    size_t src_total_line_length, size_t src_total_plane_spacing, size_t dst_total_line_length,
    size_t dst_total_plane_spacing, event_t event);
event_t __attribute__((overloadable)) async_work_group_copy_3D3D(
    __global void *dst, size_t dst_offset, const __local void *src, size_t src_offset,
    size_t num_bytes_per_element, size_t num_elements_per_line, size_t num_lines, size_t num_planes,
    size_t src_total_line_length, size_t src_total_plane_spacing, size_t dst_total_line_length,
    size_t dst_total_plane_spacing, event_t event);

/* ---- cl_ext_atomic_counters_32 (defined by targets that have the counters: AMD IL Evergreen and
 * later): an opaque __global handle passed as a kernel argument, incremented/decremented only
 * through these two functions ---- */
#ifdef cl_ext_atomic_counters_32
typedef __global struct _counter32_t *counter32_t;
uint __attribute__((overloadable)) atomic_inc(counter32_t counter);
uint __attribute__((overloadable)) atomic_dec(counter32_t counter);
/* a declaration of the name hides -fdeclare-opencl-builtins' own: the 1.x overloads again */
#define __KK_INC_DEC(f) \
    int __attribute__((overloadable)) f(volatile __global int *p); \
    uint __attribute__((overloadable)) f(volatile __global uint *p); \
    int __attribute__((overloadable)) f(volatile __local int *p); \
    uint __attribute__((overloadable)) f(volatile __local uint *p);
__KK_INC_DEC(atomic_inc)
__KK_INC_DEC(atomic_dec)
#undef __KK_INC_DEC
#endif

#endif /* KERNELKIT_OPENCL_H */
