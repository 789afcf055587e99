"""`kernelkit run SRC -k KERNEL --global N[,N[,N]] [--arg VALUE]...`: run a kernel on the host CPU.

Arguments are given in the kernel's parameter order, one ``--arg`` each (a leading ``name:`` is
optional and must then match the parameter's name):

  2.5 / -3 / 0x10          a scalar (typed by the kernel's signature)
  1,2,3,4                  a vector
  [N]=INIT  float32[N]=INIT  [R,C]=INIT
                           a buffer of N (or R x C) elements; the element type defaults to the
                           pointee's; INIT is zeros (default), ones, arange, random, a number,
                           or @file.npy
  local:BYTES  local:float[N]
                           a __local buffer
  @file.npy                a buffer loaded from a .npy file

``--print`` prints every buffer after the run (``--print NAME`` just that one; ``--save out.npz``
writes them); printf output appears as the kernel produces it. SRC may also be a host binary
made by ``kernelkit build -t host``. Every memory access is bounds-checked (``--unchecked``
runs the faster unchecked code); Ctrl-C or ``--timeout`` stops a kernel that does not finish.

Example:  kernelkit run saxpy.cl -k saxpy --global 1024 --arg 2.0 --arg x:[1024]=random \\
              --arg y:[1024]=ones --print y
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from kernelkit.commands.common import add_frontend_arguments, frontend_options, is_spirv
from kernelkit.errors import KernelkitError

_INIT_WORDS = ("zeros", "ones", "arange", "random")
MAX_BUFFER_BYTES = 1 << 34   # command-line buffers (16 GiB); larger ones come from the Python API


def register(sub) -> None:
    p = sub.add_parser("run", help="run a kernel on the host CPU (numpy buffers from the command line)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", help="OpenCL C source or host binary")
    p.add_argument("-k", "--kernel", help="kernel name (default: the only kernel)")
    p.add_argument("-t", "--target", default="host",
                   help="device to run on: host (default) or a simulated one, e.g. visa:tgllp")
    p.add_argument("-g", "--global", dest="global_size", required=True, help="global size, e.g. 1024 or 64,64")
    p.add_argument("-l", "--local", dest="local_size", help="local size (default: chosen by the runtime)")
    p.add_argument("--offset", help="global offset")
    p.add_argument("-a", "--arg", action="append", default=[], metavar="VALUE", help="kernel argument (in order)")
    add_frontend_arguments(p, source=False)  # -D -I --cl-std -O0..3 --option --no-cache, as in build
    p.add_argument("--print", nargs="?", const="*", action="append", dest="print_", metavar="NAME",
                   help="print buffers after the run (all, or the named one)")
    p.add_argument("--save", metavar="FILE.npz", help="save the buffers to an .npz file")
    p.add_argument("--unchecked", action="store_true",
                   help="do not bounds-check memory accesses (by default every access is checked)")
    p.add_argument("--check", action="store_true", help=argparse.SUPPRESS)   # the default; kept for old scripts
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="stop the kernel if still running after this")
    p.add_argument("--threads", type=int, help="threads (default: KERNELKIT_THREADS or all cores)")
    p.add_argument("--time", action="store_true", help="report the launch time")
    p.add_argument("--seed", type=int, default=0, help="seed for random buffers")
    p.set_defaults(func=run)


def _sizes(text: str | None, what: str):
    if text is None:
        return None
    try:
        values = [int(v, 0) for v in text.replace("x", ",").split(",") if v.strip()]
    except ValueError:
        raise KernelkitError(f"--{what}: expected N or N,N[,N], got {text!r}") from None
    return values


def _dtype_for(name: str | None, arg):
    import numpy as np

    from kernelkit.abi.opencl_types import NUMPY_DTYPES

    if name:
        try:
            return np.dtype(NUMPY_DTYPES.get(name, name))
        except TypeError:
            raise KernelkitError(f"unknown element type {name!r}") from None
    pointee = (arg.pointee or "").rstrip("*")
    m = re.fullmatch(r"([a-z]+?)(\d*)", pointee.replace("unsigned ", "u"))
    base = m.group(1) if m else pointee
    if base in NUMPY_DTYPES:
        return NUMPY_DTYPES[base]
    return np.dtype(np.uint8)


def _buffer(spec: str, arg, rng):
    import numpy as np

    if spec.startswith("@"):
        return np.ascontiguousarray(np.load(spec[1:]))
    m = re.fullmatch(r"([A-Za-z0-9_]*)\[([0-9, x]+)\](?:=(.+))?", spec)
    if not m:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): cannot read buffer spec {spec!r} "
                             "(expected e.g. [1024]=random or float32[64,64]=zeros)")
    dtype = _dtype_for(m.group(1) or None, arg)
    shape = tuple(int(v) for v in re.split(r"[,x]", m.group(2)) if v.strip())
    width = 1
    pointee = (arg.pointee or "")
    wm = re.search(r"(\d+)$", pointee)
    if not m.group(1) and wm and arg.element and pointee != arg.element:
        width = int(wm.group(1))
        width = 4 if width == 3 else width
    full = shape + ((width,) if width > 1 else ())
    nbytes = int(np.prod(full, dtype=object)) * dtype.itemsize
    if nbytes > MAX_BUFFER_BYTES:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): a buffer of {nbytes} bytes is larger than "
                             f"{MAX_BUFFER_BYTES} bytes")
    init = m.group(3) or "zeros"
    if init == "zeros":
        return np.zeros(full, dtype)
    if init == "ones":
        return np.ones(full, dtype)
    if init == "arange":
        return np.arange(int(np.prod(full))).astype(dtype).reshape(full)
    if init == "random":
        if dtype.kind == "f":
            return rng.random(full).astype(dtype)
        return rng.integers(0, 100, full).astype(dtype)
    try:
        fill = float(init) if dtype.kind == "f" else _integer(init, dtype, arg)
        return np.full(full, fill, dtype)
    except ValueError:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): unknown initialiser {init!r} "
                             f"(use {', '.join(_INIT_WORDS)}, a number or @file.npy)") from None


def _scalar(text: str, arg):
    import numpy as np

    from kernelkit.abi.opencl_types import NUMPY_DTYPES

    dtype = NUMPY_DTYPES.get(arg.element or "")
    if dtype is None:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): {arg.type_name} cannot be given on the command line")
    parts = [p for p in text.split(",") if p.strip()]
    try:
        values = [float(p) if dtype.kind == "f" else _integer(p, dtype, arg) for p in parts]
    except ValueError:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): {text!r} is not a {arg.type_name}") from None
    if arg.kind == "vector" and len(values) not in (1, arg.vector_width) \
            and not (arg.vector_width == 3 and len(values) == 4):
        raise KernelkitError(f"argument {arg.index} ({arg.name}) is a {arg.type_name}: give 1 or "
                             f"{arg.vector_width} values, got {len(values)}")
    if arg.kind == "vector":
        if len(values) == 1:
            values = values * arg.vector_width
        return np.array(values, dtype=dtype)
    if len(values) != 1:
        raise KernelkitError(f"argument {arg.index} ({arg.name}) is a scalar {arg.type_name}, got {text!r}")
    return np.array(values[0]).astype(dtype)[()]


def _integer(text: str, dtype, arg) -> int:
    """An integer literal that fits the argument's element type (as the Python API requires)."""
    import numpy as np

    value = int(text.strip(), 0)
    info = np.iinfo(dtype)
    if not info.min <= value <= info.max:
        raise KernelkitError(f"argument {arg.index} ({arg.name}): {value} does not fit in {arg.element} "
                             f"({info.min}..{info.max})")
    return value


