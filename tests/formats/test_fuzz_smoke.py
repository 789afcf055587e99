"""Smoke mode of the fuzzing harness (fuzz/): every reader, fed mutated copies of the real reference
binaries and texts (bit flips, truncation, insertion, splicing, boundary integers, numeric and line edits),
raises nothing but FormatError. Hypothesis draws the seed file and the mutations (derandomized, so the
run is the same everywhere); the long mode is ``python -m fuzz.run`` (fuzz/README.md)."""

from __future__ import annotations

import random

import pytest
from conftest import reference_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.targets import TARGETS, fuzz_input
from kernelkit.errors import FormatError

SMOKE = settings(max_examples=40, derandomize=True, database=None, deadline=None,
                 suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def seeds():
    reference_path("amdgpu")
    return {}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_reader_raises_only_format_error(name, seeds):
    target = TARGETS[name]
    corpus = seeds.setdefault(name, target.seeds())
    assert corpus, f"{name}: no seed files"
    for data in corpus[:3]:
        target.read(data)                  # the unmutated seeds read cleanly

    @SMOKE
    @given(st.integers(0, 2**32 - 1))
    def check(rng_seed):
        data = fuzz_input(random.Random(rng_seed), target, corpus)
        try:
            target.read(data)
        except FormatError:
            pass

    check()
