"""Image and sampler arguments: ``kernelkit.Image`` (a numpy array with an image format) and
``kernelkit.Sampler``.

An image's array holds its texels with the channels last, like the AMD IL simulator's binding
(:class:`kernelkit.sim.amdil.SimImage`): (width, channels) for 1D and 1D-buffer images, (layers,
width, channels) for 1D arrays, (height, width, channels) for 2D, (layers, height, width, channels)
for 2D arrays and (depth, height, width, channels) for 3D. Single-channel formats may leave the
channel axis out. The kernel reads and writes the array itself: what a kernel writes is in it after
the launch. Formats: :mod:`kernelkit.abi.image_formats`.
"""

from __future__ import annotations

import ctypes
import operator

import numpy as np

from kernelkit.abi.image_formats import (
    ADDRESSING_MASK,
    ADDRESSING_MODES,
    CLK_NORMALIZED_COORDS_TRUE,
    FILTER_MASK,
    FILTER_MODES,
    ORDER_BY_NAME,
    TYPE_BY_NAME,
    ChannelOrder,
    ChannelType,
)
from kernelkit.errors import LaunchError

# image dim -> (axes of the array before the channel axis, image axes (width, height, depth) in array
# order from the last spatial axis, layered?)
SPATIAL_AXES: dict[str, int] = {"1d": 1, "1d_buffer": 1, "1d_array": 2, "2d": 2, "2d_array": 3, "3d": 3,
                                "2d_depth": 2, "2d_array_depth": 3}
LAYERED = ("1d_array", "2d_array", "2d_array_depth")
DEPTH_DIMS = ("2d_depth", "2d_array_depth")
# the channel type an array's dtype gives when none is named
DEFAULT_TYPES: dict[str, str] = {"float32": "FLOAT", "float16": "HALF_FLOAT", "int8": "SIGNED_INT8",
                                 "int16": "SIGNED_INT16", "int32": "SIGNED_INT32", "uint8": "UNSIGNED_INT8",
                                 "uint16": "UNSIGNED_INT16", "uint32": "UNSIGNED_INT32"}


def _choice(what: str, value, table: dict):
    """table[value], names compared without case."""
    key = next((k for k in table if k.lower() == str(value).lower()), None)
    if key is None:
        raise LaunchError(f"unknown {what} {value!r} (one of {', '.join(table)})")
    return table[key]


class Image:
    """An OpenCL image over a numpy array (see the module docstring for the array's shape).

    ``order``: a channel order name (``"RGBA"``, ``"R"``, ``"BGRA"``, ``"DEPTH"``...); ``channel_type``: a
    channel data type name (``"UNORM_INT8"``, ``"FLOAT"``...; default: the one of the array's dtype,
    FLOAT for float32, UNSIGNED_INT8 for uint8...); ``dim``: ``"1d"``, ``"1d_buffer"``, ``"1d_array"``,
    ``"2d"``, ``"2d_array"``, ``"3d"``, ``"2d_depth"``, ``"2d_array_depth"`` (default: 3d for a 4-axis
    array, 2d_depth for DEPTH, else 2d)."""

    def __init__(self, array: np.ndarray, order: str = "RGBA", channel_type: str | None = None,
                 dim: str | None = None):
        if not isinstance(array, np.ndarray):
            raise LaunchError(f"Image needs a numpy array, got {type(array).__name__}")
        self.order: ChannelOrder = _choice("channel order", order, ORDER_BY_NAME)
        if channel_type is None:
            name = DEFAULT_TYPES.get(array.dtype.name)
            if name is None:
                raise LaunchError(f"Image: no channel type for dtype {array.dtype}; name one "
                                  f"(channel_type={', '.join(TYPE_BY_NAME)})")
            channel_type = name
        self.channel_type: ChannelType = _choice("channel type", channel_type, TYPE_BY_NAME)
        if dim is None:
            dim = "2d_depth" if self.order.name == "DEPTH" else ("3d" if array.ndim == 4 else "2d")
        if dim not in SPATIAL_AXES:
            raise LaunchError(f"unknown image dim {dim!r} (one of {', '.join(SPATIAL_AXES)})")
        self.dim = dim
        if (dim in DEPTH_DIMS) != (self.order.name == "DEPTH"):
            raise LaunchError(f"a {dim} image needs channel order "
                              f"{'DEPTH' if dim in DEPTH_DIMS else 'other than DEPTH'}, got {self.order.name}")
        if array.dtype != np.dtype(self.channel_type.dtype):
            raise LaunchError(f"Image: channel type {self.channel_type.name} needs a numpy {self.channel_type.dtype} "
                              f"array, got {array.dtype}")
        spatial = SPATIAL_AXES[dim]
        channels = self.order.channels
        if array.ndim == spatial and channels == 1:
            array = array.reshape(array.shape + (1,))       # a view: the kernel still writes the caller's array
        if array.ndim != spatial + 1 or array.shape[-1] != channels:
            raise LaunchError(f"a {dim} {self.order.name} image needs an array of {spatial} axes plus {channels} "
                              f"channel(s) last, got shape {array.shape}")
        if not array.flags.c_contiguous:
            raise LaunchError("Image: the array must be C-contiguous (np.ascontiguousarray)")
        if min(array.shape) == 0:
            raise LaunchError(f"Image: empty array of shape {array.shape}")
        self.array = array

    @property
    def width(self) -> int:
        return self.array.shape[-2]

    @property
    def height(self) -> int:
        axes = SPATIAL_AXES[self.dim] - (1 if self.dim in LAYERED else 0)
        return self.array.shape[-3] if axes >= 2 else 1

    @property
    def depth(self) -> int:
        return self.array.shape[0] if self.dim == "3d" else 1

    @property
    def array_size(self) -> int:
        return self.array.shape[0] if self.dim in LAYERED else 0

    def __repr__(self) -> str:
        return (f"Image({self.dim}, {self.order.name}, {self.channel_type.name}, "
                f"{'x'.join(map(str, self.array.shape[:-1]))})")


