"""The README's main command: every example runs on the host and matches numpy; every target reports."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_demo_runs_every_example_on_the_host_and_every_target():
    proc = subprocess.run([sys.executable, "-m", "kernelkit", "demo", str(ROOT / "examples")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    examples = sorted(p.name for p in (ROOT / "examples").glob("*.cl"))
    for name in examples:
        assert f"=== {name}" in proc.stdout
    assert proc.stdout.count("matches numpy") == len(examples)
    for target in ("host", "gfx90a:xnack-", "amdil:juniper", "amdcl2:bonaire", "visa:tgllp"):
        assert proc.stdout.count(f" {target}: ") == len(examples), target
