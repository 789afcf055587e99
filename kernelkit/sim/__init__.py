"""Simulators that execute binaries with their runtime ABI (numpy-vectorised across work-items)."""
