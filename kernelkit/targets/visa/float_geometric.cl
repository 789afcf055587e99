/* length, distance and normalize of float vectors computed in float (kernelkit's builtin library
 * computes them in double, which Intel GPUs without fp64 cannot run). Overflow and underflow of
 * the sum of squares are avoided by scaling with powers of two (exact): x * 2^-80 when the sum
 * would overflow, x * 2^80 when it would lose precision to subnormals. OpenCL C 3.0 s6.15.6:
 * normalize of a vector with infinite elements takes +-1 for them and 0 for the others; of a zero
 * vector, the vector itself. Defined as kkv_<name>; kernelkit.targets.visa.irpipeline renames them
 * to the builtins' mangled names. */
#define OVL __attribute__((overloadable))

#define KKV_GEOMETRIC(F) \
  OVL float kkv_length(F x) { \
    float s = dot(x, x); \
    if (s < 0x1p126f && s > 0x1p-100f) return __builtin_sqrtf(s); \
    F a = fabs(x); \
    if (isinf(s) && any(isinf(a) ? (int)-1 : (int)0)) return INFINITY; \
    if (s >= 0x1p126f) { F y = x * 0x1p-80f; return __builtin_sqrtf(dot(y, y)) * 0x1p80f; } \
    F y = x * 0x1p80f; \
    return __builtin_sqrtf(dot(y, y)) * 0x1p-80f; \
  } \
  OVL float kkv_distance(F x, F y) { return kkv_length(x - y); } \
  OVL F kkv_normalize(F x) { \
    F a = fabs(x); \
    if (any(isinf(a) ? (int)-1 : (int)0)) x = isinf(a) ? copysign((F)1.0f, x) : (F)0.0f; \
    float s = dot(x, x); \
    F y = s >= 0x1p126f ? x * 0x1p-80f : s <= 0x1p-100f ? x * 0x1p80f : x; \
    s = dot(y, y); \
    if (s == 0.0f) return x; \
    return y / __builtin_sqrtf(s); \
  }

KKV_GEOMETRIC(float)
KKV_GEOMETRIC(float2)
KKV_GEOMETRIC(float3)
KKV_GEOMETRIC(float4)
