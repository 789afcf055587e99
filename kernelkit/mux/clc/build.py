"""Compile the builtin library with clang (the ziglang wheel) for a target triple, cached.

Each family is one OpenCL C translation unit (a file in ``src/`` or the text a generator
returns); they are compiled separately (in parallel) and linked with llvmlite.

Mangling: kernels are compiled for SPIR (``spir64-unknown-unknown``), so their calls name
builtins with SPIR's address-space mangling (private = plain, global AS1, constant AS2,
local AS3, generic AS4).  For triples that are neither SPIR nor AMDGPU (the host), the
library is therefore compiled for SPIR too and retargeted (triple, data layout, calling
convention), keeping SPIR address spaces exactly like the kernel IR it is linked with.
AMDGPU has its own address-space mangling, so for amdgcn the library is compiled natively.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kernelkit.cache import Cache, cache_root
from kernelkit.errors import CompileError
from kernelkit.mux.clc.definitions import DefinitionIndex

HERE = Path(__file__).resolve().parent
INCLUDE = HERE / "include"
# kernelkit_opencl.h: the base header kernels get, which clc.h includes for the OpenCL C types
BASE_HEADER_INCLUDE = HERE.parents[1] / "frontend" / "include"
SRC = HERE / "src"

SPIR_TRIPLE = "spir64-unknown-unknown"
# Flags every library translation unit is compiled with (see include/clc.h).
BASE_FLAGS: tuple[str, ...] = ("-cl-std=CL3.0", "-cl-ext=+all", "-O2", "-ffp-contract=on")


@dataclass(frozen=True)
class Family:
    """One translation unit of the library."""

    name: str
    text: Callable[[], str]


def _file(name: str) -> Callable[[], str]:
    return lambda: (SRC / name).read_text()


def families() -> tuple[Family, ...]:
    from kernelkit.mux.clc import (
        gen_atomic,
        gen_common,
        gen_convert,
        gen_integer,
        gen_math,
        gen_relational,
        gen_vector_memory,
    )

    return (
        Family("convert_scalar", gen_convert.scalar_source),
        Family("convert_vector", gen_convert.vector_source),
        Family("integer", gen_integer.source),
        Family("common", gen_common.source),
        Family("relational", gen_relational.source),
        Family("vector_memory", gen_vector_memory.source),
        Family("atomic", gen_atomic.source),
        Family("math_scalar", gen_math.scalar_source),
        Family("math_vector", gen_math.vector_source),
        Family("ndrange", _file("ndrange.cl")),
        Family("address_space", _file("address_space.cl")),
    )


def compile_triple(triple: str) -> str:
    """The triple clang compiles the library for (see module docstring)."""
    if triple.startswith(("spir", "amdgcn")):
        return triple
    return SPIR_TRIPLE.replace("spir64", "spir64" if _pointer_bits(triple) == 64 else "spir")


def _pointer_bits(triple: str) -> int:
    arch = triple.split("-", 1)[0]
    return 32 if arch in ("i386", "i686", "x86", "arm", "armv7", "spir", "riscv32") else 64


def target_macros(triple: str) -> list[str]:
    """Preprocessor switches telling the sources what the final target is (SPIR IR is the
    host's input, so both get the same library: it may call the C library)."""
    if triple.startswith("amdgcn"):
        return ["-DKK_TARGET_AMDGPU=1"]
    return []


def ziglang_version() -> str:
    """The version of the ziglang wheel whose clang compiles the libraries (part of their cache keys)."""
    from importlib import metadata  # (here: importing it, and the email package, costs ~10 ms)

    try:
        return metadata.version("ziglang")
    except metadata.PackageNotFoundError:
        return "unknown"


def _headers_text() -> str:
    return "".join(p.read_text() for p in [*sorted(INCLUDE.glob("*.h")), BASE_HEADER_INCLUDE / "kernelkit_opencl.h"])


# OpenCL build options (OpenCL 3.0 API s5.8.6.4) that clang's driver accepts but -cc1 spells
# differently.
CC1_SPELLING: dict[str, tuple[str, ...]] = {
    "-cl-denorms-are-zero": ("-fdenormal-fp-math-f32=preserve-sign,preserve-sign",),
}


def _flags(triple: str, opts: Sequence[str]) -> list[str]:
    cc1 = [flag for o in opts for flag in CC1_SPELLING.get(o, (o,))]
    return [*BASE_FLAGS, *target_macros(triple), *cc1]


def compile_family(family: Family, triple: str, opts: Sequence[str] = (), *, text: str | None = None) -> str:
    """LLVM IR text of one family, compiled for compile_triple(triple) (not retargeted)."""
    text = family.text() if text is None else text
    ctriple = compile_triple(triple)
    with tempfile.TemporaryDirectory(prefix="kk-clc-") as tmp:
        src = Path(tmp) / f"{family.name}.cl"
        out = Path(tmp) / f"{family.name}.ll"
        src.write_text(text)
        # relative source path: the IR's source_filename must not depend on the temp dir
        cmd = [sys.executable, "-m", "ziglang", "clang", "-cc1", "-triple", ctriple, *_flags(triple, opts),
               "-I", str(INCLUDE), "-I", str(BASE_HEADER_INCLUDE), "-emit-llvm", "-o", str(out), src.name]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
        if proc.returncode != 0:
            raise CompileError(f"builtin library family {family.name!r} ({ctriple}): {proc.stderr.strip()}")
        return out.read_text()


_RETARGETED: dict[tuple[str, str], str] = {}


def retarget(ir_text: str, triple: str) -> str:
    """SPIR IR -> IR for triple, on kernelkit.ir (parsed, edited, printed once): data layout,
    triple, and no SPIR calling convention on functions and calls. The cost grows with the text:
    give it a ``subset``, not the whole library (the last results are kept per process)."""
    from kernelkit import ir
    from kernelkit.llvm_binding import llvm

    done = _RETARGETED.get((triple, ir_text))
    if done is not None:
        return done
    module = ir.parse(ir_text)
    module.triple = triple
    module.data_layout = str(llvm().Target.from_triple(triple).create_target_machine().target_data)
    for f in module.functions:
        if f.calling_conv == "spir_func":
            f.calling_conv = ""
        for inst in f.instructions():
            if isinstance(inst, ir.CallInst) and inst.calling_conv == "spir_func":
                inst.calling_conv = ""
    if len(_RETARGETED) >= 16:
        _RETARGETED.clear()
    done = _RETARGETED[(triple, ir_text)] = str(module)
    return done


def _link(texts: Sequence[str]) -> str:
    import llvmlite.binding as llvm

    modules = [llvm.parse_assembly(t) for t in texts]
    main = modules[0]
    for other in modules[1:]:
        main.link_in(other)
    main.verify()
    return str(main)


@cache
def _family_text(name: str) -> str:
    return next(f for f in families() if f.name == name).text()


# in-process memo of build results: (triple, opts, families, cache dir) -> IR text
_BUILT: dict[tuple[str, tuple[str, ...], tuple[str, ...] | None, Path], str] = {}


def build(triple: str, opts: Sequence[str] = (), names: Sequence[str] | None = None,
          *, use_cache: bool = True) -> str:
    memo_key = (triple, tuple(opts), None if names is None else tuple(names), cache_root())
    if use_cache and memo_key in _BUILT:
        return _BUILT[memo_key]
    text = _build(triple, opts, names, use_cache=use_cache)
    if use_cache:
        _BUILT[memo_key] = text
    return text


def _build(triple: str, opts: Sequence[str] = (), names: Sequence[str] | None = None,
           *, use_cache: bool = True) -> str:
    """Linked library IR for triple (all families, or the ones named).

    The cache holds the IR of the compile triple (spir64 serves spir64 and the host), so
    retargeting for the host reuses a SPIR build (``library_ir`` retargets only the subset it
    returns)."""
    fams = [f for f in families() if names is None or f.name in names]
    if names is not None and len(fams) != len(set(names)):
        known = sorted(f.name for f in families())
        raise ValueError(f"unknown builtin library family in {list(names)} (known: {known})")
    texts = {f.name: _family_text(f.name) if use_cache else f.text() for f in fams}
    ctriple = compile_triple(triple)
    flags = _flags(triple, opts)
    key_src = "\0".join([ctriple, *flags, ziglang_version(), _headers_text(),
                         *(f"{n}\0{t}" for n, t in texts.items())])
    key = hashlib.sha256(key_src.encode()).hexdigest()[:24]
    store = Cache("clc", library=True)  # kernelkit's own library: still read with --no-cache
    cached = store.get(key) if use_cache else None
    if cached is not None:
        ir_text = cached.decode()
    else:
        from concurrent.futures import ThreadPoolExecutor  # (here: it imports logging, ~6 ms)

        with ThreadPoolExecutor(max_workers=max(1, min(len(fams), os.cpu_count() or 1))) as pool:
            parts = list(pool.map(lambda f: compile_family(f, triple, opts, text=texts[f.name]), fams))
        ir_text = _link(parts)
        if use_cache:
            store.put(key, ir_text.encode())
    return ir_text if ctriple == triple else retarget(ir_text, triple)


_DEFINE = re.compile(r"^define\s+(?!internal|private)[^@]*@(\"?[\w.$]+\"?)\(", re.M)


def defined_names(ir_text: str) -> frozenset[str]:
    """Externally visible functions an IR text defines."""
    return frozenset(m.group(1).strip('"') for m in _DEFINE.finditer(ir_text))


def subset(ir_text: str, roots: Sequence[str]) -> str:
    """The IR text with only the function definitions reachable from roots (by name) and from the
    globals' initialisers.

    Everything that is not a function definition (globals, declarations, attribute groups,
    metadata) is kept; unreachable definitions are dropped.  Lets a target link only the
    builtins a kernel references instead of the whole library.  The definitions and what each
    refers to come from kernelkit.ir's parse of the text, once per text (``definitions``).
    """
    return DefinitionIndex.of(ir_text).subset(ir_text, roots)
