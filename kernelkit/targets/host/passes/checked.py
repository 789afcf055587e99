"""Checked mode (placeholder until the instrumentation lands)."""

from __future__ import annotations

HELPERS: tuple[str, ...] = ()


def instrument(mod) -> None:
    return None
