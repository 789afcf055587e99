// kernelkit amdhsa: OpenCL image and sampler builtins on amdgcn image instructions.
// Included by mux_builtins.cl (clang, amdgcn-amd-amdhsa, OpenCL C 2.0).
//
// Image and sampler arguments are constant-address-space pointers to hardware descriptors, laid
// out as the ROCm runtime lays them out (and ROCm's device libraries read them):
//   image: T# resource descriptor (8 dwords; a 1D buffer image has a 4-dword V# buffer
//          descriptor instead), then dword 8 = CL channel data type, dword 9 = CL channel order,
//          dword 10 = width;
//   sampler: S# sampler descriptor (4 dwords).
// Height, depth and array size are T# bit-fields (gfx9+: height-1 at bit 78, 14 bits; depth-1
// and last array slice at bit 128, 13 bits; before gfx9 the array size at bit 173).
// Literal samplers (`constant sampler_t s = CLK_...`) reach the kernel through clang's
// __translate_sampler_initializer(value): a pointer into a table of S# built here.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_depth_images : enable

typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef u32 uint4 __attribute__((ext_vector_type(4)));
typedef u32 uint8 __attribute__((ext_vector_type(8)));
typedef __constant u32 *kk_desc;
typedef __SIZE_TYPE__ size_t;

#define OVL __attribute__((overloadable, always_inline))
#define DESC(x) __builtin_astype((x), kk_desc)
#define TSHARP(d) (*(__constant uint8 *)(d))
#define VSHARP(d) (*(__constant uint4 *)(d))
#define SSHARP(d) (*(__constant uint4 *)(d))
#define BITS(d, bit, width) ((d[(bit) >> 5] >> ((bit) & 31)) & ((1u << (width)) - 1u))

// ---------------------------------------------------------------- amdgcn image intrinsics
#define LOAD_DECLS(R, RN) \
  R kk_load_1d_##RN(int, int, uint8, int, int) __asm("llvm.amdgcn.image.load.1d." #RN ".i32"); \
  R kk_load_1darray_##RN(int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.load.1darray." #RN ".i32"); \
  R kk_load_2d_##RN(int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.load.2d." #RN ".i32"); \
  R kk_load_2darray_##RN(int, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.load.2darray." #RN ".i32"); \
  R kk_load_3d_##RN(int, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.load.3d." #RN ".i32"); \
  void kk_store_1d_##RN(R, int, int, uint8, int, int) __asm("llvm.amdgcn.image.store.1d." #RN ".i32"); \
  void kk_store_1darray_##RN(R, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.store.1darray." #RN ".i32"); \
  void kk_store_2d_##RN(R, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.store.2d." #RN ".i32"); \
  void kk_store_2darray_##RN(R, int, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.store.2darray." #RN ".i32"); \
  void kk_store_3d_##RN(R, int, int, int, int, uint8, int, int) __asm("llvm.amdgcn.image.store.3d." #RN ".i32");

// gfx90a has no sample_lz (no "extended image instructions"): it samples at the implicit level,
// which the S# clamps to level 0 (MAX_LOD 0)
#ifdef __gfx90a__
#define SAMPLE_OP "sample"
#else
#define SAMPLE_OP "sample.lz"
#endif
#define SAMPLE_DECLS(R, RN) \
  R kk_sample_1d_##RN(int, float, uint8, uint4, bool, int, int) __asm("llvm.amdgcn.image." SAMPLE_OP ".1d." #RN ".f32"); \
  R kk_sample_1darray_##RN(int, float, float, uint8, uint4, bool, int, int) __asm("llvm.amdgcn.image." SAMPLE_OP ".1darray." #RN ".f32"); \
  R kk_sample_2d_##RN(int, float, float, uint8, uint4, bool, int, int) __asm("llvm.amdgcn.image." SAMPLE_OP ".2d." #RN ".f32"); \
  R kk_sample_2darray_##RN(int, float, float, float, uint8, uint4, bool, int, int) __asm("llvm.amdgcn.image." SAMPLE_OP ".2darray." #RN ".f32"); \
  R kk_sample_3d_##RN(int, float, float, float, uint8, uint4, bool, int, int) __asm("llvm.amdgcn.image." SAMPLE_OP ".3d." #RN ".f32");

