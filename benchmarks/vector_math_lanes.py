"""Float (and with --double, double) math builtins in lane form (kernelkit/mux/clc/include/clc_*lanes*.h):
the largest error in ulp against float64 numpy / Python's math module (float) or mpmath (double) over >= 1M
inputs (special values included), whether the vectorised
build (-cl-wfv=always) equals the scalar build (-cl-wfv=never) bit for bit, and the time of a small
kernel per function (eight calls per work-item over 1M work-items, best of --repeat: wall time and the
process's CPU time, all threads, which a loaded machine distorts less), beside the same kernel calling the C
library's scalar function once per lane (the peer, same run; its CPU time over ours is the speed-up).

    python benchmarks/vector_math_lanes.py [--double] [--only NAME ...] [--n N] [--repeat R] [--no-sweep] [--span LO HI]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import kernelkit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "host"))
from lane_math_cases import (  # noqa: E402
    ALL_DOUBLE_FUNCTIONS,
    FUNCTIONS,
    double_inputs,
    double_ulp_errors,
    float_ulp_errors,
    inputs,
)

# the C library's scalar function called once per lane (the peer, in the same run): for the builtins whose
# expression is not `name(args)` with the C function name (+ "f" for float) taking the same arguments, the
# C function, its arguments and a factor (glibc 2.36 has no atanpi etc.: atan(v) / pi)
LIBM_SCALAR = {"pown": ("pow", "v, ({t})convert_int_sat(w)", ""), "rootn": ("pow", "v, ({t})1 / convert_int_sat(w)", ""),
               **{f"{n}pi": (n, a, " * ({t})M_1_PI") for n, a in (("atan", "v"), ("asin", "v"), ("acos", "v"), ("atan2", "v, w"))}}


def libm_peer(expr: str, t: str) -> tuple[str, str] | None:
    """(declaration, expression) of ``expr`` with its builtin replaced by the C library's scalar function
    (kk_libm, an asm label: one call per lane), or None (sign / quotient outputs are no plain call)."""
    if expr.startswith("("):
        return None
    name, _, args = expr.partition("(")
    symbol, args, factor = LIBM_SCALAR.get(name, (name, args[:-1], ""))
    symbol += "" if t == "double" else "f"
    params = [t] * (args.count(",") + 1)
    if "&q" in args:
        params[-1] = "private int *"
    return (f"{t} kk_libm({', '.join(params)}) __asm__(\"{symbol}\");",
            f"kk_libm({args.format(t=t)}){factor.format(t=t)}")


def source(name: str, t: str = "float") -> str:
    expr = (ALL_DOUBLE_FUNCTIONS if t == "double" else FUNCTIONS)[name][0]
    peer = libm_peer(expr, t)
    libm = "" if peer is None else f"""
{peer[0]}
kernel void eight_libm(global const {t} *x, global const {t} *y, global {t} *out) {{
  int i = get_global_id(0);
  {t} v = x[i], w = y[i], r = 0;
  int q = 0;
  for (int k = 0; k < 8; ++k) {{ r += {peer[1]}; v = v * 0.875f + 0.0625f; }}
  out[i] = r;
}}
"""
    return libm + f"""
kernel void once(global const {t} *x, global const {t} *y, global {t} *out) {{
  int i = get_global_id(0);
  {t} v = x[i], w = y[i], r = 0;
  int q = 0;
  for (int k = 0; k < 1; ++k) r = {expr};
  out[i] = r;
}}
kernel void eight(global const {t} *x, global const {t} *y, global {t} *out) {{
  int i = get_global_id(0);
  {t} v = x[i], w = y[i], r = 0;
  int q = 0;
  for (int k = 0; k < 8; ++k) {{ r += {expr}; v = v * 0.875f + 0.0625f; }}
  out[i] = r;
}}
"""


def best_times(kernel, x: np.ndarray, y: np.ndarray, repeat: int) -> tuple[float, float]:
    """(best wall time, best process CPU time) of ``repeat`` launches of ``kernel`` over x, y (after a warm-up)."""
    out = np.zeros_like(x)
    kernel(x, y, out, global_size=(x.size,), local_size=(64,))
    best = cpu = np.inf
    for _ in range(repeat):
        wall, c = time.perf_counter(), time.process_time()
        kernel(x, y, out, global_size=(x.size,), local_size=(64,))
        best = min(best, time.perf_counter() - wall)
        cpu = min(cpu, time.process_time() - c)
    return best, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--double", action="store_true", help="the double builtins (mpmath oracle: slow)")
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-sweep", action="store_true", help="times only")
    ap.add_argument("--span", nargs=2, type=float, default=(0.05, 0.95), metavar=("LO", "HI"),
                    help="the timing kernels' x: uniform in [LO, HI] (default 0.05 0.95; a wide span makes a lane form "
                         "take every path its none-active skips would leave out)")
    args = ap.parse_args()
    print(f"kernelkit {kernelkit.__file__}")
    print(f"{'function':10} {'inputs':>8} {'max ulp':>9} {'bound':>5} {'vec==scalar':>11} {'8 calls x 1M items':>19} {'(cpu)':>13} "
          f"{'C library per lane':>19} {'(cpu)':>12} {'cpu speed-up':>12}")
    t, dtype = ("double", np.float64) if args.double else ("float", np.float32)
    functions = ALL_DOUBLE_FUNCTIONS if args.double else FUNCTIONS
    for name in args.only or list(functions):
        bound = functions[name][-1]
        vec = kernelkit.Program(source(name, t), ["-cl-wfv=always"]).build()
        x, y = (double_inputs if args.double else inputs)(name, args.n)
        x = np.resize(x, (x.size + 63) // 64 * 64)
        y = np.resize(y, x.size)
        cells = [f"{name:10} {x.size:8}"]
        if not args.no_sweep:
            got = np.zeros_like(x)
            vec.kernel("once")(x, y, got, global_size=(x.size,), local_size=(64,))
            scalar = kernelkit.Program(source(name, t), ["-cl-wfv=never"]).build()
            sgot = np.zeros_like(x)
            scalar.kernel("once")(x, y, sgot, global_size=(x.size,), local_size=(64,))
            if args.double:
                err = double_ulp_errors(name, got, x, y)
            else:
                with np.errstate(all="ignore"):
                    exact = FUNCTIONS[name][1](x.astype(np.float64), y.astype(np.float64))
                err = float_ulp_errors(got, exact)
            same = np.array_equal(got.view(np.uint8), sgot.view(np.uint8))
            cells.append(f"{err.max():9.3f} {bound:5} {str(same):>11}")
        else:
            cells.append(f"{'':9} {bound:5} {'':>11}")
        n = 1 << 20
        xt = np.random.default_rng(1).uniform(*args.span, n).astype(dtype)
        yt = np.random.default_rng(2).uniform(0.5, 3.0, n).astype(dtype)
        lane = best_times(vec.kernel("eight"), xt, yt, args.repeat)
        cells.append(f"{lane[0] * 1e3:16.2f} ms {lane[1] * 1e3:10.2f} ms cpu")
        if libm_peer(functions[name][0], t) is not None:
            libm = best_times(vec.kernel("eight_libm"), xt, yt, args.repeat)
            cells.append(f"{libm[0] * 1e3:9.2f} ms {libm[1] * 1e3:9.2f} ms cpu {libm[1] / lane[1]:6.2f}x")
        print(" ".join(cells), flush=True)


if __name__ == "__main__":
    main()
