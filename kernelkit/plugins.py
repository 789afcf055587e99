"""Import a module of kernelkit only if it is part of this installation."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def import_if_present(name: str) -> ModuleType | None:
    """The module ``name``, or None when it (or a parent package) does not exist."""
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name)