LOAD_DECLS(float4, v4f32)
LOAD_DECLS(half4, v4f16)
LOAD_DECLS(float, f32)
SAMPLE_DECLS(float4, v4f32)
SAMPLE_DECLS(half4, v4f16)
SAMPLE_DECLS(float, f32)
float4 kk_buffer_load_v4f32(uint4, int, int, int, int) __asm("llvm.amdgcn.struct.buffer.load.format.v4f32");
half4 kk_buffer_load_v4f16(uint4, int, int, int, int) __asm("llvm.amdgcn.struct.buffer.load.format.v4f16");
void kk_buffer_store_v4f32(float4, uint4, int, int, int, int) __asm("llvm.amdgcn.struct.buffer.store.format.v4f32");
void kk_buffer_store_v4f16(half4, uint4, int, int, int, int) __asm("llvm.amdgcn.struct.buffer.store.format.v4f16");

// ---------------------------------------------------------------- per-dimension access
// coordinates as the OpenCL overloads take them: 1d int, 1darray int2, 2d int2, 2darray int4, 3d int4
#define DMASK(RN) (sizeof(RN##_t) == 4 ? 1 : 15)
typedef float4 v4f32_t;
typedef half4 v4f16_t;
typedef float f32_t;

#define ACCESS(R, RN) \
  static INLINE R load_1d_##RN(kk_desc d, int c) { return kk_load_1d_##RN(DMASK(RN), c, TSHARP(d), 0, 0); } \
  static INLINE R load_1darray_##RN(kk_desc d, int2 c) { return kk_load_1darray_##RN(DMASK(RN), c.x, c.y, TSHARP(d), 0, 0); } \
  static INLINE R load_2d_##RN(kk_desc d, int2 c) { return kk_load_2d_##RN(DMASK(RN), c.x, c.y, TSHARP(d), 0, 0); } \
  static INLINE R load_2darray_##RN(kk_desc d, int4 c) { return kk_load_2darray_##RN(DMASK(RN), c.x, c.y, c.z, TSHARP(d), 0, 0); } \
  static INLINE R load_3d_##RN(kk_desc d, int4 c) { return kk_load_3d_##RN(DMASK(RN), c.x, c.y, c.z, TSHARP(d), 0, 0); } \
  static INLINE void store_1d_##RN(kk_desc d, int c, R v) { kk_store_1d_##RN(v, DMASK(RN), c, TSHARP(d), 0, 0); } \
  static INLINE void store_1darray_##RN(kk_desc d, int2 c, R v) { kk_store_1darray_##RN(v, DMASK(RN), c.x, c.y, TSHARP(d), 0, 0); } \
  static INLINE void store_2d_##RN(kk_desc d, int2 c, R v) { kk_store_2d_##RN(v, DMASK(RN), c.x, c.y, TSHARP(d), 0, 0); } \
  static INLINE void store_2darray_##RN(kk_desc d, int4 c, R v) { kk_store_2darray_##RN(v, DMASK(RN), c.x, c.y, c.z, TSHARP(d), 0, 0); } \
  static INLINE void store_3d_##RN(kk_desc d, int4 c, R v) { kk_store_3d_##RN(v, DMASK(RN), c.x, c.y, c.z, TSHARP(d), 0, 0); } \
  static INLINE R sample_1d_##RN(kk_desc d, kk_desc s, float c) { \
    c = snap(c, width(d), s); \
    return kk_sample_1d_##RN(DMASK(RN), c, TSHARP(d), SSHARP(s), false, 0, 0); } \
  static INLINE R sample_1darray_##RN(kk_desc d, kk_desc s, float2 c) { \
    return kk_sample_1darray_##RN(DMASK(RN), snap(c.x, width(d), s), __builtin_rintf(c.y), TSHARP(d), SSHARP(s), false, 0, 0); } \
  static INLINE R sample_2d_##RN(kk_desc d, kk_desc s, float2 c) { \
    return kk_sample_2d_##RN(DMASK(RN), snap(c.x, width(d), s), snap(c.y, height(d), s), TSHARP(d), SSHARP(s), false, 0, 0); } \
  static INLINE R sample_2darray_##RN(kk_desc d, kk_desc s, float4 c) { \
    return kk_sample_2darray_##RN(DMASK(RN), snap(c.x, width(d), s), snap(c.y, height(d), s), __builtin_rintf(c.z), \
                                  TSHARP(d), SSHARP(s), false, 0, 0); } \
  static INLINE R sample_3d_##RN(kk_desc d, kk_desc s, float4 c) { \
    return kk_sample_3d_##RN(DMASK(RN), snap(c.x, width(d), s), snap(c.y, height(d), s), snap(c.z, depth(d), s), \
                             TSHARP(d), SSHARP(s), false, 0, 0); }

