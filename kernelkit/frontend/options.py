"""OpenCL C build options: validation and translation to clang arguments.

Accepts the options of the OpenCL C 3.0 API spec section 5.8.6 ("Compiler Options") that apply
to compiling OpenCL C source, plus kernelkit's ``-O0``..``-O3``. Anything else is rejected with
a ``CompileError`` naming the option, so a typo never silently changes a build.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

from kernelkit.errors import CompileError

# OpenCL C versions accepted by -cl-std= (API spec 5.8.6.5) -> value of __OPENCL_C_VERSION__.
CL_STD_VERSIONS: dict[str, int] = {"CL1.0": 100, "CL1.1": 110, "CL1.2": 120, "CL2.0": 200, "CL3.0": 300}
DEFAULT_CL_STD = "CL1.2"
DEFAULT_OPT_LEVEL = 2  # the API spec: optimisations are enabled unless -cl-opt-disable

# Flag options (API spec 5.8.6.2-5.8.6.7) -> clang arguments passed on ([] = accepted, recorded
# in the options but without effect on SPIR IR).
FLAG_OPTIONS: dict[str, tuple[str, ...]] = {
    # 5.8.6.2 math intrinsics
    "-cl-single-precision-constant": ("-cl-single-precision-constant",),
    "-cl-denorms-are-zero": (),  # a code generation property of the device, not of SPIR IR
    "-cl-fp32-correctly-rounded-divide-sqrt": ("-cl-fp32-correctly-rounded-divide-sqrt",),
    # 5.8.6.3 optimisation
    "-cl-opt-disable": (),  # handled as -O0
    "-cl-strict-aliasing": (),  # deprecated since OpenCL 1.1; accepted and ignored
    "-cl-uniform-work-group-size": ("-cl-uniform-work-group-size",),
    "-cl-no-subgroup-ifp": (),  # a promise to the device compiler, nothing in IR
    "-cl-mad-enable": ("-cl-mad-enable",),
    "-cl-no-signed-zeros": ("-cl-no-signed-zeros",),
    "-cl-unsafe-math-optimizations": ("-cl-unsafe-math-optimizations",),
    "-cl-finite-math-only": ("-cl-finite-math-only",),
    "-cl-fast-relaxed-math": ("-cl-fast-relaxed-math",),
    # 5.8.6.4 warnings
    "-w": ("-w",),
    "-Werror": ("-Werror",),
    # 5.8.6.6 argument info (always on in kernelkit) and 5.8.6.7 debugging
    "-cl-kernel-arg-info": (),
    "-g": ("-g",),
    # clang's -gdwarf-N: -g with DWARF version N (spec 001 "DWARF Debug Information": AMDGPU's DWARF
    # is DWARF 4 or 5); without it clang writes DWARF 5
    "-gdwarf-4": ("-gdwarf-4",),
    "-gdwarf-5": ("-gdwarf-5",),
}
DEBUG_OPTIONS = frozenset({"-g", "-gdwarf-4", "-gdwarf-5"})   # the options that ask for debug information
# the host code generator's options (kernelkit.targets.host.passes): -cl-wfv=never|auto|always (the
# whole-function vectoriser), -cl-rsqrt-estimate=never|auto|always, -cl-loop-barriers=never|auto|always,
# -cl-loop-pipeline=never|auto|always
HOST_CODEGEN_OPTIONS = ("-cl-wfv=", "-cl-rsqrt-estimate=", "-cl-loop-barriers=", "-cl-loop-pipeline=")
OPT_LEVELS = {"-O0": 0, "-O1": 1, "-O2": 2, "-O3": 3}


def choice_option(options: Sequence[str], prefix: str, choices: Sequence[str], default: str) -> str:
    """The value of the last ``<prefix><choice>`` option (one of HOST_CODEGEN_OPTIONS), ``default`` when
    absent; a CompileError naming the option for a value not in ``choices``."""
    value = default
    for opt in options:
        if opt.startswith(prefix):
            value = opt[len(prefix):]
            if value not in choices:
                raise CompileError(f"build option {opt}: expected {prefix}{'|'.join(choices)}")
    return value


@dataclass
class BuildOptions:
    """The parsed build options of one compile."""

    cl_std: str = DEFAULT_CL_STD
    opt_level: int = DEFAULT_OPT_LEVEL
    defines: list[str] = field(default_factory=list)      # "NAME" or "NAME=VALUE"
    include_dirs: list[str] = field(default_factory=list)  # absolute paths
    flags: list[str] = field(default_factory=list)         # accepted flag options, in order
    extensions: list[str] = field(default_factory=list)    # -cl-ext= values
    device_options: list[str] = field(default_factory=list)  # for the device compiler, not clang

    @property
    def cl_version(self) -> int:
        return CL_STD_VERSIONS[self.cl_std]

    def clang_args(self) -> list[str]:
        args = [f"-cl-std={self.cl_std}", f"-O{self.opt_level}"]
        args += [f"-D{d}" for d in self.defines]
        for d in self.include_dirs:
            args += ["-I", d]
        for flag in self.flags:
            args += FLAG_OPTIONS[flag]
        for ext in self.extensions:
            args += ["-Xclang", f"-cl-ext={ext}"]
        return args

    @property
    def debug(self) -> bool:
        """Whether debug information was asked for (-g, -gdwarf-4 or -gdwarf-5)."""
        return any(flag in DEBUG_OPTIONS for flag in self.flags)

    def canonical(self) -> list[str]:
        """A normalised option list (for cache keys and logs)."""
        return [*self.clang_args(), *(f"[{f}]" for f in self.flags if not FLAG_OPTIONS[f])]


def split_options(options: str | Sequence[str]) -> list[str]:
    """Options as a list; a single string is split like a shell command line."""
    if isinstance(options, str):
        try:
            return shlex.split(options)
        except ValueError as exc:
            raise CompileError(f"build options: {exc}") from None
    return [str(o) for o in options]


def _value(opts: list[str], i: int, name: str) -> tuple[str, int]:
    """Value of an option given joined (``-DX``) or separate (``-D X``)."""
    opt = opts[i]
    if len(opt) > len(name):
        return opt[len(name):], i + 1
    if i + 1 >= len(opts):
        raise CompileError(f"build option {name} needs a value")
    return opts[i + 1], i + 2


def parse_options(options: str | Sequence[str]) -> BuildOptions:
    """Validate OpenCL build options. Raises CompileError naming an unknown or malformed option."""
    opts = split_options(options)
    out = BuildOptions()
    i = 0
    while i < len(opts):
        opt = opts[i]
        if opt.startswith("-D"):
            value, i = _value(opts, i, "-D")
            name = value.split("=", 1)[0]
            if not name or not (name[0].isalpha() or name[0] == "_") or not all(
                    c.isalnum() or c == "_" for c in name):
                raise CompileError(f"build option -D: {name!r} is not a macro name")
            out.defines.append(value)
            continue
        if opt.startswith("-I"):
            value, i = _value(opts, i, "-I")
            out.include_dirs.append(os.path.abspath(value))
            continue
        if opt.startswith("-cl-std="):
            std = opt[len("-cl-std="):]
            if std not in CL_STD_VERSIONS:
                raise CompileError(f"build option {opt}: unknown OpenCL C version "
                                   f"(expected one of {', '.join(CL_STD_VERSIONS)})")
            out.cl_std = std
        elif opt.startswith(HOST_CODEGEN_OPTIONS):
            out.device_options.append(opt)
        elif opt.startswith("-cl-ext="):
            out.extensions.append(opt[len("-cl-ext="):])
        elif opt in OPT_LEVELS:
            out.opt_level = OPT_LEVELS[opt]
        elif opt in FLAG_OPTIONS:
            if opt == "-cl-opt-disable":
                out.opt_level = 0
            out.flags.append(opt)
        elif opt.startswith("-W") and len(opt) > 2:
            raise CompileError(f"unknown build option {opt!r} (of the warning options only -w and -Werror "
                               "are OpenCL build options)")
        else:
            raise CompileError(f"unknown build option {opt!r} (expected -D, -I, -cl-std=CL1.2|CL2.0|CL3.0, "
                               "-O0..-O3, -w, -Werror, -g, -gdwarf-4, -gdwarf-5 or one of the -cl-* options of the OpenCL spec)")
        i += 1
    return out
