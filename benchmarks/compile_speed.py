"""Compile speed: kernelkit against clang -c (AMDGPU) and against PoCL's and Intel's first
clBuildProgram (host), cold and warm, on the example kernels, as ratios, in one run.

Every time is a median of ``--repeat`` runs of a fresh process, as a user sees it:

- clang -c        ``zig clang`` (clang 22) compiling the source straight to an amdgcn object
- kk cold         ``kernelkit build SRC -t gfx90a --no-cache`` (kernelkit's own prebuilt library
                  entries are read: the device library and its index, made once by the first build,
                  which runs without the server; nothing of the program is), with the build server
                  running (as after any first build: kernelkit.builder.server)
- no server       the same with ``KERNELKIT_NO_SERVER=1``: a fresh worker process per build
- kk warm         the same build again with the cache on (served from the whole-binary entry)
- CPU             the AMDGPU runs' CPU time too (user + system, of the process and of those it waited
                  for), which a loaded machine hardly moves; kk cold's client apart and with the build
                  server's worker that compiled (its CPU and its clang's and lld's: what the server's
                  children, live workers and reaped ones, used during the build, read from /proc on
                  Linux; the timed builds wait until the server is idle (its replay and index builder done), and
                  a live one is not counted); and ``python -c pass``, which every CLI call pays
- PoCL / Intel    a fresh process's first ``clBuildProgram`` of the same source (their caches off:
                  POCL_KERNEL_CACHE=0, PYOPENCL_NO_CACHE=1), context creation not counted
- kk host first   a fresh process's first ``Program(src).build()`` (numpy and kernelkit's API,
                  ``kernelkit.Program``, imported first, as pyopencl is for the peers) with the cache off, the build server
                  running; "no server": with a fresh worker process (its start included);
                  kk host warm: the same with the cache on, in-process
- host CPU        the CPU of that first build (user + system around it, waited-for children included):
                  the peers' clBuildProgram, and kernelkit's build compiled in the timed process
                  (KERNELKIT_BUILD_IN_PROCESS=1, cache off), as ratios too; "warm proc": another build
                  (the source changed) in that process, about what the build server's warm child pays

The AMDGPU rows run kernelkit as a user does: the ``kernelkit`` console script of an environment where
this checkout is installed as the README says (``pip install -e .`` in a fresh venv), given with
``--kernelkit <venv>/bin/kernelkit`` or found beside this interpreter; the script must import this
checkout's kernelkit (checked). Without one they run ``python -m kernelkit`` in this checkout, with a note.
``python -c pass`` is timed with the script's interpreter.

Intel's CPU runtime: ``pip install intel-opencl-rt intel-cmplr-lib-rt`` into a virtual environment
and pass ``--intel-lib <venv>/lib`` (or set INTEL_OPENCL_LIB); an absent peer is left out with a note.

    python benchmarks/compile_speed.py [--repeat N] [--target gfx90a] [--intel-lib DIR] [--kernelkit SCRIPT]
                                       [--host-only]

``--host-only`` leaves out the AMDGPU rows (and ``python -c pass``): only the host first-build tables.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# every process of the benchmark may write its bytecode, as an installed package has it: without it
# each start recompiles kernelkit's modules (PYTHONDONTWRITEBYTECODE=1 is set in some environments)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
EXAMPLES = sorted((ROOT / "examples").glob("*.cl"))
BASE_HEADER = ROOT / "kernelkit" / "frontend" / "include" / "kernelkit_opencl.h"

# (both scripts print the first build's wall seconds, then its CPU seconds: user + system of the process
# and of the children it waited for, from a measure the machine's load hardly moves)
CPU_NOW = """
import resource
def cpu_now():
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))
"""

OPENCL_BUILD = CPU_NOW + """
import sys, time
import pyopencl as cl
source = open(sys.argv[1]).read()
device = cl.get_platforms()[0].get_devices()[0]
context = cl.Context([device])
start, cpu = time.perf_counter(), cpu_now()
cl.Program(context, source).build()
print(time.perf_counter() - start, cpu_now() - cpu)
"""

# like the peers' script: the library's API imported (pyopencl imports its runtime and numpy; kernelkit's
# Program is imported on first use), then the first build timed
KERNELKIT_HOST_BUILD = CPU_NOW + """
import os, sys, time
import numpy
import kernelkit
Program = kernelkit.Program
start, cpu = time.perf_counter(), cpu_now()
Program(open(sys.argv[1]).read(), filename=sys.argv[1]).build()
first, first_cpu = time.perf_counter() - start, cpu_now() - cpu
start = time.perf_counter()
kernelkit.Program(open(sys.argv[1]).read(), filename=sys.argv[1]).build()
second = time.perf_counter() - start
cpu = cpu_now()    # (compiling in-process: another build of the source, in this now warm process)
if os.environ.get("KERNELKIT_BUILD_IN_PROCESS"):
    kernelkit.Program(open(sys.argv[1]).read() + "\\n// again\\n", filename=sys.argv[1]).build()