def parse_argument(text: str, arg, rng):
    import kernelkit

    name, sep, rest = text.partition(":")
    if sep and re.fullmatch(r"[A-Za-z_]\w*", name) and name not in ("local",):
        if arg.name and name != arg.name:
            raise KernelkitError(f"argument {arg.index} is named {arg.name!r}, not {name!r}")
        text = rest
    if arg.kind == "pointer" and arg.address_space == "local":
        m = re.fullmatch(r"(?:local:)?(?:(\d+)|([a-z0-9_]+)\[(\d+)\])", text)
        if not m:
            raise KernelkitError(f"argument {arg.index} ({arg.name}) is __local: use local:BYTES or local:float[N]")
        if m.group(1):
            return kernelkit.LocalMemory(int(m.group(1)))
        return kernelkit.LocalMemory(_dtype_for(m.group(2), arg).itemsize * int(m.group(3)))
    if arg.kind == "pointer":
        try:
            return _buffer(text, arg, rng)
        except MemoryError:
            raise KernelkitError(f"argument {arg.index} ({arg.name}): not enough memory for {text!r}") from None
    return _scalar(text, arg)


def _save_path(args) -> str:
    """Where --save writes (numpy adds .npz), never one of the run's inputs."""
    from kernelkit.commands.common import check_output

    path = args.save if args.save.endswith(".npz") else args.save + ".npz"
    inputs = [args.src] + [a.split("@", 1)[1] for a in args.arg if "@" in a]
    return check_output(path, inputs, option="--save")


