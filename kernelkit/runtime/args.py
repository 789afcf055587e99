"""Kernel arguments: check Python/numpy values against a KernelSignature and pack them.

Each argument becomes a small buffer holding the value the kernel receives (a pointer for
``__global``/``__constant`` buffers and ``__local`` memory, the bytes of a scalar, vector or
struct); the work-item loop entry gets an array of pointers to those buffers.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from kernelkit.abi.opencl_types import NUMPY_DTYPES


class LocalMemory:
    """A ``__local`` pointer argument of ``nbytes`` bytes (allocated per work-group by the runtime)."""

    def __init__(self, nbytes: int):
        if int(nbytes) <= 0:
            raise ValueError(f"LocalMemory needs a positive size, got {nbytes}")
        self.nbytes = int(nbytes)

    def __repr__(self) -> str:
        return f"LocalMemory({self.nbytes})"


@dataclass
class PackedArg:
    """How one argument reaches the kernel."""

    storage: ctypes.Array | None        # the bytes of the value (None for __local: per thread)
    array: np.ndarray | None = None     # the buffer behind a pointer argument
    local_bytes: int = 0                # size of a __local allocation


def _where(kernel: str, arg) -> str:
    return f"{kernel}: argument {arg.index} ({arg.name or '?'}: {arg.type_name})"


def _value_bytes(value, dtype: np.dtype, count: int, kernel: str, arg) -> bytes:
    if isinstance(value, np.generic | np.ndarray):
        arr = np.asarray(value)
        if arr.dtype != dtype:
            raise TypeError(f"{_where(kernel, arg)} needs dtype {dtype} ({arg.element}), got {arr.dtype}")
    elif isinstance(value, bool | int | float):
        if count != 1:
            raise TypeError(f"{_where(kernel, arg)} is a {arg.type_name} vector: pass a numpy array of "
                            f"{arg.vector_width} {dtype}")
        if dtype.kind in "iu":
            if not isinstance(value, int | bool):
                raise TypeError(f"{_where(kernel, arg)} needs an integer, got {type(value).__name__}")
            info = np.iinfo(dtype)
            if not info.min <= int(value) <= info.max:
                raise ValueError(f"{_where(kernel, arg)}: {value} does not fit in {arg.element}")
        arr = np.asarray(value, dtype=dtype)
    else:
        raise TypeError(f"{_where(kernel, arg)} needs a numpy {dtype} value, got {type(value).__name__}")
    flat = arr.reshape(-1)
    if flat.size != count and not (count == 4 and arg.vector_width == 3 and flat.size == 3):
        raise ValueError(f"{_where(kernel, arg)} needs {arg.vector_width} element(s), got {flat.size}")
    data = flat.tobytes()
    return data + bytes(max(0, arg.size - len(data)))


def pack_argument(kernel: str, arg, value) -> PackedArg:
    if arg.kind == "pointer":
        if arg.address_space == "local":
            if not isinstance(value, LocalMemory):
                raise TypeError(f"{_where(kernel, arg)} is a __local pointer: pass kernelkit.LocalMemory(nbytes)")
            return PackedArg(None, local_bytes=value.nbytes)
        if value is None:
            return PackedArg(ctypes.create_string_buffer(8))
        if not isinstance(value, np.ndarray):
            raise TypeError(f"{_where(kernel, arg)} is a __{arg.address_space} pointer: pass a numpy array, "
                            f"got {type(value).__name__}")
        if not value.flags.c_contiguous:
            raise ValueError(f"{_where(kernel, arg)}: the array must be C-contiguous")
        if arg.address_space == "global" and "const" not in arg.type_qualifiers and not value.flags.writeable:
            raise ValueError(f"{_where(kernel, arg)}: the array is read-only but the kernel may write it")
        if arg.pointee_size and arg.element in NUMPY_DTYPES and value.dtype.itemsize not in (0,) \
                and value.nbytes % arg.pointee_size:
            raise ValueError(f"{_where(kernel, arg)}: {value.nbytes} bytes is not a whole number of "
                             f"{arg.type_name.rstrip('*')} ({arg.pointee_size} bytes each)")
        storage = ctypes.create_string_buffer(value.ctypes.data.to_bytes(8, "little"), 8)
        return PackedArg(storage, array=value)
    if arg.kind in ("scalar", "vector"):
        dtype = NUMPY_DTYPES.get(arg.element or "")
        if dtype is None:
            raise TypeError(f"{_where(kernel, arg)}: element type {arg.element!r} is not supported on host")
        # a 3-component vector occupies 4 (OpenCL C 6.3.5); 3 values are accepted and padded
        count = 1 if arg.kind == "scalar" else (4 if arg.vector_width == 3 else arg.vector_width)
        data = _value_bytes(value, dtype, count, kernel, arg)
        return PackedArg(ctypes.create_string_buffer(data, max(len(data), arg.size, 1)))
    if arg.kind in ("struct", "union"):
        arr = np.asarray(value) if isinstance(value, np.generic | np.ndarray) else None
        if arr is None or arr.dtype.fields is None and arg.kind == "struct":
            raise TypeError(f"{_where(kernel, arg)} is a struct: pass a numpy structured scalar "
                            f"({arg.size} bytes, OpenCL C alignment)")
        if arr.size != 1 or arr.dtype.itemsize != arg.size:
            raise ValueError(f"{_where(kernel, arg)}: the struct is {arg.size} bytes, the value "
                             f"{arr.dtype.itemsize * arr.size} bytes (align the numpy dtype: align=True)")
        data = arr.reshape(-1).tobytes()
        return PackedArg(ctypes.create_string_buffer(data, len(data)))
    raise TypeError(f"{_where(kernel, arg)}: {arg.kind} arguments are not supported on the host target")


def pack_arguments(kernel: str, args, values) -> list[PackedArg]:
    if len(values) != len(args):
        names = ", ".join(f"{a.type_name} {a.name}" for a in args)
        raise TypeError(f"{kernel}() takes {len(args)} argument(s) ({names}), {len(values)} given")
    return [pack_argument(kernel, a, v) for a, v in zip(args, values, strict=True)]
