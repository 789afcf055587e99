"""What several subcommands share: the frontend's arguments (one spelling, one meaning in every
subcommand), the target argument with clang's spellings, and where outputs may be written.

Nothing here imports the compiler: a cached build must not pay for LLVM or numpy.
"""

from __future__ import annotations

import os
import sys

from kernelkit.builder.kinds import target_kind
from kernelkit.errors import CompileError, KernelkitError

__all__ = ["BINARY_SUFFIXES", "CL_STDS", "EMIT_SUFFIXES", "add_frontend_arguments", "add_target_argument",
           "check_output", "default_output", "frontend_options", "is_spirv", "read_source", "target_kind", "write_output"]

# The keys of kernelkit.frontend.options.CL_STD_VERSIONS (API spec 5.8.6.5), spelled out so the
# parser is built without importing the frontend (tests/cli checks that both agree).
CL_STDS = ("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0")

# The usual file suffix of each target's binary (the compiler Info's name), and of the other
# outputs of `build`.
BINARY_SUFFIXES = {"host": ".kkhost", "amdhsa": ".hsaco", "amdil": ".il", "amdcl2": ".clo", "visa": ".isa"}
EMIT_SUFFIXES = {"llvm": ".ll", "bitcode": ".bc", "asm": ".s"}


def add_frontend_arguments(p, *, source: bool = True) -> None:
    """-D, -I, --cl-std (also clang's -cl-std=), -O0..-O3, --option, --no-cache."""
    if source:
        p.add_argument("source", metavar="SRC", help="OpenCL C source file")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=V]",
                   help="define a preprocessor macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add an include directory")
    p.add_argument("--cl-std", "-cl-std", dest="cl_std", choices=CL_STDS,
                   help="OpenCL C version (default CL1.2)")
    p.add_argument("-O", dest="opt_level", type=int, choices=range(4), metavar="0..3",
                   help="optimisation level -O0..-O3 (default -O2)")
    p.add_argument("--option", dest="extra_options", action="append", default=[], metavar="OPT",
                   help="another OpenCL build option, e.g. --option=-cl-fast-relaxed-math")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the compile cache")


def add_target_argument(p, *, required: bool = False, help_text: str | None = None) -> None:
    """-t/--target, also spelled as clang spells it: -mcpu=, --offload-arch=."""
    p.add_argument("-t", "--target", "-mcpu", "--offload-arch", dest="target", required=required,
                   help=help_text or "target name: host, gfx90a:xnack-, amdil:juniper, amdcl2:bonaire, visa:tgllp, "
                                     "... (see `kernelkit targets`); also -mcpu=, --offload-arch=")


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


def read_spirv(path: str) -> bytes | None:
    """The bytes of a SPIR-V module (the file starts with SPIR-V's magic number), else None."""
    from kernelkit.formats.limits import read_input

    if not os.path.isfile(path):
        return None
    data = read_input(path)
    return data if is_spirv(data) else None


def is_spirv(data: bytes) -> bool:
    """Whether ``data`` starts with SPIR-V's magic number (spec §3.1), in either byte order."""
    magic = 0x07230203
    return data[:4] in (magic.to_bytes(4, "little"), magic.to_bytes(4, "big"))


def read_source(path: str) -> str:
    """The text of a source file; a file that is not UTF-8 is a compile error, not a traceback."""
    from kernelkit.formats.limits import read_input

    data = read_input(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CompileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(output: str, inputs: list[str], *, option: str = "-o") -> str:
    """``output`` unless it is one of ``inputs`` (a command never overwrites its own input)."""
    if output == "-":
        return output
    for path in inputs:
        if path and path != "-" and _same_file(output, path):
            raise KernelkitError(f"output {output} is the input {path}: refusing to overwrite it "
                                 f"(choose another {option})")
    return output


def plain_path(path: str) -> bool:
    """Whether pathlib gives ``path`` back as it is (``str(Path(path)) == path``: POSIX, no empty or '.'
    component, no trailing '/'): then os.path alone treats it as pathlib does, and a cached build need
    not import pathlib."""
    if os.sep != "/" or os.altsep:
        return False
    parts = path.split("/")
    body = parts[1:] if parts[0] == "" else parts
    return bool(body) and "" not in body and "." not in body


def default_output(source: str, suffix: str) -> str:
    """The output path beside ``source`` with ``suffix``; an error if that is the source itself."""
    if plain_path(source):     # pathlib's with_suffix: the last '.' not at either end starts the suffix
        folder, name = os.path.split(source)
        dot = name.rfind(".")
        out = os.path.join(folder, (name[:dot] if 0 < dot < len(name) - 1 else name) + suffix)
    else:
        from pathlib import Path

        out = str(Path(source).with_suffix(suffix))
    if _same_file(out, source):
        raise KernelkitError(f"the default output {out} would overwrite the input: give -o OUT")
    return out


def write_output(output: str, data: bytes) -> None:
    """Write ``data`` to ``output`` ('-' is standard output) through a temporary file, so that a
    failure never leaves half a file."""
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    if plain_path(output):
        folder, name = os.path.split(output)
        target, tmp = output, os.path.join(folder, f".{name}.kk-tmp-{os.getpid()}")
    else:
        from pathlib import Path

        target = Path(output)
        tmp = target.with_name(f".{target.name}.kk-tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
