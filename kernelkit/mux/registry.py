"""The compiler registry (spec 003 "Enumerating compiler::Info's", ``getCompilers``).

Each target package ``kernelkit/targets/<name>/info.py`` exposes ``get_compilers() -> list[Info]``;
absent targets are skipped. ``find_compiler`` maps a CLI target name to the Info that accepts it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernelkit.mux.context import Context
from kernelkit.mux.info import Info
from kernelkit.mux.result import MuxError, Result
from kernelkit.plugins import import_if_present

# DESIGN.md "Layers": the target packages, in the order `kernelkit targets` lists them.
TARGET_PACKAGES: tuple[str, ...] = ("host", "amdhsa", "amdil", "amdcl2", "visa")


def get_compilers() -> list[Info]:
    """Every Info of every target present, in TARGET_PACKAGES order."""
    compilers: list[Info] = []
    for package in TARGET_PACKAGES:
        module = import_if_present(f"kernelkit.targets.{package}.info")
        if module is None or not hasattr(module, "get_compilers"):
            continue
        compilers.extend(module.get_compilers())
    return compilers


def resolve_target(target_name: str) -> tuple[Info, str]:
    """The Info accepting ``target_name`` and the device it selects."""
    for info in get_compilers():
        device = info.parse_target(target_name)
        if device is not None:
            return info, device
    known = ", ".join(info.name for info in get_compilers()) or "none installed"
    raise MuxError(Result.INVALID_VALUE, f"unknown target {target_name!r} (targets: {known}; "
                                         f"see `kernelkit targets`)")


def find_compiler(target_name: str) -> Info:
    return resolve_target(target_name)[0]


def build_binary(source: str, target: str, options: Sequence[str] = (), *,
                 filename: str = "<source>") -> bytes:
    """OpenCL C source -> target binary: Info -> Target -> Module -> finalize -> create_binary."""
    info, device = resolve_target(target)
    context = Context()
    compiler_target = info.create_target(context, device)
    compiler_target.init_with_builtins(None)
    module = compiler_target.create_module()
    module.compile_opencl_c(source, options, filename=filename)
    module.finalize()
    return module.create_binary()
