"""AMD IL simulator speed: work-item instructions per second (IL instructions executed x
work-items executing them) on saxpy over 1M work-items and a 16x16-tiled sgemm 256x256,
compiled by kernelkit for an Evergreen device (juniper), with numpy's result checked. numpy
doing the same computation is shown beside it as the ratio. Aim: >= 20 M work-item
instructions/s.

    python benchmarks/amdil_sim.py [--repeat N] [--device juniper]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SAXPY = (ROOT / "examples" / "saxpy.cl").read_text()
SGEMM_TILED = (ROOT / "benchmarks" / "kernels" / "sgemm_tiled.cl").read_text()


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    from kernelkit.mux.registry import build_binary
    from kernelkit.sim.amdil import launch

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--device", default="juniper")
    args = p.parse_args()
    rng = np.random.default_rng(0)

    rows = []
    saxpy = build_binary(SAXPY, f"amdil:{args.device}").decode()
    n = 1 << 20
    x = rng.random(n, dtype=np.float32)
    y0 = rng.random(n, dtype=np.float32)
    a = np.float32(2.5)

    def run_saxpy():
        y = y0.copy()
        stats = launch(saxpy, "saxpy", [a, x, y], n, 256)
        return stats, y
    t, (stats, y) = timed(run_saxpy, args.repeat)
    np.testing.assert_allclose(y, a * x + y0, rtol=1e-6)
    t_np, _ = timed(lambda: a * x + y0, args.repeat)
    rows.append(("saxpy 1M", stats.work_item_instructions, t, t_np))

    sgemm = build_binary(SGEMM_TILED, f"amdil:{args.device}").decode()
    m = 256
    A = rng.random((m, m), dtype=np.float32)
    B = rng.random((m, m), dtype=np.float32)

    def run_sgemm():
        C = np.zeros((m, m), np.float32)
        stats = launch(sgemm, "sgemm_tiled", [np.int32(m), A, B, C], (m, m), (16, 16))
        return stats, C
    t, (stats, C) = timed(run_sgemm, args.repeat)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4)
    t_np, _ = timed(lambda: A @ B, args.repeat)
    rows.append(("tiled sgemm 256", stats.work_item_instructions, t, t_np))

    print(f"AMD IL simulator on {args.device} (median of {args.repeat}):")
    print(f"  {'kernel':16} {'wi-instructions':>16} {'seconds':>9} {'M wi-instr/s':>13} "
          f"{'numpy s':>9} {'sim/numpy':>10}")
    for name, count, t, t_np in rows:
        print(f"  {name:16} {count:16d} {t:9.3f} {count / t / 1e6:13.1f} {t_np:9.4f} "
              f"{t / t_np:10.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
