"""Frontend tests compile into a private cache directory, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("KERNELKIT_CACHE_DIR", str(tmp_path_factory.mktemp("kernelkit-cache")))
    yield
    mp.undo()
