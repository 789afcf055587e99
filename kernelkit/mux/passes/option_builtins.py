"""Definitions of the mux builtins that answer from the build options (spec 003 "Builtins"):

  - ``i1 __mux_isftz()``: true when denormals may flush to zero (``-cl-denorms-are-zero``) or the
    device has no single-precision denormals;
  - ``i1 __mux_usefast()``: true under ``-cl-fast-relaxed-math`` or ``-cl-unsafe-math-optimizations``
    (faster, less accurate maths builtins are allowed);
  - ``i1 __mux_isembeddedprofile()``: true when compiled for OpenCL's EMBEDDED_PROFILE (the module was
    compiled with ``__EMBEDDED_PROFILE__`` defined, as ``Module.compile_opencl_c`` does for it).
Each declared one gets an internal always-inline definition returning the constant.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.module import Module
from kernelkit.ir.values import ConstantInt

EMBEDDED_PROFILE_DEFINE = "-D__EMBEDDED_PROFILE__=1"


def option_builtin_values(options: Sequence[str], flushes_denormals: bool = False) -> dict[str, bool]:
    opts = set(options)
    return {
        "__mux_isftz": flushes_denormals or "-cl-denorms-are-zero" in opts,
        "__mux_usefast": bool(opts & {"-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations"}),
        "__mux_isembeddedprofile": EMBEDDED_PROFILE_DEFINE in opts,
    }


def define_option_builtins(module: Module, options: Sequence[str], flushes_denormals: bool = False) -> list[str]:
    """Define the declared option builtins of ``module``; returns the names defined."""
    defined = []
    for name, value in option_builtin_values(options, flushes_denormals).items():
        fn = module.get_function(name)
        if fn is None or not fn.is_declaration or fn.args or fn.return_type != T.i1:
            continue
        fn.linkage = "internal"
        fn.attributes = ["alwaysinline", "nounwind"]
        IRBuilder(fn.append_block("entry")).ret(ConstantInt(T.i1, int(value)))
        defined.append(name)
    return defined