static INLINE int width(kk_desc d) { return (int)d[10]; }
static INLINE int height(kk_desc d) { return (int)BITS(d, 78, 14) + 1; }
static INLINE int depth(kk_desc d) { return (int)BITS(d, 128, 13) + 1; }
#if defined(__GFX9__) || defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
static INLINE int array_size(kk_desc d) { return (int)BITS(d, 128, 13) + 1; }
#else
static INLINE int array_size(kk_desc d) { return (int)BITS(d, 173, 13) + 1; }
#endif

// Nearest filtering: the coordinate is snapped to the texel it falls in before sampling (the
// hardware's reduced interpolation precision could otherwise pick the neighbour).  S# bit 15
// forces unnormalized coordinates, bit 84 (XY_MAG_FILTER) is set for linear filtering.
static INLINE float snap(float c, int size, kk_desc s) {
  if (BITS(s, 84, 1))
    return c;
  float n = BITS(s, 15, 1) ? 1.0f : (float)size;
  return __builtin_floorf(c * n) / n;
}

ACCESS(float4, v4f32)
ACCESS(half4, v4f16)
ACCESS(float, f32)

// ---------------------------------------------------------------- OpenCL overloads
#define I4(v) __builtin_astype((v), int4)
#define U4(v) __builtin_astype((v), uint4)
#define F4(v) __builtin_astype((v), float4)

