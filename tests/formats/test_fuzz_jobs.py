"""fuzz.run --jobs N: N processes with their own seeds, their counts summed in OUT/stats.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_jobs_counts_add_up(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "fuzz.run", "--jobs", "2", "--targets", "elf,descriptor",
                           "--inputs", "300", "--seed", "7", "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    jobs = [json.loads((tmp_path / f"job-{i}" / "stats.json").read_text())["targets"] for i in range(2)]
    total = json.loads((tmp_path / "stats.json").read_text())["targets"]
    for name in ("elf", "descriptor"):
        assert [job[name]["inputs"] for job in jobs] == [300, 300]
        assert total[name]["inputs"] == 600
        assert total[name]["format_errors"] == sum(job[name]["format_errors"] for job in jobs)
        assert total[name]["max_seconds"] == max(job[name]["max_seconds"] for job in jobs)
    assert "elf" in proc.stdout and "600 inputs" in proc.stdout