print(first, second, first_cpu, cpu_now() - cpu)
"""


_CPU: dict[tuple, list[float]] = {}    # command -> CPU seconds of each run (see _timed)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(cmd: list[str], env: dict | None = None, *, record: bool = True) -> float:
    """Wall seconds of one run; with ``record``, its CPU seconds (user + system, of the process and of
    the processes it waited for: not the build server's) go to _CPU, a measure the machine's load
    hardly moves."""
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-400:]}")
    if record:
        _CPU.setdefault((*cmd, (env or {}).get("KERNELKIT_NO_SERVER", "")), []).append(_children_cpu() - cpu)
    return elapsed


def _median_cpu(cmd: list[str], env: dict | None = None) -> float:
    return statistics.median(_CPU[(*cmd, (env or {}).get("KERNELKIT_NO_SERVER", ""))])


def _median(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def clang_c(src: Path, target: str, out: Path) -> list[str]:
    from kernelkit.frontend.clang import clang_command

    return [*clang_command(), "-x", "cl", "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", "-nogpulib",
            "-cl-std=CL1.2", "-cl-no-stdinc", "-Xclang", "-fdeclare-opencl-builtins", "-include", str(BASE_HEADER),
            "-O2", "-c", str(src), "-o", str(out)]


def script_interpreter(script: Path) -> str | None:
    """The interpreter a console script's ``#!`` line names."""
    try:
        with open(script, "rb") as f:
            first = f.readline().decode(errors="replace").strip()
    except OSError:
        return None
    return first[2:].strip().split()[0] if first.startswith("#!") and first[2:].strip() else None


def kernelkit_command(script: str | None) -> tuple[list[str], str, str | None]:
    """(the command that runs kernelkit, the interpreter it runs on, a note or None): the console script
    ``script`` (default: ``kernelkit`` beside this interpreter) when it imports ROOT's kernelkit, else
    ``python -m kernelkit`` run in ROOT."""
    path = Path(script) if script else Path(sys.executable).parent / "kernelkit"
    interpreter = script_interpreter(path) if path.is_file() else None
    problem = f"{path} is not a console script"
    if interpreter is not None:
        where = subprocess.run([interpreter, "-c", "import kernelkit, os; print(os.path.dirname(kernelkit.__file__))"],
                               capture_output=True, text=True, cwd="/")
        if where.returncode == 0 and Path(where.stdout.strip()).resolve() == (ROOT / "kernelkit").resolve():
            return [str(path)], interpreter, None
        problem = f"{path} runs the kernelkit in {where.stdout.strip() or '(none)'}, not {ROOT / 'kernelkit'}"
    if script:
        raise SystemExit(f"--kernelkit: {problem} (pip install -e {ROOT} in its environment)")
    return [sys.executable, "-m", "kernelkit"], sys.executable, (
        f"{problem}: kernelkit ran as `python -m kernelkit` in {ROOT} (to time it as a user runs it, install the "
        "checkout in a fresh venv with `pip install -e .` and pass --kernelkit <venv>/bin/kernelkit)")


def start_server(kernelkit: list[str]) -> str | None:
    """Start the build server of the kernelkit under test (``kernelkit server start`` as the timed builds
    run it, which waits until it answers; the kernelkit this script imports may be another copy, whose
    server the builds would not use) as the first build of a session does; its socket, or None."""
    if os.environ.get("KERNELKIT_NO_SERVER", "") not in ("", "0"):
        return None
    proc = subprocess.run([*kernelkit, "server", "start"], capture_output=True, text=True, cwd=ROOT)
    said = proc.stdout.strip().rpartition("build server running: ")[2]
    return (said or None) if proc.returncode == 0 else None


def _stat(pid: int | str) -> list[str]:
    """/proc/PID/stat's fields after the command name (state, ppid, ...)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()


def _runs_server(pid: int | str, socket: str | None = None) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().split(b"\0")
    except OSError:
        return False
    return words[-3] == b"kernelkit.builder.server" and (socket is None or words[-2] == os.fsencode(socket)) \
        if len(words) >= 3 else False


def server_pid(socket: str | None) -> int | None:
    """The process id of the build server listening on ``socket`` (its command line in /proc; its workers,
    forked, have the same command line and the server as their parent), or None."""
    if socket is None or not os.path.isdir("/proc"):
        return None
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if _runs_server(entry, socket) and not _runs_server(_stat(entry)[1]):
                return int(entry)
        except OSError:
            continue
    return None


def _children(pid: int) -> list[list[str]]:
    """The /proc stat fields of process ``pid``'s running children."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = _stat(entry)
        except OSError:
            continue
        if fields[1] == str(pid):
            found.append(fields)
    return found


def _background(fields: list[str], server: list[str]) -> bool:
    """Whether a child of the server is its device-library index builder (it runs at a lower priority,
    nice 19, than the server and its workers)."""
    return int(fields[16]) > int(server[16])


def reaped_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the children process ``pid`` has reaped, and of those still running
    but for its index builder (the build server's workers: their own and their reaped children's)."""
    server = _stat(pid)
    total = sum(int(x) for x in server[13:15])
    total += sum(sum(int(x) for x in fields[11:15]) for fields in _children(pid) if not _background(fields, server))
    return total / os.sysconf("SC_CLK_TCK")


def wait_for_server(pid: int | None, seconds: float = 120.0) -> None:
    """Until the server ``pid`` is idle: its own CPU still for 0.5 s (its replay of a new kind of request runs
    in the server itself) and no index builder running (its background work after the replay), for at most
    ``seconds``: that work would otherwise run, and be counted, during the timed builds."""
    deadline = time.monotonic() + seconds
    last, still_since = None, time.monotonic()
    while pid is not None and time.monotonic() < deadline:
        try:
            server = _stat(pid)
        except OSError:
            return
        own = server[11:13]
        if own != last:
            last, still_since = own, time.monotonic()
        elif time.monotonic() - still_since >= 0.5 and \
                not any(_background(fields, server) for fields in _children(pid)):
            return
        time.sleep(0.1)


_SERVER_CPU: list[float] = []   # CPU of the server's worker during each kk cold run


def _timed_cold(cmd: list[str], env: dict, server: int | None) -> float:
    """``_timed`` of a cold build through the server ``server``; the CPU its children (the worker that
    compiled it) used meanwhile goes to _SERVER_CPU."""
    before = reaped_cpu(server) if server is not None else 0.0
    elapsed = _timed(cmd, env)
    if server is not None:          # the worker's clean-up after its reply: until the count stops moving
        deadline, last = time.monotonic() + 1.0, None
        while (now := reaped_cpu(server)) != last and time.monotonic() < deadline:
            last = now
            time.sleep(0.05)
        _SERVER_CPU.append(now - before)
    return elapsed


def amdgpu_rows(kernelkit: list[str], target: str, repeat: int, cache_dir: str, server: int | None = None
                ) -> tuple[list[tuple[str, float, float, float, float]], list[tuple]]:
    """(wall rows, CPU rows): per kernel clang -c, kk cold, no server, kk warm; the CPU rows also kk cold's
    client with the server's worker (None without the server's pid)."""
    env = {**os.environ, "KERNELKIT_CACHE_DIR": cache_dir}
    alone = {**env, "KERNELKIT_NO_SERVER": "1"}
    rows, cpu_rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "k.o"
        for src in EXAMPLES:
            kk = [*kernelkit, "build", str(src), "-t", target, "-o", str(out)]
            _timed(kk, alone, record=False)                   # warms kernelkit's library entries and the binary
            _timed([*kk, "--no-cache"], env, record=False)    # the server's first request of this kind (after
            #                                                   it, the server indexes the device library apart)
            wait_for_server(server)
            clang = _median(lambda s=src: _timed(clang_c(s, target, out)), repeat)
            cold = _median(lambda k=kk: _timed_cold([*k, "--no-cache"], env, server), repeat)
            no_server = _median(lambda k=kk: _timed([*k, "--no-cache"], alone), repeat)
            warm = _median(lambda k=kk: _timed(k, env), repeat)
            rows.append((src.name, clang, cold, no_server, warm))
            clients = _CPU[(*kk, "--no-cache", "")][-repeat:]
            with_child = statistics.median(c + s for c, s in zip(clients, _SERVER_CPU[-repeat:], strict=True)) \
                if server is not None else None
            cpu_rows.append((src.name, _median_cpu(clang_c(src, target, out)), _median_cpu([*kk, "--no-cache"], env),
                             _median_cpu([*kk, "--no-cache"], alone), _median_cpu(kk, env), with_child))
    return rows, cpu_rows


def python_start(interpreter: str, repeat: int) -> tuple[float, float]:
    """(wall, CPU) of ``python -c pass``: the interpreter and its site start-up, which every CLI call pays."""
    cmd = [interpreter, "-c", "pass"]
    wall = _median(lambda: _timed(cmd), repeat)
    return wall, _median_cpu(cmd)


def opencl_first_build(src: Path, icd: Path, extra_env: dict, repeat: int) -> tuple[float, float]:
    """(wall, CPU) medians of a fresh process's first clBuildProgram."""
    env = {**os.environ, "OCL_ICD_VENDORS": str(icd), "POCL_KERNEL_CACHE": "0", "PYOPENCL_NO_CACHE": "1",
           **extra_env}

    def once() -> tuple[float, float]:
        proc = subprocess.run([sys.executable, "-c", OPENCL_BUILD, str(src)], capture_output=True, text=True,
                              env=env)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip()[-400:])
        wall, cpu = proc.stdout.split()[-2:]
        return float(wall), float(cpu)

    runs = [once() for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def kernelkit_host_build(src: Path, repeat: int, cache_dir: str) -> tuple[float, float, float, float, float]:
    """Medians of (kk first, no server, kk warm, CPU of the first build and of a build in a warm process):
    the CPU is taken with the compile in the timed process (KERNELKIT_BUILD_IN_PROCESS=1, cache off;
    clang, a child it waits for, included), as the peers' clBuildProgram runs (with the server the
    compile's CPU is not ours to see: its child, forked warm, pays about the warm process's)."""
    def once(no_cache: bool, server: bool = True, in_process: bool = False) -> tuple[float, float, float, float]:
        env = {**os.environ, "KERNELKIT_CACHE_DIR": cache_dir, "KERNELKIT_NO_CACHE": "1" if no_cache else "",
               "KERNELKIT_NO_SERVER": "" if server else "1", "KERNELKIT_BUILD_IN_PROCESS": "1" if in_process else ""}
        proc = subprocess.run([sys.executable, "-c", KERNELKIT_HOST_BUILD, str(src)], capture_output=True,
                              text=True, env=env, cwd=ROOT)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip()[-400:])
        first, second, cpu, warm_cpu = proc.stdout.split()
        return float(first), float(second), float(cpu), float(warm_cpu)

    once(False)                                               # kernelkit's library entries and the binary
    once(True)                                                # the server's first request of this kind
    cold = statistics.median(once(True)[0] for _ in range(repeat))
    no_server = statistics.median(once(True, server=False)[0] for _ in range(repeat))
    warm = statistics.median(once(False)[1] for _ in range(repeat))
    cpus = [once(True, in_process=True)[2:] for _ in range(repeat)]
    return cold, no_server, warm, statistics.median(c[0] for c in cpus), statistics.median(c[1] for c in cpus)


