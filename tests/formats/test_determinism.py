"""Writers are deterministic across processes and hash seeds (issue 17.5): every writer (ELF, notes,
V2 YAML and V3 msgpack metadata, descriptors, bundles and CCOB compression, host objects, AMD IL text,
link and metadata, CL2, vISA binary and text, and ``kernelkit build`` for the host, AMDGPU V2/V4+, AMD IL,
CL2 and vISA)
runs in three processes with different PYTHONHASHSEED values; their outputs are byte-identical.

kernelkit's own libraries (the builtin library, device libraries, tools) are writers too: the process with
seed 0 builds them itself in a cold cache, the other two use the ones this test run built (under the run's
own, random, hash seeds). So the libraries are still built under different seeds and compared through
every build's bytes, but twice instead of three times (a cold library set is ~90 % of a process's CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import RUN_CACHE, reference_path, share_libraries

SCRIPT = Path(__file__).with_name("writer_digests.py")
SOURCE = """
__kernel void saxpy(float a, __global const float *x, __global float *y, __local float *t) {
    size_t i = get_global_id(0);
    t[get_local_id(0)] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[i] = a * t[get_local_id(0)] + y[i];
}
__kernel void fill(__global int *o, int v, __constant float *c) { o[get_global_id(0)] = v + (int)c[0]; }
"""


def test_writers_are_byte_identical_under_different_hash_seeds(tmp_path):
    ref = reference_path("amdgpu")
    source = tmp_path / "k.cl"
    source.write_text(SOURCE)
    procs = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / f"seed{seed}"
        out.mkdir()
        # no build server: its forked children keep the server's own hash seed, so the builds would not run
        # under this one (plain workers inherit the environment, PYTHONHASHSEED included)
        cache = tmp_path / f"cache{seed}"
        cache.mkdir()
        if seed != "0":
            share_libraries(RUN_CACHE, cache)
        env = dict(os.environ, PYTHONHASHSEED=seed, KERNELKIT_CACHE_DIR=str(cache), KERNELKIT_NO_SERVER="1")
        procs.append(subprocess.Popen([sys.executable, str(SCRIPT), str(ref.parent), str(source), str(out)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    results = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=600)
        assert p.returncode == 0, stderr[-2000:]
        results.append(json.loads(stdout))
    assert len(results[0]) >= 20
    for other in results[1:]:
        differing = sorted(k for k in results[0] if results[0][k] != other.get(k))
        assert differing == [] and other.keys() == results[0].keys()