// reads without a sampler (integer coordinates): read_only and read_write images
#define READS(ACC, IMG, DIM, CT) \
  OVL float4 read_imagef(ACC IMG i, CT c) { return load_##DIM##_v4f32(DESC(i), c); } \
  OVL int4 read_imagei(ACC IMG i, CT c) { return I4(load_##DIM##_v4f32(DESC(i), c)); } \
  OVL uint4 read_imageui(ACC IMG i, CT c) { return U4(load_##DIM##_v4f32(DESC(i), c)); } \
  OVL half4 read_imageh(ACC IMG i, CT c) { return load_##DIM##_v4f16(DESC(i), c); }
// reads with a sampler: integer and float coordinates (read_only images)
#define SAMPLED(IMG, DIM, CT, FT) \
  OVL float4 read_imagef(read_only IMG i, sampler_t s, FT c) { return sample_##DIM##_v4f32(DESC(i), DESC(s), c); } \
  OVL int4 read_imagei(read_only IMG i, sampler_t s, FT c) { return I4(sample_##DIM##_v4f32(DESC(i), DESC(s), c)); } \
  OVL uint4 read_imageui(read_only IMG i, sampler_t s, FT c) { return U4(sample_##DIM##_v4f32(DESC(i), DESC(s), c)); } \
  OVL half4 read_imageh(read_only IMG i, sampler_t s, FT c) { return sample_##DIM##_v4f16(DESC(i), DESC(s), c); } \
  OVL float4 read_imagef(read_only IMG i, sampler_t s, CT c) { return sample_##DIM##_v4f32(DESC(i), DESC(s), TOF_##CT(c)); } \
  OVL int4 read_imagei(read_only IMG i, sampler_t s, CT c) { return I4(sample_##DIM##_v4f32(DESC(i), DESC(s), TOF_##CT(c))); } \
  OVL uint4 read_imageui(read_only IMG i, sampler_t s, CT c) { return U4(sample_##DIM##_v4f32(DESC(i), DESC(s), TOF_##CT(c))); } \
  OVL half4 read_imageh(read_only IMG i, sampler_t s, CT c) { return sample_##DIM##_v4f16(DESC(i), DESC(s), TOF_##CT(c)); }
#define TOF_int(c) ((float)(c))
#define TOF_int2(c) __builtin_convertvector((c), float2)
#define TOF_int4(c) __builtin_convertvector((c), float4)
#define WRITES(ACC, IMG, DIM, CT) \
  OVL void write_imagef(ACC IMG i, CT c, float4 v) { store_##DIM##_v4f32(DESC(i), c, v); } \
  OVL void write_imagei(ACC IMG i, CT c, int4 v) { store_##DIM##_v4f32(DESC(i), c, F4(v)); } \
  OVL void write_imageui(ACC IMG i, CT c, uint4 v) { store_##DIM##_v4f32(DESC(i), c, F4(v)); } \
  OVL void write_imageh(ACC IMG i, CT c, half4 v) { store_##DIM##_v4f16(DESC(i), c, v); }
#define DEPTH_READS(ACC, IMG, DIM, CT) \
  OVL float read_imagef(ACC IMG i, CT c) { return load_##DIM##_f32(DESC(i), c); }
#define DEPTH_SAMPLED(IMG, DIM, CT, FT) \
  OVL float read_imagef(read_only IMG i, sampler_t s, FT c) { return sample_##DIM##_f32(DESC(i), DESC(s), c); } \
  OVL float read_imagef(read_only IMG i, sampler_t s, CT c) { return sample_##DIM##_f32(DESC(i), DESC(s), TOF_##CT(c)); }
#define DEPTH_WRITES(ACC, IMG, DIM, CT) \
  OVL void write_imagef(ACC IMG i, CT c, float v) { store_##DIM##_f32(DESC(i), c, v); }

// image queries (every access qualifier)
#define Q_COMMON(ACC, IMG) \
  OVL int get_image_width(ACC IMG i) { return width(DESC(i)); } \
  OVL int get_image_channel_data_type(ACC IMG i) { return (int)DESC(i)[8]; } \
  OVL int get_image_channel_order(ACC IMG i) { return (int)DESC(i)[9]; }
#define Q_2D(ACC, IMG) Q_COMMON(ACC, IMG) \
  OVL int get_image_height(ACC IMG i) { return height(DESC(i)); } \
  OVL int2 get_image_dim(ACC IMG i) { return (int2)(width(DESC(i)), height(DESC(i))); }
#define Q_ARRAY(ACC, IMG) OVL size_t get_image_array_size(ACC IMG i) { return (size_t)array_size(DESC(i)); }
#define Q_3D(ACC, IMG) Q_COMMON(ACC, IMG) \
  OVL int get_image_height(ACC IMG i) { return height(DESC(i)); } \
  OVL int get_image_depth(ACC IMG i) { return depth(DESC(i)); } \
  OVL int4 get_image_dim(ACC IMG i) { return (int4)(width(DESC(i)), height(DESC(i)), depth(DESC(i)), 0); }

#define ALL_ACCESS(M, ...) M(read_only, __VA_ARGS__) M(write_only, __VA_ARGS__) M(read_write, __VA_ARGS__)
#define RW_ACCESS(M, ...) M(read_only, __VA_ARGS__) M(read_write, __VA_ARGS__)
#define WR_ACCESS(M, ...) M(write_only, __VA_ARGS__) M(read_write, __VA_ARGS__)

RW_ACCESS(READS, image1d_t, 1d, int)
RW_ACCESS(READS, image1d_array_t, 1darray, int2)
RW_ACCESS(READS, image2d_t, 2d, int2)
RW_ACCESS(READS, image2d_array_t, 2darray, int4)
RW_ACCESS(READS, image3d_t, 3d, int4)
SAMPLED(image1d_t, 1d, int, float)
SAMPLED(image1d_array_t, 1darray, int2, float2)
SAMPLED(image2d_t, 2d, int2, float2)
SAMPLED(image2d_array_t, 2darray, int4, float4)
SAMPLED(image3d_t, 3d, int4, float4)
WR_ACCESS(WRITES, image1d_t, 1d, int)
WR_ACCESS(WRITES, image1d_array_t, 1darray, int2)
WR_ACCESS(WRITES, image2d_t, 2d, int2)
WR_ACCESS(WRITES, image2d_array_t, 2darray, int4)
WR_ACCESS(WRITES, image3d_t, 3d, int4)
RW_ACCESS(DEPTH_READS, image2d_depth_t, 2d, int2)
RW_ACCESS(DEPTH_READS, image2d_array_depth_t, 2darray, int4)
DEPTH_SAMPLED(image2d_depth_t, 2d, int2, float2)
DEPTH_SAMPLED(image2d_array_depth_t, 2darray, int4, float4)
WR_ACCESS(DEPTH_WRITES, image2d_depth_t, 2d, int2)
WR_ACCESS(DEPTH_WRITES, image2d_array_depth_t, 2darray, int4)

ALL_ACCESS(Q_COMMON, image1d_t)
ALL_ACCESS(Q_COMMON, image1d_buffer_t)
ALL_ACCESS(Q_COMMON, image1d_array_t)
ALL_ACCESS(Q_ARRAY, image1d_array_t)
ALL_ACCESS(Q_2D, image2d_t)
ALL_ACCESS(Q_2D, image2d_array_t)
ALL_ACCESS(Q_ARRAY, image2d_array_t)
ALL_ACCESS(Q_2D, image2d_depth_t)
ALL_ACCESS(Q_2D, image2d_array_depth_t)
ALL_ACCESS(Q_ARRAY, image2d_array_depth_t)
ALL_ACCESS(Q_3D, image3d_t)

// 1D buffer images: typed buffer loads and stores through the V#
#define BUFFER_READS(ACC, X) \
  OVL float4 read_imagef(ACC image1d_buffer_t i, int c) { return kk_buffer_load_v4f32(VSHARP(DESC(i)), c, 0, 0, 0); } \
  OVL int4 read_imagei(ACC image1d_buffer_t i, int c) { return I4(kk_buffer_load_v4f32(VSHARP(DESC(i)), c, 0, 0, 0)); } \
  OVL uint4 read_imageui(ACC image1d_buffer_t i, int c) { return U4(kk_buffer_load_v4f32(VSHARP(DESC(i)), c, 0, 0, 0)); } \
  OVL half4 read_imageh(ACC image1d_buffer_t i, int c) { return kk_buffer_load_v4f16(VSHARP(DESC(i)), c, 0, 0, 0); }
#define BUFFER_WRITES(ACC, X) \
  OVL void write_imagef(ACC image1d_buffer_t i, int c, float4 v) { kk_buffer_store_v4f32(v, VSHARP(DESC(i)), c, 0, 0, 0); } \
  OVL void write_imagei(ACC image1d_buffer_t i, int c, int4 v) { kk_buffer_store_v4f32(F4(v), VSHARP(DESC(i)), c, 0, 0, 0); } \
  OVL void write_imageui(ACC image1d_buffer_t i, int c, uint4 v) { kk_buffer_store_v4f32(F4(v), VSHARP(DESC(i)), c, 0, 0, 0); } \
  OVL void write_imageh(ACC image1d_buffer_t i, int c, half4 v) { kk_buffer_store_v4f16(v, VSHARP(DESC(i)), c, 0, 0, 0); }
RW_ACCESS(BUFFER_READS, 0)
WR_ACCESS(BUFFER_WRITES, 0)

// ---------------------------------------------------------------- literal samplers
// OpenCL sampler value (kernelkit_opencl.h): bit 0 normalized coordinates, bits 1-3 addressing
// mode (none 0, clamp-to-edge 2, clamp 4, repeat 6, mirrored repeat 8), bits 4-5 filter
// (nearest 0x10, linear 0x20).  S# fields used: CLAMP_X/Y/Z (bits 0-8), FORCE_UNNORMALIZED
// (bit 15), MIN_LOD/MAX_LOD 0, XY_MAG_FILTER/XY_MIN_FILTER (bits 84-87), BORDER_COLOR_TYPE 0
// (transparent black).  Hardware clamp codes: wrap 0, mirror 1, clamp-last-texel 2, clamp-border 6.
#define SQ_CLAMP(v) ((((v) >> 1) & 7) == 3 ? 0u : (((v) >> 1) & 7) == 4 ? 1u : (((v) >> 1) & 7) == 2 ? 6u : 2u)
#define SQ_WORD0(v) (SQ_CLAMP(v) | SQ_CLAMP(v) << 3 | SQ_CLAMP(v) << 6 | ((v) & 1 ? 0u : 1u << 15))
#define SQ_WORD2(v) (((v) & 0x20) ? (1u << 20 | 1u << 22) : 0u)
#define SQ(v) {SQ_WORD0(v), 0u, SQ_WORD2(v), 0u}
#define SQ8(v) SQ(v), SQ(v + 1), SQ(v + 2), SQ(v + 3), SQ(v + 4), SQ(v + 5), SQ(v + 6), SQ(v + 7)
__constant u32 kk_literal_samplers[64][4] = {SQ8(0), SQ8(8), SQ8(16), SQ8(24), SQ8(32), SQ8(40), SQ8(48), SQ8(56)};

INLINE __constant u32 *__translate_sampler_initializer(int value) { return kk_literal_samplers[value & 63]; }
