"""compiler::BaseTarget (spec 003 "Target"): a compiler instance for one device."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelkit.mux.context import Context
from kernelkit.mux.result import MuxError, Result, unsupported

if TYPE_CHECKING:
    from kernelkit.ir import Module as IRModule
    from kernelkit.ir import types as T
    from kernelkit.mux.info import Info, NotifyCallback
    from kernelkit.mux.module import Module
    from kernelkit.mux.passes.pipeline import Pass
    from kernelkit.mux.passes.scheduling import SchedulingParameter


class Target:
    """Base Target. Subclasses implement ``_create_module`` and may override ``late_passes``,
    ``scheduling_parameters`` and ``frontend_options``.
    """

    def __init__(self, info: Info, context: Context, callback: NotifyCallback | None = None,
                 device: str | None = None):
        if context is None:
            raise MuxError(Result.INVALID_VALUE, "a Target needs a compiler Context")
        self.info = info
        self.context = context
        self.callback = callback
        self.device = device or info.device_info.device_name
        self.builtins: IRModule | None = None
        self.initialized = False

    def get_compiler_info(self) -> Info:
        return self.info

    @property
    def pointer_size(self) -> int:
        return self.info.device_info.pointer_size

    @property
    def frontend_triple(self) -> str:
        """The SPIR triple OpenCL C is compiled for before the target's own passes."""
        return "spir64-unknown-unknown" if self.pointer_size == 8 else "spir-unknown-unknown"

    # whether OpenCL C reaches the target optimised by clang's SPIR pipeline (False: clang's code for
    # the -O level without LLVM's passes, for a target whose own pipeline optimises it whole)
    frontend_llvm_passes = True

    def frontend_options(self) -> list[str]:
        """Options the target adds to every OpenCL C compile (e.g. extension macros)."""
        return []

    def init_with_builtins(self, builtins: IRModule | None = None) -> None:
        """Keep the builtins module (may be None when the target links its own library later)."""
        self.builtins = builtins
        self.initialized = True

    def create_module(self) -> Module:
        """A new, empty Module; its ``num_errors`` and ``log`` receive the build's errors."""
        return self._create_module()

    def _create_module(self) -> Module:
        raise unsupported(f"creating modules for {self.info.name or self.device}")

    def scheduling_parameters(self) -> list[SchedulingParameter]:
        """Parameters AddSchedulingParametersPass adds to functions that need them."""
        return []

    def dma_event_type(self) -> T.Type:
        """The type ``__mux_dma_event_t`` gets (spec 003 leaves it to the implementation)."""
        from kernelkit.mux.passes.dma_events import DEFAULT_EVENT_TYPE

        return DEFAULT_EVENT_TYPE

    def late_passes(self) -> list[Pass]:
        """BaseModule::getLateTargetPasses: run by ``Module.finalize`` after the mux passes."""
        return []

    def notify(self, message: str) -> None:
        if self.callback is not None:
            self.callback(message)
