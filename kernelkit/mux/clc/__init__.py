"""The OpenCL C builtin function library (target independent), in OpenCL C.

Kernels compiled with kernelkit's base header and ``-fdeclare-opencl-builtins`` call
declared-but-undefined overloaded builtins by their Itanium-mangled names (``_Z3sinf``,
``_Z14convert_int_rtDv4_f``...).  ``library_ir(triple)`` gives LLVM IR that defines them,
for linking into the kernel module before optimisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from kernelkit.mux.clc.build import SPIR_TRIPLE, build, defined_names, families, subset

__all__ = ["library_ir", "defined_builtins", "family_names", "subset", "UNMANGLED_BUILTINS"]


def library_ir(triple: str, *, opts: Sequence[str] = (), families: Sequence[str] | None = None,
               only: Sequence[str] | None = None, portable_math: bool | None = None,
               use_cache: bool = True) -> str:
    """LLVM IR text of the builtin library for triple.

    opts are extra clang flags (e.g. ``-cl-fast-relaxed-math``, ``-cl-denorms-are-zero``);
    families restricts the library to some translation units (see family_names()).
    only keeps just the definitions reachable from those (mangled) names.
    portable_math: math without any C library call (what a GPU needs); default: only for
    amdgcn triples.  ``library_ir("spir64-unknown-unknown", portable_math=True)`` gives the
    SPIR-mangled library for targets that compile kernels as SPIR and retarget them.
    Results are cached on disk (``$KERNELKIT_CACHE`` or the user cache directory).

    Mangling and address spaces: for SPIR and non-GPU triples the IR is SPIR's (private 0,
    global 1, constant 2, local 3, generic 4; the host gets it retargeted: triple, data
    layout, no spir_func), for amdgcn it is AMDGPU's own (clang compiled natively).
    """
    if portable_math is None:
        portable_math = triple.startswith("amdgcn")
    if portable_math and not triple.startswith("amdgcn"):
        opts = (*opts, "-DKK_PORTABLE_MATH=1")
    text = build(triple, tuple(opts), None if families is None else tuple(families), use_cache=use_cache)
    return text if only is None else subset(text, only)


def family_names() -> tuple[str, ...]:
    return tuple(f.name for f in families())


# OpenCL C builtins clang calls by unmangled names (to_global/to_local/to_private).
UNMANGLED_BUILTINS: tuple[str, ...] = ("__to_global", "__to_local", "__to_private")


@lru_cache(maxsize=4)
def defined_builtins(triple: str = SPIR_TRIPLE) -> frozenset[str]:
    """Names of every builtin the library defines for triple: the Itanium-mangled overloads
    and UNMANGLED_BUILTINS."""
    return frozenset(n for n in defined_names(library_ir(triple))
                     if n.startswith("_Z") or n in UNMANGLED_BUILTINS)
