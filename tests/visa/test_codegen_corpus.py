"""kernelkit's vISA for the corpus kernels against IGC's vISA for the same source (tgllp, from
tests/visa/igc), both run on the vISA simulator with the manifest's inputs: the same results.
Every kernel of these files is generated. The programs are built through the builder as the API
builds them (kernelkit.builder.build_visa_program: the same cache entries as the TGLLP programs of
tests/visa/test_visa_corpus_host.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kernelkit.builder import build_visa_program
from kernelkit.formats.visa import parse_visaasm
from kernelkit.sim.visa import decode, launch
from kernelkit.targets.visa.module import read_visa_binary
from tests.host.corpus_harness import cases, make_args
from tests.visa.igc_dump import IGC_DIR, SIMULATED_FILES
from tests.visa.sim_harness import run_igc

TABLE = json.loads((IGC_DIR / "inputs.json").read_text())
CASES = [c for c in cases() if c.file[:-3] in SIMULATED_FILES]


@pytest.fixture(scope="module")
def programs():
    return {}


def _kernelkit(programs, case):
    if case.file not in programs:
        programs[case.file] = read_visa_binary(build_visa_program(case.source, "visa:tgllp", case.options).binary)
    return programs[case.file].kernel(case.name)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_results_as_igc(programs, case):
    kernel = _kernelkit(programs, case)
    run = case.run
    ours, outs = make_args(case)
    theirs, igc_outs = make_args(case)
    launch(decode(parse_visaasm(kernel.text).kernels[0]), kernel.payload, ours, run["global"], run.get("local"),
           signature=kernel.signature, static_slm=kernel.static_slm, segments=kernel.segments)
    offsets = TABLE[f"tgllp/{case.file[:-3]}"][case.name]["buffer_offsets"]
    # IGC's work-group collectives use SLM its vISA does not declare: give them the whole 64 KiB
    slm = 65536 if case.file == "workgroup_cl20.cl" else None
    run_igc("tgllp", case.file[:-3], case.name, theirs, run["global"], run.get("local"), buffer_offsets=offsets,
            slm_bytes=slm)
    unordered = set(run.get("unordered", ()))        # results whose order depends on scheduling
    for (index, mine), (_i, igc) in zip(outs, igc_outs, strict=True):
        if case.kernel["args"][index]["name"] in unordered:
            mine, igc = np.sort(mine, axis=None), np.sort(igc, axis=None)
        np.testing.assert_allclose(mine, igc, rtol=1e-6, err_msg=f"{case.id} argument {index}")