def _refuse_other_binaries(path: str, data: bytes) -> None:
    """A binary of another target is named as such, not compiled as OpenCL C."""
    from kernelkit.commands.inspect import find_inspector
    from kernelkit.errors import FormatError

    try:
        reader = find_inspector(data, path)
    except FormatError:
        return
    name = reader.__name__.split(".")[-2]
    raise KernelkitError(f"{path} is a binary for {name}: `kernelkit run` runs OpenCL C source, SPIR-V modules and "
                         "host binaries (`kernelkit build -t host`)")


def _source_text(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KernelkitError(f"{path}: neither a host binary nor UTF-8 OpenCL C source (byte {exc.start})") from None


def run(args) -> int:
    import numpy as np

    import kernelkit
    from kernelkit.formats.limits import read_input
    from kernelkit.targets.host.binary import is_host_binary

    save_path = _save_path(args) if args.save else None   # refused before anything runs
    data = read_input(args.src)
    options = frontend_options(args)
    if is_host_binary(data):
        if options:
            raise KernelkitError(f"{args.src} is a host binary, already built: build options "
                                 f"({' '.join(options)}) cannot apply to it")
        prog = kernelkit.Program.from_binary(data)
    else:
        spirv = is_spirv(data)
        if not spirv:
            _refuse_other_binaries(args.src, data)
        if args.no_cache:
            import os

            os.environ["KERNELKIT_NO_CACHE"] = "1"
        from kernelkit.builder.progress import Progress

        with Progress() as progress:   # a status line on a terminal when the build takes a while
            progress.update(args.src, f"building {args.src} for {args.target}")
            source = data if spirv else _source_text(args.src, data)   # SPIR-V builds as such
            prog = kernelkit.Program(source, options, filename=args.src).build(args.target)
        if prog.build_log:
            sys.stderr.write(prog.build_log)
    names = prog.kernel_names
    if args.kernel is None:
        if len(names) != 1:
            raise KernelkitError(f"{args.src} has kernels {', '.join(names)}: choose one with -k")
        args.kernel = names[0]
    kernel = prog.kernel(args.kernel)
    sig_args = kernel.signature.args
    if len(args.arg) != len(sig_args):
        wanted = ", ".join(f"{a.type_name} {a.name}" for a in sig_args)
        raise KernelkitError(f"{args.kernel} takes {len(sig_args)} argument(s) ({wanted}); "
                             f"{len(args.arg)} --arg given")
    if args.seed < 0:
        raise KernelkitError(f"--seed must be a non-negative integer, got {args.seed}")
    rng = np.random.default_rng(args.seed)
    values = [parse_argument(t, a, rng) for t, a in zip(args.arg, sig_args, strict=True)]
    t0 = time.perf_counter()
    kernel(*values, global_size=_sizes(args.global_size, "global"), local_size=_sizes(args.local_size, "local"),
           global_offset=_sizes(args.offset, "offset"), check=not args.unchecked, threads=args.threads,
           timeout=args.timeout)
    elapsed = time.perf_counter() - t0
    buffers = {(a.name or f"arg{a.index}"): v for a, v in zip(sig_args, values, strict=True)
               if isinstance(v, np.ndarray) and a.kind == "pointer"}
    wanted = args.print_ or []
    for name, arr in buffers.items():
        if "*" in wanted or name in wanted:
            with np.printoptions(threshold=64, edgeitems=8, linewidth=100):
                print(f"{name} = {arr!r}")
    unknown = [w for w in wanted if w != "*" and w not in buffers]
    if unknown:
        raise KernelkitError(f"--print: no buffer argument named {', '.join(unknown)} "
                             f"(buffers: {', '.join(buffers) or 'none'})")
    if args.save:
        np.savez(save_path, **buffers)
    if args.time:
        print(f"{args.kernel}: {elapsed * 1e3:.3f} ms", file=sys.stderr)
    return 0
