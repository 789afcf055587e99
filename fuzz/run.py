"""Long-mode fuzzing: ``python -m fuzz.run [--targets a,b] [--inputs N] [--hours H] [--out DIR]``.

Each round gives every target ``--slice`` CPU seconds (at most ``--chunk`` mutated inputs) in turn
(round robin), until each has run ``--inputs`` or the time is up. An input passes when reading it raises nothing but FormatError, takes
under ``--slow`` CPU seconds (measured twice) and the process stays under ``--memory`` MB (address-space limit, so a blow-up
is a MemoryError, reported like any other escape). Escapes are saved to ``OUT/crashes/<target>/`` (the
input and its traceback) and deduplicated by exception type and raising line; ``OUT/stats.json`` is
rewritten after every chunk with the counts per target.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import resource
import sys
import time
import traceback
from pathlib import Path

from fuzz.targets import TARGETS, fuzz_input
from kernelkit.errors import FormatError


def crash_site(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    frame = tb[-1] if tb else None
    where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
    return f"{type(exc).__name__} at {where}"


REFUSED = "FormatError"


def run_one(target, data: bytes) -> tuple[str | None, float, BaseException | None]:
    """(crash site, ``REFUSED`` or None when read; CPU seconds; exception). CPU time, not wall time:
    on a shared machine the wall clock measures the neighbours."""
    start = time.process_time()
    try:
        target.read(data)
    except FormatError:
        return REFUSED, time.process_time() - start, None
    except Exception as exc:                 # noqa: BLE001 - every other exception is a finding
        seconds = time.process_time() - start
        # the traceback's frames keep the reader's locals alive: after a MemoryError that is the memory
        # that ran out, so drop them (line numbers stay) before anything else allocates
        traceback.clear_frames(exc.__traceback__)
        gc.collect()
        return crash_site(exc), seconds, exc
    return None, time.process_time() - start, None


class Campaign:
    def __init__(self, names: list[str], seed: int, out: Path | None, slow: float):
        self.rng = random.Random(seed)
        self.out = out
        self.slow = slow
        self.targets = {n: TARGETS[n] for n in names}
        self.seeds = {}
        for n, t in self.targets.items():
            seeds = t.seeds()
            if not seeds:
                raise SystemExit(f"fuzz: target {n} has no seeds (reference data missing?)")
            self.seeds[n] = seeds
        self.stats = {n: {"inputs": 0, "format_errors": 0, "escapes": 0, "slow": 0, "max_seconds": 0.0,
                          "cpu_seconds": 0.0, "sites": {}} for n in names}

    def step(self, name: str, count: int, cpu_slice: float = float("inf")) -> None:
        """At most ``count`` inputs, stopping early once ``cpu_slice`` CPU seconds are spent: a round
        gives every target the same CPU time, so the fast readers reach their count early and leave
        the machine to the slow ones."""
        target, seeds, st = self.targets[name], self.seeds[name], self.stats[name]
        began = time.process_time()
        try:
            self._inputs(name, target, seeds, st, count, began + cpu_slice)
        finally:
            st["cpu_seconds"] = round(st["cpu_seconds"] + time.process_time() - began, 3)

    def _inputs(self, name: str, target, seeds: list[bytes], st: dict, count: int, until: float) -> None:
        for _ in range(count):
            if time.process_time() >= until:
                return
            data = fuzz_input(self.rng, target, seeds)
            site, seconds, exc = run_one(target, data)
            st["inputs"] += 1
            st["max_seconds"] = max(st["max_seconds"], seconds)
            if seconds > self.slow and run_one(target, data)[1] > self.slow:   # twice: not a GC pause
                st["slow"] += 1
                self._save(name, f"slow {seconds:.2f}s", data, None)
            if site == REFUSED:
                st["format_errors"] += 1
            if site is None or site == REFUSED:
                continue
            st["escapes"] += 1
            new = site not in st["sites"]
            st["sites"][site] = st["sites"].get(site, 0) + 1
            if new:
                self._save(name, site, data, exc)

    def _save(self, name: str, site: str, data: bytes, exc: BaseException | None) -> None:
        if self.out is None:
            return
        folder = self.out / "crashes" / name
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(data).hexdigest()[:16]
        (folder / f"{digest}.bin").write_bytes(data)      # the input first: it is what reproduces the escape
        (folder / f"{digest}.txt").write_text(site + "\n")
        if exc is not None:
            try:
                text = "".join(traceback.format_exception(exc))
            except MemoryError:
                text = "(the traceback could not be formatted: out of memory)\n"
            with (folder / f"{digest}.txt").open("a") as f:
                f.write(text)

    def write_stats(self, started: float) -> None:
        if self.out is not None:
            doc = {"seconds": round(time.time() - started), "targets": self.stats}
            tmp = self.out / "stats.json.tmp"
            tmp.write_text(json.dumps(doc, indent=1))
            tmp.replace(self.out / "stats.json")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz.run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--targets", default=",".join(TARGETS), help="comma-separated target names")
    p.add_argument("--inputs", type=int, default=1_000_000, help="inputs per target")
    p.add_argument("--hours", type=float, default=24.0)
    p.add_argument("--chunk", type=int, default=100_000, help="at most this many inputs per target per round")
    p.add_argument("--slice", type=float, default=20.0, help="CPU seconds per target per round")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--slow", type=float, default=1.0, help="seconds above which an input counts as slow")
    p.add_argument("--memory", type=int, default=3072, help="address-space limit in MB")
    p.add_argument("--out", type=Path, default=Path("fuzz-out"))
    p.add_argument("--jobs", type=int, default=1,
                   help="processes, each fuzzing every target with its own seed (--seed + i) into OUT/job-i; "
                        "OUT/stats.json sums them")
    args = p.parse_args(argv)
    names = [n for n in args.targets.split(",") if n]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        p.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.jobs > 1:
        return _run_jobs(args, argv if argv is not None else sys.argv[1:])
    campaign = Campaign(names, args.seed, args.out, args.slow)   # seeds first: building one needs memory
    limit = args.memory << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.setrecursionlimit(5000)
    started = time.time()
    deadline = started + args.hours * 3600
    while time.time() < deadline:
        todo = [n for n in names if campaign.stats[n]["inputs"] < args.inputs]
        if not todo:
            break
        for n in todo:
            campaign.step(n, min(args.chunk, args.inputs - campaign.stats[n]["inputs"]), args.slice)
            campaign.write_stats(started)
            if time.time() >= deadline:
                break
    return _summary(campaign.stats)


def _summary(stats: dict) -> int:
    for n, st in stats.items():
        rate = st["inputs"] / st["cpu_seconds"] if st["cpu_seconds"] else 0.0
        print(f"{n:18} {st['inputs']:>9} inputs, {rate:7.0f}/s CPU, {st['escapes']} escapes, {st['slow']} slow, "
              f"max {st['max_seconds']:.3f}s  {st['sites'] or ''}")
    return 1 if any(st["escapes"] or st["slow"] for st in stats.values()) else 0


def merge_stats(docs: list[dict]) -> dict:
    """The stats of several jobs as one: counts and CPU time summed, the slowest input's time, sites."""
    out: dict = {}
    for doc in docs:
        for n, st in doc["targets"].items():
            into = out.setdefault(n, {"inputs": 0, "format_errors": 0, "escapes": 0, "slow": 0,
                                      "max_seconds": 0.0, "cpu_seconds": 0.0, "sites": {}})
            for k in ("inputs", "format_errors", "escapes", "slow", "cpu_seconds"):
                into[k] += st.get(k, 0)
            into["max_seconds"] = max(into["max_seconds"], st.get("max_seconds", 0.0))
            for site, count in st.get("sites", {}).items():
                into["sites"][site] = into["sites"].get(site, 0) + count
    return {"seconds": max((d.get("seconds", 0) for d in docs), default=0), "targets": out}


def _run_jobs(args, argv: list[str]) -> int:
    """``--jobs N``: N processes of this program with seeds --seed .. --seed+N-1, then their stats summed."""
    import subprocess

    rest, skip = [], False
    for i, word in enumerate(argv):          # the same options, but for --jobs/--seed/--out
        if skip:
            skip = False
            continue
        key = word.split("=", 1)[0]
        if key in ("--jobs", "--seed", "--out"):
            skip = "=" not in word and i + 1 < len(argv)
            continue
        rest.append(word)
    outs = [args.out / f"job-{i}" for i in range(args.jobs)]
    procs = [subprocess.Popen([sys.executable, "-m", "fuzz.run", *rest, "--seed", str(args.seed + i), "--out",
                               str(out)], stdout=subprocess.DEVNULL) for i, out in enumerate(outs)]
    for proc in procs:
        proc.wait()
    docs = [json.loads((out / "stats.json").read_text()) for out in outs if (out / "stats.json").exists()]
    merged = merge_stats(docs)
    (args.out / "stats.json").write_text(json.dumps(merged, indent=1))
    return _summary(merged["targets"]) or max((proc.returncode for proc in procs), default=0)


if __name__ == "__main__":
    sys.exit(main())
