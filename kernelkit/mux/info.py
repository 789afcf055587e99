"""compiler::Info (spec 003 "Info"): describes one compiler for one device (family)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kernelkit.mux.context import Context
from kernelkit.mux.device import BuiltinCapabilities, DeviceInfo
from kernelkit.mux.options import CompilationOption, parse_compilation_options
from kernelkit.mux.result import MuxError, Result, unsupported

if TYPE_CHECKING:
    from kernelkit.mux.target import Target

NotifyCallback = Callable[[str], None]


class Info:
    """Base Info. Subclasses set the fields and implement ``_create_target``.

    kernelkit additions: ``name`` is the CLI target family (``host``, ``amdhsa``, ``amdil``...),
    ``parse_target`` maps a CLI target name to a device of this compiler (or ``None``; override it
    for other syntaxes such as AMDGPU target IDs), ``devices`` lists the devices/processors the
    compiler accepts and ``accepts_device`` decides whether ``create_target`` takes a device.
    """

    name: str = ""
    description: str = ""

    def __init__(self, device_info: DeviceInfo, *, supports_deferred_compilation: bool = False,
                 compilation_options: str = "", vectorizable: bool = False,
                 dma_optimizable: bool = False, scalable_vector_support: bool = False):
        parse_compilation_options(compilation_options)  # a malformed string is a target bug
        self.device_info = device_info
        self.supports_deferred_compilation = supports_deferred_compilation
        self.compilation_options = compilation_options
        self.vectorizable = vectorizable
        self.dma_optimizable = dma_optimizable
        self.scalable_vector_support = scalable_vector_support

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name or '?'}: {self.device_info.device_name}>"

    def create_target(self, context: Context | None, device: str | None = None,
                      callback: NotifyCallback | None = None) -> Target:
        """A new Target for ``device`` (one of ``devices()``, default the Info's own device)."""
        if context is None:
            raise MuxError(Result.INVALID_VALUE, "createTarget needs a compiler Context")
        if device is not None and not self.accepts_device(device):
            raise MuxError(Result.INVALID_VALUE, f"{self.name}: unknown device {device!r}")
        return self._create_target(context, device, callback)

    def _create_target(self, context: Context, device: str | None,
                       callback: NotifyCallback | None) -> Target:
        raise unsupported(f"compiling for {self.name or self.device_info.device_name}")

    def get_builtin_capabilities(self) -> BuiltinCapabilities:
        return self.device_info.builtin_capabilities()

    def options(self) -> list[CompilationOption]:
        return parse_compilation_options(self.compilation_options)

    def devices(self) -> list[str]:
        return [self.device_info.device_name]

    def accepts_device(self, device: str) -> bool:
        """Can ``create_target`` build for ``device``? (Targets with target-ID syntax override.)"""
        return device in self.devices()

    def parse_target(self, target_name: str) -> str | None:
        """The device ``target_name`` selects on this compiler, or None if it is not ours.

        Default: ``<name>`` selects the Info's own device, ``<name>:<device>`` a listed device.
        """
        if target_name == self.name:
            return self.device_info.device_name
        family, sep, device = target_name.partition(":")
        if sep and family == self.name and self.accepts_device(device):
            return device
        return None
