"""kernelkit's host target against the OpenCL CPU runtimes installed here — PoCL and Intel's CPU
runtime — on the same OpenCL C kernels, in the same run.

Each benchmark runs on kernelkit and on every peer, is checked against numpy, and reports the best
time of a few runs, kernelkit's throughput (GB/s or GFLOP/s) and, per peer, the speedup peer time /
kernelkit time; the geometric mean of each peer's speedups closes the table. Times are wall-clock
times of one launch as a program sees it (enqueue to completion for the peers; the kernel call,
argument checks and threads included, for kernelkit), the best of ``--repeat`` rounds after a
warm-up (one run for a peer, whose first enqueue compiles its work-group function; for kernelkit as
many as its runtime takes to run the kernel specialised for its local size); each round runs kernelkit and every peer once, one after the other, so that on a
shared machine they meet the same load. The launch row (``--launch``) runs 100 launches per round
and takes their median (see ``_launch_bench``).

Peers (installed by nobody here; a peer that is missing is left out with a note):
  PoCL    Debian's pocl-opencl-icd (/etc/OpenCL/vendors/pocl.icd);
  Intel   Intel's OpenCL CPU runtime from pip (``pip install intel-opencl-rt intel-cmplr-lib-rt``
          into a venv): ``<venv>/lib/libintelocl.so``, found under ``--intel PREFIX``, $INTEL_OCL_PREFIX
          or this interpreter's prefix. Its libraries need LD_LIBRARY_PATH, which the dynamic loader
          reads at start-up, so the benchmark re-runs itself once with an ICD directory naming both
          peers (OCL_ICD_VENDORS) and LD_LIBRARY_PATH set.

    python benchmarks/host_vs_peers.py [--quick] [--only NAME] [--repeat N] [--wfv never|auto|always]
                                       [--loop-barriers never|auto|always] [--intel PREFIX] [--launch]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SAXPY = """
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}"""

SGEMM_NAIVE = """
kernel void sgemm(int n, global const float *A, global const float *B, global float *C) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}"""

SGEMM_TILED = (Path(__file__).resolve().parent / "kernels" / "sgemm_tiled.cl").read_text()

# The bounds-guarded tiled sgemm of the divergence tests (tests/host/divergent_barriers.cl), 16x16 tiles.
SGEMM_GUARDED = (Path(__file__).resolve().parents[1] / "tests" / "host" / "divergent_barriers.cl").read_text()
SGEMM_GUARDED_OPTIONS = ("-DTS=16",)

# The work-group reduction is the README example (examples/reduce.cl, kernel reduce_sum).
REDUCE = (Path(__file__).resolve().parents[1] / "examples" / "reduce.cl").read_text()

STENCIL = """
kernel void stencil(int w, int h, global const float *in, global float *out) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[y * w + x] = in[y * w + x];
    return;
  }
  out[y * w + x] = 0.5f * in[y * w + x]
      + 0.125f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}"""

HISTOGRAM = """
kernel void histogram(global const uchar *data, uint n, global uint *bins, local uint *lbins) {
  size_t lid = get_local_id(0);
  size_t ls = get_local_size(0);
  for (size_t b = lid; b < 256; b += ls)
    lbins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t stride = get_global_size(0);
  for (size_t i = get_global_id(0); i < n; i += stride)
    atomic_inc(&lbins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = lid; b < 256; b += ls)
    atomic_add(&bins[b], lbins[b]);
}"""

NBODY = """
kernel void nbody(int n, float dt, float eps, global const float4 *pos, global float4 *acc_out) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;
    float inv = 1.0f / sqrt(r2 * r2 * r2);
    a += d * (q.w * inv);
  }
  acc_out[i] = (float4)(a * dt, 0.0f);
}"""

SCAN = """
kernel void scan_blocks(global const int *in, global int *out, global int *sums, local int *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  tmp[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    int v = lid >= off ? tmp[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[gid] = tmp[lid];
  if (lid == n - 1)
    sums[get_group_id(0)] = tmp[lid];
}"""


@dataclass
class Bench:
    name: str
    source: str
    kernel: str
    make: object                 # () -> (args, outputs index list)
    global_size: tuple
    local_size: tuple | None
    check: object                # (args) -> bool
    work: float                  # bytes or flops per run
    unit: str                    # "GB/s" | "GFLOP/s"
    reset: object = None         # (args) -> None, before each run
    options: tuple = ()          # more build options (kernelkit and peers alike)
    launches: int = 1            # launches per timed run, each timed, one after the other (the run's time: their median)
    results: dict = field(default_factory=dict)


LAUNCHES = 100   # launches per timed run of the launch row, one after the other


def _launch_bench() -> Bench:
    """saxpy on 1024 items (16 groups of 64): the time of a launch itself (threads handed the work,
    arguments checked, completion waited for), which a 16 M saxpy hides in its memory traffic. A
    timed run is LAUNCHES launches one after the other, each timed and waited for before the next (a
    program launching a kernel in a loop); the run's time is their median: one launch is too short to
    time alone on a shared machine, where another process's time slice (milliseconds) lands in a few
    of them. The warm-up run is a whole batch, so no runner's first launches (kernelkit's launch plan
    and local-size specialisation, a peer's first enqueue) are timed."""
    n = 1024
    x = np.arange(n, dtype=np.float32)
    y0 = np.ones(n, np.float32)
    # y = y0 + LAUNCHES * 2x after a run: whole numbers below 2^24, exact in float32
    return Bench("launch (saxpy 1K)", SAXPY, "saxpy", lambda: [np.float32(2.0), x, y0.copy()], (n,), (64,),
                 lambda a: np.array_equal(a[2], y0 + LAUNCHES * 2.0 * x), 12.0 * n, "GB/s",
                 reset=lambda a: a[2].__setitem__(slice(None), y0), launches=LAUNCHES)


def _benches(quick: bool) -> list[Bench]:
    rng = np.random.default_rng(7)
    out = []
    n = (1 << 22) if quick else (1 << 24)
    x = rng.random(n, dtype=np.float32)
    y0 = rng.random(n, dtype=np.float32)

    def saxpy_args():
        return [np.float32(2.0), x, y0.copy()]
    out.append(Bench("saxpy 16M" if not quick else "saxpy 4M", SAXPY, "saxpy", saxpy_args, (n,), None,
                     lambda a: np.allclose(a[2], 2.0 * x + y0, rtol=1e-5), 12.0 * n, "GB/s",
                     reset=lambda a: a[2].__setitem__(slice(None), y0)))
    for size in ((256,) if quick else (512, 1024)):
        A = rng.random((size, size), dtype=np.float32)
        B = rng.random((size, size), dtype=np.float32)
        ref = A.astype(np.float64) @ B.astype(np.float64)
        for label, src, kname, local in (("naive", SGEMM_NAIVE, "sgemm", None),
                                         ("tiled", SGEMM_TILED, "sgemm_tiled", (16, 16))):
            out.append(Bench(f"sgemm {label} {size}", src, kname,
                             lambda A=A, B=B, size=size: [np.int32(size), A, B, np.zeros((size, size), np.float32)],
                             (size, size), local, lambda a, ref=ref: np.allclose(a[3], ref, rtol=1e-4),
                             2.0 * size ** 3, "GFLOP/s"))
    g = 250 if quick else 500    # not a multiple of the 16x16 tile: the last tiles are partial
    A = rng.random((g, g + 3), dtype=np.float32)
    B = rng.random((g + 3, g - 5), dtype=np.float32)
    gref = A.astype(np.float64) @ B.astype(np.float64)
    out.append(Bench(f"sgemm guarded tiled {g}", SGEMM_GUARDED, "sgemm_guarded",
                     lambda: [np.int32(g), np.int32(g - 5), np.int32(g + 3), A, B, np.zeros((g, g - 5), np.float32)],
                     ((g - 5 + 15) // 16 * 16, (g + 15) // 16 * 16), (16, 16),
                     lambda a: np.allclose(a[5], gref, rtol=1e-4), 2.0 * g * (g - 5) * (g + 3), "GFLOP/s",
                     options=SGEMM_GUARDED_OPTIONS))
    m = (1 << 20) if quick else (1 << 24)
    data = rng.random(m, dtype=np.float32)
    out.append(Bench("reduce (barriers)", REDUCE, "reduce_sum",
                     lambda: [data, np.zeros(m // 256, np.float32), ("local", 256 * 4)], (m,), (256,),
                     lambda a: np.allclose(a[1], data.reshape(-1, 256).sum(1, dtype=np.float64), rtol=1e-4),
                     4.0 * m, "GB/s"))
    w = h = 1024 if quick else 4096
    img = rng.random((h, w), dtype=np.float32)
    ref = img.copy()
    ref[1:-1, 1:-1] = 0.5 * img[1:-1, 1:-1] + 0.125 * (img[1:-1, :-2] + img[1:-1, 2:] + img[:-2, 1:-1] + img[2:, 1:-1])
    out.append(Bench("stencil 2-D 5-point", STENCIL, "stencil",
                     lambda: [np.int32(w), np.int32(h), img, np.zeros((h, w), np.float32)], (w, h), (64, 4),
                     lambda a: np.allclose(a[3], ref, rtol=1e-5, atol=1e-6), 8.0 * w * h, "GB/s"))
    hn = (1 << 22) if quick else (1 << 25)
    bytes_ = rng.integers(0, 256, hn, dtype=np.uint8)
    href = np.bincount(bytes_, minlength=256).astype(np.uint32)
    groups = 64
    out.append(Bench("histogram (local atomics)", HISTOGRAM, "histogram",
                     lambda: [bytes_, np.uint32(hn), np.zeros(256, np.uint32), ("local", 256 * 4)],
                     (groups * 256,), (256,), lambda a: np.array_equal(a[2], href), float(hn), "GB/s",
                     reset=lambda a: a[2].__setitem__(slice(None), 0)))
    nb = 1024 if quick else 4096
    pos = rng.random((nb, 4), dtype=np.float32)
    pos[:, 3] = rng.random(nb, dtype=np.float32) + 0.5
    d = pos[None, :, :3].astype(np.float64) - pos[:, None, :3].astype(np.float64)
    r2 = (d ** 2).sum(-1) + 1e-3
    acc = (d * (pos[None, :, 3, None] / np.sqrt(r2 ** 3)[..., None])).sum(1) * 0.01
    out.append(Bench(f"n-body {nb}", NBODY, "nbody",
                     lambda: [np.int32(nb), np.float32(0.01), np.float32(1e-3), pos, np.zeros((nb, 4), np.float32)],
                     (nb,), (64,), lambda a: np.allclose(a[4][:, :3], acc, rtol=1e-3, atol=1e-4),
                     20.0 * nb * nb, "GFLOP/s"))
    sn = (1 << 20) if quick else (1 << 24)
    ints = rng.integers(0, 10, sn, dtype=np.int32)
    blocks = ints.reshape(-1, 256)
    scan_ref = np.cumsum(blocks, axis=1, dtype=np.int32).reshape(-1)
    out.append(Bench("prefix scan (blocks)", SCAN, "scan_blocks",
                     lambda: [ints, np.zeros(sn, np.int32), np.zeros(sn // 256, np.int32), ("local", 256 * 4)],
                     (sn,), (256,), lambda a: np.array_equal(a[1], scan_ref)
                     and np.array_equal(a[2], blocks.sum(1, dtype=np.int32)), 8.0 * sn, "GB/s"))
    return out


def prepare_kernelkit(b: Bench, wfv: str = "auto", loop_barriers: str = "auto"):
    """(run once -> seconds, check -> bool) for kernelkit, built and warmed up (JIT, page faults)."""
    import kernelkit

    prog = kernelkit.Program(b.source, ["-cl-std=CL1.2", f"-cl-wfv={wfv}", f"-cl-loop-barriers={loop_barriers}",
                                        *b.options]).build()
    kern = prog.kernel(b.kernel)
    args = b.make()
    call_args = [kernelkit.LocalMemory(a[1]) if isinstance(a, tuple) else a for a in args]

    def go() -> float:
        if b.reset:
            b.reset(args)
        times = []
        for _ in range(b.launches):
            t0 = time.perf_counter()
            kern(*call_args, global_size=b.global_size, local_size=b.local_size)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)
    # warm-up: the runtime runs a kernel specialised for its local size from its HOT_LAUNCHES-th launch
    # on (built on that launch), as a peer compiles its work-group function at the first enqueue
    from kernelkit.runtime.program import HOT_LAUNCHES

    for _ in range(HOT_LAUNCHES):
        go()
    return go, lambda: bool(b.check(args))


def prepare_peer(platform, b: Bench):
    """(run once -> seconds, check -> bool) for an OpenCL platform, built and warmed up."""
    import pyopencl as cl

    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prog = cl.Program(ctx, b.source).build(options=["-cl-std=CL1.2", *b.options])
    kern = getattr(prog, b.kernel)
    args = b.make()
    mf = cl.mem_flags
    cl_args, bufs = [], []
    for a in args:
        if isinstance(a, tuple):
            cl_args.append(cl.LocalMemory(a[1]))
        elif isinstance(a, np.ndarray):
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
            bufs.append((buf, a))
            cl_args.append(buf)
        else:
            cl_args.append(a)

    def go() -> float:
        if b.reset:
            b.reset(args)
            for buf, a in bufs:
                cl.enqueue_copy(queue, buf, a)
            queue.finish()
        times = []
        for _ in range(b.launches):
            t0 = time.perf_counter()
            ev = kern(queue, b.global_size, b.local_size, *cl_args)
            ev.wait()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def check() -> bool:
        for buf, a in bufs:
            cl.enqueue_copy(queue, a, buf)
        queue.finish()
        return bool(b.check(args))
    go()
    return go, check


# pause before each runner's run: the worker threads of the runner before it (Intel's TBB workers,
# kernelkit's and PoCL's) stop spinning for the next launch and sleep, and do not share the cores
SETTLE_SECONDS = 0.02


def best_times(runners: dict, repeat: int) -> dict:
    """Best time of each runner over ``repeat`` rounds; a round runs every runner once, one after
    the other, so that all of them meet the same load of a shared machine."""
    best = dict.fromkeys(runners, math.inf)
    for _ in range(repeat):
        for label, go in runners.items():
            time.sleep(SETTLE_SECONDS)
            best[label] = min(best[label], go())
    return best


PEERS = (("PoCL", "Portable Computing Language"), ("Intel", "Intel(R) OpenCL"))
POCL_ICD = Path("/etc/OpenCL/vendors/pocl.icd")
_PREPARED = "KERNELKIT_BENCH_PEERS"


def intel_runtime(prefix: str | None) -> Path | None:
    """``<prefix>/lib/libintelocl.so`` of a pip-installed intel-opencl-rt, if there is one."""
    candidates = [prefix, os.environ.get("INTEL_OCL_PREFIX"), sys.prefix]
    for c in candidates:
        if c and (Path(c) / "lib" / "libintelocl.so").exists():
            return (Path(c) / "lib" / "libintelocl.so").resolve()
    return None


def prepare_peers(intel_prefix: str | None, argv: list[str]) -> list[str]:
    """Notes on missing peers; re-runs this script with OCL_ICD_VENDORS/LD_LIBRARY_PATH set for
    the peers found (the ICD loader and the dynamic loader read them once, at start-up)."""
    if os.environ.get(_PREPARED):
        return json_notes(os.environ[_PREPARED])
    notes, icds, libdirs = [], [], []
    if POCL_ICD.exists():
        icds.append(POCL_ICD.read_text().strip())
    else:
        notes.append("PoCL left out: /etc/OpenCL/vendors/pocl.icd is not installed (pocl-opencl-icd)")
    intel = intel_runtime(intel_prefix)
    if intel is not None:
        icds.append(str(intel))
        libdirs.append(str(intel.parent))
    else:
        notes.append("Intel's CPU runtime left out: no <prefix>/lib/libintelocl.so (pip install "
                      "intel-opencl-rt intel-cmplr-lib-rt into a venv, then --intel <venv>)")
    vendors = tempfile.mkdtemp(prefix="kernelkit-icd-")
    for i, lib in enumerate(icds):
        Path(vendors, f"peer{i}.icd").write_text(lib + "\n")
    env = dict(os.environ, OCL_ICD_VENDORS=vendors, **{_PREPARED: "\x1f".join(notes) or "-"})
    if libdirs:
        env["LD_LIBRARY_PATH"] = os.pathsep.join([*libdirs, *filter(None, [os.environ.get("LD_LIBRARY_PATH")])])
    code = subprocess.call([sys.executable, os.path.abspath(__file__), *argv], env=env)
    raise SystemExit(code)


def json_notes(text: str) -> list[str]:
    return [] if text == "-" else text.split("\x1f")


def find_platforms(notes: list[str]) -> list[tuple[str, object]]:
    try:
        import pyopencl as cl
        platforms = cl.get_platforms()
    except Exception as exc:  # noqa: BLE001 - no ICD at all: no peers
        notes.append(f"no OpenCL peers: {exc}")
        return []
    out = []
    for label, vendor_name in PEERS:
        match = [p for p in platforms if vendor_name in p.name]
        if match:
            out.append((label, match[0]))
        elif not any(n.startswith(label) for n in notes):
            notes.append(f"{label} left out: its ICD did not load")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes")
    p.add_argument("--only", help="run the benchmarks whose name contains this")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--wfv", choices=("never", "auto", "always"), default="auto",
                   help="kernelkit's whole-function vectoriser (-cl-wfv=)")
    p.add_argument("--loop-barriers", choices=("never", "auto", "always"), default="auto",
                   help="kernelkit's implicit loop barriers (-cl-loop-barriers=)")
    p.add_argument("--intel", help="prefix (venv) holding lib/libintelocl.so")
    p.add_argument("--launch", action="store_true",
                   help="also time a 1024-item saxpy: the launch overhead alone (not in the geometric means)")
    args = p.parse_args(argv)
    notes = prepare_peers(args.intel, argv)
    peers = find_platforms(notes)
    head = f"{'benchmark':28} {'kernelkit':>11} {'':>11}" + "".join(f" {lab:>11} {'ratio':>7}" for lab, _ in peers)
    print(f"kernelkit -cl-wfv={args.wfv} -cl-loop-barriers={args.loop_barriers}; "
          "ratio = peer time / kernelkit time (> 1: kernelkit faster)")
    print(head + "  ok")
    print("-" * (len(head) + 4))
    ratios: dict[str, list[float]] = {lab: [] for lab, _ in peers}
    all_ok = True
    for b in _benches(args.quick) + ([_launch_bench()] if args.launch else []):
        if args.only and args.only not in b.name:
            continue
        runners, checks, failed = {}, {}, set()
        runners["kernelkit"], checks["kernelkit"] = prepare_kernelkit(b, args.wfv, args.loop_barriers)
        for label, platform in peers:
            try:
                runners[label], checks[label] = prepare_peer(platform, b)
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"{b.name:28} {label} failed: {exc}", file=sys.stderr)
                failed.add(label)
        best = best_times(runners, args.repeat)
        kt, kok = best["kernelkit"], checks["kernelkit"]()
        row = f"{b.name:28} {kt * 1e3:9.2f}ms {b.work / kt * 1e-9:6.2f} {b.unit:<4}"
        flags = [] if kok else ["WRONG(kernelkit)"]
        all_ok &= kok
        for label, _ in peers:
            pt = math.nan if label in failed else best[label]
            if label in failed or not checks[label]():
                flags.append(f"WRONG({label})")
            if not math.isnan(pt) and not b.name.startswith("launch"):
                ratios[label].append(pt / kt)
            row += f" {pt * 1e3:9.2f}ms {pt / kt:6.2f}x"
        print(row + "  " + (" ".join(flags) or "ok"), flush=True)
    print("-" * (len(head) + 4))
    for label, rs in ratios.items():
        if rs:
            geo = math.exp(sum(math.log(r) for r in rs) / len(rs))
            print(f"geometric mean ratio vs {label} ({label} time / kernelkit time): {geo:.2f}x over {len(rs)} benchmarks")
    for note in notes:
        print(f"note: {note}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
