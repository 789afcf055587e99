"""Fixtures of the vISA tests: IGC's reference dumps (tests/reference/visa)."""

from __future__ import annotations

import pytest
from conftest import reference_path

CASES = ["tgllp_simple/simple", "tgllp_saxpy/saxpy", "skl_saxpy/saxpy", "dg2-g10_saxpy/saxpy"]
PLATFORM_OF = {"tgllp": "TGLLP", "skl": "SKL", "dg2-g10": "DG2"}


@pytest.fixture(params=CASES)
def igc_case(request):
    """(isa bytes, visaasm text, finalizer platform) of one IGC dump."""
    base = reference_path("visa", request.param + ".isa").with_suffix("")
    platform = PLATFORM_OF[request.param.split("_")[0]]
    return base.with_suffix(".isa").read_bytes(), base.with_suffix(".visaasm").read_text(), platform
