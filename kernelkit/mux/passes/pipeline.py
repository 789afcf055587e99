"""The pass pipeline ``Module.finalize`` runs: the mux passes, then ``target.late_passes()``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kernelkit.ir import Module as IRModule
    from kernelkit.mux.target import Target


@dataclass(frozen=True)
class Pass:
    """A named transformation of an IR module in place."""

    name: str
    run: Callable[[IRModule], object]

    def __call__(self, module: IRModule) -> object:
        return self.run(module)


def mux_passes(target: Target) -> list[Pass]:
    """The target-independent passes, in order (see kernelkit.mux.passes.*)."""
    from kernelkit.mux.passes.dma_events import retype_dma_events
    from kernelkit.mux.passes.kernel_attributes import mark_kernels
    from kernelkit.mux.passes.lower_builtins import lower_opencl_builtins
    from kernelkit.mux.passes.subgroups import mark_no_subgroups

    passes = [
        Pass("lower-opencl-builtins", lower_opencl_builtins),
        Pass("retype-dma-events", lambda m: retype_dma_events(m, target.dma_event_type())),
        Pass("mark-kernels", mark_kernels),
        Pass("mark-no-subgroups", mark_no_subgroups),
    ]
    params = target.scheduling_parameters()
    if params:
        from kernelkit.mux.passes.scheduling import add_scheduling_parameters

        passes.append(Pass("add-scheduling-parameters", lambda m: add_scheduling_parameters(m, params)))
    return passes


def pipeline(target: Target) -> list[Pass]:
    late = [p if isinstance(p, Pass) else Pass(getattr(p, "__name__", "late-pass"), p)
            for p in target.late_passes()]
    return [*mux_passes(target), *late]


def run_pipeline(module: IRModule, target: Target) -> list[str]:
    """Run every pass on ``module``; returns the names of the passes run."""
    names = []
    for p in pipeline(target):
        p.run(module)
        names.append(p.name)
    return names
