"""`kernelkit build SRC -t TARGET [-o OUT] [-D NAME[=V]] [-I DIR] [--cl-std V] [-O0..-O3] [--emit llvm]
[--code-object-version N]`.

``--emit llvm`` writes the frontend's SPIR IR (for TARGET's pointer size and frontend options when
``-t`` is given, else spir64, or spir with ``-m32``); otherwise the source is built for TARGET through the ComputeMux registry (``kernelkit.mux.registry.build_binary``).
``--option=-cl-...`` passes any other OpenCL build option. ``--no-cache`` bypasses the compile
cache. Compile errors print clang's diagnostics and exit 1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# The keys of kernelkit.frontend.options.CL_STD_VERSIONS (API spec 5.8.6.5), spelled out so the
# parser is built without importing the frontend (tests/cli checks that both agree).
CL_STDS = ("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0")


def add_frontend_arguments(p) -> None:
    """The options `build` and `signature` share: what the frontend needs."""
    p.add_argument("source", metavar="SRC", help="OpenCL C source file")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]",
                   help="define a preprocessor macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add an include directory")
    p.add_argument("--cl-std", choices=CL_STDS, help="OpenCL C version (default CL1.2)")
    p.add_argument("-O", dest="opt_level", type=int, choices=range(4), metavar="0..3",
                   help="optimisation level -O0..-O3 (default -O2)")
    p.add_argument("--option", dest="extra_options", action="append", default=[], metavar="OPT",
                   help="another OpenCL build option, e.g. --option=-cl-fast-relaxed-math")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the compile cache")


def frontend_options(args) -> list[str]:
    """The OpenCL build options the parsed arguments stand for."""
    options = [f"-D{d}" for d in args.defines]
    for d in args.include_dirs:
        options += ["-I", d]
    if args.cl_std:
        options.append(f"-cl-std={args.cl_std}")
    if args.opt_level is not None:
        options.append(f"-O{args.opt_level}")
    return options + list(args.extra_options)


def read_source(path: str) -> str:
    """The text of a source file; a file that is not UTF-8 is a compile error, not a traceback."""
    from kernelkit.errors import CompileError

    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CompileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def register(sub) -> None:
    p = sub.add_parser("build", help="compile OpenCL C for a target (or to LLVM IR with --emit llvm)")
    add_frontend_arguments(p)
    p.add_argument("-t", "--target", help="target name: host, gfx90a:xnack-, amdil:juniper, amdcl2:bonaire, "
                                          "visa:tgllp, ... (see `kernelkit targets`)")
    p.add_argument("-o", "--output", metavar="OUT", help="output file ('-' for standard output)")
    p.add_argument("--emit", choices=("llvm", "binary"), default="binary",
                   help="llvm: the frontend's LLVM IR; binary (default): the target's binary")
    p.add_argument("--code-object-version", type=int, choices=range(2, 7), metavar="2..6",
                   help="AMDGPU code object version (the build option -mcode-object-version=N)")
    p.add_argument("--driver-version", type=int, metavar="N",
                   help="AMD CL2 driver whose binary layout to write, e.g. 203603 (the build option "
                        "-mamdcl2-driver-version=N; default the newest kernelkit knows)")
    p.add_argument("-m", dest="bits", choices=("32", "64"), default="64",
                   help="with --emit llvm: spir (-m32) or spir64 (-m64, default) IR")
    p.set_defaults(func=run)


def _write(output: str, data: bytes) -> None:
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(output).write_bytes(data)


def _target_frontend(target_name: str) -> tuple[str, list[str]]:
    """(SPIR triple, extra frontend options) of a target, from the compiler registry."""
    from kernelkit.mux.context import Context
    from kernelkit.mux.registry import resolve_target
    from kernelkit.mux.result import MuxError

    info, device = resolve_target(target_name)
    try:
        target = info.create_target(Context(), device)
    except MuxError:  # a target that cannot compile yet still has a pointer size
        return ("spir64-unknown-unknown" if info.device_info.pointer_size == 8 else "spir-unknown-unknown"), []
    return target.frontend_triple, list(target.frontend_options())


def run(args) -> int:
    if args.no_cache:
        os.environ["KERNELKIT_NO_CACHE"] = "1"
    options = frontend_options(args)
    if args.emit == "llvm":
        from kernelkit.frontend import compile_opencl

        triple = "spir-unknown-unknown" if args.bits == "32" else "spir64-unknown-unknown"
        if args.target:  # the IR the target's frontend stage sees: its triple and its extra options
            triple, target_options = _target_frontend(args.target)
            options = [*target_options, *options]
        compiled = compile_opencl(read_source(args.source), options, filename=args.source, triple=triple,
                                  use_cache=not args.no_cache)
        if compiled.log:
            sys.stderr.write(compiled.log if compiled.log.endswith("\n") else compiled.log + "\n")
        _write(args.output or str(Path(args.source).with_suffix(".ll")), compiled.ir_text.encode())
        return 0
    if not args.target:
        sys.stderr.write("kernelkit build: error: a target is needed (-t TARGET), or --emit llvm\n")
        return 2
    try:
        from kernelkit.mux.registry import build_binary
    except ImportError:
        sys.stderr.write(f"kernelkit build: error: target {args.target!r} is not available yet "
                         "(no compiler registry)\n")
        return 1
    if args.code_object_version is not None:
        options.append(f"-mcode-object-version={args.code_object_version}")
    if args.driver_version is not None:
        options.append(f"-mamdcl2-driver-version={args.driver_version}")
    binary = build_binary(read_source(args.source), args.target, options, filename=args.source)
    _write(args.output or str(Path(args.source).with_suffix(".bin")), binary)
    return 0
