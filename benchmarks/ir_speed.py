"""Parse and print speed of kernelkit's IR model (kernelkit.ir) beside llvmlite's LLVM parsing the
same texts (the peer): the corpus at -O0 and -O3 (many small modules, as a build parses them) and
the gfx90a device libraries (two large modules, as the library index reads them). Best of
``--repeat`` runs, CPU time of this process (wall time swings with the machine's load), and the
ratio to llvmlite.

    python benchmarks/ir_speed.py [--repeat N] [--no-libraries]
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
from kernelkit.ir.lexer import tokenize  # noqa: E402
from kernelkit.llvm_binding import llvm  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _corpus_texts() -> list[str]:
    std = {name: e["cl_std"] for name, e in yaml.safe_load((CORPUS / "manifest.yaml").read_text())["files"].items()}
    return [compile_opencl_file(p, [f"-cl-std={std[p.name]}", level]).ir_text
            for p in sorted(CORPUS.glob("*.cl")) for level in ("-O0", "-O3")]


def _library_texts() -> list[str]:
    from kernelkit.targets.amdhsa.codegen import mux_library_ir, on_demand_library_ir

    return [mux_library_ir("gfx90a", 5), on_demand_library_ir("atomics_named", "gfx90a", 5)]


def _row(label: str, texts: list[str], repeat: int) -> None:
    binding = llvm()
    size = sum(map(len, texts)) / 1e6
    modules = [parse(t) for t in texts]
    lex = _best(lambda: [tokenize(t) for t in texts], repeat)
    ours = _best(lambda: [parse(t) for t in texts], repeat)
    out = _best(lambda: [str(m) for m in modules], repeat)
    peer = _best(lambda: [binding.parse_assembly(t) for t in texts], repeat)
    print(f"{label}: {len(texts)} modules, {size:.2f} MB of IR text (CPU s, best of {repeat})")
    print(f"  kernelkit.ir tokenize       {lex:7.3f} s  ({lex / size:.2f} s/MB)")
    print(f"  kernelkit.ir parse          {ours:7.3f} s  ({ours / size:.2f} s/MB)")
    print(f"  kernelkit.ir print          {out:7.3f} s  ({out / size:.2f} s/MB)")
    print(f"  llvmlite parse_assembly     {peer:7.3f} s  ({peer / size:.2f} s/MB)")
    print(f"  ratio parse / llvmlite      {ours / peer:7.1f}")
    print(f"  ratio parse+print / llvmlite {(ours + out) / peer:6.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-libraries", action="store_true", help="the corpus only")
    args = ap.parse_args()
    _row("corpus", _corpus_texts(), args.repeat)
    if not args.no_libraries:
        _row("gfx90a libraries", _library_texts(), args.repeat)


if __name__ == "__main__":
    main()
