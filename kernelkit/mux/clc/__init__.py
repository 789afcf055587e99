"""The OpenCL C builtin function library (target independent), in OpenCL C.

Kernels compiled with kernelkit's base header and ``-fdeclare-opencl-builtins`` call
declared-but-undefined overloaded builtins by their Itanium-mangled names (``_Z3sinf``,
``_Z15convert_int4_rteDv4_f``...).  ``library_ir(triple)`` gives LLVM IR that defines them,
for linking into the kernel module before optimisation (``only=`` keeps just what a kernel
references).

Families (one clang translation unit each, see ``family_names()``): convert_scalar/vector
(every rounding mode and _sat), integer, common (+ geometric), relational (+ select,
bitselect, shuffle/shuffle2), vector_memory (vloadn/vstoren, vload(a)_half/vstore(a)_half),
atomic (1.x, atom_*, C11 with order and scope), math_scalar/vector (+ half_/native_), ndrange,
address_space (to_global/to_local/to_private/get_fence).  Overloads exist for every scalar
and vector width and for pointers in every address space (named ones and generic).

Not here: work-item functions, barriers, fences, async copies and work-group/sub-group
collectives (the mux lowering replaces them with spec 003 ``__mux_*`` builtins), printf and
images (targets).  Hooks a target may define: ``__kk_generic_address_space`` (weak; which
named space a generic pointer is in, default global).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from kernelkit.mux.clc.build import (
    SPIR_TRIPLE,
    build,
    compile_triple,
    defined_names,
    families,
    retarget,
    subset,
)

__all__ = ["library_ir", "defined_builtins", "family_names", "subset", "UNMANGLED_BUILTINS"]


def library_ir(triple: str, *, opts: Sequence[str] = (), families: Sequence[str] | None = None,
               only: Sequence[str] | None = None, portable_math: bool | None = None,
               use_cache: bool = True) -> str:
    """LLVM IR text of the builtin library for triple.

    opts are OpenCL math build options (``-cl-fast-relaxed-math``, ``-cl-denorms-are-zero``...)
    or clang flags; families restricts the library to some translation units (see
    family_names()); only keeps just the definitions reachable from those names.
    portable_math: math without any C library call (what a GPU needs); default: only for
    amdgcn triples.  ``library_ir("spir64-unknown-unknown", portable_math=True)`` gives the
    SPIR-mangled library for targets that compile kernels as SPIR and retarget them.
    Results are cached on disk (kernelkit.cache, namespace "clc": ``$KERNELKIT_CACHE_DIR`` or
    the user cache directory) and in the process.

    Mangling and address spaces: for SPIR and non-GPU triples the IR is SPIR's (private 0,
    global 1, constant 2, local 3, generic 4; the host gets it retargeted: triple, data
    layout, no spir_func), for amdgcn it is AMDGPU's own (clang compiled natively).
    """
    if portable_math is None:
        portable_math = triple.startswith("amdgcn")
    if portable_math and not triple.startswith("amdgcn"):
        opts = (*opts, "-DKK_PORTABLE_MATH=1")
    ctriple = compile_triple(triple)   # the host: SPIR's build, retargeted after the subset
    text = build(ctriple, tuple(opts), None if families is None else tuple(families), use_cache=use_cache)
    text = text if only is None else subset(text, only)
    return text if ctriple == triple else retarget(text, triple)


def family_names() -> tuple[str, ...]:
    return tuple(f.name for f in families())


# OpenCL C builtins clang calls by unmangled names (to_global/to_local/to_private).
UNMANGLED_BUILTINS: tuple[str, ...] = ("__to_global", "__to_local", "__to_private")


@lru_cache(maxsize=8)
def defined_builtins(triple: str = SPIR_TRIPLE, *, portable_math: bool | None = None) -> frozenset[str]:
    """Names of every builtin the library defines for triple: the Itanium-mangled overloads
    and UNMANGLED_BUILTINS (portable_math as for library_ir: the build a target links, so that
    asking needs no second build)."""
    return frozenset(n for n in defined_names(library_ir(compile_triple(triple), portable_math=portable_math))
                     if n.startswith("_Z") or n in UNMANGLED_BUILTINS)
