"""What the cancellation points (Ctrl-C / launch timeouts: a cancel-flag poll on every loop
back-edge of a host kernel) cost: each kernel of host_vs_peers.py built with and without them,
timed alternately in one process (best of ``--repeat`` runs each), as a ratio.

    python benchmarks/cancellation_overhead.py [--quick] [--only NAME] [--repeat N]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ab_timing  # noqa: E402
import host_vs_peers  # noqa: E402


def build(source: str, kernel: str, polls: bool):
    """The kernel compiled with or without the polls (recompiled in this process from the host
    binary's mux IR, as checked mode is)."""
    import kernelkit
    from kernelkit.runtime.program import _signature_from_json
    from kernelkit.targets.host import codegen
    from kernelkit.targets.host.module import build_host_binary

    prog = kernelkit.Program(source, ["-cl-std=CL1.2"]).build()
    if polls:
        return prog.kernel(kernel)
    binary = prog._binary   # noqa: SLF001 - the mux IR to recompile
    saved = codegen.instrument_function
    codegen.instrument_function = lambda f: 0
    try:
        again = build_host_binary(binary.mux_ir, [_signature_from_json(k.signature) for k in binary.kernels],
                                  binary.options)
    finally:
        codegen.instrument_function = saved
    return kernelkit.Program.from_binary(again.to_bytes()).kernel(kernel)


def main(argv: list[str] | None = None) -> int:

    args = ab_timing.parse_arguments(__doc__, 9, argv)
    print(f"{'benchmark':28} {'with polls':>11} {'without':>11} {'cost':>7}")
    ratios = []
    for b in host_vs_peers._benches(args.quick):
        if args.only and args.only not in b.name:
            continue
        kernels = {polls: build(b.source, b.kernel, polls) for polls in (True, False)}
        launches = {polls: (lambda call, b, k=k: k(*call, global_size=b.global_size, local_size=b.local_size))
                    for polls, k in kernels.items()}
        best = ab_timing.best_times(b, launches, args.repeat)
        ratio = best[True] / best[False]
        ratios.append(ratio)
        print(f"{b.name:28} {best[True] * 1e3:9.2f}ms {best[False] * 1e3:9.2f}ms {100 * (ratio - 1):+6.1f}%",
              flush=True)
    if ratios:
        geo = ab_timing.geometric_mean(ratios)
        print(f"geometric mean cost of the polls: {100 * (geo - 1):+.1f}% over {len(ratios)} benchmarks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
