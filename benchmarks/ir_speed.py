"""Parse+print speed of kernelkit's IR model (kernelkit.ir) over the corpus at -O0 and -O3, beside
llvmlite's LLVM parsing the same texts (the peer): best of ``--repeat`` wall times and their ratio.

    python benchmarks/ir_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelkit.frontend import compile_opencl_file  # noqa: E402
from kernelkit.ir import parse  # noqa: E402
from kernelkit.llvm_binding import llvm  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    std = {name: e["cl_std"] for name, e in yaml.safe_load((CORPUS / "manifest.yaml").read_text())["files"].items()}
    texts = [compile_opencl_file(p, [f"-cl-std={std[p.name]}", level]).ir_text
             for p in sorted(CORPUS.glob("*.cl")) for level in ("-O0", "-O3")]
    binding = llvm()
    ours = _best(lambda: [str(parse(t)) for t in texts], args.repeat)
    peer = _best(lambda: [binding.parse_assembly(t) for t in texts], args.repeat)
    size = sum(map(len, texts)) / 1e6
    print(f"{len(texts)} modules, {size:.2f} MB of IR text")
    print(f"kernelkit.ir parse+print  {ours:7.3f} s  ({ours / size:.2f} s/MB)")
    print(f"llvmlite parse_assembly    {peer:7.3f} s  ({peer / size:.2f} s/MB)")
    print(f"ratio kernelkit / llvmlite {ours / peer:7.1f}")


if __name__ == "__main__":
    main()
