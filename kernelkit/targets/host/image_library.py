"""The host's image builtins as OpenCL C library code (compiled by clang with the builtin library's flags).

Kernels keep OpenCL C's builtin calls (``read_imagef(image2d_t, sampler_t, float2)``...); the host
passes an image argument as a pointer to a descriptor (:data:`DESCRIPTOR_FIELDS`) and a sampler as
its ``CLK_*`` bits. :mod:`kernelkit.targets.host.images` renames each call to the function this
library defines for it, ``__kk_<builtin>_<dim><variant>``:

- reads: variant ``_i`` (no sampler, integer coordinates), ``_si`` / ``_sf`` (sampler, integer /
  float coordinates);
- writes and queries: no variant.

The rules are OpenCL C 3.0 s8 "Image Addressing and Filtering": s8.2 addressing (clamp, clamp to
edge, repeat, mirrored repeat, none) and nearest/linear filtering with normalized or unnormalized
coordinates, s8.3 conversion of channel data types (normalized integers, half, float, saturating
integer writes), the channel orders of API spec s5.3.1.1 (:mod:`kernelkit.abi.image_formats`).
Reads and writes out of range never touch memory outside the image (CLK_ADDRESS_NONE reads clamp to
the edge; writes out of range are dropped): OpenCL leaves both undefined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernelkit.abi.image_formats import CHANNEL_ORDERS

# The descriptor an image argument points to: (field, C type), in order (64 bytes, no padding).
# layer_pitch is the byte distance between the layers of an image array (row pitch for 1D arrays,
# slice pitch for 2D arrays).
DESCRIPTOR_FIELDS: tuple[tuple[str, str], ...] = (
    ("data", "global uchar *"), ("width", "int"), ("height", "int"), ("depth", "int"),
    ("array_size", "int"), ("order", "int"), ("type", "int"), ("channels", "int"), ("elem_size", "int"),
    ("row_pitch", "long"), ("slice_pitch", "long"), ("layer_pitch", "long"),
)


@dataclass(frozen=True)
class ImageDim:
    """An OpenCL C image type: ``axes`` sampled coordinates, its coordinate vector ``width``, the
    coordinate component holding the array layer (None: not an array), depth image?"""

    key: str
    axes: int
    width: int
    layer: str | None = None
    depth: bool = False
    sampled: bool = True

    @property
    def query_dim(self) -> int:
        """Components of get_image_dim (int2 for 2D images and arrays, int4 for 3D)."""
        return 4 if self.axes == 3 else 2


# OpenCL C 3.0 s6.15.15 image types (the ``ocl_image<key>_<access>`` mangling names)
IMAGE_DIMS: tuple[ImageDim, ...] = (
    ImageDim("1d", 1, 1), ImageDim("1d_buffer", 1, 1, sampled=False), ImageDim("1d_array", 1, 2, "y"),
    ImageDim("2d", 2, 2), ImageDim("2d_array", 2, 4, "z"), ImageDim("3d", 3, 4),
    ImageDim("2d_depth", 2, 2, depth=True), ImageDim("2d_array_depth", 2, 4, "z", depth=True),
)
DIM_BY_KEY = {d.key: d for d in IMAGE_DIMS}
READ_KINDS = ("f", "i", "ui", "h")
QUERIES = ("width", "height", "depth", "array_size", "channel_order", "channel_data_type", "dim")

_PRELUDE = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define KK static inline __attribute__((always_inline))
#define ADDR_MASK 0xE
#define FILTER_LINEAR 0x20

KK int kk_clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
KK float kk_floor(float v) { return __builtin_floorf(v); }
/* (int)floor(v) without overflowing the conversion (NaN -> 0) */
KK int kk_ifloor(float v) { return v != v ? 0 : (int)__builtin_fmaxf(-1e9f, __builtin_fminf(1e9f, kk_floor(v))); }

KK float kk_chan_f(global const uchar *p, int type, int k) {
  switch (type) {
  case CLK_UNORM_INT8: return p[k] / 255.0f;
  case CLK_UNORM_INT16: return ((global const ushort *)p)[k] / 65535.0f;
  case CLK_SNORM_INT8: return __builtin_fmaxf(-1.0f, ((global const char *)p)[k] / 127.0f);
  case CLK_SNORM_INT16: return __builtin_fmaxf(-1.0f, ((global const short *)p)[k] / 32767.0f);
  case CLK_HALF_FLOAT: return (float)((global const half *)p)[k];
  case CLK_FLOAT: return ((global const float *)p)[k];
  case CLK_SIGNED_INT8: return ((global const char *)p)[k];
  case CLK_SIGNED_INT16: return ((global const short *)p)[k];
  case CLK_UNSIGNED_INT8: return p[k];
  case CLK_UNSIGNED_INT16: return ((global const ushort *)p)[k];
  case CLK_UNSIGNED_INT32: return ((global const uint *)p)[k];
  default: return ((global const int *)p)[k];
  }
}

/* the channel's integer value (signed types sign-extended, unsigned ones zero-extended) */
KK int kk_chan_i(global const uchar *p, int type, int k) {
  switch (type) {
  case CLK_SIGNED_INT8: case CLK_SNORM_INT8: return ((global const char *)p)[k];
  case CLK_SIGNED_INT16: case CLK_SNORM_INT16: return ((global const short *)p)[k];
  case CLK_UNSIGNED_INT8: case CLK_UNORM_INT8: return p[k];
  case CLK_UNSIGNED_INT16: case CLK_UNORM_INT16: case CLK_HALF_FLOAT: return ((global const ushort *)p)[k];
  default: return ((global const int *)p)[k];
  }
}

/* s8.3: round to nearest even and saturate (NaN -> 0) */
KK float kk_sat_rte(float v, float lo, float hi) {
  return v != v ? 0.0f : __builtin_fmaxf(lo, __builtin_fminf(hi, __builtin_rintf(v)));
}

KK void kk_store_f(global uchar *p, int type, int k, float v) {
  switch (type) {
  case CLK_UNORM_INT8: p[k] = (uchar)kk_sat_rte(v * 255.0f, 0.0f, 255.0f); break;
  case CLK_UNORM_INT16: ((global ushort *)p)[k] = (ushort)kk_sat_rte(v * 65535.0f, 0.0f, 65535.0f); break;
  case CLK_SNORM_INT8: ((global char *)p)[k] = (char)kk_sat_rte(v * 127.0f, -128.0f, 127.0f); break;
  case CLK_SNORM_INT16: ((global short *)p)[k] = (short)kk_sat_rte(v * 32767.0f, -32768.0f, 32767.0f); break;
  case CLK_HALF_FLOAT: ((global half *)p)[k] = (half)v; break;
  case CLK_FLOAT: ((global float *)p)[k] = v; break;
  default: break;
  }
}

/* s8.3: integer writes saturate to the channel type. The image's format decides how the value is
 * read (SPIR-V's OpImageWrite has no signedness: clang's SPIR-V writes write_imageui as an OpImageWrite
 * that reads back as write_imagei), so both take either integer type. */
KK void kk_store_ui(global uchar *p, int type, int k, uint v) {
  switch (type) {
  case CLK_UNSIGNED_INT8: p[k] = (uchar)(v > 255u ? 255u : v); break;
  case CLK_UNSIGNED_INT16: ((global ushort *)p)[k] = (ushort)(v > 65535u ? 65535u : v); break;
  case CLK_UNSIGNED_INT32: ((global uint *)p)[k] = v; break;
  case CLK_SIGNED_INT8: ((global char *)p)[k] = (char)kk_clampi((int)v, -128, 127); break;
  case CLK_SIGNED_INT16: ((global short *)p)[k] = (short)kk_clampi((int)v, -32768, 32767); break;
  case CLK_SIGNED_INT32: ((global int *)p)[k] = (int)v; break;
  default: break;
  }
}

KK void kk_store_i(global uchar *p, int type, int k, int v) { kk_store_ui(p, type, k, (uint)v); }

KK int4 kk_size(global const kk_image *im) { return (int4)(im->width, im->height, im->depth, 1); }

KK long kk_offset(global const kk_image *im, int4 i) {
  return (long)i.x * im->elem_size + (long)i.y * im->row_pitch + (long)i.z * im->slice_pitch;
}

KK bool kk_inside(global const kk_image *im, int4 i, int axes) {
  int4 s = kk_size(im);
  return i.x >= 0 && i.x < s.x && (axes < 2 || (i.y >= 0 && i.y < s.y)) && (axes < 3 || (i.z >= 0 && i.z < s.z));
}

/* s8.2, nearest: the texel index along one axis (CLAMP may give -1 or size: the border colour) */
KK int kk_nearest(float s, int size, int mode, int normalized) {
  if (mode == CLK_ADDRESS_REPEAT) {
    int i = kk_ifloor((s - kk_floor(s)) * size);
    return i > size - 1 ? i - size : i;
  }
  if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    float m = __builtin_fabsf(s - 2.0f * __builtin_rintf(0.5f * s));
    return kk_clampi(kk_ifloor(m * size), 0, size - 1);
  }
  int i = kk_ifloor(normalized ? s * size : s);
  return mode == CLK_ADDRESS_CLAMP ? kk_clampi(i, -1, size) : kk_clampi(i, 0, size - 1);
}

/* s8.2, linear: the two texel indices and the weight of the second along one axis */
KK float kk_linear(float s, int size, int mode, int normalized, int *i0, int *i1) {
  float u;
  if (mode == CLK_ADDRESS_REPEAT) u = (s - kk_floor(s)) * size;
  else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) u = __builtin_fabsf(s - 2.0f * __builtin_rintf(0.5f * s)) * size;
  else u = normalized ? s * size : s;
  float t = u - 0.5f;
  float f = kk_floor(t);
  int a = kk_ifloor(t), b = a + 1;
  if (mode == CLK_ADDRESS_REPEAT) {
    if (a < 0) a += size;
    if (b > size - 1) b -= size;
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    a = kk_clampi(a, 0, size - 1);
    b = kk_clampi(b, 0, size - 1);
  } else if (mode == CLK_ADDRESS_CLAMP) {
    a = kk_clampi(a, -1, size);
    b = kk_clampi(b, -1, size);
  } else {
    a = kk_clampi(a, 0, size - 1);
    b = kk_clampi(b, 0, size - 1);
  }
  *i0 = a;
  *i1 = b;
  return t - f;
}

/* the texel indices of float coordinates c under a nearest sampler */
KK int4 kk_nearest_index(global const kk_image *im, uint smp, float4 c, int axes) {
  int4 s = kk_size(im);
  int mode = smp & ADDR_MASK, n = smp & CLK_NORMALIZED_COORDS_TRUE;
  return (int4)(kk_nearest(c.x, s.x, mode, n), axes > 1 ? kk_nearest(c.y, s.y, mode, n) : 0,
                axes > 2 ? kk_nearest(c.z, s.z, mode, n) : 0, 0);
}

/* integer coordinates (s8.2: unnormalized, nearest): CLAMP keeps one texel of border */
KK int4 kk_int_index(global const kk_image *im, uint smp, int4 c, int axes) {
  int4 s = kk_size(im);
  int lo = (smp & ADDR_MASK) == CLK_ADDRESS_CLAMP ? -1 : 0;
  return (int4)(kk_clampi(c.x, lo, s.x - 1 - lo), axes > 1 ? kk_clampi(c.y, lo, s.y - 1 - lo) : 0,
                axes > 2 ? kk_clampi(c.z, lo, s.z - 1 - lo) : 0, 0);
}

KK long kk_layer_f(global const kk_image *im, float l) {
  float r = __builtin_rintf(l);
  int i = r != r ? 0 : (int)__builtin_fmaxf(0.0f, __builtin_fminf((float)(im->array_size - 1), r));
  return (long)i * im->layer_pitch;
}

KK long kk_layer_i(global const kk_image *im, int l) {
  return (long)kk_clampi(l, 0, im->array_size - 1) * im->layer_pitch;
}
"""

