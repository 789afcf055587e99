"""`kernelkit demo [DIR]`: the main job, end to end.

For every example kernel (``examples/*.cl``): its signature; a run on the host device checked
against numpy; then, for every target kernelkit has, what that target produced — the binary
(read back through ``kernelkit inspect``'s readers) or, where a target cannot compile OpenCL C
yet, the argument layout its ABI prescribes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# One representative device per target (DESIGN.md: host, amdhsa, amdil, amdcl2, visa).
TARGETS = [
    ("host", "host", {}),
    ("amdhsa", "gfx90a:xnack-", {"code_object_version": 5}),
    ("amdil", "amdil:juniper", {}),
    ("amdcl2", "amdcl2:bonaire", {}),
    ("visa", "visa:tgllp", {}),
]


def register(sub) -> None:
    p = sub.add_parser("demo", help="compile the example kernels for every target and run them on the host")
    p.add_argument("examples", nargs="?", default=None,
                   help="folder of example kernels (default: the examples/ beside the package)")
    p.set_defaults(func=run)


def _examples_dir(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        if (base / "examples").is_dir():
            return base / "examples"
    raise FileNotFoundError("no examples/ folder found; pass one: kernelkit demo DIR")


def run(args) -> int:
    from kernelkit.abi.signature import signatures_from_source

    out = sys.stdout
    failures = 0
    for path in sorted(_examples_dir(args.examples).glob("*.cl")):
        source = path.read_text()
        out.write(f"=== {path.name}\n")
        for sig in signatures_from_source(source):
            params = ", ".join(f"{a.address_space} {a.type_name} {a.name}".replace("private ", "")
                               for a in sig.args)
            out.write(f"  kernel {sig.name}({params})\n")
        failures += _run_on_host(path.stem, source, out)
        for target_kind, target, options in TARGETS:
            _show_target(target_kind, target, options, path, source, out)
        out.write("\n")
    out.write("all host runs matched numpy\n" if not failures else f"{failures} host run(s) did NOT match numpy\n")
    return 1 if failures else 0


def _run_on_host(stem: str, source: str, out) -> int:
    """Run the example on the host device against its numpy reference; 1 if it does not match."""
    import numpy as np

    from kernelkit.commands.demo_checks import CHECKS

    check = CHECKS.get(stem)
    if check is None:
        out.write("  host run: no numpy reference for this example\n")
        return 0
    import kernelkit

    program = kernelkit.Program(source).build("host")
    start = time.perf_counter()
    description, got, expected = check(program, np.random.default_rng(0))
    elapsed = time.perf_counter() - start
    ok = np.allclose(got, expected, rtol=1e-5, atol=1e-5)
    err = float(np.max(np.abs(np.asarray(got, np.float64) - np.asarray(expected, np.float64))))
    out.write(f"  host run: {description}: {'matches numpy' if ok else 'MISMATCH'} "
              f"(max |error| {err:.2e}, {elapsed * 1e3:.1f} ms incl. JIT)\n")
    return 0 if ok else 1


def _show_target(kind: str, target: str, options: dict, path: Path, source: str, out) -> None:
    from kernelkit.commands.inspect import find_inspector
    from kernelkit.errors import FormatError, KernelkitError
    from kernelkit.mux.registry import build_binary
    from kernelkit.mux.result import MuxError, Result

    build_options = []
    if options.get("code_object_version"):
        build_options.append(f"-mcode-object-version={options['code_object_version']}")
    try:
        binary = build_binary(source, target, build_options, filename=str(path))
    except MuxError as exc:
        if exc.result not in (Result.FEATURE_UNSUPPORTED, Result.INVALID_VALUE):
            raise
        out.write(f"  {kind:7} {target}: compiling OpenCL C is not supported yet ({exc.result.name})\n")
        _show_layout(kind, target, path, source, out)
        return
    except KernelkitError as exc:
        out.write(f"  {kind:7} {target}: build failed: {exc}\n")
        return
    try:
        reader = find_inspector(binary, f"{path.stem}.{kind}")
    except FormatError as exc:
        out.write(f"  {kind:7} {target}: {len(binary)} bytes, but no reader recognises them: {exc}\n")
        return
    info = reader.inspect(binary, f"{path.stem}.{kind}")
    out.write(f"  {kind:7} {target}: {len(binary)} bytes, format {info.get('format')}\n")
    for line in reader.render(info).splitlines():
        out.write(f"      {line}\n")


def _show_layout(kind: str, target: str, path: Path, source: str, out) -> None:
    from kernelkit.abi.signature import signatures_from_source
    from kernelkit.commands.layout import LAYOUTS
    from kernelkit.plugins import import_if_present

    abi = next((m for m in map(import_if_present, LAYOUTS) if m is not None and m.handles(target)), None)
    if abi is None:
        out.write(f"      (no ABI layout for {target} yet)\n")
        return
    for sig in signatures_from_source(source):
        layout = abi.layout_for(str(path), target, sig.name, {"code_object_version": None})
        out.write(f"      {kind} ABI layout of {sig.name}:\n")
        for line in abi.render_layout(layout).splitlines():
            out.write(f"        {line}\n")
