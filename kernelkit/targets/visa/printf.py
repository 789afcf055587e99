"""printf in vISA kernels through IGC's printf buffer (kernelkit.formats.visa.printf_buffer): each
lane that calls printf reserves its record with an svm_atomic add on the buffer's offset dword and,
when the record fits, writes it dword by dword with svm_scatter; a record that does not fit writes
-1 when a dword is left, as IGC's code does. On platforms with LSC (DG2, SIMD16/32) the reservation
is lsc_atomic_iadd and the writes lsc_store.ugm (IGC's DG2 printf writes with lsc_store.ugm).

Format strings and ``%s`` literals get program-wide string indices (``printf_strings``, shared by the
program's kernels; ``printf_arguments`` holds each format's argument count). A float argument
promoted to double is written as a double on platforms with fp64 and as the float itself elsewhere
(as IGC does); double constants likewise."""

from __future__ import annotations

import struct

from kernelkit import ir
from kernelkit.abi.visa import GRF_BYTES
from kernelkit.errors import CompileError
from kernelkit.formats.visa.printf_buffer import PRINTF_BUFFER_BYTES, TAG_OF
from kernelkit.ir import types as T
from kernelkit.targets.visa.vtypes import SIZES

VECTOR_TAGS = {"i8": "vector_byte", "i16": "vector_short", "i32": "vector_int", "i64": "vector_long",
               "float": "vector_float", "double": "vector_double"}


def string_literal(value) -> str | None:
    """The text of a constant string (a global's bytes up to the NUL, through casts and GEPs)."""
    while isinstance(value, ir.ConstantExpr) and value.operands:
        value = value.operands[0]
    if isinstance(value, ir.GlobalVariable) and isinstance(value.initializer, ir.ConstantBytes):
        return value.initializer.data.split(b"\0", 1)[0].decode("utf-8", "replace")
    return None


def printf_only_fpext(inst) -> bool:
    """An ``fpext`` to double whose only users are printf calls (the promotion of a float argument)."""
    return inst.opcode == "fpext" and bool(inst.users) and all(
        isinstance(u, ir.CallInst) and u.called_function is not None and u.called_function.name == "printf"
        for u in inst.users)


