"""Kernel arguments: check Python/numpy values against a KernelSignature and pack them.

Each argument becomes a small buffer holding the value the kernel receives (a pointer for
``__global``/``__constant`` buffers and ``__local`` memory, the bytes of a scalar, vector or
struct); the work-item loop entry gets an array of pointers to those buffers.
"""

from __future__ import annotations

import ctypes
import operator
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.opencl_types import NUMPY_DTYPES
from kernelkit.errors import LaunchError


class ArgumentTypeError(LaunchError, TypeError):
    """A kernel argument of the wrong kind or type (a LaunchError that is also a TypeError)."""


class RawBuffer:
    """Pass ``array``'s memory to a pointer argument as untyped bytes, whatever the pointee type.

    Without it a pointer argument needs an array of the pointee's element type (``float*`` takes
    float32, ``int4*`` int32 in whole int4s, ``struct S*`` a structured dtype of the struct's size)."""

    def __init__(self, array: np.ndarray):
        if not isinstance(array, np.ndarray):
            raise ArgumentTypeError(f"RawBuffer needs a numpy array, got {type(array).__name__}")
        self.array = array

    def __repr__(self) -> str:
        return f"RawBuffer({self.array.dtype}, {self.array.nbytes} bytes)"


class LocalMemory:
    """A ``__local`` pointer argument of ``nbytes`` bytes (allocated per work-group by the runtime)."""

    def __init__(self, nbytes: int):
        try:
            size = operator.index(nbytes)
        except TypeError:
            raise ArgumentTypeError(f"LocalMemory needs an integer size, got {nbytes!r}") from None
        if size <= 0:
            raise LaunchError(f"LocalMemory needs a positive size, got {size} (CL_INVALID_ARG_SIZE)")
        self.nbytes = size

    def __repr__(self) -> str:
        return f"LocalMemory({self.nbytes})"


@dataclass
class PackedArg:
    """How one argument reaches the kernel."""

    storage: ctypes.Array | None        # the bytes of the value (None for __local: per thread)
    array: np.ndarray | None = None     # the buffer behind a pointer argument
    local_bytes: int = 0                # size of a __local allocation
    keep: object = None                 # what the storage points to (an image's descriptor and array)


def _where(kernel: str, arg) -> str:
    return f"{kernel}: argument {arg.index} ({arg.name or '?'}: {arg.type_name})"


def _value_bytes(value, dtype: np.dtype, count: int, kernel: str, arg) -> bytes:
    if isinstance(value, np.generic | np.ndarray):
        arr = np.asarray(value)
        if arr.dtype != dtype:
            raise ArgumentTypeError(f"{_where(kernel, arg)} needs dtype {dtype} ({arg.element}), got {arr.dtype}")
    elif isinstance(value, bool | int | float):
        if count != 1:
            raise ArgumentTypeError(f"{_where(kernel, arg)} is a {arg.type_name} vector: pass a numpy array of "
                            f"{arg.vector_width} {dtype}")
        if dtype.kind in "iu":
            if not isinstance(value, int | bool):
                raise ArgumentTypeError(f"{_where(kernel, arg)} needs an integer, got {type(value).__name__}")
            info = np.iinfo(dtype)
            if not info.min <= int(value) <= info.max:
                raise LaunchError(f"{_where(kernel, arg)}: {value} does not fit in {arg.element} "
                                  f"({info.min}..{info.max})")
        arr = np.asarray(value, dtype=dtype)
    else:
        raise ArgumentTypeError(f"{_where(kernel, arg)} needs a numpy {dtype} value, got {type(value).__name__}")
    flat = arr.reshape(-1)
    if flat.size != count and not (count == 4 and arg.vector_width == 3 and flat.size == 3):
        raise LaunchError(f"{_where(kernel, arg)} needs {arg.vector_width} element(s), got {flat.size}")
    data = flat.tobytes()
    return data + bytes(max(0, arg.size - len(data)))


def _check_pointee(kernel: str, arg, value: np.ndarray) -> None:
    """The array's element type is the pointee's (its size a whole number of pointees)."""
    pointee = (arg.pointee or "").rstrip("*").strip()
    dtype = NUMPY_DTYPES.get(arg.element or "")
    if dtype is not None:
        if value.dtype != dtype:
            raise ArgumentTypeError(
                f"{_where(kernel, arg)} points to {pointee or arg.element}: pass a numpy {dtype} array, got "
                f"{value.dtype} (kernelkit.RawBuffer(array) passes any array as untyped bytes)")
    elif pointee not in ("", "void") and arg.pointee_size:   # a struct or union
        if value.dtype.fields is None or value.dtype.itemsize != arg.pointee_size:
            raise ArgumentTypeError(
                f"{_where(kernel, arg)} points to {pointee} ({arg.pointee_size} bytes): pass a numpy structured "
                f"array whose dtype is {arg.pointee_size} bytes (align=True), got {value.dtype} "
                f"({value.dtype.itemsize} bytes; kernelkit.RawBuffer(array) passes it as untyped bytes)")
    if arg.pointee_size and value.nbytes % arg.pointee_size:
        raise LaunchError(f"{_where(kernel, arg)}: {value.nbytes} bytes is not a whole number of "
                          f"{pointee or arg.type_name.rstrip('*')} ({arg.pointee_size} bytes each)")


