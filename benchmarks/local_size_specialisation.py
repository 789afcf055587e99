"""What specialisation by local size (spec 003 createSpecializedKernel; kernelkit.mux.passes.local_size)
gains on the host: each kernel launched with its local size given, generic (``specialise=False``) and
specialised (``specialise=True``) alternately in one process, best of ``--repeat`` runs each, as a ratio.

    python benchmarks/local_size_specialisation.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import kernelkit

SOURCE = (Path(__file__).parent / "kernels" / "sgemm_tiled.cl").read_text() + r"""
kernel void group_sum(global const float *a, global float *out) {
  size_t g = get_group_id(0), n = get_local_size(0), l = get_local_id(0);
  float s = 0.0f;
  for (size_t i = 0; i < n; i++) s += a[g * n + i];
  out[get_global_id(0)] = s * (float)(l + 1);
}
kernel void scale(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 3.0f + 1.0f;
}
"""


def cases():
    rng = np.random.default_rng(3)
    n = 512
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    C = np.zeros((n, n), np.float32)
    big = rng.random(1 << 22, dtype=np.float32)
    out = np.zeros_like(big)
    return [
        ("sgemm_tiled 512, 16x16", "sgemm_tiled", (np.int32(n), A, B, C), (n, n), (16, 16)),
        ("group_sum 4M, 64", "group_sum", (big, out), big.size, 64),
        ("scale 4M, 12 (vector tail)", "scale", (big, out), 12 * (big.size // 12), 12),
    ]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    program = kernelkit.Program(SOURCE, ["-cl-std=CL2.0"]).build("host")
    print(f"{'kernel':32} {'generic ms':>11} {'specialised ms':>15} {'ratio':>6}")
    for label, name, kargs, gsize, lsize in cases():
        kernel = program.kernel(name)

        def run(spec: bool, kernel=kernel, kargs=kargs, gsize=gsize, lsize=lsize):
            kernel(*kargs, global_size=gsize, local_size=lsize, specialise=spec)

        run(True)   # compile the specialised binary (cached) before timing
        run(False)
        generic, special = best(lambda: run(False), args.repeat), best(lambda: run(True), args.repeat)
        print(f"{label:32} {generic * 1e3:11.2f} {special * 1e3:15.2f} {generic / special:6.2f}")


if __name__ == "__main__":
    main()