class Sampler:
    """An OpenCL sampler: ``Sampler(normalized=False, addressing="clamp_to_edge", filter="nearest")``
    (addressing: none, clamp_to_edge, clamp, repeat, mirrored_repeat; filter: nearest, linear), or
    ``Sampler.from_bits(CLK_* bits)``. A kernel's sampler_t argument also takes the bits as an int."""

    def __init__(self, normalized: bool = False, addressing: str = "clamp_to_edge", filter: str = "nearest"):
        self.bits = ((CLK_NORMALIZED_COORDS_TRUE if normalized else 0)
                     | _choice("addressing mode", addressing, ADDRESSING_MODES)
                     | _choice("filter mode", filter, FILTER_MODES))

    @classmethod
    def from_bits(cls, bits: int) -> Sampler:
        try:
            value = operator.index(bits)
        except TypeError:
            raise LaunchError(f"sampler bits must be an int, got {type(bits).__name__}") from None
        if value & ~(CLK_NORMALIZED_COORDS_TRUE | ADDRESSING_MASK | FILTER_MASK) or \
                value & ADDRESSING_MASK not in ADDRESSING_MODES.values() or \
                value & FILTER_MASK not in FILTER_MODES.values():
            raise LaunchError(f"{value:#x} is not a sampler: CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | "
                              "CLK_FILTER_* (OpenCL C 3.0 s6.15.15.1)")
        out = cls.__new__(cls)
        out.bits = value
        return out

    @property
    def normalized(self) -> bool:
        return bool(self.bits & CLK_NORMALIZED_COORDS_TRUE)

    @property
    def addressing(self) -> str:
        return next(k for k, v in ADDRESSING_MODES.items() if v == self.bits & ADDRESSING_MASK)

    @property
    def filter(self) -> str:
        return next(k for k, v in FILTER_MODES.items() if v == self.bits & FILTER_MASK)

    def __repr__(self) -> str:
        return f"Sampler(normalized={self.normalized}, addressing={self.addressing!r}, filter={self.filter!r})"


class HostImageDescriptor(ctypes.Structure):
    """What a host kernel's image argument points to (the fields of
    :data:`kernelkit.targets.host.image_library.DESCRIPTOR_FIELDS`)."""

    _fields_ = [("data", ctypes.c_void_p), ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("depth", ctypes.c_int32), ("array_size", ctypes.c_int32), ("order", ctypes.c_int32),
                ("type", ctypes.c_int32), ("channels", ctypes.c_int32), ("elem_size", ctypes.c_int32),
                ("row_pitch", ctypes.c_int64), ("slice_pitch", ctypes.c_int64), ("layer_pitch", ctypes.c_int64)]


