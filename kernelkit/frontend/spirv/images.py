"""SPIR-V images and samplers (OpenCL environment) -> the OpenCL C frontend's IR shape.

Types: OpTypeImage -> ``target("spirv.Image", void, Dim, Depth, Arrayed, MS, Sampled, Format, Access)``
(clang's own encoding of OpenCL image types), OpTypeSampler -> ``target("spirv.Sampler")``.
Instructions become OpenCL C builtin calls with clang's mangling: OpImageRead/OpImageWrite ->
read_image{f,i,ui,h}/write_image{f,i,ui,h} (ZeroExtend image operands, or an unsigned texel,
select ``ui``), OpSampledImage + OpImageSampleExplicitLod -> read_image*(image, sampler, coord),
OpImageQuerySize[Lod] -> get_image_width/height/depth/array_size per component, OpConstantSampler ->
``__translate_sampler_initializer`` with the OpenCL sampler bits (OpenCL C 3.0 s6.15.15.1).
"""

from __future__ import annotations

from kernelkit.ir import types as T

# SPIR-V §3.8 Dim -> OpenCL C image type stem
DIM_NAMES = {0: "image1d", 1: "image2d", 2: "image3d", 5: "image1d_buffer"}
# §3.37 Access Qualifier -> (OpenCL C access qualifier, mangling suffix)
ACCESS = {0: ("read_only", "ro"), 1: ("write_only", "wo"), 2: ("read_write", "rw")}
# §3.9 Sampler Addressing Mode -> CLK_ADDRESS_* ; §3.10 Filter Mode -> CLK_FILTER_*
SAMPLER_ADDRESSING = {0: 0x0, 1: 0x2, 2: 0x4, 3: 0x6, 4: 0x8}
SAMPLER_FILTER = {0: 0x10, 1: 0x20}
CLK_NORMALIZED_COORDS_TRUE = 0x1
IMAGE_OPERAND_ZERO_EXTEND = 0x2000   # §3.14 Image Operands

SAMPLER_TYPE = T.TargetExtType("spirv.Sampler")


def image_type(ops: tuple[int, ...]) -> T.TargetExtType:
    """OpTypeImage operands (result, sampled type, dim, depth, arrayed, ms, sampled, format[, access])."""
    access = ops[8] if len(ops) > 8 else 0
    return T.TargetExtType("spirv.Image", (T.void,), (ops[2], ops[3], ops[4], ops[5], ops[6], ops[7], access))


def image_name(ops: tuple[int, ...]) -> str:
    """The OpenCL C type name (``image2d_array_t``) of OpTypeImage operands."""
    stem = DIM_NAMES.get(ops[2], f"image_dim{ops[2]}")
    return stem + ("_array" if ops[4] else "") + ("_depth" if ops[3] == 1 else "") + "_t"


def image_mangling_name(ops: tuple[int, ...]) -> str:
    """``ocl_image2d_ro`` and the like (SPIR 1.2 mangling of image types)."""
    access = ACCESS[ops[8] if len(ops) > 8 else 0][1]
    return "ocl_" + image_name(ops)[:-2] + "_" + access


def access_qualifier(ops: tuple[int, ...]) -> str:
    return ACCESS[ops[8] if len(ops) > 8 else 0][0]


def sampler_bits(addressing: int, normalized: int, filter_mode: int) -> int:
    return (SAMPLER_ADDRESSING.get(addressing, 0) | (CLK_NORMALIZED_COORDS_TRUE if normalized else 0)
            | SAMPLER_FILTER.get(filter_mode, 0x10))


def texel_suffix(element: T.Type, unsigned: bool) -> str:
    """read_image/write_image suffix for a texel of ``element``."""
    if isinstance(element, T.FloatType):
        return "h" if element.bits == 16 else "f"
    return "ui" if unsigned else "i"
