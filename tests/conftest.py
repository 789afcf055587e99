"""Shared test fixtures: reference data, external tools.

A test that needs an external tool (GenX_IR, ocloc, llvm-readelf, PoCL) asks for it through
``require_tool``: it skips with a reason when the tool is absent, except in CI (``CI`` set),
where `.ci/run` installs every tool and a missing one is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference"
CORPUS = ROOT / "tests" / "corpus"


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must install it: see .ci/run)")
    pytest.skip(reason)


def require_tool(name: str) -> str:
    """Path of an external program, or skip (fail in CI) when it is not installed."""
    path = shutil.which(name)
    if path is None:
        _missing(f"{name} is not installed")
    return path


def require_reference(*parts: str) -> Path:
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        _missing(f"reference data {path} is not present")
    return path


@pytest.fixture(scope="session")
def reference() -> Path:
    """Root of ../shared/reference (skipped when the checkout has no shared/ beside it)."""
    return require_reference()


@pytest.fixture(scope="session")
def pocl_env():
    """Point the ICD loader at Debian's PoCL (PyPI's bundled one fails on this CPU)."""
    icd = Path("/etc/OpenCL/vendors/pocl.icd")
    if not icd.exists():
        _missing("pocl-opencl-icd is not installed")
    os.environ["OCL_ICD_VENDORS"] = str(icd)
    return icd
