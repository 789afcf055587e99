"""cl_ext_atomic_counters_32 on AMD IL: ``atomic_inc``/``atomic_dec`` on a ``counter32_t``
kernel argument become the append-counter instructions ``append_buf_alloc_id(n)`` /
``append_buf_consume_id(n)``, ``n`` being the counter's GDS id (its ``;counter:`` record: the
counter arguments numbered from 0 in argument order, as AMD's compiler numbers them). Like AMD's
compiler, a counter that one kernel both increments and decrements is an error of the kernel's
metadata (``;error:E023...``), and more counters than the hardware has too (``E018``)."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.ir.module import Argument
from kernelkit.targets.amdil.regs import dst_text

# the mangled builtins (kernelkit_opencl.h declares them on targets that have the counters)
COUNTER_CALLS = {"_Z10atomic_incPU3AS112_counter32_t": "alloc",
                 "_Z10atomic_decPU3AS112_counter32_t": "consume"}
MAX_COUNTERS = 8    # GDS append counters of Evergreen/Northern Islands (AMD's compiler's limit)


class CounterOps:
    def counter_call(self, inst, name: str) -> bool:
        """Select an atomic counter builtin; False when ``name`` is not one."""
        op = COUNTER_CALLS.get(name)
        if op is None:
            return False
        handle = inst.args[0]
        info = None
        if isinstance(handle, Argument):
            info = self.layout["args"][self.fn.args.index(handle)]
        if info is None or "counter" not in info:
            raise CompileError("amdil: atomic_inc/atomic_dec on a counter32_t that is not a kernel "
                               "argument")
        cid = info["counter"]
        self.counter_uses.setdefault(cid, set()).add(op)
        out = self.result(inst)[0]
        self.em.emit(f"append_buf_{op}_id({cid}) {dst_text(out.num, [out.comp])}")
        return True
