"""Shared test fixtures: reference data, specification texts, external tools.

Where test data lives:
- ``reference_path(...)`` / ``REFERENCE`` / the ``reference`` fixture: machine-generated reference files
  (code objects, bundles, CL2 binaries, vISA dumps, driver IL dumps, llvm-readelf listings) copied into
  the repository under tests/reference (provenance: tests/reference/README.md). Always present.
- ``own_source(target, name)``: a kernel written for these tests (tests/<target>/sources) whose parameters
  are those a reference binary's metadata records, built and compared with that binary. The human-written
  sources of the reference binaries are never copied into the repository, nor read by a test.
- ``spec_text("001")``: a specification's text. It may not be copied into the repository; it is read from
  ../shared/specs beside the checkout. A test needing it skips in a fresh clone and fails in CI
  (``CI`` set), where ../shared is always there.
- ``require_tool(name)``: an external program; skips with a reason when absent, except in CI, where
  `.ci/run` installs every tool and a missing one is a failure.
"""

from __future__ import annotations

import copy
import os
import shutil
from functools import cache
from pathlib import Path

import pytest
import yaml

from kernelkit.cache import cache_dir

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference"
SHARED = ROOT.parent / "shared"
CORPUS = ROOT / "tests" / "corpus"


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must provide it: see .ci/run)")
    pytest.skip(reason)


def require_tool(name: str) -> str:
    """Path of an external program, or skip (fail in CI) when it is not installed."""
    path = shutil.which(name)
    if path is None:
        _missing(f"{name} is not installed")
    return path


def reference_path(*parts: str) -> Path:
    """A file or folder of tests/reference (machine-generated reference data kept in the repository)."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"{path} is not in tests/reference: copy it from ../shared/reference "
                                "and note where it comes from in tests/reference/README.md")
    return path


def own_source(target: str, name: str) -> Path:
    """tests/<target>/sources/<name>: a kernel of ours with the parameters a reference binary records
    (provenance in that folder's README.md)."""
    path = ROOT / "tests" / target / "sources" / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is not in the repository")
    return path


@cache
def _spec_file(number: str) -> Path | None:
    folder = SHARED / "specs"
    files = sorted(folder.glob(f"{number}_*.txt")) if folder.is_dir() else []
    return files[0] if files else None


def spec_text(number: str) -> str:
    """The text of specification ``number`` ("000".."004") from ../shared/specs."""
    path = _spec_file(number)
    if path is None:
        _missing(f"cross-checks spec {number}'s text: needs ../shared/specs beside the checkout")
    return path.read_text(encoding="utf-8")


@cache
def _parsed_corpus_manifest() -> dict:
    return yaml.load((CORPUS / "manifest.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def corpus_manifest() -> dict:
    """tests/corpus/manifest.yaml, parsed once per test run (with libyaml's safe loader where PyYAML has it:
    the same document, eight times faster) and given as a copy the caller may change."""
    return copy.deepcopy(_parsed_corpus_manifest())


# namespaces of kernelkit's own prebuilt libraries (`kernelkit.cache.Cache(..., library=True)`): their keys
# cover kernelkit's and its tools' inputs only, never a user's build
LIBRARY_NAMESPACES = ("clc", "tools", "amdhsa-mux", "host-images")
RUN_CACHE = Path(cache_dir())      # the run's cache, as the run started (before any test moved it)


def share_libraries(source: Path, dest: Path, link: bool = True) -> Path:
    """Hard-link (or copy) into cache ``dest`` the library entries of cache ``source`` it lacks; ``dest``.
    Entries are written to a temporary file and renamed into place, so neither cache changes a linked one;
    but a read marks an entry used (its mtime), a linked entry in both caches: ``link=False`` copies."""
    for namespace in LIBRARY_NAMESPACES:
        for entry in source.glob(f"{namespace}/??/*"):
            target = dest / namespace / entry.parent.name / entry.name
            if not entry.name.startswith(entry.parent.name) or target.exists():
                continue                     # (a temporary file of a write under way)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    if not link:
                        raise OSError("copy")
                    os.link(entry, target)
                except FileExistsError:
                    pass
                except OSError:              # another file system (or a copy asked for)
                    tmp = target.with_name(f".tmp-{os.getpid()}-{entry.name}")
                    shutil.copyfile(entry, tmp)
                    os.replace(tmp, target)
            except OSError:                  # a cache that cannot be written: its user builds them
                pass
    return dest


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A cache of the test's own (``KERNELKIT_CACHE_DIR``, turned on) with no build in it, holding the
    run's prebuilt libraries (built once per run, not once per test); the libraries the test builds
    go back to the run's cache."""
    cache = share_libraries(RUN_CACHE, tmp_path / "cache")
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(cache))
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "")   # (the cache on; whatever a test sets is undone)
    yield cache
    share_libraries(cache, RUN_CACHE)


@pytest.fixture(scope="session")
def reference() -> Path:
    """Root of tests/reference."""
    return reference_path()


@pytest.fixture(scope="session")
def pocl_env():
    """Point the ICD loader at Debian's PoCL (PyPI's bundled one fails on this CPU)."""
    icd = Path("/etc/OpenCL/vendors/pocl.icd")
    if not icd.exists():
        _missing("pocl-opencl-icd is not installed")
    os.environ["OCL_ICD_VENDORS"] = str(icd)
    return icd
