// Written for kernelkit's tests, not taken from ../shared/reference: a kernel with the parameter list
// that AMD's compilers recorded for `myKernel` in tests/reference/amdil/catalyst-clo/alltypes*.clo
// (;ARGSTART block: ;value/;image/;pointer/;counter records, ;constarg, ;reflection type names) and
// tests/reference/amdcl2/alltypes.clo.regen (the same list without the counter). See README.md.

// ;reflection:67:typ1 on a ;value:v67:u64:4 argument: a typedef of ulong4
typedef ulong4 typ1;

#ifdef cl_ext_atomic_counters_32
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
#endif

kernel void myKernel(
    // v0..v47: integer scalars and vectors of 1, 2, 3, 4, 8, 16 components (;value, u8..i64)
    uchar v0, uchar2 v1, uchar3 v2, uchar4 v3, uchar8 v4, uchar16 v5,
    char v6, char2 v7, char3 v8, char4 v9, char8 v10, char16 v11,
    ushort v12, ushort2 v13, ushort3 v14, ushort4 v15, ushort8 v16, ushort16 v17,
    short v18, short2 v19, short3 v20, short4 v21, short8 v22, short16 v23,
    uint v24, uint2 v25, uint3 v26, uint4 v27, uint8 v28, uint16 v29,
    int v30, int2 v31, int3 v32, int4 v33, int8 v34, int16 v35,
    ulong v36, ulong2 v37, ulong3 v38, ulong4 v39, ulong8 v40, ulong16 v41,
    long v42, long2 v43, long3 v44, long4 v45, long8 v46, long16 v47,
    // v48: ;sampler:v48 (a sampler argument, not a constant sampler)
    sampler_t v48,
    // v49..v60: ;image records, RO then WO of each dimension 1D 2D 3D 1DA 1DB 2DA
    read_only image1d_t v49, write_only image1d_t v50,
    read_only image2d_t v51, write_only image2d_t v52,
    read_only image3d_t v53, write_only image3d_t v54,
    read_only image1d_array_t v55, write_only image1d_array_t v56,
    read_only image1d_buffer_t v57, write_only image1d_buffer_t v58,
    read_only image2d_array_t v59, write_only image2d_array_t v60,
    // v61..v66: void* (;reflection) in uav, hl and c memory, each once with ;constarg and once without
    global const void *v61, global void *v62,
    local const void *v63, local void *v64,
    constant const void *v65, constant void *v66,
    typ1 v67,
    // v68: the volatile field of its ;pointer record set; v69: the restrict field set
    global volatile void *v68, global void *restrict v69
#ifdef cl_ext_atomic_counters_32
    // v70: ;counter:v70:32 (only where the target has the append counters: not in the CL2 binary)
    , counter32_t v70
#endif
    )
{
    // work-item 0 stores a few of its values through the two writable global pointers
    if (get_global_id(0) == 0) {
        *(global ulong *)v62 = v36 + v67.w + (ulong)v42;
        *(global uint *)v69 = v24 + (uint)v30 + v0;
    }
}