def pack_argument(kernel: str, arg, value) -> PackedArg:
    if arg.kind == "pointer":
        if arg.address_space == "local":
            if not isinstance(value, LocalMemory):
                raise ArgumentTypeError(f"{_where(kernel, arg)} is a __local pointer: pass "
                                        "kernelkit.LocalMemory(nbytes)")
            if arg.pointee_size and value.nbytes < arg.pointee_size:
                raise LaunchError(f"{_where(kernel, arg)}: LocalMemory({value.nbytes}) is smaller than one "
                                  f"{(arg.pointee or '').rstrip('*')} ({arg.pointee_size} bytes)")
            return PackedArg(None, local_bytes=value.nbytes)
        raw = isinstance(value, RawBuffer)
        if raw:
            value = value.array
        if value is None:
            raise ArgumentTypeError(f"{_where(kernel, arg)} is a __{arg.address_space} pointer: None is not a "
                                    "buffer; pass a numpy array (CL_INVALID_MEM_OBJECT)")
        if not isinstance(value, np.ndarray):
            raise ArgumentTypeError(f"{_where(kernel, arg)} is a __{arg.address_space} pointer: pass a numpy "
                                    f"array, got {type(value).__name__}")
        if not value.flags.c_contiguous:
            raise LaunchError(f"{_where(kernel, arg)}: the array must be C-contiguous (np.ascontiguousarray)")
        if arg.address_space == "global" and "const" not in arg.type_qualifiers and not value.flags.writeable:
            raise LaunchError(f"{_where(kernel, arg)}: the array is read-only but the kernel may write it")
        if not raw:
            _check_pointee(kernel, arg, value)
        storage = ctypes.create_string_buffer(value.ctypes.data.to_bytes(8, "little"), 8)
        return PackedArg(storage, array=value)
    if arg.kind in ("scalar", "vector"):
        dtype = NUMPY_DTYPES.get(arg.element or "")
        if dtype is None:
            raise ArgumentTypeError(f"{_where(kernel, arg)}: element type {arg.element!r} is not supported on host")
        # a 3-component vector occupies 4 (OpenCL C 6.3.5); 3 values are accepted and padded
        count = 1 if arg.kind == "scalar" else (4 if arg.vector_width == 3 else arg.vector_width)
        data = _value_bytes(value, dtype, count, kernel, arg)
        return PackedArg(ctypes.create_string_buffer(data, max(len(data), arg.size, 1)))
    if arg.kind in ("struct", "union"):
        arr = np.asarray(value) if isinstance(value, np.generic | np.ndarray) else None
        if arr is None or arr.dtype.fields is None and arg.kind == "struct":
            raise ArgumentTypeError(f"{_where(kernel, arg)} is a struct: pass a numpy structured scalar "
                            f"({arg.size} bytes, OpenCL C alignment)")
        if arr.size != 1 or arr.dtype.itemsize != arg.size:
            raise LaunchError(f"{_where(kernel, arg)}: the struct is {arg.size} bytes, the value "
                             f"{arr.dtype.itemsize * arr.size} bytes (align the numpy dtype: align=True)")
        data = arr.reshape(-1).tobytes()
        return PackedArg(ctypes.create_string_buffer(data, len(data)))
    if arg.kind == "image":
        from kernelkit.runtime.images import pack_host_image

        storage, image, descriptor = pack_host_image(kernel, arg, value)
        return PackedArg(storage, keep=(image, descriptor))
    if arg.kind == "sampler":
        from kernelkit.runtime.images import pack_host_sampler

        return PackedArg(pack_host_sampler(kernel, arg, value))
    raise ArgumentTypeError(f"{_where(kernel, arg)}: {arg.kind} arguments are not supported on the host target")


def pack_arguments(kernel: str, args, values, local_memory_limit: int | None = None,
                   static_local_bytes: int = 0) -> list[PackedArg]:
    """Check ``values`` against the signature's ``args`` and pack them; the ``__local`` memory
    (arguments plus the kernel's static ``__local`` variables) must fit the device's."""
    if len(values) != len(args):
        names = ", ".join(f"{a.type_name} {a.name}" for a in args)
        raise ArgumentTypeError(f"{kernel}() takes {len(args)} argument(s) ({names}), {len(values)} given")
    local = static_local_bytes + sum(v.nbytes for v in values if isinstance(v, LocalMemory))
    if local_memory_limit is not None and local > local_memory_limit:
        raise LaunchError(f"{kernel}: {local} bytes of __local memory ({static_local_bytes} static) exceed the "
                          f"device's {local_memory_limit} (CL_OUT_OF_RESOURCES)")
    return [pack_argument(kernel, a, v) for a, v in zip(args, values, strict=True)]