_SAMPLING = r"""
KK T4 kk_fetch_K(global const kk_image *im, long base, int4 i, int axes) {
  if (!kk_inside(im, i, axes)) return kk_border_K(im->order);
  global const uchar *p = im->data + base + kk_offset(im, i);
  return kk_order_K(im->order, kk_chan_K(p, im->type, 0), im->channels > 1 ? kk_chan_K(p, im->type, 1) : Z,
                    im->channels > 2 ? kk_chan_K(p, im->type, 2) : Z, im->channels > 3 ? kk_chan_K(p, im->type, 3) : Z);
}

KK T4 kk_read_int_K(global const kk_image *im, uint smp, int4 c, int axes, long base) {
  return kk_fetch_K(im, base, kk_int_index(im, smp, c, axes), axes);
}
"""

_LINEAR = r"""
/* s8.2: linear filtering weighs the 2, 4 or 8 texels around the sample point */
KK float4 kk_read_float_f(global const kk_image *im, uint smp, float4 c, int axes, long base) {
  if ((smp & FILTER_LINEAR) == 0) return kk_fetch_f(im, base, kk_nearest_index(im, smp, c, axes), axes);
  int4 s = kk_size(im);
  int mode = smp & ADDR_MASK, n = smp & CLK_NORMALIZED_COORDS_TRUE;
  int x0, x1, y0 = 0, y1 = 0, z0 = 0, z1 = 0;
  float a = kk_linear(c.x, s.x, mode, n, &x0, &x1), b = 0.0f, g = 0.0f;
  if (axes > 1) b = kk_linear(c.y, s.y, mode, n, &y0, &y1);
  if (axes > 2) g = kk_linear(c.z, s.z, mode, n, &z0, &z1);
  float4 t = (1 - a) * (1 - b) * (1 - g) * kk_fetch_f(im, base, (int4)(x0, y0, z0, 0), axes)
           + a * (1 - b) * (1 - g) * kk_fetch_f(im, base, (int4)(x1, y0, z0, 0), axes);
  if (axes > 1)
    t += (1 - a) * b * (1 - g) * kk_fetch_f(im, base, (int4)(x0, y1, z0, 0), axes)
       + a * b * (1 - g) * kk_fetch_f(im, base, (int4)(x1, y1, z0, 0), axes);
  if (axes > 2)
    t += (1 - a) * (1 - b) * g * kk_fetch_f(im, base, (int4)(x0, y0, z1, 0), axes)
       + a * (1 - b) * g * kk_fetch_f(im, base, (int4)(x1, y0, z1, 0), axes)
       + (1 - a) * b * g * kk_fetch_f(im, base, (int4)(x0, y1, z1, 0), axes)
       + a * b * g * kk_fetch_f(im, base, (int4)(x1, y1, z1, 0), axes);
  return t;
}

/* integer reads with float coordinates: nearest (s8.2 defines linear filtering for float reads only) */
KK int4 kk_read_float_i(global const kk_image *im, uint smp, float4 c, int axes, long base) {
  return kk_fetch_i(im, base, kk_nearest_index(im, smp, c, axes), axes);
}
"""

