"""`kernelkit demo [DIR] [--verbose]`: the main job, end to end, in one screen.

For every example kernel (``examples/*.cl``): the ``kernelkit run`` command that reproduces its
host run, a few output values beside numpy's, the host's time beside numpy's; then one line per
target kernelkit has — binary size, registers and argument-buffer size read back through
``kernelkit inspect``'s readers, or, where a target cannot compile OpenCL C yet, the argument
buffer its ABI prescribes; on the targets kernelkit simulates (AMD IL, vISA) the example also runs
and is compared with numpy. ``--verbose`` adds the full listings. Exits non-zero when an example
does not match numpy or when nothing ran.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
import time
from pathlib import Path

from kernelkit.errors import KernelkitError

# One representative device per target (DESIGN.md: host, amdhsa, amdil, amdcl2, visa).
TARGETS = [
    ("host", []),
    ("gfx90a:xnack-", ["-mcode-object-version=5"]),
    ("amdil:juniper", []),
    ("amdcl2:bonaire", []),
    ("visa:tgllp", []),
]
REPEATS = 5          # timed launches (and numpy evaluations); the best is shown


def register(sub) -> None:
    p = sub.add_parser("demo", help="run the example kernels on the host against numpy and build them for every target")
    p.add_argument("examples", nargs="?", default=None,
                   help="folder of example kernels (default: the examples/ beside the package)")
    p.add_argument("-v", "--verbose", action="store_true", help="also print every target's full listing")
    p.set_defaults(func=run)


def _examples_dir(arg: str | None) -> Path:
    if arg:
        folder = Path(arg)
        if not folder.is_dir():
            raise KernelkitError(f"{arg}: no such folder of example kernels")
        return folder
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        if (base / "examples").is_dir():
            return base / "examples"
    raise KernelkitError("no examples/ folder found; pass one: kernelkit demo DIR")


def run(args) -> int:
    folder = _examples_dir(args.examples)
    paths = sorted(folder.glob("*.cl"))
    if not paths:
        raise KernelkitError(f"{folder}: no example kernels (*.cl) to run")
    from kernelkit.builder.progress import Progress

    out = sys.stdout
    matched = mismatched = 0
    global _progress
    with Progress() as _progress:    # a status line on a terminal while a build takes a while
        for path in paths:
            result = _example(path, args.verbose, out)
            matched += result is True
            mismatched += result is False
            out.write("\n")
    if mismatched:
        out.write(f"{mismatched} of {matched + mismatched} example(s) did NOT match numpy\n")
        return 1
    if not matched:
        out.write("no example ran on the host (none has a numpy reference in kernelkit.commands.demo_checks)\n")
        return 1
    out.write(f"{matched} example(s) ran on the host and matched numpy; "
              f"each built or laid out for {len(TARGETS)} targets\n")
    return 0


_progress = None     # the running demo's Progress (a status line on a terminal)


@contextlib.contextmanager
def _step(text: str):
    if _progress is None:
        yield
        return
    _progress.update(text, text)
    try:
        yield
    finally:
        _progress.done(text)


def _example(path: Path, verbose: bool, out) -> bool | None:
    """Run one example and show its targets; True/False: matched numpy or not, None: not run."""
    from kernelkit.abi.signature import signatures_from_source

    source = path.read_text()
    sigs = signatures_from_source(source)
    for sig in sigs:
        params = ", ".join(f"{a.address_space} {a.type_name} {a.name}".replace("private ", "") for a in sig.args)
        out.write(f"{path.name}  {sig.name}({params})\n")
    result = _run_on_host(path, source, out)
    out.write("  targets:\n")
    for target, options in TARGETS:
        simulated = _run_simulated(target, path, source) if result is not None else None
        _show_target(target, options, path, source, [s.name for s in sigs], verbose, out, simulated)
        result = result if simulated is None or "DOES NOT MATCH" not in simulated else False
    return result


def _display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _best_time(fn) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _run_on_host(path: Path, source: str, out) -> bool | None:
    import numpy as np

    import kernelkit
    from kernelkit.commands.demo_checks import EXAMPLES

    example = EXAMPLES.get(path.stem)
    if example is None:
        out.write("  host run: no numpy reference for this example (kernelkit.commands.demo_checks)\n")
        return None
    start = time.perf_counter()
    with _step(f"building {path.name} for host"):
        program = kernelkit.Program(source, filename=str(path)).build("host")
    kernel = program.kernel(example.kernel)
    build_time = time.perf_counter() - start
    values, inputs, expected = _inputs(example, kernel)
    sizes = {"global_size": example.global_size, "local_size": example.local_size}
    kernel(*values, **sizes)
    got = _output(example, kernel, values)

    host_time = _best_time(lambda: kernel(*values, **sizes))     # outputs already compared above
    numpy_time = _best_time(lambda: example.numpy(inputs))
    ok, err = _compare(got, expected)

    command = ["kernelkit", "run", _display_path(path), "-k", example.kernel,
               "-g", ",".join(map(str, example.global_size))]
    if example.local_size:
        command += ["-l", ",".join(map(str, example.local_size))]
    for text in example.args:
        command += ["--arg", text]
    command += ["--print", example.output]
    out.write(f"  $ {shlex.join(command)}\n")
    with np.printoptions(precision=4, suppress=True, threshold=8, edgeitems=2):
        out.write(f"  {example.output} = {np.array2string(np.asarray(got).ravel()[:4])} ...   "
                  f"numpy: {np.array2string(np.asarray(expected).ravel()[:4])} ...\n")
    out.write(f"  {_verdict(ok, err)}; host {host_time * 1e3:.2f} ms, "
              f"numpy {numpy_time * 1e3:.2f} ms (best of {REPEATS}; build {build_time:.2f} s)\n")
    return ok


def _inputs(example, kernel):
    """The example's arguments as `kernelkit run` makes them, a copy of them, and numpy's output."""
    import numpy as np

    from kernelkit.commands.run import parse_argument

    rng = np.random.default_rng(0)                     # `kernelkit run`'s default --seed
    values = [parse_argument(text, a, rng) for text, a in zip(example.args, kernel.signature.args, strict=True)]
    names = [a.name for a in kernel.signature.args]
    inputs = {n: (v.copy() if isinstance(v, np.ndarray) else v) for n, v in zip(names, values, strict=True)}
    return values, inputs, example.numpy(inputs)


def _output(example, kernel, values):
    return values[[a.name for a in kernel.signature.args].index(example.output)].copy()


def _compare(got, expected) -> tuple[bool, float]:
    import numpy as np

    ok = bool(np.allclose(got, expected, rtol=1e-5, atol=1e-5))
    return ok, float(np.max(np.abs(np.asarray(got, np.float64) - np.asarray(expected, np.float64))))


def _verdict(ok: bool, err: float) -> str:
    return f"{'matches numpy' if ok else 'DOES NOT MATCH numpy'} (max |error| {err:.1e})"


def _run_simulated(target: str, path: Path, source: str) -> str | None:
    """The example run once on the target's simulator (AMD IL, vISA) against numpy, as a few words;
    None for targets that do not run here."""
    import kernelkit
    from kernelkit.commands.demo_checks import EXAMPLES
    from kernelkit.runtime.simulated import SIMULATORS

    example = EXAMPLES.get(path.stem)
    if example is None or target.partition(":")[0] not in SIMULATORS:
        return None
    try:
        with _step(f"running {path.name} on the {target} simulator"):
            kernel = kernelkit.Program(source, filename=str(path)).build(target).kernel(example.kernel)
            values, _, expected = _inputs(example, kernel)
            start = time.perf_counter()
            kernel(*values, global_size=example.global_size, local_size=example.local_size)
            seconds = time.perf_counter() - start
    except KernelkitError as exc:
        return f"simulator: {str(exc).splitlines()[0]}"
    return f"simulated: {_verdict(*_compare(_output(example, kernel, values), expected))}, {seconds:.2f} s"


def _show_target(target: str, options: list[str], path: Path, source: str, kernels: list[str],
                 verbose: bool, out, simulated: str | None = None) -> None:
    from kernelkit.builder import build
    from kernelkit.commands.inspect import find_inspector
    from kernelkit.errors import FormatError
    from kernelkit.mux.result import MuxError, Result

    try:   # (a worker process and the whole-binary cache, as `kernelkit build`)
        with _step(f"building {path.name} for {target}"):
            binary = build(source, target, options, filename=str(path)).binary
    except MuxError as exc:
        if exc.result not in (Result.FEATURE_UNSUPPORTED, Result.INVALID_VALUE):
            raise
        _show_layout(target, path, kernels, verbose, out)
        return
    except KernelkitError as exc:
        out.write(f"    {target:<16} build failed: {exc}\n")
        return
    try:
        reader = find_inspector(binary, f"{path.stem}.bin")
    except FormatError as exc:
        out.write(f"    {target:<16} {len(binary)} B, but no reader recognises them: {exc}\n")
        return
    info = reader.inspect(binary, f"{path.stem}.bin")
    for k in info["kernels"]:
        res = k["resources"]
        regs = f"sgprs {res['sgprs']}, vgprs {res['vgprs']}" if res["sgprs"] is not None else "registers n/a"
        ran = f"; {simulated}" if simulated and k["name"] == info["kernels"][0]["name"] else ""
        out.write(f"    {target:<16} {len(binary):>6} B  {k['name']}: {regs}, kernarg {res['kernarg_size']} B{ran}\n")
    if verbose:
        out.writelines(f"      {line}\n" for line in reader.render(info).splitlines())


# what each layout-only ABI calls its argument buffer: (words, bytes, the arguments in it)
_LAYOUT_BUFFERS = {
    "amdil": ("cb1", lambda lay: 16 * lay["cb1"]["slots"], lambda lay: lay["cb1"]["args"]),
    "amdcl2": ("kernarg", lambda lay: lay["kernarg_segment_byte_size"], lambda lay: lay["args"]),
    "visa": ("payload", lambda lay: lay["payload_bytes"], lambda lay: lay["inputs"]),
}


def _show_layout(target: str, path: Path, kernels: list[str], verbose: bool, out) -> None:
    from kernelkit.commands.layout import LAYOUTS
    from kernelkit.plugins import import_if_present

    abi = next((m for m in map(import_if_present, LAYOUTS) if m is not None and m.handles(target)), None)
    if abi is None:
        out.write(f"    {target:<16} compiling OpenCL C is not supported yet\n")
        return
    for name in kernels:
        layout = abi.layout_for(str(path), target, name, {"code_object_version": None})
        buffer = _LAYOUT_BUFFERS.get(layout.get("abi"))
        what = f"{buffer[0]} {buffer[1](layout)} B" if buffer else "argument layout"
        out.write(f"    {target:<16} layout only (compiling OpenCL C is not supported yet)  {name}: {what}\n")
        if verbose and buffer:
            out.writelines(f"      [{a['offset']:>5}] {a.get('bytes', a.get('size')):>4} {a['kind']:<8} {a['name']}\n"
                           for a in buffer[2](layout))
