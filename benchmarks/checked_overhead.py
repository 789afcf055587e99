"""What checked mode (``check=True``: every access bounds-checked, private memory included) costs:
each kernel of host_vs_peers.py plus a private-array kernel, launched checked and unchecked
alternately in one process (best of ``--repeat`` runs each), as a ratio. Checked mode is a
debugging mode: it is not vectorised, so the ratio includes the vectoriser's gain.

    python benchmarks/checked_overhead.py [--quick] [--only NAME] [--repeat N]
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ab_timing  # noqa: E402
import host_vs_peers  # noqa: E402

PRIVATE = r"""
kernel void window_sort(global const float *in, global float *out, int n) {
  size_t g = get_global_id(0);
  float w[16];
  for (int k = 0; k < 16; ++k) w[k] = in[(g + k) % n];
  for (int a = 1; a < 16; ++a)
    for (int b = a; b > 0 && w[b - 1] > w[b]; --b) { float t = w[b]; w[b] = w[b - 1]; w[b - 1] = t; }
  out[g] = w[g & 15];
}
"""


def _private_bench(quick: bool) -> host_vs_peers.Bench:
    n = (1 << 16) if quick else (1 << 20)
    data = np.random.default_rng(7).random(n, dtype=np.float32)

    def check(a):
        windows = data[(np.arange(n)[:, None] + np.arange(16)) % n]
        return np.array_equal(a[1], np.sort(windows, axis=1)[np.arange(n), np.arange(n) & 15])
    return host_vs_peers.Bench(f"private window sort {n >> 10}K", PRIVATE, "window_sort",
                               lambda: [data, np.zeros(n, np.float32), np.int32(n)], (n,), None, check,
                               16.0 * n, "Mitems/s")


def main(argv: list[str] | None = None) -> int:
    import kernelkit

    args = ab_timing.parse_arguments(__doc__, 5, argv)
    print(f"{'benchmark':28} {'checked':>11} {'unchecked':>11} {'ratio':>7}")
    ratios = []
    for b in host_vs_peers._benches(args.quick) + [_private_bench(args.quick)]:
        if args.only and args.only not in b.name:
            continue
        kernel = kernelkit.Program(b.source, ["-cl-std=CL1.2"]).build().kernel(b.kernel)

        def launch(call, b, kernel=kernel, check=False):
            kernel(*call, global_size=b.global_size, local_size=b.local_size, check=check)

        def verify(check, values, b=b):
            return None if b.check(values) else f"wrong result {'checked' if check else 'unchecked'}"
        launches = {check: functools.partial(launch, check=check) for check in (True, False)}
        best = ab_timing.best_times(b, launches, args.repeat, verify)
        ratio = best[True] / best[False]
        ratios.append(ratio)
        print(f"{b.name:28} {best[True] * 1e3:9.2f}ms {best[False] * 1e3:9.2f}ms {ratio:6.2f}x", flush=True)
    if ratios:
        geo = ab_timing.geometric_mean(ratios)
        print(f"geometric mean checked/unchecked: {geo:.2f}x over {len(ratios)} benchmarks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
