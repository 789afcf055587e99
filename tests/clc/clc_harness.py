"""Compile OpenCL C test wrappers the way kernels are compiled (clang, SPIR,
-fdeclare-opencl-builtins), link the builtins they reference from the library and JIT the
result for this CPU with llvmlite, so tests call builtins through ctypes."""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import llvmlite.binding as llvm

from kernelkit.mux.clc import library_ir
from kernelkit.mux.clc.build import retarget

HOST_TRIPLE = "x86_64-unknown-linux-gnu"

# What a kernel sees: kernelkit's base header (clang declares the builtins themselves with
# -fdeclare-opencl-builtins).
BASE_HEADER = Path(__file__).resolve().parents[2] / "kernelkit" / "frontend" / "include" / "kernelkit_opencl.h"
WRAPPER_PRAGMAS = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"


def kernel_ir(source: str, *, std: str = "CL3.0", named_as: bool = True, triple: str = "spir64-unknown-unknown",
              extra: tuple[str, ...] = (), opt: int = 1) -> str:
    """LLVM IR of OpenCL C source compiled as kernels are (builtins declared by clang)."""
    flags = ["-D__opencl_c_named_address_space_builtins=1"] if named_as else []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "w.cl"
        src.write_text(WRAPPER_PRAGMAS + source)
        cmd = [sys.executable, "-m", "ziglang", "clang", "-cc1", "-triple", triple, f"-cl-std={std}",
               "-fdeclare-opencl-builtins", "-cl-ext=+all", "-include", str(BASE_HEADER), *flags, *extra, f"-O{opt}", "-emit-llvm", "-o", "-", str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr)
        return proc.stdout


def declared_builtins(ir_text: str) -> set[str]:
    return set(re.findall(r"^declare\b[^@]*@(_Z[\w.$]+|__to_(?:global|local|private))\(", ir_text, re.M))


def _target_machine() -> llvm.TargetMachine:
    """A new target machine per engine: an MCJIT engine owns (and frees) its target machine."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(HOST_TRIPLE)
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                        features=llvm.get_host_cpu_features().flatten(), opt=0)


class Jit:
    """Wrapper functions (plain C ABI: pointers and scalars) compiled with the library."""

    def __init__(self, source: str, lib_opts: tuple[str, ...] = (), **kw) -> None:
        wrappers = kernel_ir(source, **kw)
        needed = sorted(declared_builtins(wrappers))
        lib = library_ir(HOST_TRIPLE, opts=lib_opts, only=needed)
        module = llvm.parse_assembly(lib)
        module.link_in(llvm.parse_assembly(retarget(wrappers, HOST_TRIPLE)))
        module.verify()
        self.missing = sorted(n for n in needed if module.get_function(n).is_declaration)
        self.engine = llvm.create_mcjit_compiler(module, _target_machine())
        self.engine.finalize_object()

    def fn(self, name: str, restype, *argtypes):
        addr = self.engine.get_function_address(name)
        assert addr, name
        return ctypes.CFUNCTYPE(restype, *argtypes)(addr)


def ptr(array) -> ctypes.c_void_p:
    return ctypes.c_void_p(array.ctypes.data)


DTYPES = {"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "int": "int32",
          "uint": "uint32", "long": "int64", "ulong": "uint64", "half": "float16", "float": "float32",
          "double": "float64"}
_C = "0123456789abcdef"


def vec_name(t: str, width: int) -> str:
    return t if width == 1 else f"{t}{width}"


def wrapper(name: str, expr: str, arg_types: list[str], ret_type: str, width: int) -> str:
    """void name(global const A0 *a0, ..., global R *out, int n): out = expr(a0, ...) over
    consecutive groups of `width` elements (expr uses {0}, {1}... for the arguments)."""
    params = [f"__global const {t} *a{k}" for k, t in enumerate(arg_types)]
    loads = []
    for k, t in enumerate(arg_types):
        if width == 1:
            loads.append(f"{t} v{k} = a{k}[i];")
        else:
            elems = ", ".join(f"a{k}[i + {j}]" for j in range(width))
            loads.append(f"{vec_name(t, width)} v{k} = ({vec_name(t, width)})({elems});")
    call = expr.format(*[f"v{k}" for k in range(len(arg_types))])
    if width == 1:
        store = "out[i] = r;"
    else:
        store = " ".join(f"out[i + {j}] = r.s{_C[j]};" for j in range(width))
    return (f"void {name}({', '.join(params)}, __global {ret_type} *out, int n) {{ "
            f"for (int i = 0; i + {width} <= n; i += {width}) {{ {' '.join(loads)} "
            f"{vec_name(ret_type, width)} r = {call}; {store} }} }}")


def run(jit: Jit, name: str, arrays: list, ret_type: str):
    import numpy as np

    n = len(arrays[0])
    out = np.zeros(n, dtype=DTYPES[ret_type])
    fn = jit.fn(name, None, *([ctypes.c_void_p] * (len(arrays) + 1)), ctypes.c_int)
    keep = [np.ascontiguousarray(a) for a in arrays]
    fn(*[ptr(a) for a in keep], ptr(out), n)
    return out
