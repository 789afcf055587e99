"""Which compiler a target name selects, by its spelling alone (no compiler import)."""

from __future__ import annotations

# the registry's Infos (kernelkit.mux.registry.TARGET_PACKAGES) accept host, amdil:*, amdcl2:*,
# visa:* and AMDGPU target IDs/triples
PREFIXED_KINDS = ("amdil", "amdcl2", "visa")


def target_kind(target: str) -> str:
    """The target package (``host``, ``amdhsa``, ``amdil``, ``amdcl2``, ``visa``) a name belongs to."""
    for kind in PREFIXED_KINDS:
        if target == kind or target.startswith(kind + ":"):
            return kind
    return "host" if target == "host" else "amdhsa"
