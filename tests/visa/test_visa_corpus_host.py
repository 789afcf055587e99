"""Every corpus kernel with run entries, built for the vISA target on TGLLP, DG2, ICLLP and SKL
through the API (``Program(src).build("visa:<p>")``), runs on the vISA simulator and gives the
host target's results (same inputs; integers exactly, floats within the manifest's tolerance,
printf output equal); the kernels that need fp64 are refused naming double and the platform
where it has no fp64 (TGLLP, DG2, ICLLP); every program object (its built kernels) is finalized
by Intel's GenX_IR for SKL, ICLLP and TGLLP. (DG2 programs use LSC messages, tests/visa/test_visa_lsc.py;
GenX_IR 1.0.12504 crashes on conversions.cl's int_vector_ops with them, see /work/notes/visa-s5.md.)

ICLLP and TGLLP differ in nothing the code generator reads (kernelkit.abi.visa.PLATFORMS: neither has fp64
nor LSC messages, and only DG2 emulates division), so every corpus program is the same object for both
(test_icllp_and_tgllp_build_the_same_programs) and the simulator, which never reads the platform, runs it
the same way: each kernel runs on one of the two, alternately, besides SKL and DG2 (a kernel needing
fp64 still meets every platform: its refusals name the platform)."""

from __future__ import annotations

import functools
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tool

import kernelkit
from kernelkit.abi.visa import resolve_platform
from kernelkit.errors import CompileError
from tests.amdil.test_corpus_amdil import arguments, compare
from tests.host.corpus_harness import Case, cases

PLATFORMS = ("tgllp", "dg2", "icllp", "skl")
CASES = cases()
FILES = sorted({(c.file, c.cl_std) for c in CASES})


@functools.cache
def program(file: str, cl_std: str, target: str) -> kernelkit.Program:
    return kernelkit.Program(Case(file, cl_std, {}).source, [f"-cl-std={cl_std}"]).build(target)


def run(case: Case, target: str, values: list) -> tuple[list, str]:
    vals = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
    output = program(case.file, case.cl_std, target).kernel(case.name)(
        *vals, global_size=case.run["global"], local_size=case.run.get("local"))
    return vals, output


# the platforms each case runs on: SKL and DG2, and ICLLP or TGLLP in turn (the same programs: see above);
# every platform for the kernels needing fp64 (refused, naming the platform, on all but SKL)
SAME_PROGRAMS = ("tgllp", "icllp")
RUN_ON = {case.id: PLATFORMS if "fp64" in (case.kernel.get("needs") or []) else ("skl", "dg2", SAME_PROGRAMS[i % 2])
          for i, case in enumerate(CASES)}


def test_icllp_and_tgllp_build_the_same_programs():
    for file, cl_std in FILES:
        first, second = (program(file, cl_std, f"visa:{p}") for p in SAME_PROGRAMS)
        assert first.kernel_names == second.kernel_names, file
        assert first.binary == second.binary, f"{file}: the ICLLP and TGLLP objects differ: run each case on both"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corpus_kernel_gives_the_host_results_on_every_platform(case: Case):
    values, outs = arguments(case)
    host, host_output = run(case, "host", values)
    for platform in RUN_ON[case.id]:
        if "fp64" in (case.kernel.get("needs") or []) and not resolve_platform(platform).fp64:
            with pytest.raises(CompileError, match=rf"kernel {case.name} uses double, which {platform} does not "
                                                   r"support \(no fp64"):
                run(case, f"visa:{platform}", values)
            continue
        got, output = run(case, f"visa:{platform}", values)
        for i, _ in outs:
            compare(case, case.kernel["args"][i]["name"], got[i], host[i], platform)
        assert output == host_output, f"{case.id} on {platform}: printf output"


@pytest.mark.parametrize("platform", ("tgllp", "icllp", "skl"))
@pytest.mark.parametrize("file,cl_std", FILES, ids=[f for f, _ in FILES])
def test_genx_ir_finalizes_the_corpus_program(file, cl_std, platform):
    require_tool("GenX_IR")
    binary = program(file, cl_std, f"visa:{platform}").binary
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "k.isa").write_bytes(binary)
        proc = subprocess.run(["GenX_IR", "k.isa", "-platform", resolve_platform(platform).genx, "-output"],
                              cwd=tmp, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{file} on {platform}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