_WRITES = r"""
KK global uchar *kk_texel_address(global const kk_image *im, int4 i, int axes, long base) {
  return kk_inside(im, i, axes) ? im->data + base + kk_offset(im, i) : 0;
}
"""


def _descriptor_struct() -> str:
    return "typedef struct {\n" + "".join(f"  {ty}{'' if ty.endswith('*') else ' '}{name};\n"
                                          for name, ty in DESCRIPTOR_FIELDS) + "} kk_image;\n"


def _component(letter: str, components: str, zero: str, one: str) -> str:
    """The expression of output channel ``letter`` (r, g, b, a) for memory channels c0..c3."""
    if letter in components:
        return f"c{components.index(letter)}"
    if components == "d":    # depth: read_imagef returns it as the first component
        return "c0" if letter == "r" else (one if letter == "a" else zero)
    if components in ("I",):
        return "c0"
    if components == "L":
        return "c0" if letter != "a" else one
    return one if letter == "a" else zero


def _order_functions(kind: str, vec: str, scalar: str, zero: str, one: str) -> str:
    cases = []
    border = []
    for order in CHANNEL_ORDERS:
        comps = ", ".join(_component(letter, order.components, zero, one) for letter in "rgba")
        cases.append(f"  case {order.value:#x}: return ({vec})({comps});")
        if not order.transparent_border:
            border.append(f"  case {order.value:#x}:")
    return (f"KK {vec} kk_order_{kind}(int order, {scalar} c0, {scalar} c1, {scalar} c2, {scalar} c3) {{\n"
            "  switch (order) {\n" + "\n".join(cases) + f"\n  default: return ({vec})(c0, c1, c2, c3);\n  }}\n}}\n"
            f"KK {vec} kk_border_{kind}(int order) {{\n  switch (order) {{\n" + "\n".join(border) +
            f" return ({vec})({zero}, {zero}, {zero}, {one});\n  default: return ({vec})({zero});\n  }}\n}}\n")


