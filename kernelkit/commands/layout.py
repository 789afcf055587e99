"""`kernelkit layout SRC -t TARGET -k KERNEL [--code-object-version N] [--json]`: argument layout of a kernel.

ABIs register in ``LAYOUTS`` (first whose ``handles(target)`` is true wins). Each module provides
``handles(target: str) -> bool``, ``layout_for(path: str, target: str, kernel: str, options: dict) -> dict``
(``path`` is OpenCL C source or, where the ABI allows it, a binary carrying metadata) and
``render_layout(layout: dict) -> str``.

Target names: ``host``; AMDGPU processors/target IDs/triples (``gfx90a:xnack-``,
``amdgcn-amd-amdhsa--gfx90a``); ``amdil:<device>`` (``amdil:juniper``); ``amdcl2:<device>``
(``amdcl2:bonaire``); ``visa:<platform>`` (``visa:tgllp``).
"""

from __future__ import annotations

import json
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


def register(sub) -> None:
    p = sub.add_parser("layout", help="argument layout of a kernel for a target's ABI")
    p.add_argument("src", help="OpenCL C source (or a binary with metadata, where the ABI allows)")
    p.add_argument("-t", "--target", required=True)
    p.add_argument("-k", "--kernel", required=True)
    p.add_argument("--code-object-version", type=int, default=None)
    p.add_argument("--simd", type=int, default=None, help="SIMD width (visa targets)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    module = find_layout(args.target)
    options = {"code_object_version": args.code_object_version, "simd": args.simd}
    layout = module.layout_for(args.src, args.target, args.kernel, options)
    if args.json:
        json.dump(layout, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        text = module.render_layout(layout)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
