"""Private memory (allocas the optimiser kept) in the vISA code generator.

Each hardware thread owns a frame of ``simd x private_bytes`` bytes at ``private_base + FFTID x
frame`` (FFTID: r0.5 bits 9:0, the thread's slot, as on the hardware; the runtime gives 1024
slots); lane ``l`` owns bytes ``l x private_bytes`` onwards of its thread's frame. An alloca the
uniformity analysis finds uniform lives in lane 0's part (one copy per thread), a divergent one in
every lane's. Addresses are 64-bit: private memory is reached with the SVM messages of __global."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.abi.visa import GRF_BYTES
from kernelkit.errors import CompileError
from kernelkit.targets.visa.vtypes import _size_of

FFTID_MASK = 0x3FF
R0_FFTID_DWORD = 5
FRAME_ALIGN = 16              # (owords: a by-value struct is copied in with oword block stores)
OWORD = 16


def allocas_of(function) -> list:
    return [i for b in function.blocks for i in b if isinstance(i, ir.AllocaInst)]


def frame_layout(function, byval: tuple = ()) -> tuple[dict[int, int], int]:
    """({id(alloca or by-value argument): byte offset in a lane's part}, bytes per lane); ``byval``:
    (argument, payload variable, bytes) of the by-value struct arguments."""
    offsets, size = {}, 0
    for arg, _name, nbytes in byval:
        offsets[id(arg)] = size
        size += -(-nbytes // OWORD) * OWORD
    for alloca in allocas_of(function):
        count = alloca.operands[0] if alloca.operands else ir.ConstantInt(ir.types.i32, 1)
        if not isinstance(count, ir.ConstantInt):
            raise CompileError(f"vISA code generation: {alloca} (a variable-sized alloca) is not supported")
        align = max(alloca.align or 1, 1)
        size = -(-size // align) * align
        offsets[id(alloca)] = size
        size += _size_of(alloca.allocated_type) * count.value
    return offsets, -(-size // FRAME_ALIGN) * FRAME_ALIGN


class PrivateCodegen:
    """Mixin of KernelCodegen."""

    def _private_prologue(self) -> None:
        self.alloca_offsets, self.private_bytes = frame_layout(self.fn, self.byval_inputs)
        if not self.private_bytes:
            return
        base = self.implicit("private_base")
        tid = self._new("ud", 1)
        self.thread_frame = self._new("uq", 1)
        self.emit(f"and (M1_NM, 1) {tid}(0,0)<1> {self.r0}(0,{R0_FFTID_DWORD})<0;1,0> 0x{FFTID_MASK:x}:ud")
        self.emit(f"mul (M1_NM, 1) {self.thread_frame}(0,0)<1> {tid}(0,0)<0;1,0> "
                  f"0x{self.simd * self.private_bytes:x}:ud")
        self.emit(f"add (M1_NM, 1) {self.thread_frame}(0,0)<1> {self.thread_frame}(0,0)<0;1,0> {base}(0,0)<0;1,0>")
        lanes = self._new("uw", self.simd)
        self.emit(f"mov (M1_NM, 8) {lanes}(0,0)<1> 0x76543210:uv")
        for start in (8, 16):
            if start < self.simd:
                self.emit(f"add (M1_NM, {start}) {lanes}(0,{start})<1> {lanes}(0,0)<1;1,0> 0x{start:x}:uw")
        offset = self._new("ud", self.simd)
        self.emit(f"mul (M1_NM, {self.simd}) {offset}(0,0)<1> {lanes}(0,0)<1;1,0> 0x{self.private_bytes:x}:uw")
        self.lane_frame = self._new("uq", self.simd)
        self.emit(f"add (M1_NM, {self.simd}) {self.lane_frame}(0,0)<1> {offset}(0,0)<1;1,0> "
                  f"{self.thread_frame}(0,0)<0;1,0>")
        for arg, name, nbytes in self.byval_inputs:
            self._copy_byval(arg, name, nbytes)

    def _copy_byval(self, arg, name: str, nbytes: int) -> None:
        """A by-value struct argument: its payload bytes stored to lane 0's part of the thread's frame
        (as IGC copies by-value aggregates to private memory); the argument is that address."""
        padded = -(-nbytes // OWORD) * OWORD
        data = self._new("ub", padded)
        done = 0
        while done < nbytes:
            n = next(w for w in (32, 16, 8, 4, 2, 1) if w <= nbytes - done)
            at = f"({done // GRF_BYTES},{done % GRF_BYTES})"
            self.emit(f"mov (M1_NM, {n}) {data}{at}<1> {name}{at}<1;1,0>")
            done += n
        address = self._new("uq", 1)
        self.emit(f"add (M1_NM, 1) {address}(0,0)<1> {self.thread_frame}(0,0)<0;1,0> "
                  f"0x{self.alloca_offsets[id(arg)]:x}:uq")
        self.names[id(arg)] = address
        done = 0
        while done < padded:
            owords = next(w for w in (8, 4, 2, 1) if w * OWORD <= padded - done)
            at = address
            if done:
                at = self._new("uq", 1)
                self.emit(f"add (M1_NM, 1) {at}(0,0)<1> {address}(0,0)<0;1,0> 0x{done:x}:uq")
            self._block_store(at, data, done, owords)
            done += owords * OWORD

    def _alloca(self, inst) -> None:
        offset = self.alloca_offsets[id(inst)]
        if self.uniform(inst):
            self.emit(f"add (M1_NM, 1) {self.dst(inst)} {self.thread_frame}(0,0)<0;1,0> 0x{offset:x}:uq")
        else:
            self.emit(f"add (M1_NM, {self.simd}) {self.dst(inst)} {self.lane_frame}(0,0)<1;1,0> 0x{offset:x}:uq")

    def _memset(self, inst, args) -> None:
        """``llvm.memset`` with a constant value and length: byte scatters (dwords where aligned)."""
        ptr, value, length = args[:3]
        if not isinstance(value, ir.ConstantInt) or not isinstance(length, ir.ConstantInt):
            raise CompileError(f"vISA code generation: {inst} (memset of a variable length) is not supported")
        byte = value.value & 0xFF
        base = self._wide(ptr, "uq")
        data = self._new("ud", self.simd)
        done = 0
        while done < length.value:
            step = 4 if length.value - done >= 4 else 1
            fill = int.from_bytes(bytes([byte]) * step, "little")
            self.emit(f"mov (M1, {self.simd}) {data}(0,0)<1> 0x{fill:x}:ud")
            addr = self._element_address(base, done)
            block, blocks = (4, 1) if step == 4 else (1, 1)
            for lane, n, m in self._halves():
                self._global_message(True, f"({m}, {n})", self._piece(addr, "uq", lane, n),
                                     self._piece(data, "ud", lane, n), step)
            done += step
