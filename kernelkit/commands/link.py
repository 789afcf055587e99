"""`kernelkit link P.il -k KERNEL [-o OUT.il]`: the AMD runtime's multi-kernel link step (spec 000,
"Runtime Source Modification") — keep what one kernel needs, strip debug, call the kernel."""

from __future__ import annotations

import sys

from kernelkit.errors import FormatError


def register(sub) -> None:
    p = sub.add_parser("link", help="link a multi-kernel AMD IL program for one kernel")
    p.add_argument("file", help="AMD IL program (with ;$$$$$$$$$$ and ;function metadata)")
    p.add_argument("-k", "--kernel", required=True, help="kernel name (OpenCL C or __OpenCL_<k>_kernel)")
    p.add_argument("-o", "--output", help="output file (default: stdout)")
    p.set_defaults(func=run)


def run(args) -> int:
    from kernelkit.formats.amdil import link_program, parse_program
    from kernelkit.formats.limits import read_input

    data = read_input(args.file)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{args.file}: not AMD IL text", offset=exc.start, field="text") from None
    if args.output:
        from kernelkit.commands.common import check_output

        check_output(args.output, [args.file])
    result = link_program(parse_program(text), args.kernel)
    if args.output:
        with open(args.output, "w", newline="") as f:
            f.write(result.text)
    else:
        sys.stdout.write(result.text)
    if result.intrinsics:
        sys.stderr.write(f"intrinsics to link from the library: "
                         f"{' '.join(map(str, result.intrinsics))}\n")
    return 0
