"""`kernelkit demo`, the README's first command: one short block per example whose `kernelkit run`
command reproduces the values it shows (numpy's), one line per target, and an exit status that
says whether anything ran."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
from conftest import ROOT

TARGETS = ("host", "gfx90a:xnack-", "amdil:juniper", "amdcl2:bonaire", "visa:tgllp")
NUMBER = r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?"


def _demo(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "kernelkit", "demo", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


@pytest.fixture(scope="module")
def demo():
    proc = _demo()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def saxpy_only(tmp_path_factory):
    """A folder holding examples/saxpy.cl alone, for the tests that run the demo on one example: one
    folder, so the second such test finds the first one's builds in the cache (the key holds the path)."""
    folder = tmp_path_factory.mktemp("saxpy_only")
    (folder / "saxpy.cl").write_text((ROOT / "examples" / "saxpy.cl").read_text())
    return folder


def _blocks(stdout: str) -> dict[str, str]:
    return {b.split()[0]: b for b in stdout.strip().split("\n\n") if b.split()[0].endswith(".cl")}


def test_one_block_per_example_and_one_line_per_target(demo):
    examples = sorted(p.name for p in (ROOT / "examples").glob("*.cl"))
    blocks = _blocks(demo)
    assert sorted(blocks) == examples
    for name, block in blocks.items():
        assert "matches numpy" in block and re.search(rf"host {NUMBER} ms, numpy {NUMBER} ms", block), block
        for target in TARGETS:
            assert len(re.findall(rf"^    {re.escape(target)} ", block, re.M)) == 1, (name, target)
        assert re.search(r"^    gfx90a:xnack-\s+\d+ B  \w+: sgprs \d+, vgprs \d+, kernarg \d+ B$", block, re.M)
        for target in ("amdil:juniper", "visa:tgllp"):     # the simulated targets run it too, against numpy
            assert re.search(rf"^    {re.escape(target)} .*; simulated: matches numpy \(max \|error\| {NUMBER}\)",
                             block, re.M), (name, target)
        assert len(block.splitlines()) <= 12, block        # short: no full dumps without --verbose
    assert "spec" not in demo.lower()
    assert demo.strip().splitlines()[-1].startswith(f"{len(examples)} example(s) ran on the host and matched numpy")


def test_the_printed_run_command_reproduces_the_values_shown(demo):
    """Each block's `kernelkit run ... --print OUT` prints the values the demo shows for numpy."""
    for name, block in _blocks(demo).items():
        command = shlex.split(re.search(r"^  \$ (kernelkit run .*)$", block, re.M).group(1))
        shown = re.search(r"numpy: \[([^\]]*)\]", block).group(1).split()
        proc = subprocess.run([sys.executable, "-m", "kernelkit", *command[1:]], capture_output=True, text=True,
                              timeout=600, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        printed = re.findall(NUMBER, proc.stdout.split("=", 1)[1].split("dtype")[0])
        assert [float(v) for v in printed[:len(shown)]] == pytest.approx([float(v) for v in shown], abs=1e-3), name


def test_verbose_adds_the_listings(saxpy_only):
    proc = _demo(str(saxpy_only), "--verbose")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "compute_pgm_rsrc1:" in proc.stdout and "resources: kernarg" in proc.stdout   # AMDGPU listing
    assert re.search(r"^\s+\[\s+0\]\s+16 value\s+a(\s+cb1\[0\] float)?$", proc.stdout, re.M)  # AMD IL cb1 slot
    assert "spec" not in proc.stdout.lower()


def test_nothing_ran_is_an_error(tmp_path):
    missing = _demo(str(tmp_path / "nonexistent"))
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1 and "no such folder" in missing.stderr
    empty = _demo(str(tmp_path))
    assert empty.returncode == 1 and "no example kernels" in empty.stderr
    (tmp_path / "other.cl").write_text("kernel void other(global int *p) { p[get_global_id(0)] = 1; }")
    unchecked = _demo(str(tmp_path))
    assert unchecked.returncode == 1 and "no example ran on the host" in unchecked.stdout
    assert re.search(r"^    gfx90a:xnack-\s+\d+ B  other: ", unchecked.stdout, re.M)


def test_builds_report_progress_steps(monkeypatch, saxpy_only, capsys):
    """Each build of the demo is a step of the terminal status line (shown once it takes ~1 s)."""
    import argparse

    from kernelkit.builder import progress as progress_module
    from kernelkit.commands import demo as demo_command

    steps: list[tuple[str, str]] = []

    class Recording(progress_module.Progress):
        def update(self, name, text):
            steps.append(("update", text))
            super().update(name, text)

        def done(self, name):
            steps.append(("done", name))
            super().done(name)

    monkeypatch.setattr(progress_module, "Progress", Recording)
    assert demo_command.run(argparse.Namespace(examples=str(saxpy_only), verbose=False)) == 0
    started = [text for kind, text in steps if kind == "update"]
    simulated = ("amdil:juniper", "visa:tgllp")
    expected = ["building saxpy.cl for host"] + [step for t in TARGETS for step in
                ([f"running saxpy.cl on the {t} simulator"] if t in simulated else []) + [f"building saxpy.cl for {t}"]]
    assert started == expected    # the host run, then each target (run on its simulator, where there is one)
    assert [name for kind, name in steps if kind == "done"] == started   # each step ends before the next
    assert "matches numpy" in capsys.readouterr().out
