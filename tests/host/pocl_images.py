"""Run image kernels on PoCL (pyopencl + Debian's pocl-opencl-icd; the ``pocl_env`` fixture points the
ICD loader at it) with the same kernelkit.Image / Sampler values the host gets."""

from __future__ import annotations

import functools

import numpy as np

import kernelkit


@functools.cache
def _context():
    import pyopencl as cl

    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    return ctx, cl.CommandQueue(ctx)


@functools.cache
def pocl_program(source: str, options: tuple[str, ...] = ()):
    import pyopencl as cl

    ctx, _ = _context()
    return cl.Program(ctx, source).build(options=list(options))


@functools.cache
def _kernel(prog, name: str):
    import pyopencl as cl

    return cl.Kernel(prog, name)


_TYPES = {"1d": "IMAGE1D", "1d_buffer": "IMAGE1D_BUFFER", "1d_array": "IMAGE1D_ARRAY", "2d": "IMAGE2D",
          "2d_array": "IMAGE2D_ARRAY", "3d": "IMAGE3D", "2d_depth": "IMAGE2D", "2d_array_depth": "IMAGE2D_ARRAY"}


def _region(image: kernelkit.Image) -> tuple[int, int, int]:
    """(width, height, depth) in OpenCL's terms: layers count as height (1D arrays) or depth (2D arrays)."""
    shape = image.array.shape[:-1][::-1]
    return tuple(shape) + (1,) * (3 - len(shape))


_KEEP: list = []   # buffers behind 1D-buffer images (the descriptor does not keep them alive)


def pocl_image(image: kernelkit.Image):
    import pyopencl as cl

    ctx, _ = _context()
    desc = cl.ImageDescriptor()
    desc.image_type = getattr(cl.mem_object_type, _TYPES[image.dim])
    region = _region(image)
    desc.shape = region
    desc.pitches = (0, 0)
    if image.array_size:
        desc.array_size = image.array_size
    host = np.ascontiguousarray(image.array)
    if image.dim == "1d_buffer":
        backing = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
        _KEEP.append(backing)
        desc.buffer = backing
        return cl.Image(ctx, cl.mem_flags.READ_WRITE, cl.ImageFormat(image.order.value, image.channel_type.value),
                        desc=desc)
    return cl.Image(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                    cl.ImageFormat(image.order.value, image.channel_type.value), desc=desc, hostbuf=host)


def pocl_sampler(sampler: kernelkit.Sampler):
    import pyopencl as cl

    ctx, _ = _context()
    addressing = {"none": cl.addressing_mode.NONE, "clamp_to_edge": cl.addressing_mode.CLAMP_TO_EDGE,
                  "clamp": cl.addressing_mode.CLAMP, "repeat": cl.addressing_mode.REPEAT,
                  "mirrored_repeat": cl.addressing_mode.MIRRORED_REPEAT}[sampler.addressing]
    filt = {"nearest": cl.filter_mode.NEAREST, "linear": cl.filter_mode.LINEAR}[sampler.filter]
    return cl.Sampler(ctx, sampler.normalized, addressing, filt)


def run_pocl(source: str, kernel: str, values: list, global_size, local_size=None, options=()) -> list:
    """Run ``kernel`` of ``source`` on PoCL with copies of ``values``; returns them with PoCL's results
    (buffers and images read back)."""
    import pyopencl as cl

    ctx, queue = _context()
    prog = pocl_program(source, tuple(options))
    out, args, back = [], [], []
    for v in values:
        if isinstance(v, kernelkit.Image):
            copy = kernelkit.Image(v.array.copy(), v.order.name, v.channel_type.name, v.dim)
            img = pocl_image(copy)
            args.append(img)
            back.append((img, copy))
            out.append(copy)
        elif isinstance(v, kernelkit.Sampler):
            args.append(pocl_sampler(v))
            out.append(v)
        elif isinstance(v, np.ndarray):
            copy = v.copy()
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=copy)
            args.append(buf)
            back.append((buf, copy))
            out.append(copy)
        else:
            args.append(v)
            out.append(v)
    _kernel(prog, kernel)(queue, tuple(global_size), None if local_size is None else tuple(local_size), *args)
    for mem, copy in back:
        if isinstance(copy, kernelkit.Image):
            if copy.dim == "1d_buffer":
                continue
            # (pyopencl's enqueue_copy refuses image arrays: its own reader takes every image type)
            cl._cl._enqueue_read_image(queue, mem, (0, 0, 0), _region(copy), copy.array)
        else:
            cl.enqueue_copy(queue, copy, mem)
    queue.finish()
    return out
