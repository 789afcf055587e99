"""`kernelkit layout SRC -t TARGET -k KERNEL [-D/-I/--cl-std/-O] [--code-object-version N] [--json]`:
argument layout of a kernel. SRC may be a binary carrying metadata, where the ABI allows: then the
target is the binary's, and a ``-t`` naming another target is refused.

ABIs register in ``LAYOUTS`` (first whose ``handles(target)`` is true wins). Each module provides
``handles(target: str) -> bool``, ``layout_for(path: str, target: str, kernel: str, options: dict) -> dict``
(``path`` is OpenCL C source or, where the ABI allows it, a binary carrying metadata) and
``render_layout(layout: dict) -> str``.

Target names: ``host``; AMDGPU processors/target IDs/triples (``gfx90a:xnack-``,
``amdgcn-amd-amdhsa--gfx90a``); ``amdil:<device>`` (``amdil:juniper``); ``amdcl2:<device>``
(``amdcl2:bonaire``); ``visa:<platform>`` (``visa:tgllp``).
"""

from __future__ import annotations

import sys

from kernelkit.errors import KernelkitError
from kernelkit.plugins import import_if_present

LAYOUTS = [
    "kernelkit.abi.amdil",
    "kernelkit.abi.cl2",
    "kernelkit.abi.visa",
    "kernelkit.abi.host",
    "kernelkit.abi.hsa",
]


def find_layout(target: str):
    for name in LAYOUTS:
        module = import_if_present(name)
        if module is not None and module.handles(target):
            return module
    raise KernelkitError(f"no ABI layout for target {target!r} (see `kernelkit targets`)")


# inspect reader -> the compiler (target kind) whose binaries it reads
BINARY_KINDS = {
    "kernelkit.formats.amdcl2.inspect": "amdcl2",
    "kernelkit.formats.amdil.inspect": "amdil",
    "kernelkit.formats.amdgpu.inspect": "amdhsa",
    "kernelkit.formats.visa.inspect": "visa",
    "kernelkit.targets.host.inspect": "host",
}


def register(sub) -> None:
    from kernelkit.commands.common import add_frontend_arguments, add_target_argument

    p = sub.add_parser("layout", help="argument layout of a kernel for a target's ABI")
    p.add_argument("src", help="OpenCL C source (or a binary with metadata, where the ABI allows)")
    add_target_argument(p)
    p.add_argument("-k", "--kernel", required=True)
    add_frontend_arguments(p, source=False)
    p.add_argument("--code-object-version", "-mcode-object-version", dest="code_object_version", type=int,
                   metavar="2..6", default=None)
    p.add_argument("--simd", type=int, default=None, help="SIMD width (visa targets)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def _binary_target(path: str, asked: str | None) -> str | None:
    """For a binary SRC: the target it was built for (refusing an ``asked`` target of another kind
    or processor); None for source."""
    from kernelkit.commands.common import target_kind
    from kernelkit.commands.inspect import INSPECTORS
    from kernelkit.errors import FormatError
    from kernelkit.formats.limits import read_input

    data = read_input(path)
    reader = next((n for n in INSPECTORS if (m := import_if_present(n)) is not None and m.detect(data, path)), None)
    if reader is None:
        return None
    kind = BINARY_KINDS.get(reader)
    try:
        own = import_if_present(reader).inspect(data, path).get("target") if kind == "amdhsa" else None
    except FormatError:
        own = None
    if asked is None:
        if kind is None:
            raise KernelkitError(f"{path} is a binary kernelkit cannot lay out: give -t TARGET")
        return own or kind
    if kind is not None and target_kind(asked) != kind:
        raise KernelkitError(f"{path} is a binary for {kind}: -t {asked} does not match it "
                             f"(leave -t out to use the binary's own target)")
    if own and kind == "amdhsa" and _processor(asked) != _processor(own):
        raise KernelkitError(f"{path} was built for {own}: -t {asked} does not match it "
                             f"(leave -t out to use the binary's own target)")
    return asked


def _processor(target: str) -> str:
    from kernelkit.formats.amdgpu.target_id import TargetID, TargetIDError

    try:
        return TargetID.parse(target).processor.name
    except TargetIDError:
        return target


def run(args) -> int:
    from kernelkit.commands.common import frontend_options

    if args.no_cache:
        import os

        os.environ["KERNELKIT_NO_CACHE"] = "1"
    target = _binary_target(args.src, args.target) or args.target
    if target is None:
        raise KernelkitError("a target is needed for OpenCL C source: -t TARGET (see `kernelkit targets`)")
    module = find_layout(target)
    options = {"code_object_version": args.code_object_version, "simd": args.simd,
               "build_options": frontend_options(args)}
    layout = module.layout_for(args.src, target, args.kernel, options)
    if args.json:
        import json

        json.dump(layout, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        text = module.render_layout(layout)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
