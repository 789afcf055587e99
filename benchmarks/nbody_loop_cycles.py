"""The n-body j loop of host_vs_peers.py, its own machine code timed in a C harness: core cycles per
iteration of the loop (one body j against one packet of i lanes) for builds with different options,
all timed alternately in one process, with the clock measured in the same run (a chain of dependent
``imul``, 3 cycles each on x86 cores since Haswell/Zen), so the numbers do not depend on the turbo
clock of the moment. The loop is the built kernel's (kernelkit, specialised for local size 64, as the
benchmark runs it), taken from llvm-objdump's disassembly: the first backward branch whose body holds a
square root or reciprocal-square-root instruction. Branches out of the body (the exact path of
fast_rsqrt's form with a branch) are dropped: the fast path is timed. Every vector register starts as
1.0 in each lane, the loop walks a real 4096-body array. Shortest of --rounds runs of 10 x 4096
iterations each.

    python benchmarks/nbody_loop_cycles.py [--rounds R] [--build="-cl-rsqrt-estimate=never" ...]

Needs llvm-objdump (llvm-objdump-22 or llvm-objdump on PATH) and a C compiler (cc).
"""

from __future__ import annotations

import argparse
import ctypes
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import kernelkit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host_vs_peers import NBODY  # noqa: E402

DEFAULT_VARIANTS = ("-cl-rsqrt-estimate=never", "-cl-rsqrt-estimate=auto", "-cl-rsqrt-estimate=auto -cl-loop-pipeline=always",
                    "-mcpu=x86-64-v3 -cl-rsqrt-estimate=never", "-mcpu=x86-64-v3 -cl-rsqrt-estimate=always",
                    "-mcpu=x86-64-v3 -cl-rsqrt-estimate=always -cl-loop-pipeline=never")