def _write_functions() -> str:
    """kk_write_K(image, address, value): the channels in memory order (s8.3 conversions)."""
    out = []
    for kind, vec, store in (("f", "float4", "kk_store_f"), ("i", "int4", "kk_store_i"),
                             ("ui", "uint4", "kk_store_ui")):
        cases = []
        for order in CHANNEL_ORDERS:
            stores = []
            for k, letter in enumerate(order.components):
                value = {"r": "v.x", "g": "v.y", "b": "v.z", "a": "v.w", "x": "0"}.get(letter, "v.x")
                stores.append(f"{store}(p, type, {k}, {value});")
            cases.append(f"  case {order.value:#x}: " + " ".join(stores) + " break;")
        out.append(f"KK void kk_write_{kind}(global uchar *p, int order, int type, {vec} v) {{\n"
                   "  if (!p) return;\n  switch (order) {\n" + "\n".join(cases) + "\n  default: break;\n  }\n}\n")
    return "\n".join(out)


def _coord4(dim: ImageDim, kind: str) -> str:
    """The coordinate argument ``c`` as an int4/float4 of the sampled axes (layer left out)."""
    ty = "float4" if kind == "f" else "int4"
    zero = "0.0f" if kind == "f" else "0"
    if dim.width == 1:
        return f"({ty})(c, {zero}, {zero}, {zero})"
    if dim.axes == 1:
        return f"({ty})(c.x, {zero}, {zero}, {zero})"
    if dim.axes == 2:
        return f"({ty})(c.x, c.y, {zero}, {zero})"
    return f"({ty})(c.x, c.y, c.z, {zero})"


