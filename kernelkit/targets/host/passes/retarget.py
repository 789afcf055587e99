"""Retarget SPIR-style IR to the host CPU.

- triple and data layout become the host's (llvmlite's default triple and target data);
- SPIR calling conventions go (``spir_kernel``/``spir_func`` mean nothing on x86-64);
- the SPIR address spaces 1..4 collapse into the flat address space 0 (on the host global,
  constant, local, private and generic memory are all ordinary memory), ``addrspacecast``
  becomes ``bitcast`` and intrinsic names are re-mangled accordingly;
- every function except the kernel entry points becomes ``internal`` + ``alwaysinline``
  (OpenCL C has no recursion and no function pointers), ``noinline``/``optnone`` go.
"""

from __future__ import annotations

import re

from kernelkit.targets.host.irtext import ModuleText, header_params

_ADDRSPACE_RE = re.compile(r"\s*addrspace\([1-4]\)")
_INTRINSIC_RE = re.compile(r"@llvm\.[\w.]+")
# vector loads/stores and memory intrinsics: buffers from numpy (or views into them) need not have
# the alignment of OpenCL vector types, and x86 aligned moves fault on a misaligned address
_VECTOR_ACCESS_RE = re.compile(r"(?:= load <|^\s*store <|@llvm\.mem(?:cpy|move|set))")
_ALIGN_RE = re.compile(r"\balign \d+")
_LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common", "appending",
             "extern_weak", "linkonce_odr", "weak_odr", "external", "dso_local", "dso_preemptable",
             "hidden", "protected", "default")


def is_kernel_header(header: str, attribute_groups: dict[str, str]) -> bool:
    if " spir_kernel " in header:
        return True
    for ref in re.findall(r"#(\d+)", header[header_params(header)[1]:]):
        if '"mux-kernel"="entry-point"' in attribute_groups.get(ref, ""):
            return True
    return False


def attribute_groups(mod: ModuleText) -> dict[str, str]:
    out = {}
    for item in mod.items:
        if isinstance(item, str):
            m = re.match(r"^attributes #(\d+) = \{(.*)\}", item)
            if m:
                out[m.group(1)] = m.group(2)
    return out


def _strip_addrspaces(line: str) -> str:
    if "addrspace" not in line and "@llvm." not in line:
        return line
    line = _ADDRSPACE_RE.sub("", line)
    line = line.replace("addrspacecast", "bitcast")
    return _INTRINSIC_RE.sub(lambda m: re.sub(r"\.p[1-4](?=\.|$)", ".p0", m.group(0)), line)


def _relax_alignment(line: str) -> str:
    if " atomic " in line or not _VECTOR_ACCESS_RE.search(line):
        return line
    return _ALIGN_RE.sub("align 1", line)


def _internal_alwaysinline(header: str) -> str:
    """``define <linkage...> T @f(...) X`` -> ``define internal T @f(...) alwaysinline X``."""
    words = header[len("define "):].split(" ")
    while words and words[0] in _LINKAGES:
        words.pop(0)
    header = "define internal " + " ".join(words)
    _, close = header_params(header)
    rest = header[close + 1:]
    m = re.match(r"(\s*(?:local_unnamed_addr|unnamed_addr))?", rest)
    cut = close + 1 + (m.end() if m else 0)
    return header[:cut] + " alwaysinline" + header[cut:]


def retarget(mod: ModuleText, triple: str, datalayout: str) -> list[str]:
    """Rewrite ``mod`` in place; returns the names of the kernel entry points."""
    groups = attribute_groups(mod)
    kernels = []
    for i, item in enumerate(mod.items):
        if isinstance(item, str):
            if item.startswith("target triple"):
                mod.items[i] = f'target triple = "{triple}"'
            elif item.startswith("target datalayout"):
                mod.items[i] = f'target datalayout = "{datalayout}"'
            elif item.startswith("attributes #"):
                mod.items[i] = re.sub(r"\b(noinline|optnone) ", "", item)
            else:
                mod.items[i] = _strip_addrspaces(item.replace("spir_func ", "").replace("spir_kernel ", ""))
            continue
        kernel = is_kernel_header(item.header, groups)
        header = _strip_addrspaces(item.header.replace("spir_kernel ", "").replace("spir_func ", ""))
        if kernel:
            kernels.append(item.name)
        else:
            header = _internal_alwaysinline(header)
        item.header = header
        item.body = [_relax_alignment(_strip_addrspaces(line.replace("spir_func ", ""))) for line in item.body]
    _drop_repeated_declarations(mod)
    return kernels


def _drop_repeated_declarations(mod: ModuleText) -> None:
    """Intrinsics that differed only in their address spaces (``llvm.memcpy.p0.p0`` and
    ``llvm.memcpy.p1.p0``, as a by-value struct copied to a buffer has) are one function now."""
    seen = set()
    kept = []
    for item in mod.items:
        m = re.match(r"^declare [^@]*@([-\w$.]+)\(", item) if isinstance(item, str) else None
        if m:
            if m.group(1) in seen:
                continue
            seen.add(m.group(1))
        kept.append(item)
    mod.items = kept
