"""Software pipelining (kernelkit.ir.transforms.software_pipeline) of the loops of the host's
vectorised kernels, chosen by a cost rule.

Build option ``-cl-loop-pipeline=never|auto|always`` (default auto): always pipelines every loop
the transform accepts, auto those the rule below picks.

The rule. An out-of-order core overlaps consecutive iterations of a loop only as far as its
scheduler holds their micro-ops: when one iteration's dependency chain (critical path) is longer
than the work the window covers (``WINDOW_UOPS / FP_PORTS`` cycles), the window fills with the
waiting tail of one iteration and the chain, not the execution units, sets the pace. Two stages
put the first half of iteration k + 1 beside the second half of iteration k, so the chain the
window must cover halves. auto pipelines a loop when

  - its critical path (latency model below) exceeds ``THROUGHPUT_MARGIN * WINDOW_UOPS / FP_PORTS``
    cycles, and
  - it has no division, remainder or square root left for the divider (a ``1 / sqrt`` that
    -cl-rsqrt-estimate turns into the estimate does not count) and no gather: such a loop is
    bound by the throughput of the one divider or of the microcoded gather, and the registers the
    stages carry only add spills;
  - no ``1 / sqrt`` of it takes fast_rsqrt's AVX-512 form (without a branch): measured on Zen 4
    (session 10, n-body, one thread, interleaved) pipelined 5.27 and 5.88 ms against 4.82 and 5.38.

Measured (AMD EPYC Zen 1, the n-body j loop of benchmarks/host_vs_peers.py, its machine code timed in
a C harness in session 9, cycles per 16-lane iteration; see fast_rsqrt for the method and causes):
the rsqrt estimate 48.8-49.1, pipelined 45.8-46.0 (at 8 lanes 51-52 in two stages, 50 in three);
the divider 41.5-42.4, pipelined by hand without spills 41.8-42.4 (the divider, 36-38 cycles per
iteration, stays the bound; LLVM's own pipelined build, which spills, 51.1): hence the second
condition. On this CPU the estimate, even pipelined, does not beat the divider, and
-cl-rsqrt-estimate stays never by default.
"""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir.module import Module
from kernelkit.ir.transforms.software_pipeline import analyse, loop_shape, pipeline_loop
from kernelkit.targets.host.passes import fast_rsqrt

OPTION = "-cl-loop-pipeline="
MODES = ("never", "auto", "always")
DEFAULT_MODE = "auto"

# latencies in cycles (AMD Zen 1 / typical x86 AVX2 cores: AMD's and Agner Fog's tables)
_LATENCY = {"load": 5.0, "fadd": 3.0, "fsub": 3.0, "fmul": 3.0, "fdiv": 12.0, "frem": 20.0,
            "mul": 3.0, "udiv": 20.0, "sdiv": 20.0, "urem": 20.0, "srem": 20.0}
_CALL_LATENCY = (("llvm.fma.", 5.0), ("llvm.fmuladd.", 5.0), ("llvm.sqrt.", 20.0),
                 ("llvm.masked.gather.", 20.0), ("llvm.masked.load.", 6.0), ("llvm.x86.", 5.0))
_CALL_DEFAULT = 5.0
# the CPU: the floating-point scheduler plus its queue (Zen 1: 36 + 64 entries), FP pipes
WINDOW_UOPS = 100.0
FP_PORTS = 4.0
THROUGHPUT_MARGIN = 1.25


def mode(options) -> str:
    from kernelkit.frontend.options import choice_option

    return choice_option(options, OPTION, MODES, DEFAULT_MODE)


def latency(inst: I.Instruction) -> float:
    """The model's latency of ``inst`` (cycles; 1 for integer, vector-shuffle and cast operations)."""
    if isinstance(inst, I.CallInst):
        fn = inst.called_function
        name = fn.name if fn is not None else ""
        return next((lat for prefix, lat in _CALL_LATENCY if name.startswith(prefix)), _CALL_DEFAULT)
    return _LATENCY.get(inst.opcode, 1.0)


def keep_with_user(inst: I.Instruction) -> bool:
    """A ``sqrt`` stays with its ``1.0 / sqrt`` division (fast_rsqrt rewrites the pair later)."""
    return len(inst.uses) == 1 and fast_rsqrt.site_sqrt(inst.uses[0].user) is inst


_DIVIDER_OPCODES = frozenset({"fdiv", "frem", "udiv", "sdiv", "urem", "srem"})


def _form(inst: I.Instruction, features, estimate: str) -> str | None:
    """fast_rsqrt's form of ``inst`` (or of the division ``inst``, a sqrt, stays with)."""
    site = inst.uses[0].user if keep_with_user(inst) else inst
    return fast_rsqrt.site_form(site, features, estimate)


def throughput_bound(inst: I.Instruction, estimate: str, features=()) -> bool:
    """Does ``inst`` run on the divider or as a microcoded gather (``estimate``: the build's
    fast_rsqrt mode; ``features``: the CPU's)?"""
    if _form(inst, features, estimate) is not None:
        return False
    if isinstance(inst, I.CallInst):
        fn = inst.called_function
        return fn is not None and fn.name.startswith(("llvm.sqrt.", "llvm.masked.gather."))
    return inst.opcode in _DIVIDER_OPCODES


def worth_pipelining(block, estimate: str = "never", features=()) -> bool:
    """The module docstring's rule for the single-block loop ``block`` (``estimate``: the build's
    fast_rsqrt mode; ``features``: the CPU's)."""
    if any(throughput_bound(i, estimate, features) or _form(i, features, estimate) == "avx512"
           for i in block.instructions):
        return False
    stages = analyse(block, latency, keep_with_user)
    return not isinstance(stages, str) and stages.critical_path > THROUGHPUT_MARGIN * WINDOW_UOPS / FP_PORTS


def pipeline_module(module: Module, functions: list[str], options=(), features=()) -> int:
    """Pipeline the single-block loops of ``functions`` as the build's mode says (``features``: the
    CPU's, LLVM names); returns how many."""
    chosen = mode(options)
    if chosen == "never":
        return 0
    estimate = fast_rsqrt.mode(options)
    count = 0
    for name in functions:
        f = module.get_function(name)
        if f is None or f.is_declaration:
            continue
        for block in list(f.blocks):
            if block.parent is None or isinstance(loop_shape(block), str):
                continue
            if chosen == "auto" and not worth_pipelining(block, estimate, features):
                continue
            if pipeline_loop(block, latency, keep_with_user) is None:
                count += 1
    return count
