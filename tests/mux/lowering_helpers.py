"""Compile OpenCL C, run the mux passes, and read the result back through llvmlite (the oracle)."""

from __future__ import annotations

import re
from functools import cache

import llvmlite.binding as llvm
from conftest import corpus_manifest

from kernelkit.frontend import compile_opencl
from kernelkit.ir import parse
from kernelkit.mux.passes.dma_events import retype_dma_events
from kernelkit.mux.passes.kernel_attributes import mark_kernels
from kernelkit.mux.passes.lower_builtins import lower_opencl_builtins
from kernelkit.mux.passes.subgroups import mark_no_subgroups


@cache
def corpus_std() -> dict[str, str]:
    manifest = corpus_manifest()
    return {name: entry.get("cl_std", "CL2.0") for name, entry in manifest.get("files", {}).items()}


def std_for(filename: str, source: str) -> str:
    if filename in corpus_std():
        return corpus_std()[filename]
    return "CL3.0" if "cl30" in filename else "CL2.0"


def lowered(source: str, options=("-cl-std=CL2.0", "-O0"), filename: str = "<source>",
            triple: str = "spir64-unknown-unknown") -> tuple[str, llvm.ModuleRef]:
    module = parse(compile_opencl(source, list(options), filename=filename, triple=triple).ir_text)
    lower_opencl_builtins(module)
    retype_dma_events(module)
    mark_kernels(module)
    mark_no_subgroups(module)
    text = str(module)
    ref = llvm.parse_assembly(text)
    ref.verify()
    return text, ref


def fn_attributes(ref: llvm.ModuleRef, name: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for blob in ref.get_function(name).attributes:
        for m in re.finditer(r'"([^"]+)"(?:="([^"]*)")?|(\S+)', blob.decode()):
            if m.group(3):
                out[m.group(3)] = None
            else:
                out[m.group(1)] = m.group(2)
    return out


def calls(text: str, callee: str) -> list[list[str]]:
    """Argument lists (as text) of every call of ``@callee``."""
    out = []
    for m in re.finditer(rf"call [^@\n]*@{re.escape(callee)}\(", text):
        depth, args, current = 0, [], ""
        for ch in text[m.end():]:
            if ch == ")" and depth == 0:
                break
            if ch == "," and depth == 0:
                args.append(current.strip())
                current = ""
                continue
            depth += {"(": 1, ")": -1}.get(ch, 0)
            current += ch
        if current.strip():
            args.append(current.strip())
        out.append(args)
    return out
