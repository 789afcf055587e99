"""OpenCL image formats and sampler bits, as data.

Channel orders and channel data types: OpenCL 3.0 API spec s5.3.1.1 "Image Format Descriptor"
(the values of the API's ``CL_*`` names, which OpenCL C's ``CLK_*`` names equal, OpenCL C 3.0
s6.15.15.7). Sampler bits: OpenCL C 3.0 s6.15.15.1 (the ``CLK_*`` sampler initialiser values).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChannelOrder:
    """``components``: the channels in memory order (r, g, b, a; x: padding; I: intensity, L: luminance,
    d: depth). A read returns (r, g, b, a) with missing colour channels 0 and missing alpha 1; I fills all
    four, L fills r, g and b (API spec s5.3.1.1, OpenCL C 3.0 s8.3.1 "Conversion rules")."""

    name: str
    value: int
    components: str

    @property
    def channels(self) -> int:
        return len(self.components)

    @property
    def transparent_border(self) -> bool:
        """Is CLAMP's border colour (0, 0, 0, 0)? (A, INTENSITY, Rx, RA, RGx, RGBA, BGRA, ARGB, ABGR; R, RG
        and LUMINANCE have (0, 0, 0, 1): OpenCL C 1.1 s6.11.13.1.1 "Determining the border color")."""
        return any(c in self.components for c in "axI")


# API spec s5.3.1.1, table "List of supported Image Channel Order Values"
CHANNEL_ORDERS: tuple[ChannelOrder, ...] = (
    ChannelOrder("R", 0x10B0, "r"), ChannelOrder("A", 0x10B1, "a"), ChannelOrder("RG", 0x10B2, "rg"),
    ChannelOrder("RA", 0x10B3, "ra"), ChannelOrder("RGBA", 0x10B5, "rgba"), ChannelOrder("BGRA", 0x10B6, "bgra"),
    ChannelOrder("ARGB", 0x10B7, "argb"), ChannelOrder("INTENSITY", 0x10B8, "I"),
    ChannelOrder("LUMINANCE", 0x10B9, "L"), ChannelOrder("Rx", 0x10BA, "rx"), ChannelOrder("RGx", 0x10BB, "rgx"),
    ChannelOrder("DEPTH", 0x10BD, "d"), ChannelOrder("ABGR", 0x10C3, "abgr"),
)


@dataclass(frozen=True)
class ChannelType:
    """``kind``: what read_image returns for it (f: normalized or float, i: signed, ui: unsigned);
    ``dtype``: the numpy type of one channel."""

    name: str
    value: int
    dtype: str
    kind: str


# API spec s5.3.1.1, table "List of supported Image Channel Data Types" (the per-channel ones)
CHANNEL_TYPES: tuple[ChannelType, ...] = (
    ChannelType("SNORM_INT8", 0x10D0, "int8", "f"), ChannelType("SNORM_INT16", 0x10D1, "int16", "f"),
    ChannelType("UNORM_INT8", 0x10D2, "uint8", "f"), ChannelType("UNORM_INT16", 0x10D3, "uint16", "f"),
    ChannelType("SIGNED_INT8", 0x10D7, "int8", "i"), ChannelType("SIGNED_INT16", 0x10D8, "int16", "i"),
    ChannelType("SIGNED_INT32", 0x10D9, "int32", "i"), ChannelType("UNSIGNED_INT8", 0x10DA, "uint8", "ui"),
    ChannelType("UNSIGNED_INT16", 0x10DB, "uint16", "ui"), ChannelType("UNSIGNED_INT32", 0x10DC, "uint32", "ui"),
    ChannelType("HALF_FLOAT", 0x10DD, "float16", "f"), ChannelType("FLOAT", 0x10DE, "float32", "f"),
)

ORDER_BY_NAME = {o.name: o for o in CHANNEL_ORDERS}
TYPE_BY_NAME = {t.name: t for t in CHANNEL_TYPES}

# OpenCL C 3.0 s6.15.15.1: sampler initialiser bits
CLK_NORMALIZED_COORDS_TRUE = 0x1
ADDRESSING_MODES: dict[str, int] = {"none": 0x0, "clamp_to_edge": 0x2, "clamp": 0x4, "repeat": 0x6,
                                    "mirrored_repeat": 0x8}
FILTER_MODES: dict[str, int] = {"nearest": 0x10, "linear": 0x20}
ADDRESSING_MASK, FILTER_MASK = 0xE, 0x30
