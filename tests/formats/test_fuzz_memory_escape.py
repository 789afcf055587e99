"""A reader that exhausts memory is an escape the harness records (input and traceback), not the harness's death:
the traceback's frames hold the memory that ran out, so the harness must drop them before it saves anything."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import resource, sys
    from pathlib import Path
    from fuzz import run
    from fuzz.targets import Target

    def greedy_reader(data):
        hoard, size = [], 1 << 20
        while True:                          # until not even a small object fits under the limit
            try:
                hoard.append(bytearray(size))
            except MemoryError:
                if size <= 64:
                    raise
                size //= 2

    target = Target("greedy", greedy_reader, lambda: [b"seed"])
    campaign = run.Campaign([], seed=1, out=Path(sys.argv[1]), slow=60.0)
    campaign.targets = {"greedy": target}
    campaign.seeds = {"greedy": [b"seed"]}
    campaign.stats = {"greedy": {"inputs": 0, "format_errors": 0, "escapes": 0, "slow": 0, "max_seconds": 0.0,
                                 "cpu_seconds": 0.0, "sites": {}}}
    used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    limit = used + (600 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    campaign.step("greedy", 3)
    print(campaign.stats["greedy"]["escapes"], sorted(campaign.stats["greedy"]["sites"]))
""")


def test_memory_exhaustion_is_recorded(tmp_path):
    script = tmp_path / "greedy.py"
    script.write_text(SCRIPT)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[0] == "3"                   # three inputs, three escapes
    assert "MemoryError at" in proc.stdout
    saved = sorted((out / "crashes" / "greedy").iterdir())
    assert [p.suffix for p in saved] == [".bin", ".txt"]   # one site: saved once
    text = saved[1].read_text()
    assert text.startswith("MemoryError at ") and "greedy_reader" in text and "hoard.append(bytearray(size))" in text