def host_descriptor(image: Image) -> HostImageDescriptor:
    a = image.array
    elem = a.shape[-1] * a.itemsize
    row = image.width * elem
    slice_ = row * image.height
    layer = {"1d_array": row, "2d_array": slice_, "2d_array_depth": slice_}.get(image.dim, 0)
    return HostImageDescriptor(a.ctypes.data, image.width, image.height, image.depth, image.array_size,
                               image.order.value, image.channel_type.value, image.order.channels, elem,
                               row, slice_ if image.dim == "3d" else 0, layer)


def _where(kernel: str, arg) -> str:
    return f"{kernel}: argument {arg.index} ({arg.name or '?'}: {arg.type_name})"


def check_image(kernel: str, arg, value) -> Image:
    """``value`` is an Image of the argument's dim that the kernel may access as declared."""
    if isinstance(value, np.ndarray):
        value = Image(value)   # a plain array: RGBA image of its dtype's channel type
    if not isinstance(value, Image):
        raise LaunchError(f"{_where(kernel, arg)} is an image: pass kernelkit.Image(array, order=, "
                          f"channel_type=, dim={arg.image_dim!r}), got {type(value).__name__}")
    if value.dim != arg.image_dim:
        raise LaunchError(f"{_where(kernel, arg)} needs a {arg.image_dim} image, got a {value.dim} Image "
                          "(CL_INVALID_ARG_VALUE)")
    if arg.access_qualifier in ("write_only", "read_write") and not value.array.flags.writeable:
        raise LaunchError(f"{_where(kernel, arg)} is {arg.access_qualifier}: the image's array is read-only")
    return value


def sampler_bits(kernel: str, arg, value) -> int:
    if isinstance(value, Sampler):
        return value.bits
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return Sampler.from_bits(int(value)).bits
    raise LaunchError(f"{_where(kernel, arg)} is a sampler: pass kernelkit.Sampler(normalized, addressing, "
                      f"filter) or its CLK_* bits, got {type(value).__name__}")


def pack_host_image(kernel: str, arg, value) -> tuple[ctypes.Array, Image, HostImageDescriptor]:
    """(the argument's bytes: the descriptor's address, the image, the descriptor to keep alive)."""
    image = check_image(kernel, arg, value)
    desc = host_descriptor(image)
    storage = ctypes.create_string_buffer(ctypes.addressof(desc).to_bytes(8, "little"), 8)
    return storage, image, desc


def pack_host_sampler(kernel: str, arg, value) -> ctypes.Array:
    return ctypes.create_string_buffer(sampler_bits(kernel, arg, value).to_bytes(8, "little"), 8)


def simulator_image_value(kernel: str, arg, value):
    """What the simulators take for an image or sampler argument: a kernelkit.Image becomes
    :class:`kernelkit.sim.amdil.SimImage` over its array (2D and 3D images of FLOAT or integer channels:
    the AMD IL simulator returns stored channel values unconverted), a Sampler its bits; anything else
    goes as given (SimImage, numpy arrays, ints)."""
    if isinstance(value, Sampler):
        return value.bits
    if not isinstance(value, Image):
        return value
    image = check_image(kernel, arg, value)
    if image.dim not in ("2d", "3d") or image.channel_type.kind == "f" and image.channel_type.name != "FLOAT":
        raise LaunchError(f"{_where(kernel, arg)}: the simulator takes 2d and 3d images of FLOAT or integer "
                          f"channels, got {image!r}")
    from kernelkit.sim.amdil import SimImage

    return SimImage(image.array, image.channel_type.value, image.order.value)


def checked_ranges(arg, kept) -> list[tuple[int, int, str]]:
    """The memory a checked launch lets the kernel touch for an image argument (``kept``: what
    :func:`pack_host_image` made): the texels and the descriptor."""
    image, descriptor = kept
    start, size = image.array.ctypes.data, image.array.nbytes
    what = f"argument {arg.index} '{arg.name}' ({arg.type_name}, {image!r})"
    where = ctypes.addressof(descriptor)
    return [(start, start + size, what), (where, where + ctypes.sizeof(descriptor), f"{what}: its descriptor")]