def intel_icd(lib: str | None, tmp: Path) -> tuple[Path, dict] | None:
    lib = lib or os.environ.get("INTEL_OPENCL_LIB")
    if not lib or not (Path(lib) / "libintelocl.so").exists():
        return None
    icd = tmp / "intel.icd"
    icd.write_text(str(Path(lib) / "libintelocl.so") + "\n")
    return icd, {"LD_LIBRARY_PATH": os.pathsep.join(p for p in (lib, os.environ.get("LD_LIBRARY_PATH")) if p)}


def amdgpu_tables(kernelkit: list[str], args, cache_dir: str, server: int | None, interpreter: str) -> None:
    """Print the AMDGPU wall and CPU tables and ``python -c pass``."""
    print(f"AMDGPU ({args.target}): times in ms, median of {args.repeat}; ratio = kernelkit / clang -c; "
          f"kernelkit = {' '.join(kernelkit)}")
    print(f"{'kernel':14} {'clang -c':>9} {'kk cold':>9} {'no server':>9} {'kk warm':>9} {'cold/clang':>11} "
          f"{'no-srv/clang':>12} {'warm/clang':>11}")
    rows, cpu_rows = amdgpu_rows(kernelkit, args.target, args.repeat, cache_dir, server)
    for name, clang, cold, alone, warm in rows:
        print(f"{name:14} {clang * 1e3:9.0f} {cold * 1e3:9.0f} {alone * 1e3:9.0f} {warm * 1e3:9.0f} "
              f"{cold / clang:11.2f} {alone / clang:12.2f} {warm / clang:11.2f}")
    print()
    print("the same runs, CPU ms (user + system of the process and of those it waited for; kk cold: the "
          "client, and +child: with the CPU the build server's worker used meanwhile, its clang and lld included)")
    print(f"{'kernel':14} {'clang -c':>9} {'kk cold':>9} {'+child':>9} {'no server':>9} {'kk warm':>9} "
          f"{'cold/clang':>11} {'no-srv/clang':>12} {'warm/clang':>11}")
    for name, clang, cold, with_child, alone, warm in ((r[0], r[1], r[2], r[5], r[3], r[4]) for r in cpu_rows):
        total, ratio = (f"{with_child * 1e3:9.0f}", f"{with_child / clang:11.2f}") if with_child is not None \
            else (f"{'-':>9}", f"{'-':>11}")
        print(f"{name:14} {clang * 1e3:9.0f} {cold * 1e3:9.0f} {total} {alone * 1e3:9.0f} {warm * 1e3:9.0f} "
              f"{ratio} {alone / clang:12.2f} {warm / clang:11.2f}")
    start_wall, start_cpu = python_start(interpreter, args.repeat)
    print(f"{interpreter} -c pass (interpreter + site, paid by every CLI call): {start_wall * 1e3:.0f} ms, "
          f"CPU {start_cpu * 1e3:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", default="gfx90a")
    parser.add_argument("--intel-lib", help="folder holding Intel's libintelocl.so (<venv>/lib)")
    parser.add_argument("--cache-dir", help="kernelkit cache to use (default: a new temporary one)")
    parser.add_argument("--kernelkit", metavar="SCRIPT", help="the kernelkit console script to time (default: the "
                                                              "one beside this interpreter)")
    parser.add_argument("--host-only", action="store_true", help="only the host tables (no AMDGPU rows)")
    args = parser.parse_args()
    kernelkit, interpreter, note = kernelkit_command(args.kernelkit)
    notes = [note] if note else []
    with tempfile.TemporaryDirectory(prefix="kk-compile-speed-") as tmp:
        cache_dir = args.cache_dir or str(Path(tmp) / "cache")
        socket = start_server(kernelkit)
        if socket is None:
            notes.append("no build server (KERNELKIT_NO_SERVER is set or no private runtime directory): "
                         "kk cold is a fresh worker process too")
        server = server_pid(socket)
        if socket is not None and server is None:
            notes.append("the build server's process was not found in /proc: kk cold's CPU is its client's only")
        if not args.host_only:
            amdgpu_tables(kernelkit, args, cache_dir, server, interpreter)
        peers: list[tuple[str, Path, dict]] = []
        pocl = Path("/etc/OpenCL/vendors/pocl.icd")
        if pocl.exists():
            peers.append(("PoCL", pocl, {}))
        else:
            notes.append("PoCL left out: /etc/OpenCL/vendors/pocl.icd is absent (apt install pocl-opencl-icd)")
        intel = intel_icd(args.intel_lib, Path(tmp))
        if intel is not None:
            peers.append(("Intel", intel[0], intel[1]))
        else:
            notes.append("Intel left out: no libintelocl.so (pip install intel-opencl-rt intel-cmplr-lib-rt into a "
                         "venv, then --intel-lib <venv>/lib)")
        print()
        print(f"host: first build in a fresh process, ms, median of {args.repeat}; ratio = kernelkit / peer")
        head = f"{'kernel':14} {'kk first':>9} {'no server':>9} {'kk warm':>9}" + "".join(
            f" {p[0]:>9} {'kk/' + p[0]:>10} {'no-srv/' + p[0]:>13}" for p in peers)
        print(head)
        cpu_lines = []
        for src in EXAMPLES:
            cold, alone, warm, kk_cpu, kk_warm_cpu = kernelkit_host_build(src, args.repeat, cache_dir)
            line = f"{src.name:14} {cold * 1e3:9.0f} {alone * 1e3:9.0f} {warm * 1e3:9.2f}"
            cpu_line = f"{src.name:14} {kk_cpu * 1e3:9.0f} {kk_warm_cpu * 1e3:9.0f}"
            for _name, icd, env in peers:
                try:
                    t, peer_cpu = opencl_first_build(src, icd, env, args.repeat)
                    line += f" {t * 1e3:9.0f} {cold / t:10.2f} {alone / t:13.2f}"
                    cpu_line += f" {peer_cpu * 1e3:9.0f} {kk_cpu / peer_cpu:10.2f} {kk_warm_cpu / peer_cpu:12.2f}"
                except RuntimeError as exc:
                    line += f" {'failed':>9} {'':>10} {'':>13}"
                    cpu_line += f" {'failed':>9} {'':>10} {'':>12}"
                    notes.append(f"{_name} on {src.name}: {exc}")
            print(line)
            cpu_lines.append(cpu_line)
        print()
        print("the first build's CPU, ms (user + system of the process and its waited-for children, around the "
              "build only; kk: compiled in the timed process, cache off; kk warm proc: another build in that "
              "process, as the build server's warm child pays)")
        print(f"{'kernel':14} {'kk':>9} {'warm proc':>9}" + "".join(
            f" {p[0]:>9} {'kk/' + p[0]:>10} {'warm/' + p[0]:>12}" for p in peers))
        for cpu_line in cpu_lines:
            print(cpu_line)
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
