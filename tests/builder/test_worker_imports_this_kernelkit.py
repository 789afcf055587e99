"""A build worker runs the caller's kernelkit, not a package of that name in the caller's working
directory (``python -m`` puts the working directory first on the path)."""

import os
import subprocess
import sys
from pathlib import Path

import kernelkit

ROOT = Path(kernelkit.__file__).resolve().parent.parent

SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import kernelkit
import numpy as np
prog = kernelkit.Program("kernel void k(global int *a) { a[get_global_id(0)] = 7; }").build()
a = np.zeros(4, np.int32)
prog.k(a, global_size=4)
print(a.tolist())
"""


def test_a_worker_started_in_a_folder_holding_another_kernelkit_runs_ours(tmp_path):
    impostor = tmp_path / "kernelkit"
    impostor.mkdir()
    (impostor / "__init__.py").write_text('raise SystemExit("the kernelkit of the working directory")\n')
    env = {**os.environ, "KERNELKIT_NO_SERVER": "1", "KERNELKIT_CACHE_DIR": str(tmp_path / "cache"),
           "KERNELKIT_NO_CACHE": "1"}
    env.pop("KERNELKIT_BUILD_IN_PROCESS", None)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[7, 7, 7, 7]"
