"""`kernelkit inspect FILE [--json]`: detect the format of a binary or text and describe it.

Formats register in ``INSPECTORS`` (tried in order). Each module provides
``detect(data: bytes, path: str) -> bool``, ``inspect(data: bytes, path: str) -> dict``
(the JSON document, ``{"format": ..., ...}``) and ``render(info: dict) -> str`` (readable listing).
"""

from __future__ import annotations

import sys

from kernelkit.errors import FormatError
from kernelkit.formats.limits import parse_size, read_input
from kernelkit.plugins import import_if_present

INSPECTORS = [
    "kernelkit.formats.amdcl2.inspect",   # ELF, e_machine 0xaf5a/0xaf5b: before amdgpu
    "kernelkit.formats.amdil.inspect",    # AMD IL text and Catalyst binaries with ;ARGSTART blocks
    "kernelkit.formats.amdgpu.inspect",   # code objects, offload bundles, host objects with fat binaries
    "kernelkit.formats.visa.inspect",     # .isa / .visaasm
    "kernelkit.targets.host.inspect",     # host binaries
]


def find_inspector(data: bytes, path: str):
    for name in INSPECTORS:
        module = import_if_present(name)
        if module is not None and module.detect(data, path):
            return module
    raise FormatError(f"{path}: not a format kernelkit knows (tried {len(INSPECTORS)} readers)",
                      offset=0, field="magic")


def register(sub) -> None:
    p = sub.add_parser("inspect", help="describe a binary: kernels, arguments, resources")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the KernelInfo document as JSON")
    p.add_argument("--debug", action="store_true",
                   help="the DWARF debug information per kernel (AMDGPU code objects built with -g)")
    p.add_argument("--disasm", action="store_true",
                   help="disassemble the kernels (AMDGPU code objects, CL2 binaries) through LLVM's C "
                        "disassembler (a libLLVM such as Debian's libllvm22)")
    p.add_argument("--max-input-size", type=parse_size, metavar="SIZE",
                   help="refuse inputs larger than this (e.g. 4G; default $KERNELKIT_MAX_INPUT_SIZE or 1G)")
    p.set_defaults(func=run)


def run(args) -> int:
    data = read_input(args.file, getattr(args, "max_input_size", None))
    module = find_inspector(data, args.file)
    if getattr(args, "debug", False):
        if not hasattr(module, "debug_info"):
            raise FormatError(f"{args.file}: --debug reads AMDGPU code objects only", field="format")
        info = module.debug_info(data, args.file)
        render = module.render_debug
    elif getattr(args, "disasm", False):
        if not hasattr(module, "disassembly"):
            raise FormatError(f"{args.file}: --disasm reads AMDGPU code objects and CL2 binaries only",
                              field="format")
        info = module.disassembly(data, args.file)
        render = module.render_disassembly
        if "error" in info and not args.json:
            sys.stderr.write(f"kernelkit inspect: {args.file}: {info['error']}\n")
            return 1
    else:
        info = module.inspect(data, args.file)
        render = module.render
    if args.json:
        import json

        json.dump(info, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        text = render(info)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
