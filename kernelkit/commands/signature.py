"""`kernelkit signature SRC [--json]`: each kernel's arguments and attributes as the frontend sees them."""

from __future__ import annotations

import os
import sys

from kernelkit.commands.common import add_frontend_arguments, frontend_options, read_source, read_spirv


def register(sub) -> None:
    p = sub.add_parser("signature", help="kernel signatures (arguments, attributes) of OpenCL C source or a SPIR-V module")
    add_frontend_arguments(p)
    p.add_argument("--json", action="store_true", help="print {\"kernels\": [...]} as JSON")
    p.add_argument("-m", dest="bits", choices=("32", "64"), default="64",
                   help="pointer size: spir (-m32) or spir64 (-m64, default)")
    p.set_defaults(func=run)


def render(signatures) -> str:
    """A readable listing: one block per kernel, one line per argument."""
    lines = []
    for sig in signatures:
        attrs = []
        if sig.reqd_work_group_size:
            attrs.append("reqd_work_group_size({},{},{})".format(*sig.reqd_work_group_size))
        if sig.work_group_size_hint:
            attrs.append("work_group_size_hint({},{},{})".format(*sig.work_group_size_hint))
        if sig.vec_type_hint:
            attrs.append(f"vec_type_hint({sig.vec_type_hint})")
        if sig.intel_reqd_sub_group_size:
            attrs.append(f"intel_reqd_sub_group_size({sig.intel_reqd_sub_group_size})")
        if sig.static_local_mem:
            attrs.append(f"static local memory {sig.static_local_mem} bytes")
        lines.append(f"kernel {sig.name}" + (f"  [{', '.join(attrs)}]" if attrs else ""))
        width = max((len(a.name) for a in sig.args), default=0)
        for a in sig.args:
            words = [a.address_space] if a.address_space != "private" or a.kind == "pointer" else []
            if a.access_qualifier != "none":
                words.append(a.access_qualifier)
            words += list(a.type_qualifiers)
            words.append(a.type_name)
            lines.append(f"  {a.index:2d} {a.name:<{width}}  {' '.join(words):<32} {a.kind:<8} "
                         f"size {a.size:<3d} align {a.align}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from kernelkit.abi.signature import signatures_from_source

    if args.no_cache:
        os.environ["KERNELKIT_NO_CACHE"] = "1"
    spirv = read_spirv(args.source)
    if spirv is not None:   # a SPIR-V module: its own addressing model gives the pointer size
        from kernelkit.abi.signature import signatures_from_ir
        from kernelkit.frontend.spirv import translate

        signatures = signatures_from_ir(translate(spirv))
    else:
        read_source(args.source)  # a missing or non-UTF-8 file fails here with one readable line
        signatures = signatures_from_source(args.source, frontend_options(args),
                                            pointer_size=4 if args.bits == "32" else 8,
                                            use_cache=not args.no_cache)
    if args.json:
        import json

        json.dump({"kernels": [s.to_json() for s in signatures]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(signatures))
    return 0