class PrintfCodegen:
    """Mixin of KernelCodegen: ``printf`` calls."""

    def _string_index(self, text: str) -> int:
        if text not in self.printf_strings:
            self.printf_strings.append(text)
        return self.printf_strings.index(text)

    def _printf(self, inst) -> None:
        fmt = string_literal(inst.args[0])
        if fmt is None:
            raise CompileError("vISA code generation: printf needs a string literal as its format")
        index = self._string_index(fmt)
        self.printf_arguments[index] = len(inst.args) - 1
        words: list[str] = [f"0x{index:x}:ud"]
        for arg in inst.args[1:]:
            words += self._printf_argument(arg)
        size = 4 * len(words)
        simd = self.simd
        buffer = self.implicit("printf_buffer")
        addr = self._new("uq", simd)
        self.emit(f"mov (M1_NM, {simd}) {addr}(0,0)<1> {buffer}(0,0)<0;1,0>")
        amount = self._new("ud", simd)
        self.emit(f"mov (M1_NM, {simd}) {amount}(0,0)<1> 0x{size:x}:ud")
        old = self._new("ud", simd)
        if self.lsc:
            self._lsc_atomic_at("add", False, addr, [f"{amount}.", "%null."], old, False)
        else:
            for lane in range(0, simd, 8):
                self.emit(f"svm_atomic.add (M{lane // 4 + 1}, {min(8, simd)}) {addr}.{lane * 8} {old}.{lane * 4} "
                          f"{amount}.{lane * 4} %null.0")
        record = self._new("uq", simd)
        self.emit(f"add (M1, {simd}) {record}(0,0)<1> {addr}(0,0)<1;1,0> {old}(0,0)<1;1,0>")
        fits, room = self._pred(), self._pred()
        end = self._new("ud", simd)
        self.emit(f"add (M1, {simd}) {end}(0,0)<1> {old}(0,0)<1;1,0> 0x{size:x}:ud")
        self.emit(f"cmp.le (M1, {simd}) {fits} {end}(0,0)<1;1,0> 0x{PRINTF_BUFFER_BYTES:x}:ud")
        unfit = self._new("ud", simd)           # the old offset where the record does not fit
        self.emit(f"({fits}) sel (M1, {simd}) {unfit}(0,0)<1> 0xffffffff:ud {old}(0,0)<1;1,0>")
        self.emit(f"cmp.le (M1, {simd}) {room} {unfit}(0,0)<1;1,0> 0x{PRINTF_BUFFER_BYTES - 4:x}:ud")
        marker = self._new("ud", simd)
        self.emit(f"mov (M1, {simd}) {marker}(0,0)<1> 0xffffffff:ud")
        self._printf_scatter(room, record, marker)
        for i, word in enumerate(words):
            data = self._new("ud", simd)
            self.emit(f"mov (M1, {simd}) {data}(0,0)<1> {word}")
            self._printf_scatter(fits, self._element_address(record, 4 * i), data)
        if inst.users:
            self.emit(f"({fits}) sel {self.exe(inst)} {self.dst(inst, 'd')} 0x0:d 0xffffffff:d")

    def _printf_scatter(self, pred: str, addr: str, data: str) -> None:
        for lane, n, m in self._halves():
            self._global_message(True, f"({m}, {n})", self._piece(addr, "uq", lane, n),
                                 self._piece(data, "ud", lane, n), 4, pred)

    def _printf_argument(self, arg) -> list[str]:
        """The dwords (operands) of one argument: its tag, a vector's count, its data."""
        if isinstance(arg, ir.Instruction) and printf_only_fpext(arg):
            arg = arg.operands[0]
            if self.fp64:
                wide = self._new("df", 1 if self.uniform(arg) else self.simd)
                self.emit(f"mov {self.exe(arg)} {wide}(0,0)<1> {self.src(arg)}")
                return [f"0x{TAG_OF['double']:x}:ud", *self._halves_of(wide, arg)]
        if isinstance(arg, ir.ConstantFP) and arg.type == T.float64:
            if not self.fp64:
                raw = struct.unpack("<I", struct.pack("<f", arg.value))[0]
                return [f"0x{TAG_OF['float']:x}:ud", f"0x{raw:x}:ud"]
            low, high = struct.unpack("<II", struct.pack("<d", arg.value))
            return [f"0x{TAG_OF['double']:x}:ud", f"0x{low:x}:ud", f"0x{high:x}:ud"]
        ty = arg.type
        if isinstance(ty, T.PointerType):
            text = self._string_operand(arg)
            if text is not None:
                return [f"0x{TAG_OF['string']:x}:ud", text]
            wide = self._new("uq", 1 if self.uniform(arg) else self.simd)
            self.emit(f"mov {self.exe(arg)} {wide}(0,0)<1> {self.src(arg, 'uq')}")
            return [f"0x{TAG_OF['pointer']:x}:ud", *self._halves_of(wide, arg)]
        element = ty.element if isinstance(ty, T.VectorType) else ty
        name = "float" if element == T.float32 else "double" if element == T.float64 else \
            f"i{element.bits}" if isinstance(element, T.IntType) else None
        if name is None or (element == T.half):
            raise CompileError(f"vISA code generation: printf argument of type {ty} is not supported")
        if not isinstance(ty, T.VectorType):
            if name in ("i8", "i16", "i32"):
                return [f"0x{TAG_OF['int']:x}:ud", self.src(arg, "ud") if name == "i32" else self._widened(arg)]
            if name == "float":
                return [f"0x{TAG_OF['float']:x}:ud", self.src(arg, "ud")]
            wide = self._new("uq", 1 if self.uniform(arg) else self.simd)
            self.emit(f"mov {self.exe(arg)} {wide}(0,0)<1> {self.src(arg, 'uq')}")
            return [f"0x{TAG_OF['long' if name == 'i64' else 'double']:x}:ud", *self._halves_of(wide, arg)]
        count = ty.count
        head = [f"0x{TAG_OF[VECTOR_TAGS[name]]:x}:ud", f"0x{count:x}:ud"]
        esize = SIZES["q"] if name in ("i64", "double") else SIZES["d"] if name in ("i32", "float") else \
            element.bits // 8
        if esize >= 4:
            out = []
            for self.k in range(count):
                if esize == 4:
                    out.append(self.src(arg, "ud"))
                else:
                    wide = self._new("uq", 1 if self.uniform(arg) else self.simd)
                    self.emit(f"mov {self.exe(arg)} {wide}(0,0)<1> {self.src(arg, 'uq')}")
                    out += self._halves_of(wide, arg)
            self.k = 0
            return head + out
        return head + self._packed(arg, count, esize)

    def _string_operand(self, arg) -> str | None:
        """A ``%s`` literal (or a select between two) as its string index operand."""
        text = string_literal(arg)
        if text is not None:
            return f"0x{self._string_index(text):x}:ud"
        if isinstance(arg, ir.Instruction) and arg.opcode == "select":
            cond, a, b = arg.operands[:3]
            ta, tb = string_literal(a), string_literal(b)
            if ta is None or tb is None:
                return None
            ia, ib = self._string_index(ta), self._string_index(tb)
            n = 1 if self.uniform(arg) else self.simd
            chosen = self._new("d", n)
            exe = self.exe(arg)
            self.emit(f"mov {exe} {chosen}(0,0)<1> {self.src(cond, 'w')}")       # -1 or 0
            self.emit(f"and {exe} {chosen}(0,0)<1> {chosen}(0,0){self._region(n)} 0x{(ia - ib) & 0xFFFFFFFF:x}:d")
            self.emit(f"add {exe} {chosen}(0,0)<1> {chosen}(0,0){self._region(n)} 0x{ib:x}:d")
            return f"{chosen}(0,0){self._region(n)}"
        return None

    def _region(self, n: int) -> str:
        return "<0;1,0>" if n == 1 else "<1;1,0>"

    def _widened(self, arg) -> str:
        n = 1 if self.uniform(arg) else self.simd
        wide = self._new("d", n)
        self.emit(f"mov {self.exe(arg)} {wide}(0,0)<1> {self.src(arg)}")
        return f"{wide}(0,0){self._region(n)}"

    def _halves_of(self, wide: str, value) -> list[str]:
        """The low and high dwords of a 64-bit variable (scalar or SIMD-wide)."""
        low = self._alias(wide, "ud")
        step = "<0;1,0>" if self.uniform(value) else "<2;1,0>"
        return [f"{low}(0,0){step}", f"{low}(0,1){step}"]

    def _packed(self, arg, count: int, esize: int) -> list[str]:
        """Sub-dword vector elements packed into dwords (IGC writes a uchar4 as one dword)."""
        if count * esize % 4:
            raise CompileError(f"vISA code generation: printf argument of type {arg.type} is not supported")
        dwords = count * esize // 4
        simd = self.simd
        packed = self._new("ud", dwords * simd)
        narrow = self._alias(packed, "ub" if esize == 1 else "uw")
        per = 4 // esize
        for self.k in range(count):
            byte = ((self.k // per) * simd) * 4 + (self.k % per) * esize
            self.emit(f"mov (M1, {simd}) {narrow}({byte // GRF_BYTES},{byte % GRF_BYTES // esize})<{per}> "
                      f"{self.src(arg, 'ub' if esize == 1 else 'uw')}")
        self.k = 0
        out = []
        for j in range(dwords):
            byte = j * simd * 4
            out.append(f"{packed}({byte // GRF_BYTES},{byte % GRF_BYTES // 4})<1;1,0>")
        return out
