"""printf in AMD IL kernels (spec 000 "Printf information"): each call site gets a
``;printf_fmt:ID:NumArgs:Sizes:Len:Format;`` record and writes one record into the printf
buffer whose offset and size the runtime puts in cb0[8].y and cb0[8].z.

Buffer layout (the spec leaves it to the runtime; kernelkit's simulator reads this one): the
first dword counts the bytes used after it; a record is the site's ID then each argument's
bytes (as the metadata sizes say, each padded to a dword), reserved with ``uav_read_add`` on
the counter; a record that would end past the buffer is dropped (spec: "silently dropped").
Float arguments clang promoted to double go as the original float (4 bytes) on devices without
fp64; ``%s`` arguments are string-literal addresses in the data segment."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.formats.amdil import records as r
from kernelkit.ir import types as T
from kernelkit.ir.module import GlobalVariable
from kernelkit.ir.values import ConstantBytes, ConstantExpr
from kernelkit.targets.amdil.regs import COMP, Slot, dst_text, slot_count

RAW_UAV = 1


def _x(s: Slot) -> str:
    return f"{s.file}{s.num}.{COMP[s.comp]}"


def format_string(v) -> str:
    while isinstance(v, ConstantExpr):
        v = v.operands[0]
    if not isinstance(v, GlobalVariable) or not isinstance(v.initializer, ConstantBytes):
        raise CompileError("amdil: printf needs a string literal as its format")
    return v.initializer.data.split(b"\0", 1)[0].decode("utf-8", "replace")


class PrintfOps:
    def printf(self, inst) -> None:
        em = self.em
        fmt = format_string(inst.args[0])
        args = []
        for a in inst.args[1:]:
            if getattr(a, "opcode", None) == "fpext" and not self.layout.get("fp64", True):
                a = a.operands[0]         # the float itself: the device has no doubles
            ty = a.type
            if isinstance(ty, T.PointerType):
                size = 4
            else:
                size = slot_count(ty) * 4 if ty.scalar.is_float or \
                    getattr(ty.scalar, "bits", 32) >= 32 else None
                if size is None:
                    raise CompileError(f"amdil: printf argument of type {ty} is not supported")
            args.append((a, size))
        sites = self.layout.setdefault("printf", [])
        site = self.layout["printf_base"] + len(sites)
        sites.append(r.PrintfFormat.from_format(site, [s for _, s in args], fmt))
        total = 4 + sum((s + 3) // 4 * 4 for _, s in args)
        base = em.temp_slots(1)[0]
        em.emit(f"mov {dst_text(base.num, [base.comp])}, cb0[8].yyyy")
        old = em.temp_slots(1)[0]
        em.emit(f"uav_read_add_id({RAW_UAV}) {dst_text(old.num, [old.comp])}, {_x(base)}, "
                f"{_x(em.one('mov', total))}")
        end = em.one("iadd", old, total + 4)
        limit = em.temp_slots(1)[0]
        em.emit(f"mov {dst_text(limit.num, [limit.comp])}, cb0[8].zzzz")
        fits = em.one("uge", limit, end)
        em.emit(f"if_logicalnz {_x(fits)}")
        at = em.one("iadd", em.one("iadd", base, old), 4)
        self.store_dwords("uav", at, [site])
        offset = 4
        for a, size in args:
            words = self.val(a)[:size // 4]
            self.store_dwords("uav", self.offset(at, offset), words)
            offset += (size + 3) // 4 * 4
        em.emit("endif")
