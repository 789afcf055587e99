"""Every corpus kernel OpenCL 1.2 allows, built for a 7XX (rv770), an Evergreen (cypress) and a
Northern Islands (cayman) device, runs on the AMD IL simulator and gives the host target's
results (same inputs; integers exactly, floats within the manifest's tolerance: OpenCL C's
builtins may differ by a few ulp). Kernels that need cl_khr_fp16 are left out of the program
(AMD IL devices have no half arithmetic); OpenCL C 2.0 files are refused naming the feature."""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "host"))
from corpus_harness import Case, cases, make_args, manifest  # noqa: E402
from test_corpus_numpy import STRUCT_CASES  # noqa: E402
from test_corpus_pocl import without_kernels  # noqa: E402

import kernelkit  # noqa: E402
from kernelkit.errors import CompileError  # noqa: E402
from kernelkit.mux.result import MuxError  # noqa: E402

DEVICES = ("rv770", "cypress", "cayman")
CL12 = [c for c in cases() if c.cl_std.startswith("CL1") and "fp16" not in (c.kernel.get("needs") or [])]


def _fp16_kernels(file: str) -> set[str]:
    return {k["name"] for k in manifest()["files"][file]["kernels"] if "fp16" in (k.get("needs") or [])}


@functools.cache
def program(file: str, cl_std: str, target: str) -> kernelkit.Program:
    source = Case(file, cl_std, {}).source
    if target != "host":
        source = without_kernels(source, _fp16_kernels(file))
    return kernelkit.Program(source, [f"-cl-std={cl_std}"]).build(target)


def arguments(case: Case) -> tuple[list, list]:
    values, outs = make_args(case)
    for i, a in enumerate(case.kernel["args"]):
        if a["kind"] in ("struct", "union"):
            fields = dict(case.run["args"][a["name"]])
            if "p" in fields:
                fields = {**fields.pop("p"), **fields}
            dt = STRUCT_CASES[case.name][0]
            v = np.zeros((), dt)
            for name in dt.names:
                v[name] = fields[name]
            values[i] = v[()]
    return values, outs


def run(case: Case, target: str, values: list) -> tuple[list, str]:
    vals = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
    output = program(case.file, case.cl_std, target).kernel(case.name)(
        *vals, global_size=case.run["global"], local_size=case.run.get("local"))
    return vals, output


def compare(case: Case, name: str, ours: np.ndarray, host: np.ndarray, device: str) -> None:
    if name in case.run.get("unordered", []):
        ours, host = np.sort(ours, axis=None), np.sort(host, axis=None)
    where = f"{case.id} on {device}: {name}"
    if ours.dtype.kind == "f":
        tol = 2e-3 if case.run.get("tolerance") == "relaxed" else 16 * float(np.finfo(ours.dtype).eps)
        np.testing.assert_allclose(ours, host, rtol=tol, atol=tol, err_msg=where)
    else:
        np.testing.assert_array_equal(ours, host, err_msg=where)


@pytest.mark.parametrize("case", CL12, ids=lambda c: c.id)
def test_corpus_kernel_gives_the_host_results_on_7xx_evergreen_and_ni(case: Case):
    values, outs = arguments(case)
    host, host_output = run(case, "host", values)
    for device in DEVICES:
        got, output = run(case, f"amdil:{device}", values)
        for i, _ in outs:
            compare(case, case.kernel["args"][i]["name"], got[i], host[i], device)
        assert output == host_output, f"{case.id} on {device}: printf output"
    if case.run.get("stdout"):
        assert host_output


def test_opencl_c_2_0_files_are_refused_naming_the_feature():
    refused = [(f, d["cl_std"]) for f, d in manifest()["files"].items()
               if not d.get("cl_std", "CL1.2").startswith("CL1")]
    assert refused
    for file, std in refused:
        with pytest.raises((CompileError, MuxError), match=r"OpenCL C [23]\.0 is not supported"):
            program(file, std, "amdil:cayman")


def test_doubles_need_a_device_with_fp64():
    src = "kernel void k(global double *d) { d[0] = d[0] * 2.0; }"
    with pytest.raises((CompileError, MuxError), match="double.*juniper"):
        kernelkit.Program(src).build("amdil:juniper")
    d = np.array([1.25])
    kernelkit.Program(src).build("amdil:cayman").k(d, global_size=1)
    assert d[0] == 2.5
