"""``__mux_mem_barrier(scope, semantics)`` as LLVM fences (spec 003 "Memory and Control Barriers").

``lower_mem_barriers(module, single_thread_scopes)`` replaces each call whose scope and semantics
are constants by what they ask for:
  - no fence for ``MemScopeWorkItem`` (only the calling invocation observes it) or a relaxed ordering;
  - ``fence acquire|release|acq_rel|seq_cst`` by the ordering bits (``MemSemanticsMask``);
  - ``syncscope("singlethread")`` for the scopes the target runs on one thread (the host runs a
    work-group on one thread, so work-group and sub-group fences order only the compiler).
Calls with non-constant operands stay for the target's conservative definition.
"""

from __future__ import annotations

from collections.abc import Collection

from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import Module
from kernelkit.ir.values import ConstantInt
from kernelkit.mux.names import MemScope, MemSemantics

MEM_BARRIER = "__mux_mem_barrier"
# spec 003 MemSemantics ordering -> LLVM fence ordering (LangRef "fence": no monotonic/unordered fences)
FENCE_ORDERING: dict[MemSemantics, str | None] = {
    MemSemantics.RELAXED: None,
    MemSemantics.ACQUIRE: "acquire",
    MemSemantics.RELEASE: "release",
    MemSemantics.ACQUIRE_RELEASE: "acq_rel",
    MemSemantics.SEQUENTIALLY_CONSISTENT: "seq_cst",
}


def fence_for(scope: int, semantics: int, single_thread_scopes: Collection[MemScope] = ()) -> tuple[str, str | None] | None:
    """(ordering, syncscope) of the fence a constant ``__mux_mem_barrier`` needs, or None for none."""
    if scope == MemScope.WORK_ITEM:
        return None
    ordering = FENCE_ORDERING.get(MemSemantics(semantics & MemSemantics.MASK), "seq_cst")
    if ordering is None:
        return None
    return ordering, "singlethread" if scope in single_thread_scopes else None


def lower_mem_barriers(module: Module, single_thread_scopes: Collection[MemScope] = ()) -> int:
    """Replace constant ``__mux_mem_barrier`` calls by fences; returns how many calls were replaced."""
    callee = module.get_function(MEM_BARRIER)
    if callee is None:
        return 0
    done = 0
    for call in [u.user for u in list(callee.uses)]:
        if not isinstance(call, CallInst) or call.called_function is not callee:
            continue
        scope, semantics = call.args
        if not isinstance(scope, ConstantInt) or not isinstance(semantics, ConstantInt):
            continue
        fence = fence_for(scope.value, semantics.value, single_thread_scopes)
        if fence is not None:
            IRBuilder().position_before(call).fence(*fence)
        call.erase()
        done += 1
    return done
