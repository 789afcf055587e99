"""Generic pointers that may point to __local memory, in the vISA code generator.

A __local pointer cast to generic becomes ``LOCAL_TAG | SLM offset`` (bits 63:61 = 010, as IGC tags
generic pointers; __global and private addresses have 000 there). In a kernel with such a cast, a
generic load or store splits per lane on the tag: an SLM message (gather4_scaled / scatter4_scaled)
predicated on the tag, an SVM message on the others. 32- and 64-bit elements (as __local accesses)."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.targets.visa.vtypes import GENERIC_SPACE, LOCAL_SPACE, SIZES, lanes_of, vtype_of

TAG_SHIFT = 61
LOCAL_TAG = 2


def casts_local_to_generic(function) -> bool:
    return any(i.opcode == "addrspacecast" and getattr(i.operands[0].type, "addrspace", None) == LOCAL_SPACE
               and getattr(i.type, "addrspace", None) == GENERIC_SPACE
               for b in function.blocks for i in b)


class GenericCodegen:
    """Mixin of KernelCodegen."""

    def _local_to_generic(self, inst, src) -> None:
        exe = self.exe(inst)
        self.emit(f"mov {exe} {self.dst(inst, 'uq')} {self.src(src, 'ud')}")
        self.emit(f"or {exe} {self.dst(inst, 'uq')} {self.src(inst, 'uq')} 0x{LOCAL_TAG << TAG_SHIFT:x}:uq")

    def _generic_access(self, load, ptr, value) -> None:
        """A load (``load``) or store (``value``) through a generic pointer, split on the tag (a 64-bit
        element: two dword SLM messages, one qword SVM message)."""
        ty = load.type if load is not None else value.type
        vt = vtype_of(ty)
        if SIZES[vt] not in (4, 8):
            raise CompileError("vISA code generation: generic accesses other than 32- and 64-bit are not supported "
                               "in kernels that cast __local pointers to generic")
        size = SIZES[vt]
        simd = self.simd
        addr = self._wide(ptr, "uq")
        words = self._alias(addr, "ud")
        tag = self._new("ud", simd)
        self.emit(f"shr (M1_NM, {simd}) {tag}(0,0)<1> {words}(0,1)<2;1,0> 0x{TAG_SHIFT - 32:x}:ud")
        local = self._pred()
        self.emit(f"cmp.eq (M1_NM, {simd}) {local} {tag}(0,0)<1;1,0> 0x{LOCAL_TAG:x}:ud")
        slm = self._new("ud", simd)
        self.emit(f"mov (M1_NM, {simd}) {slm}(0,0)<1> {words}(0,0)<2;1,0>")
        mask = "_NM" if load is not None and self.uniform(load) else ""
        flat_type = "uq" if size == 8 else "ud"
        for self.k in range(lanes_of(ty)):
            whole = self._new(vt, simd)
            if load is None:
                self.emit(f"mov (M1, {simd}) {whole}(0,0)<1> {self.src(value, vt)}")
            raw, flat_data = self._alias(whole, "ud"), self._alias(whole, flat_type)
            address = self._element_address(addr, size * self.k)
            for word in range(size // 4):
                offsets = slm
                if self.k or word:
                    offsets = self._new("ud", simd)
                    self.emit(f"add (M1_NM, {simd}) {offsets}(0,0)<1> {slm}(0,0)<1;1,0> "
                              f"0x{size * self.k + 4 * word:x}:ud")
                data = raw if size == 4 else self._new("ud", simd)
                if load is None and size == 8:
                    self.emit(f"mov (M1, {simd}) {data}(0,0)<1> {raw}(0,{word})<2;1,0>")
                for lane, n, m in self._halves():
                    off, dat = self._piece(offsets, "ud", lane, n), self._piece(data, "ud", lane, n)
                    self._slm_message(load is None, f"({m}{mask}, {n})", off, dat, local)
                if load is not None and size == 8:
                    self.emit(f"({local}) mov (M1_NM, {simd}) {raw}(0,{word})<2> {data}(0,0)<1;1,0>")
            for lane, n, m in self._halves():
                flat, dat = self._piece(address, "uq", lane, n), self._piece(flat_data, flat_type, lane, n)
                self._global_message(load is None, f"({m}{mask}, {n})", flat, dat, size, f"!{local}")
            if load is not None:
                region = "<0;1,0>" if self.uniform(load) else "<1;1,0>"
                self.emit(f"mov {self.exe(load)} {self.dst(load)} {whole}(0,0){region}")
        self.k = 0
