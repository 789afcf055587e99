"""Memory access in the vISA code generator: address arithmetic (getelementptr), loads and stores
through SVM (A64) gather/scatter messages for __global/__constant/private, and SLM messages for
__local, split into pieces the messages allow; on platforms with LSC (DG2) the same accesses are
LSC messages (lsc_load/lsc_store on .ugm with flat a64 addresses, on .slm with a32 offsets), as IGC
emits there, in SIMD16 and SIMD32 kernels. A mixin of KernelCodegen (codegen.py)."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.abi.opencl_types import ir_field_offset
from kernelkit.abi.visa import PLATFORMS_BY_NAME
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.targets.visa.vtypes import (
    GENERIC_SPACE,
    GLOBAL_SPACES,
    LOCAL_SPACE,
    MAX_SVM_LANES,
    POINTER_BYTES,
    PRIVATE_SPACE,
    SIZES,
    UNSIGNED,
    _size_of,
    lanes_of,
    vtype_of,
)

# bytes per element -> LSC data size (sub-dword data zero-extended into a dword per lane, the layout
# of svm_gather.1.N)
LSC_DATA_SIZE = {1: "d8c32", 2: "d16c32", 4: "d32", 8: "d64"}
LSC_SIMD = 16                 # DG2's LSC execution size


class MemoryCodegen:
    """getelementptr, load and store (see the module doc)."""

    @property
    def lsc(self) -> bool:
        """LSC messages: on platforms with LSC, in kernels whose pieces are whole SIMD16 messages
        (IGC's LSC_UNTYPED.md: SIMT messages use the hardware's execution size, SIMD16 on DG2; IGC
        compiles no SIMD8 kernels there, and GenX_IR 1.0.12504 crashes on some SIMD8 LSC kernels,
        e.g. corpus int_vector_ops, that it finalizes every time with SVM messages)."""
        return PLATFORMS_BY_NAME[self.platform].lsc and self.simd >= LSC_SIMD

    def _global_message(self, store: bool, exe: str, addr: str, data: str, size: int, pred: str = "") -> None:
        """One gather/scatter of ``size``-byte elements at the A64 addresses ``addr`` (per lane) to or
        from ``data`` (a dword, or qword for 8 bytes, per lane), predicated by ``pred`` when given."""
        when = f"({pred}) " if pred else ""
        if self.lsc:
            where = f"flat[{addr}]:a64"
            what = f"{data}:{LSC_DATA_SIZE[size]}"
            self.emit(f"{when}lsc_store.ugm {exe} {where} {what}" if store else
                      f"{when}lsc_load.ugm {exe} {what} {where}")
            return
        block = 8 if size == 8 else 4 if size == 4 else 1
        blocks = 1 if size >= 4 else size
        self.emit(f"{when}svm_{'scatter' if store else 'gather'}.{block}.{blocks} {exe} {addr}.0 {data}.0")

    def _slm_message(self, store: bool, exe: str, offsets: str, data: str, pred: str = "", offset: int = 0) -> None:
        """One dword gather/scatter at the SLM byte offsets ``offsets`` (per lane) plus ``offset``,
        predicated by ``pred`` when given."""
        when = f"({pred}) " if pred else ""
        if self.lsc:
            where = f"flat[{offsets}{f'+0x{offset:x}' if offset else ''}]:a32"
            self.emit(f"{when}lsc_store.slm {exe} {where} {data}:d32" if store else
                      f"{when}lsc_load.slm {exe} {data}:d32 {where}")
            return
        self.emit(f"{when}{'scatter' if store else 'gather'}4_scaled.R {exe} %slm 0x{offset:x}:ud {offsets}.0 {data}.0")

    def _block_store(self, address: str, data: str, start: int, owords: int) -> None:
        """A uniform block store of ``owords`` owords from byte ``start`` of ``data`` to the scalar A64
        ``address``: svm_block_st, or on LSC a transposed SIMD1 lsc_store of as many dwords (IGC's
        block messages on DG2)."""
        if self.lsc:
            piece = self._piece_at(data, "ud", start, owords * 4)
            self.emit(f"lsc_store.ugm (M1_NM, 1) flat[{address}]:a64 {piece}:d32x{owords * 4}t")
            return
        self.emit(f"svm_block_st ({owords}) {address}(0,0)<0;1,0> {data}.{start}")

    def _gep(self, inst) -> None:
        base, *indices = inst.operands
        vt = vtype_of(inst.type)
        ty = inst.source_type
        acc = self.src(base, vt)
        scale_type = ty
        offset = 0
        first = True
        for idx in indices:
            if first:
                size = _size_of(scale_type)
                first = False
            elif isinstance(scale_type, T.LiteralStructType | T.NamedStructType):
                k = idx.value
                offset += ir_field_offset(scale_type, k, POINTER_BYTES)
                scale_type = scale_type.elements[k]
                continue
            else:
                scale_type = scale_type.element
                size = _size_of(scale_type)
            if isinstance(idx, ir.ConstantInt):
                offset += idx.value * size
                continue
            it = "q" if vt == "uq" else "d"
            tmp = self._new(it, 1 if self.uniform(inst) else self.simd)
            if size & (size - 1) == 0:
                self.emit(f"shl {self.exe(inst)} {tmp}(0,0)<1> {self.src(idx)} 0x{size.bit_length() - 1:x}:d")
            else:                       # the finalizer has no 64-bit mul: 32 x 32 -> 64 bits
                self.emit(f"mul {self.exe(inst)} {tmp}(0,0)<1> {self.src(idx, 'd')} 0x{size:x}:d")
            nxt = self._new(vt, 1 if self.uniform(inst) else self.simd)
            rt = "<0;1,0>" if self.uniform(inst) else "<1;1,0>"
            self.emit(f"add {self.exe(inst)} {nxt}(0,0)<1> {acc} {tmp}(0,0){rt}")
            acc = f"{nxt}(0,0){rt}"
        self.emit(f"add {self.exe(inst)} {self.dst(inst)} {acc} 0x{offset & ((1 << 64) - 1):x}:{'q' if vt == 'uq' else 'd'}")

    # ---- memory
    def _halves(self):
        for lane in range(0, self.simd, MAX_SVM_LANES):
            yield lane, min(MAX_SVM_LANES, self.simd - lane), f"M{lane // 4 + 1}"

    def _wide(self, value, vtype: str) -> str:
        """A SIMD-wide variable holding ``value`` (broadcast when uniform)."""
        if not self.uniform(value) and not isinstance(value, ir.Constant):
            name = self.var(value)
            return name if vtype == vtype_of(value.type) else self._alias(name, vtype)
        wide = self._new(vtype, self.simd)
        self.emit(f"mov (M1_NM, {self.simd}) {wide}(0,0)<1> {self.src(value, vtype)}")
        return wide

    def _load(self, inst) -> None:
        ptr = inst.pointer
        vt = vtype_of(inst.type)
        size = SIZES[vt]
        if self._local_access(inst, ptr, None):
            return
        base = self._wide(ptr, "uq")
        for self.k in range(lanes_of(inst.type)):
            self._load_element(inst, self._element_address(base, self.k * size), vt, size)
        self.k = 0

    def _element_address(self, base: str, offset: int) -> str:
        """SIMD-wide address of the element ``offset`` bytes after ``base``."""
        if not offset:
            return base
        addr = self._new("uq", self.simd)
        self.emit(f"add (M1_NM, {self.simd}) {addr}(0,0)<1> {base}(0,0)<1;1,0> 0x{offset:x}:uq")
        return addr

    def _load_element(self, inst, addr: str, vt: str, size: int) -> None:
        data_type = {8: "uq", 4: "ud"}.get(size, "ud")
        data = self._new(data_type, self.simd)
        mask = "_NM" if self.uniform(inst) else ""
        for lane, n, m in self._halves():
            self._global_message(False, f"({m}{mask}, {n})", self._piece(addr, "uq", lane, n),
                                 self._piece(data, data_type, lane, n), size)
        rt = "<1;1,0>"
        if self.uniform(inst):
            rt = "<0;1,0>"
        src_t = vt if size >= 4 else UNSIGNED[vt]
        if size < 4 and not self.uniform(inst):
            rt = f"<{4 // size};1,0>"
        self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self._alias(data, src_t) if src_t != data_type else data}"
                  f"(0,0){rt}")

    def _piece_at(self, name: str, vtype: str, start: int, n: int) -> str:
        """An alias of ``n`` elements of ``name`` from byte ``start`` (GRF aligned: raw operands)."""
        self.count += 1
        alias = f"H{self.count}"
        self.decls.append(f".decl {alias} v_type=G type={vtype} num_elts={n} align=GRF alias=<{name}, {start}>")
        return alias

    def _piece(self, name: str, vtype: str, lane: int, n: int) -> str:
        """An alias of lanes lane..lane+n of a SIMD-wide variable (raw operands start at a byte)."""
        if lane == 0 and n == self.simd:
            return name
        self.count += 1
        alias = f"H{self.count}"
        self.decls.append(f".decl {alias} v_type=G type={vtype} num_elts={n} align=GRF "
                          f"alias=<{name}, {lane * SIZES[vtype]}>")
        return alias

    def _local_access(self, load, ptr, value) -> bool:
        """A load (``load``) or store (``value``) through ``ptr`` that goes to __local memory (SLM
        messages; generic pointers that may be local): emitted here, True. Global and private
        accesses: False, for the SVM path. Other address spaces are refused."""
        space = ptr.type.addrspace
        if space == LOCAL_SPACE:
            self._slm(load, ptr, value)
            return True
        if space == GENERIC_SPACE and self.generic_local:
            self._generic_access(load, ptr, value)
            return True
        if space not in GLOBAL_SPACES and space != PRIVATE_SPACE:
            what = "loads from" if load is not None else "stores to"
            raise CompileError(f"vISA code generation: {what} address space {space} are not supported")
        return False

    def _store(self, inst) -> None:
        value, ptr = inst.value, inst.pointer
        if self._local_access(None, ptr, value):
            return
        vt = vtype_of(value.type)
        size = SIZES[vt]
        base = self._wide(ptr, "uq")
        for self.k in range(lanes_of(value.type)):
            addr = self._element_address(base, self.k * size)
            data_type = {8: "uq", 4: "ud"}.get(size, "ud")
            data = self._new(data_type, self.simd)
            st = vt if size >= 4 else UNSIGNED[vt]
            stride = 1 if size >= 4 else 4 // size
            self.emit(f"mov (M1, {self.simd}) {self._alias(data, st) if st != data_type else data}(0,0)<{stride}> "
                      f"{self.src(value, st)}")
            for lane, n, m in self._halves():
                self._global_message(True, f"({m}, {n})", self._piece(addr, "uq", lane, n),
                                     self._piece(data, data_type, lane, n), size)
        self.k = 0

    def _slm(self, load, ptr, value) -> None:
        """Dword SLM access (each element of a vector in turn; a 64-bit element as its two dwords):
        gather4_scaled / scatter4_scaled on %slm (T0)."""
        ty = load.type if load is not None else value.type
        vt = vtype_of(ty)
        if SIZES[vt] not in (4, 8):
            raise CompileError("vISA code generation: __local accesses other than 32- and 64-bit are not supported")
        words = SIZES[vt] // 4
        base = self._wide(ptr, "ud")
        for self.k in range(lanes_of(ty)):
            whole = self._new(vt, self.simd)
            if load is None:
                self.emit(f"mov (M1, {self.simd}) {whole}(0,0)<1> {self.src(value, vt)}")
            raw = whole if vt == "ud" else self._alias(whole, "ud")
            for word in range(words):
                offsets = base
                if self.k or word:
                    offsets = self._new("ud", self.simd)
                    self.emit(f"add (M1_NM, {self.simd}) {offsets}(0,0)<1> {base}(0,0)<1;1,0> "
                              f"0x{SIZES[vt] * self.k + 4 * word:x}:ud")
                data = raw if words == 1 else self._new("ud", self.simd)
                if load is None and words > 1:
                    self.emit(f"mov (M1, {self.simd}) {data}(0,0)<1> {raw}(0,{word})<2;1,0>")
                for lane, n, m in self._halves():
                    off, dat = self._piece(offsets, "ud", lane, n), self._piece(data, "ud", lane, n)
                    mask = "_NM" if load is not None and self.uniform(load) else ""
                    self._slm_message(load is None, f"({m}{mask}, {n})", off, dat)
                if load is not None and words > 1:
                    self.emit(f"mov (M1_NM, {self.simd}) {raw}(0,{word})<2> {data}(0,0)<1;1,0>")
            if load is not None:
                rt = "<0;1,0>" if self.uniform(load) else "<1;1,0>"
                self.emit(f"mov {self.exe(load)} {self.dst(load)} {whole}(0,0){rt}")
        self.k = 0