BODIES = 4096
_INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*(?:#.*)?$")
_JUMP = re.compile(r"^j[a-z]+$")
_ROOTS = ("sqrt",)   # vsqrtps, vrsqrtps, vrsqrt14ps, sqrtss...


def objdump() -> str:
    tool = shutil.which("llvm-objdump-22") or shutil.which("llvm-objdump")
    if tool is None:
        raise SystemExit("needs llvm-objdump(-22) on PATH")
    return tool


def loop_body(object_code: bytes) -> list[str]:
    """The j loop's instructions (AT&T), its closing backward branch left out, branches out of it dropped."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(object_code)
        f.flush()
        text = subprocess.run([objdump(), "-d", "--no-show-raw-insn", f.name], capture_output=True, text=True,
                              check=True).stdout
    insns = []
    for line in text.splitlines():
        m = _INSN.match(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    for k, (addr, op, args) in enumerate(insns):
        if not _JUMP.match(op) or op == "jmp" or not args.startswith("0x"):
            continue
        target = int(args.split()[0], 16)
        if target >= addr:
            continue
        body = [(o, a) for ad, o, a in insns[:k] if ad >= target]
        if any(r in o for o, _ in body for r in _ROOTS):
            return [f"{o} {a}".strip() for o, a in body if not _JUMP.match(o) and not o.startswith("nop")]
    raise SystemExit("no loop with a square root in the kernel's code")


def harness_asm(name: str, body: list[str], zmm: bool) -> str:
    """A function ``name(const float *pos, long bytes)`` running ``body`` until its index register
    reaches ``bytes``: the loop's base and index registers come from its memory operands, its end
    register from its closing compare."""
    text = "\n".join(body)
    if "%rip" in text:
        raise SystemExit("the loop reads memory relative to %rip: not supported")
    mem = re.findall(r"\(%(r\w+),%(r\w+)", text)
    if not mem:
        raise SystemExit("the loop has no (base,index) memory operand")
    base, index = mem[0]
    cmp = [i for i in body if i.startswith("cmp")]
    if not cmp:
        raise SystemExit("the loop has no compare")
    regs = re.findall(r"%(r\w+)", cmp[-1])
    end = next(r for r in regs if r != index)
    width, count = ("zmm", 32) if zmm else ("ymm", 16)
    saved = ["rbx", "rbp", "r12", "r13", "r14", "r15"]
    # the loop's spill slots (%rsp-relative) get a frame of their own, 64-byte aligned, filled with 1.0
    lines = [".bss", f"{name}_rsp: .quad 0", ".text", f".globl {name}", f"{name}:", *[f"push %{r}" for r in saved],
             f"mov %rsp, {name}_rsp(%rip)", "sub $16384, %rsp", "and $-64, %rsp",
             "vmovq %rdi, %xmm1", "vmovq %rsi, %xmm2", "lea -4096(%rsp), %rdi", "mov $0x3f800000, %eax", "mov $4096, %ecx",
             "rep stosl", f"vmovq %xmm1, %{base}", f"vmovq %xmm2, %{end}", f"xor %{index}, %{index}",
             "vmovd %eax, %xmm0", f"vbroadcastss %xmm0, %{width}0",
             *[f"vmovaps %{width}0, %{width}{i}" for i in range(1, count)],
             f"{name}_loop:", *body, f"jne {name}_loop",
             f"mov {name}_rsp(%rip), %rsp", *[f"pop %{r}" for r in reversed(saved)], "vzeroupper", "ret", ""]
    return "\n".join(lines)


HARNESS_C = r"""
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* GHz from a chain of dependent imul (3 cycles each): the best of a few short runs */
double clock_ghz(void) {
  double best = 0;
  for (int r = 0; r < 5; r++) {
    long n = 1000000, x = 3; double t0 = now();
    for (long i = 0; i < n; i++) __asm__ volatile("imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n" : "+r"(x));
    double g = 12.0 * n / (now() - t0) / 1e9; if (g > best) best = g;
  }
  return best;
}
/* seconds per iteration of f over `iters` iterations of 16 bytes, best of one run of 10 */
double time_loop(void (*f)(const float *, long), const float *pos, long iters) {
  double t0 = now();
  for (int q = 0; q < 10; q++) f(pos, iters * 16);
  return (now() - t0) / (10.0 * iters);
}
"""


def build_harness(bodies: dict[str, list[str]], zmm: bool, workdir: Path) -> ctypes.CDLL:
    names = {label: f"loop_{i}" for i, label in enumerate(bodies)}
    asm = "\n".join(harness_asm(names[label], body, zmm) for label, body in bodies.items())
    (workdir / "loops.s").write_text(asm + '.section .note.GNU-stack,"",@progbits\n')
    (workdir / "harness.c").write_text(HARNESS_C)
    lib = workdir / "harness.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(workdir / "harness.c"),
                    str(workdir / "loops.s")], check=True)
    dll = ctypes.CDLL(str(lib))
    dll.clock_ghz.restype = ctypes.c_double
    dll.time_loop.restype = ctypes.c_double
    dll.time_loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    dll.names = names
    return dll


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", action="append", metavar="OPTIONS",
                   help="a build to time: its options, space-separated (--build=\"-mcpu=znver1 -cl-wfv=auto\"); "
                        "repeatable; default: " + "; ".join(DEFAULT_VARIANTS))
    p.add_argument("--rounds", type=int, default=300)
    args = p.parse_args(argv)
    import numpy as np

    from kernelkit.builder import build_specialised_host
    from kernelkit.targets.host.cpu import host_cpu

    zmm = "avx512f" in host_cpu().features
    bodies = {}
    for opts in args.build or DEFAULT_VARIANTS:
        prog = kernelkit.Program(NBODY, ["-cl-std=CL1.2", *opts.split()]).build()
        binary = build_specialised_host(prog._require_built(), "nbody", (64, 1, 1))   # (not loaded: any x86 CPU)
        bodies[opts] = loop_body(binary.object_code)
    rng = np.random.default_rng(1)
    pos = (rng.random((BODIES, 4), dtype=np.float32) + np.float32(0.5)).copy()
    with tempfile.TemporaryDirectory() as d:
        dll = build_harness(bodies, zmm, Path(d))
        funcs = {label: ctypes.cast(getattr(dll, name), ctypes.c_void_p).value for label, name in dll.names.items()}
        best = dict.fromkeys(bodies, float("inf"))
        ghz = 0.0
        for _ in range(args.rounds):
            ghz = max(ghz, dll.clock_ghz())
            for label, f in funcs.items():
                best[label] = min(best[label], dll.time_loop(f, pos.ctypes.data, BODIES))
    print(f"CPU {host_cpu().name}; clock {ghz:.2f} GHz (dependent imul); shortest of {args.rounds} rounds")
    print(f"{'build options':55} {'insns':>5} {'ns/iter':>8} {'cycles/iter':>11}")
    for label in bodies:
        print(f"{label:55} {len(bodies[label]):5} {best[label] * 1e9:8.3f} {best[label] * 1e9 * ghz:11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
