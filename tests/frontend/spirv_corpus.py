"""SPIR-V of the corpus kernels made by clang 22 (``-target spirv64``), checked by spirv-val."""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from conftest import require_tool

from kernelkit.frontend.opencl import BASE_HEADER

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@functools.cache
def clang_spirv(file: str, cl_std: str, names: bool = False, extensions: str = "") -> bytes:
    """clang 22's SPIR-V for a corpus file (``names``: keeping value names, so parameters get
    OpName; ``extensions``: clang's ``--spirv-ext`` list); the module must pass spirv-val unless
    extensions are asked for (clang's printf SPIR-V does not, see test_spirv_corpus_runs)."""
    spirv_val = require_tool("spirv-val")
    with tempfile.TemporaryDirectory(prefix="kk-spirv-") as tmp:
        out = Path(tmp) / "k.spv"
        subprocess.run([sys.executable, "-m", "ziglang", "clang", "-x", "cl", f"-cl-std={cl_std}", "-target",
                        "spirv64", *(["-fno-discard-value-names"] if names else []),
                        *(["-mllvm", f"--spirv-ext={extensions}"] if extensions else []), "-cl-no-stdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include",
                        str(BASE_HEADER), "-c", str(CORPUS / file), "-o", str(out)], check=True,
                       capture_output=True)
        if not extensions:
            subprocess.run([spirv_val, str(out)], check=True, capture_output=True)
        return out.read_bytes()


@functools.cache
def translator_spirv(file: str, cl_std: str, names: bool = True) -> bytes:
    """The Khronos LLVM/SPIR-V Translator's SPIR-V for a corpus file (a second producer besides LLVM's SPIR-V
    backend): clang 15 makes typed-pointer bitcode at -O0 (the translator's own defects at -O1+ are asserted
    in test_spirv_translator_runs) and llvm-spirv-15 writes it; the module must pass spirv-val."""
    clang, translator = require_tool("clang-15"), require_tool("llvm-spirv-15")
    spirv_val = require_tool("spirv-val")
    with tempfile.TemporaryDirectory(prefix="kk-spirv-") as tmp:
        bc, out = Path(tmp) / "k.bc", Path(tmp) / "k.spv"
        subprocess.run([clang, "-cc1", "-triple", "spir64", f"-cl-std={cl_std}", "-finclude-default-header",
                        "-no-opaque-pointers", "-O0", *([] if names else ["-discard-value-names"]), "-emit-llvm-bc",
                        str(CORPUS / file), "-o", str(bc)], check=True, capture_output=True)
        subprocess.run([translator, str(bc), "-o", str(out)], check=True, capture_output=True)
        subprocess.run([spirv_val, str(out)], check=True, capture_output=True)
        return out.read_bytes()


# what printf.cl's kernels print with their manifest arguments (OpenCL C 1.2 s6.12.13 formatting)
PRINTED = {
    "hello": "hello from kernel 42\n",
    "print_values": "v[0] = 1.500 (pos)\nv[1] = -2.250 (neg)\nv[2] = 1.500 (pos)\n",
    "print_vector": "1.000000,2.500000,-3.000000,4.000000 1234567890123 kbeef\n",
}


def signed_view(value):
    """SPIR-V integers carry no signedness: an unsigned buffer or scalar as its signed twin."""
    if isinstance(value, np.ndarray | np.generic) and value.dtype.kind == "u":
        signed = np.dtype(value.dtype.str.replace("u", "i"))
        return value.view(signed) if isinstance(value, np.ndarray) else value.astype(signed)
    return value


def assert_runs_like_source(spirv, source, case, make_args) -> None:
    """Corpus ``case`` launched from the SPIR-V program and from the OpenCL C program on the same inputs
    gives the same outputs (byte for byte; floats to rtol 1e-6; sorted when the case is unordered)."""
    from_spirv, outs_spirv = make_args(case)
    from_source, outs_source = make_args(case)
    from_spirv = [signed_view(v) for v in from_spirv]
    launch = {"global_size": case.run["global"], "local_size": case.run.get("local")}
    spirv.kernel(case.name)(*from_spirv, **launch)
    source.kernel(case.name)(*from_source, **launch)
    for (i, _), (_, want) in zip(outs_spirv, outs_source, strict=True):
        got = from_spirv[i].view(want.dtype)
        if case.run.get("unordered"):
            got, want = np.sort(got), np.sort(want)
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)
        else:
            assert got.tobytes() == want.tobytes(), case.kernel["args"][i]["name"]


# struct_args.cl's by-value aggregates as numpy records laid out as OpenCL C lays them out (6.3.5: float4 is
# 16-byte aligned; the packed struct has no padding), and numpy's value of each output element.
STRUCT_KERNELS = {
    "scale_by_params": (       # random data: compared between the two programs only
        np.dtype({"names": ["count", "scale"], "formats": [np.int32, np.float32]}, align=True), None),
    "move_particle": (
        np.dtype({"names": ["pos", "vel", "id", "flag"], "formats": [(np.float32, 4), (np.float32, 4), np.int32, np.int8],
                  "offsets": [0, 16, 32, 36], "itemsize": 48}),
        lambda: (np.array([1, 2, 3, 4], np.float32) + np.array([0.5, 0.25, 0, -1], np.float32) * np.float32(0.125)
                 * (np.arange(16, dtype=np.float32)[:, None] + 7 + 1)).reshape(-1)),
    "packed_sum": (
        np.dtype({"names": ["tag", "value", "extra"], "formats": [np.int8, np.int32, np.int16],
                  "offsets": [0, 1, 5], "itemsize": 7}),
        lambda: np.full(4, 3 + 100000 - 7, np.int32)),
    "union_bits": (
        np.dtype({"names": ["f"], "formats": [np.float32], "itemsize": 4}),
        lambda: np.float32(1.0).view(np.uint32) + 0 + np.arange(8, dtype=np.uint32)),
    "nested_struct": (
        np.dtype({"names": ["p", "weight", "code"],
                  "formats": [np.dtype({"names": ["count", "scale"], "formats": [np.int32, np.float32]}), np.float64,
                              (np.int16, 3)], "offsets": [0, 8, 16], "itemsize": 24}),
        lambda: np.full(4, 3.0 * 0.5 + 2 + 1 + 2 + 3)),
}


def _record(dtype: np.dtype, fields: dict):
    value = np.zeros((), dtype)
    for name in dtype.names:
        value[name] = tuple(fields[name][f] for f in dtype[name].names) if dtype[name].names else fields[name]
    return value[()]


def run_struct_kernel(spirv, source, case, make_args) -> None:
    """A struct_args.cl kernel launched from the SPIR-V and the OpenCL C program with its aggregate as a numpy
    record: the same bytes from both, and numpy's values."""
    dtype, expected = STRUCT_KERNELS[case.name]
    aggregate = next(a["name"] for a in case.kernel["args"] if a["kind"] in ("struct", "union"))
    results = []
    for program, view in zip((spirv, source), (signed_view, lambda v: v), strict=True):
        values, outs = make_args(case)
        values = [_record(dtype, case.run["args"][aggregate]) if a["name"] == aggregate else view(v)
                  for a, v in zip(case.kernel["args"], values, strict=True)]
        program.kernel(case.name)(*values, global_size=case.run["global"])
        (index, _), = outs
        results.append(values[index])
    assert results[0].tobytes() == results[1].tobytes()
    if expected is not None:
        np.testing.assert_allclose(results[0].view(expected().dtype), expected(), rtol=1e-6, atol=0)
