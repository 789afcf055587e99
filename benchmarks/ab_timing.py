"""Timing two variants of each host_vs_peers.py kernel against each other in one process: the
variants run alternately, best of ``repeat`` rounds each after one warm-up round, and each
benchmark's ratio (first variant / second) is printed with the geometric mean of all ratios.
Used by checked_overhead.py and cancellation_overhead.py."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

Launch = Callable[[list, Any], None]         # (call arguments, benchmark) -> runs the kernel once


def best_times(bench, launches: dict[Any, Launch], repeat: int,
               verify: Callable[[Any, list], str | None] | None = None) -> dict[Any, float]:
    """Best wall time of each variant over ``repeat`` rounds (after a warm-up round); ``verify``
    returns an error text when the buffers are wrong after a variant's launch."""
    import kernelkit

    values = bench.make()
    call = [kernelkit.LocalMemory(a[1]) if isinstance(a, tuple) else a for a in values]
    best = dict.fromkeys(launches, math.inf)
    for _ in range(repeat + 1):
        for key, launch in launches.items():
            if bench.reset:
                bench.reset(values)
            t0 = time.perf_counter()
            launch(call, bench)
            best[key] = min(best[key], time.perf_counter() - t0)
            if verify and (error := verify(key, values)):
                raise SystemExit(f"{bench.name}: {error}")
    return best


def geometric_mean(ratios: Sequence[float]) -> float:
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def parse_arguments(doc: str, repeat: int, argv: list[str] | None):
    """The options both A/B benchmarks take: --quick, --only NAME, --repeat N."""
    import argparse

    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes")
    p.add_argument("--only", help="run the benchmarks whose name contains this")
    p.add_argument("--repeat", type=int, default=repeat)
    return p.parse_args(argv)
