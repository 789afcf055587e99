"""The ``visa`` target in the compiler registry: its platforms, options and device facts."""

from __future__ import annotations

from kernelkit.commands.targets import describe
from kernelkit.mux.registry import resolve_target


def test_targets_lists_visa_platforms_and_simd_option():
    row = next(r for r in describe() if r["target"] == "visa")
    assert row["devices"] == ["skl", "icllp", "tgllp", "dg2"]
    assert [o["name"] for o in row["options"]] == ["--simd"]
    assert row["pointer_size"] == 8


def test_visa_platform_names_resolve():
    for name in ("skl", "icllp", "tgllp", "dg2"):
        info, device = resolve_target(f"visa:{name}")
        assert info.name == "visa" and device == name


def test_fp64_only_where_ocloc_builds_doubles():
    # tests/visa/igc/inputs.json: ocloc refuses math.cl (doubles) on icllp, tgllp and dg2, builds it on skl
    import json
    from pathlib import Path

    from kernelkit.abi.visa import PLATFORMS

    table = json.loads((Path(__file__).parent / "igc" / "inputs.json").read_text())
    for p in PLATFORMS:
        assert (table[f"{p.name}/math"] is not None) == p.fp64, p.name