def _coord_type(dim: ImageDim, kind: str) -> str:
    base = "float" if kind == "f" else "int"
    return base if dim.width == 1 else f"{base}{dim.width}"


def _base(dim: ImageDim, kind: str) -> str:
    if dim.layer is None:
        return "0"
    return f"kk_layer_{'f' if kind == 'f' else 'i'}(im, c.{dim.layer})"


def _result(dim: ImageDim, kind: str, expr: str) -> tuple[str, str]:
    """(return type, expression) of read_image<kind> from the float4/int4 ``expr``."""
    if dim.depth:
        return "float", f"({expr}).x"
    if kind == "ui":
        return "uint4", f"as_uint4({expr})"
    if kind == "h":
        return "half4", f"kk_half4({expr})"
    return {"f": "float4", "i": "int4"}[kind], expr


def _reads(dim: ImageDim) -> list[str]:
    out = []
    for kind in ("f",) if dim.depth else READ_KINDS:
        core = "f" if kind in ("f", "h") else "i"
        variants = [("_i", "i", False)]
        if dim.sampled:
            variants += [("_si", "i", True), ("_sf", "f", True)]
        for suffix, coord, sampled in variants:
            smp = "smp" if sampled else "0"
            if coord == "i":
                expr = f"kk_read_int_{core}(im, {smp}, {_coord4(dim, 'i')}, {dim.axes}, {_base(dim, 'i')})"
            else:
                expr = f"kk_read_float_{core}(im, smp, {_coord4(dim, 'f')}, {dim.axes}, {_base(dim, 'f')})"
            ret, value = _result(dim, kind, expr)
            params = "global const kk_image *im" + (", uint smp" if sampled else "") + f", {_coord_type(dim, coord)} c"
            out.append(f"{ret} __kk_read_image{kind}_{dim.key}{suffix}({params}) {{ return {value}; }}")
    return out


