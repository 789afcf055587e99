"""AMD IL operands for IR values: every value gets its own registers (vec4 of 32-bit
components), constants come from the literal pool (``dcl_literal``).

Layout of a value in its registers: 32-bit (and narrower) elements one per component, 64-bit
elements as (lo, hi) pairs, four components per register (``<8 x float>`` takes two registers,
``double2`` one). ``Part`` names one register and the components of the value it holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.errors import CompileError
from kernelkit.ir import types as T

COMP = "xyzw"
FIRST_VALUE_REGISTER = 176        # where AMD's compiler starts allocating (reference dumps)
# registers the driver's prolog and wrapper use (reference/amdil/hlc-juniper)
GLOBAL_ID, LOCAL_ID, GROUP_ID = 1021, 1022, 1023
DATA_SEGMENT = 769                # mov r769, cb0[8].x in the prolog
LAST_VALUE_REGISTER = 768
# the selector numbers values and temporaries from here; regalloc.reuse_registers maps them
# onto FIRST_VALUE_REGISTER..LAST_VALUE_REGISTER
VIRTUAL_BASE = 100000
VIRTUAL_REGISTER_LIMIT = 1 << 24
# the prolog's literal pool of the driver (identical in every reference program)
PROLOG_LITERALS = (
    ("l0", "4, 1, 2, 3"),
    ("l1", "0x00FFFFFF, -1, -2, -3"),
    ("l2", "0x0000FFFF, 0xFFFFFFFE,0x000000FF,0xFFFFFFFC"),
    ("l3", "24, 16, 8, 0xFFFFFFFF"),
    ("l4", "0xFFFFFF00, 0xFFFF0000, 0xFF00FFFF, 0xFFFF00FF"),
    ("l5", "0, 4, 8, 12"),
    ("l6", "32, 32, 32, 32"),
)
FIRST_KERNEL_LITERAL = 8


def slot_count(ty: T.Type) -> int:
    """32-bit components a value of ``ty`` occupies."""
    if isinstance(ty, T.VectorType):
        return ty.count * slot_count(ty.element)
    if isinstance(ty, T.IntType):
        if ty.bits > 64:
            raise CompileError(f"amdil: {ty} integers are not supported")
        return 2 if ty.bits > 32 else 1
    if isinstance(ty, T.FloatType):
        if ty.kind == "double":
            return 2
        if ty.kind == "float":
            return 1
        raise CompileError(f"amdil: {ty} values need cl_khr_fp16, which AMD IL devices do not "
                           f"support")
    if isinstance(ty, T.PointerType | T.TargetExtType):    # pointers; image/sampler handles
        return 1
    if isinstance(ty, T.LiteralStructType | T.NamedStructType) and ty.elements is not None:
        return sum(slot_count(e) for e in ty.elements)
    if isinstance(ty, T.ArrayType):
        return ty.count * slot_count(ty.element)
    raise CompileError(f"amdil: values of type {ty} are not supported")


def element_slots(ty: T.Type) -> int:
    return slot_count(ty.scalar)


@dataclass(frozen=True)
class Slot:
    """One 32-bit component: a register (``r``/``l``) number and component."""
    file: str
    num: int
    comp: int

    def text(self) -> str:
        return f"{self.file}{self.num}.{COMP[self.comp] * 4}"


@dataclass
class Literals:
    """The literal pool: each distinct 4-component value once (``dcl_literal lN, a, b, c, d``)."""
    next: int = FIRST_KERNEL_LITERAL
    by_value: dict[tuple[int, int, int, int], int] = field(default_factory=dict)
    order: list[tuple[int, tuple[int, int, int, int]]] = field(default_factory=list)

    def get(self, values: tuple[int, int, int, int]) -> int:
        values = tuple(v & 0xFFFFFFFF for v in values)     # type: ignore[assignment]
        num = self.by_value.get(values)
        if num is None:
            num = self.next
            self.next += 1
            self.by_value[values] = num
            self.order.append((num, values))
        return num

    def splat(self, value: int) -> Slot:
        return Slot("l", self.get((value,) * 4), 0)

    def declarations(self, first: int = 0) -> list[str]:
        """The driver's form: ``dcl_literal l9, 0x00000016, ...; f32:i32 22``."""
        out = []
        for num, vals in self.order:
            if num < first:
                continue
            hexes = ", ".join(f"0x{v:08x}" for v in vals)
            if len(set(vals)) == 1:
                out.append(f"dcl_literal l{num}, {hexes}; f32:i32 {vals[0]}")
            else:
                out.append(f"dcl_literal l{num}, {hexes}")
        return out


class Registers:
    """Registers of IR values (numbered from FIRST_VALUE_REGISTER) and temporaries."""

    def __init__(self, first: int = VIRTUAL_BASE):
        self.next = first
        self.of: dict[int, list[int]] = {}

    def fresh(self, count: int = 1) -> list[int]:
        regs = list(range(self.next, self.next + count))
        self.next += count
        if self.next > VIRTUAL_REGISTER_LIMIT:
            raise CompileError("amdil: the kernel is too large")
        return regs

    def temp(self) -> int:
        return self.fresh(1)[0]

    def value(self, value, slots: int) -> list[int]:
        regs = self.of.get(id(value))
        if regs is None:
            regs = self.fresh(max(1, (slots + 3) // 4))
            self.of[id(value)] = regs
        return regs

    def slots(self, value, slots: int) -> list[Slot]:
        regs = self.value(value, slots)
        return [Slot("r", regs[i // 4], i % 4) for i in range(slots)]


def dst_text(num: int, comps: list[int]) -> str:
    """``r5.x_z_``: the positional write mask."""
    return f"r{num}." + "".join(COMP[c] if c in comps else "_" for c in range(4))


def src_text(slots: list[Slot], dst_comps: list[int]) -> str:
    """A source operand giving ``slots[i]`` at destination component ``dst_comps[i]``: all
    slots must be in one register (or all literal components of one literal)."""
    files = {(s.file, s.num) for s in slots}
    if len(files) != 1:
        raise ValueError("operand components from several registers")
    file, num = files.pop()
    swz = [COMP[slots[0].comp]] * 4
    for s, c in zip(slots, dst_comps, strict=True):
        swz[c] = COMP[s.comp]
    return f"{file}{num}.{''.join(swz)}"
