"""`kernelkit convert IN -o OUT`: vISA binary (.isa) <-> vISA assembly (.visaasm).

The output encoding follows OUT's suffix (or ``--to isa|visaasm``); the input's is detected."""

from __future__ import annotations

from pathlib import Path

from kernelkit.errors import FormatError


def register(sub) -> None:
    p = sub.add_parser("convert", help="convert vISA objects between binary .isa and text .visaasm")
    p.add_argument("input")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--to", choices=["isa", "visaasm"], help="output encoding (default: from the suffix)")
    p.add_argument("--no-validate", action="store_true", help="do not check the spec 004 limits")
    p.set_defaults(func=run)


def run(args) -> int:
    from kernelkit.commands.common import check_output
    from kernelkit.formats.visa.binary import write_isa
    from kernelkit.formats.visa.inspect import detect, load
    from kernelkit.formats.visa.text_print import print_visaasm
    from kernelkit.formats.visa.validate import check

    check_output(args.output, [args.input])
    from kernelkit.formats.limits import read_input

    data = read_input(args.input)
    if not detect(data, args.input):
        raise FormatError(f"{args.input}: not a vISA object or vISA assembly text", offset=0, field="magic")
    target = args.to or Path(args.output).suffix.lstrip(".")
    if target not in ("isa", "visaasm"):
        raise FormatError(f"{args.output}: output suffix must be .isa or .visaasm (or use --to)")
    obj = load(data, args.input, lenient=False)
    if not args.no_validate:
        check(obj)
    if target == "isa":
        Path(args.output).write_bytes(write_isa(obj))
    else:
        Path(args.output).write_text(print_visaasm(obj))
    return 0