def _writes(dim: ImageDim) -> list[str]:
    out = []
    for kind in ("f",) if dim.depth else READ_KINDS:
        vec = "float" if dim.depth else {"f": "float4", "i": "int4", "ui": "uint4", "h": "half4"}[kind]
        value = "(float4)(v, 0.0f, 0.0f, 0.0f)" if dim.depth else ("kk_float4(v)" if kind == "h" else "v")
        core = "f" if kind in ("f", "h") else kind
        address = f"kk_texel_address(im, {_coord4(dim, 'i')}, {dim.axes}, {_base(dim, 'i')})"
        layer = ""
        if dim.layer is not None:   # a layer out of range is not written either
            layer = f"if (c.{dim.layer} < 0 || c.{dim.layer} >= im->array_size) return; "
        out.append(f"void __kk_write_image{kind}_{dim.key}(global const kk_image *im, {_coord_type(dim, 'i')} c, "
                   f"{vec} v) {{ {layer}kk_write_{core}({address}, im->order, im->type, {value}); }}")
    return out


def _queries(dim: ImageDim) -> list[str]:
    fields = {"width": "im->width", "height": "im->height", "depth": "im->depth",
              "channel_order": "im->order", "channel_data_type": "im->type"}
    out = []
    for q in QUERIES:
        if q == "dim":
            if dim.axes == 1:
                continue
            value = "(int2)(im->width, im->height)" if dim.query_dim == 2 else \
                "(int4)(im->width, im->height, im->depth, 0)"
            ret = f"int{dim.query_dim}"
        elif q == "array_size":
            if dim.layer is None:
                continue
            ret, value = "size_t", "(size_t)im->array_size"
        else:
            if (q == "height" and dim.axes < 2) or (q == "depth" and dim.axes < 3):
                continue
            ret, value = "int", fields[q]
        out.append(f"{ret} __kk_get_image_{q}_{dim.key}(global const kk_image *im) {{ return {value}; }}")
    return out


def entry_points() -> dict[str, str]:
    """name -> OpenCL C definition of every function the library exports (every dim, read/write kind
    and query)."""
    out = {"__translate_sampler_initializer": "uint __translate_sampler_initializer(uint bits) { return bits; }"}
    for dim in IMAGE_DIMS:
        for text in _reads(dim) + _writes(dim) + _queries(dim):
            out[re.search(r"(__kk_\w+)\(", text).group(1)] = text
    return out


def library_source(names: set[str] | frozenset[str] | None = None) -> str:
    """The OpenCL C text of the library: the helpers and the entry points ``names`` (default: all)."""
    parts = ['#include "kernelkit_opencl.h"', _descriptor_struct(), _PRELUDE,
             _order_functions("f", "float4", "float", "0.0f", "1.0f"),
             _order_functions("i", "int4", "int", "0", "1"),
             _SAMPLING.replace("T4", "float4").replace("_K", "_f").replace("Z", "0.0f"),
             _SAMPLING.replace("T4", "int4").replace("_K", "_i").replace("Z", "0"),
             _LINEAR, _WRITES, _write_functions(),
             "KK half4 kk_half4(float4 v) { return (half4)((half)v.x, (half)v.y, (half)v.z, (half)v.w); }",
             "KK float4 kk_float4(half4 v) { return (float4)((float)v.x, (float)v.y, (float)v.z, (float)v.w); }",
             "/* sampler constants (clang's __translate_sampler_initializer) are the CLK_* bits themselves */"]
    parts += [text for name, text in entry_points().items() if names is None or name in names]
    return "\n".join(parts) + "\n"
