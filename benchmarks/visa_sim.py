"""vISA simulator speed: lane-operations per second (instructions x enabled lanes, messages
included) on saxpy over 1M work-items and a 16x16-tiled sgemm 256x256, run on IGC's own vISA for
the same OpenCL C (ocloc, tgllp) and on kernelkit's (its visa target, SIMD16), with numpy's result
checked. numpy running the same computation is shown beside it as the ratio. Wall time and the
process's CPU time are both shown (on a shared machine the wall time includes waiting for a core).
``--platform dg2`` runs both producers' LSC code (IGC's DG2 objects get the private base IGC gives
them).

    python benchmarks/visa_sim.py [--repeat N] [--platform tgllp]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SAXPY = (ROOT / "examples" / "saxpy.cl").read_text()
SGEMM_TILED = (ROOT / "benchmarks" / "kernels" / "sgemm_tiled.cl").read_text()


# ocloc device per platform where PLATFORMS' name is not the one with the platform's messages: IGC
# 1.0.12504 compiles -device dg2 with legacy (gather4_scaled/scatter4_scaled) messages and -device
# dg2-g10 with LSC
IGC_DEVICES = {"dg2": "dg2-g10"}


def igc_kernel(source: str, kernel: str, platform: str):
    """IGC's decoded routine, its payload (kernelkit.abi.visa) and signature."""
    from kernelkit.abi.signature import signatures_from_source
    from kernelkit.abi.visa import payloads_for_source
    from kernelkit.sim.visa import decode
    from tests.visa.igc_dump import PLATFORMS, ocloc_dump

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{kernel}.cl"
        path.write_text(source)
        found = ocloc_dump(path, IGC_DEVICES.get(platform, PLATFORMS[platform]))
        if found is None:
            raise SystemExit(f"ocloc could not build {kernel}")
        from kernelkit.formats.visa import parse_visaasm

        routine = parse_visaasm(found[kernel]["visaasm"]).kernels[0]
        simd = found[kernel]["simd"]
        payload = next(p for p in payloads_for_source(str(path), platform, simd,
                                                      buffer_offsets={kernel: found[kernel]["buffer_offsets"]})
                       if p.kernel == kernel)
        sig = next(s for s in signatures_from_source(str(path)) if s.name == kernel)
    igc_inputs = [(offset, size) for offset, size, _type in found[kernel]["inputs"]]
    if [(i.offset, i.size) for i in payload.inputs] != igc_inputs:
        # IGC gives some DG2 kernels a private base kernelkit's ABI does not (stack calls it inserts)
        from kernelkit.abi.visa import lay_out

        implicit = {"local_ids" if i.kind == "local_id" else i.kind for i in payload.inputs
                    if i.kind not in ("payload_header", "argument")}
        payload = lay_out(sig, simd, platform, implicit | {"private_base"}, found[kernel]["buffer_offsets"])
        if [(i.offset, i.size) for i in payload.inputs] != igc_inputs:
            raise SystemExit(f"IGC's inputs for {kernel} on {platform} differ from kernelkit's ABI")
    return decode(routine), payload, sig


def kernelkit_kernel(source: str, kernel: str, platform: str):
    from kernelkit.formats.visa import parse_visaasm
    from kernelkit.sim.visa import decode
    from kernelkit.targets.visa.module import compile_visa

    k = compile_visa(source, platform).kernel(kernel)
    return decode(parse_visaasm(k.text).kernels[0]), k.payload, k.signature


def measure(fn, repeat: int) -> tuple[float, object, float]:
    """Median wall time, the last result, median CPU time of this process (on a machine shared with
    other work the wall time also counts the time the process waited for a core)."""
    times, cpu, result = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times), result, statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--platform", default="tgllp")
    args = parser.parse_args()
    if shutil.which("ocloc") is None:
        print("ocloc is not installed: no IGC vISA to run (install intel-opencl-icd)")
        return 1
    from kernelkit.sim.visa import launch

    rng = np.random.default_rng(0)
    rows = []
    n = 1 << 20
    x, y0 = rng.random(n, np.float32), rng.random(n, np.float32)
    size = 256
    a, b = rng.random((size, size), np.float32), rng.random((size, size), np.float32)
    t_saxpy_np, _, _ = measure(lambda: np.float32(2.0) * x + y0, args.repeat)
    t_sgemm_np, _, _ = measure(lambda: a @ b, args.repeat)
    for producer, build in (("IGC", igc_kernel), ("kernelkit", kernelkit_kernel)):
        program, payload, sig = build(SAXPY, "saxpy", args.platform)

        def saxpy(program=program, payload=payload, sig=sig):
            y = y0.copy()
            stats = launch(program, payload, [np.float32(2.0), x, y], [n], [256], signature=sig)
            return stats, y
        t, (stats, y), cpu = measure(saxpy, args.repeat)
        np.testing.assert_allclose(y, 2.0 * x + y0, rtol=1e-6)
        rows.append((f"{producer} saxpy 1M", payload.simd, stats, t, cpu, t_saxpy_np))

        program, payload, sig = build(SGEMM_TILED, "sgemm_tiled", args.platform)

        def sgemm(program=program, payload=payload, sig=sig):
            c = np.zeros((size, size), np.float32)
            stats = launch(program, payload, [np.int32(size), a, b, c], [size, size], [16, 16], signature=sig,
                           static_slm=sig.static_local_mem)
            return stats, c
        t, (stats, c), cpu = measure(sgemm, args.repeat)
        np.testing.assert_allclose(c, a @ b, rtol=1e-4)
        rows.append((f"{producer} sgemm tiled {size}", payload.simd, stats, t, cpu, t_sgemm_np))

    print(f"vISA simulator ({args.platform}), median of {args.repeat}")
    print(f"{'kernel':28} {'SIMD':>4} {'threads':>8} {'lane-ops':>12} {'time s':>8} {'M lane-ops/s':>13} "
          f"{'CPU s':>7} {'M/CPU-s':>8} {'numpy s':>9} {'sim/numpy':>10}")
    for name, simd, stats, t, cpu, t_np in rows:
        print(f"{name:28} {simd:4} {stats.hardware_threads:8} {stats.lane_operations:12} {t:8.3f} "
              f"{stats.lane_operations / t / 1e6:13.1f} {cpu:7.3f} {stats.lane_operations / max(cpu, 1e-9) / 1e6:8.1f} "
              f"{t_np:9.4f} {t / t_np:10.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
