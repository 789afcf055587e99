"""Memory instructions of the AMD IL code generator, per SPIR address space (spec 000):

- __global / __constant (1, 2) and program-scope constants (the data segment, whose offset the
  prolog keeps in r769): the raw UAV (``uav_raw_load/store_id(1)``, whole dwords, up to a vec4
  per instruction); bytes and shorts through the arena UAV on Evergreen and later
  (``uav_arena_load/store_id(8)_size(...)``); on 7XX, which has no byte-addressable store, a
  byte/short store clears and sets its bits of the containing dword with ``uav_and_id`` and
  ``uav_or_id`` (atomic, so work-items writing neighbouring bytes do not race);
- __local (3): LDS (``lds_load/store_id(1)``, ``lds_load_ubyte``…) on Evergreen and Northern
  Islands; on 7XX emulated in global memory at ``(vThreadGrpIdFlat & cb0[4].z) * cb0[4].y +
  cb0[4].x`` plus the offset (spec 000 "Local offset");
- __private (0): the indexed temp array x1, one dword per element (``;memory:hwprivate``);
- atomics: ``uav_read_<op>_id(1)`` / ``lds_read_<op>_id(1)`` (cmpxchg: dst, address, new value,
  compare value).
"""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.module import GlobalVariable
from kernelkit.targets.amdil.emitter import Operand
from kernelkit.targets.amdil.regs import COMP, DATA_SEGMENT, Slot, dst_text, slot_count, src_text

RAW_UAV, ARENA_UAV, LDS_ID = 1, 8, 1
PRIVATE_ARRAY = 1
ATOMIC_OPS = {"xchg": "xchg", "add": "add", "sub": "sub", "and": "and", "or": "or", "xor": "xor",
              "max": "max", "min": "min", "umax": "umax", "umin": "umin"}
SUB_DWORD = {8: ("ubyte", "byte"), 16: ("ushort", "short")}


def _size(ty: T.Type) -> int:
    from kernelkit.abi.opencl_types import ir_size_align
    return ir_size_align(ty, 4)[0]


def _field_offset(ty, index: int) -> int:
    """Byte offset of struct member ``index`` (32-bit pointers, the layout of ``ir_size_align``)."""
    from kernelkit.abi.opencl_types import ir_field_offset

    try:
        return ir_field_offset(ty, index, 4)
    except ValueError as exc:
        raise CompileError(f"amdil: struct field {index} of {ty}") from exc


def _elem_bits(ty: T.Type) -> int:
    s = ty.scalar
    if isinstance(s, T.IntType):
        return s.bits
    if isinstance(s, T.FloatType):
        return s.bits
    return 32


class MemoryOps:
    def __init__(self):
        self._local_base: Slot | None = None

    # -- addresses ----------------------------------------------------------------------------
    @property
    def emulated_local(self) -> bool:
        return self.device.family == "7XX"

    def global_address(self, gv: GlobalVariable) -> Operand:
        placed = self.layout["globals"].get(gv.name)
        if placed is None:
            raise CompileError(f"amdil: @{gv.name} (address space {gv.addrspace}) has no place")
        space, offset = placed
        if space == "data":
            return self.em.one("iadd", Slot("r", DATA_SEGMENT, 0), offset)
        return offset

    def constant_expr(self, ce) -> list[Operand]:
        if ce.opcode == "getelementptr":
            return [self.gep(ce.source_type, ce.operands[0], ce.operands[1:])]
        if ce.opcode in ("bitcast", "addrspacecast", "inttoptr", "ptrtoint"):
            return self.val(ce.operands[0])[:1]
        raise CompileError(f"amdil: constant expression {ce.opcode} is not supported")

    def sel_getelementptr(self, inst) -> None:
        if isinstance(inst.type, T.VectorType):
            raise CompileError("amdil: vector getelementptr is not supported")
        addr = self.gep(inst.source_type, inst.operands[0], inst.operands[1:])
        self.em.mov(self.result(inst), [addr])

    def gep(self, source_type, pointer, indices) -> Operand:
        em = self.em
        base = self.val(pointer)[0]
        const = 0
        terms: list[Operand] = []
        ty = source_type
        for k, idx in enumerate(indices):
            if k == 0:
                size = _size(ty)
            elif isinstance(ty, T.LiteralStructType | T.NamedStructType):
                field = self.val(idx)[0]
                if not isinstance(field, int):
                    raise CompileError("amdil: struct index must be constant")
                const += _field_offset(ty, field)
                ty = ty.elements[field]
                continue
            else:
                ty = ty.element
                size = _size(ty)
            iv = self.val(idx)[0]
            bits = idx.type.bits if isinstance(idx.type, T.IntType) else 32
            if isinstance(iv, int):
                if bits < 32 and iv >> (bits - 1) & 1:
                    iv -= 1 << bits
                const += iv * size
                continue
            if bits < 32:
                iv = self.extend(iv, bits, True)
            if size & (size - 1) == 0:
                shift = size.bit_length() - 1
                terms.append(em.one("ishl", iv, shift) if shift else iv)
            else:
                terms.append(em.one("imul", iv, size))
        addr = base
        for t in terms:
            addr = em.one("iadd", addr, t) if not (isinstance(addr, int) and addr == 0) else t
        const &= 0xFFFFFFFF
        if const:
            if isinstance(addr, int):
                return (addr + const) & 0xFFFFFFFF
            addr = em.one("iadd", addr, const)
        return addr

    def _reg(self, o: Operand) -> Slot:
        return o if isinstance(o, Slot) else self.em.one("mov", o)

    def local_base(self) -> Slot:
        if self._local_base is None:
            em = self.em
            t = em.temp_slots(1)[0]
            # spec 000: (vThreadGrpIdFlat & cb0[4].z) * cb0[4].y + cb0[4].x, computed at the
            # top of the body, where every work-item is active
            em.lines[0:0] = [
                f"iand {dst_text(t.num, [0])}, vThreadGrpIdFlat.xxxx, cb0[4].zzzz",
                f"imul {dst_text(t.num, [0])}, {src_text([t], [0])}, cb0[4].yyyy",
                f"iadd {dst_text(t.num, [0])}, {src_text([t], [0])}, cb0[4].xxxx"]
            self._local_base = t
        return self._local_base

    def address(self, pointer) -> tuple[str, Slot | int]:
        """(memory kind, address) for a pointer operand: uav, lds or private."""
        space = pointer.type.addrspace if isinstance(pointer.type, T.PointerType) else 1
        if space == 4:
            space = _generic_origin(pointer)
        addr = self.val(pointer)[0]
        if space in (1, 2):
            return "uav", addr
        if space == 3:
            if self.emulated_local:
                return "uav", self.em.one("iadd", self.local_base(), addr)
            return "lds", addr
        if space == 0:
            return "private", addr
        raise CompileError(f"amdil: address space {space} (generic pointers need OpenCL C 2.0, "
                           f"which AMD IL devices do not support)")

    # -- loads and stores ----------------------------------------------------------------------
    def sel_load(self, inst) -> None:
        kind, addr = self.address(inst.operands[0])
        if inst.align is not None and inst.align < 4 and _elem_bits(inst.type) >= 32:
            self.load_bytewise(kind, addr, self.result(inst))
            return
        self.load_into(kind, addr, inst.type, self.result(inst))

    def sel_store(self, inst) -> None:
        value, pointer = inst.operands
        kind, addr = self.address(pointer)
        if inst.align is not None and inst.align < 4 and _elem_bits(value.type) >= 32:
            self.store_bytewise(kind, addr, self.val(value))
            return
        self.store_from(kind, addr, value.type, self.val(value))

    def load_bytewise(self, kind, addr, out: list[Slot]) -> None:
        """Dwords at an address that may not be a multiple of 4 (packed structs)."""
        em = self.em
        for k, o in enumerate(out):
            acc: Operand = 0
            for j in range(4):
                b = em.temp_slots(1)[0]
                self.load_small(kind, self.offset(addr, 4 * k + j), 8, b)
                part = em.one("ishl", em.one("iand", b, 0xFF), 8 * j) if j else \
                    em.one("iand", b, 0xFF)
                acc = part if j == 0 else em.one("ior", acc, part)
            em.mov([o], [acc])

    def store_bytewise(self, kind, addr, vals: list[Operand]) -> None:
        em = self.em
        for k, v in enumerate(vals):
            for j in range(4):
                part = em.one("ushr", v, 8 * j) if j else v
                self.store_small(kind, self.offset(addr, 4 * k + j), 8, part)

    def load_into(self, kind: str, addr, ty: T.Type, out: list[Slot]) -> None:
        bits = _elem_bits(ty)
        if bits >= 32:
            for k in range(0, len(out), 4):
                self.load_dwords(kind, self.offset(addr, 4 * k), out[k:k + 4])
            return
        size = bits // 8
        for i, o in enumerate(out):
            self.load_small(kind, self.offset(addr, i * size), bits, o)

    def store_from(self, kind: str, addr, ty: T.Type, vals: list[Operand]) -> None:
        bits = _elem_bits(ty)
        if bits >= 32:
            for k in range(0, len(vals), 4):
                self.store_dwords(kind, self.offset(addr, 4 * k), vals[k:k + 4])
            return
        size = bits // 8
        for i, v in enumerate(vals):
            self.store_small(kind, self.offset(addr, i * size), bits, v)

    def offset(self, addr, delta: int):
        if not delta:
            return addr
        if isinstance(addr, int):
            return (addr + delta) & 0xFFFFFFFF
        return self.em.one("iadd", addr, delta)

    def load_dwords(self, kind, addr, out: list[Slot]) -> None:
        em = self.em
        if kind == "uav":
            a = self._reg(addr)
            reg = out[0].num
            comps = [o.comp for o in out]
            if all(o.num == reg for o in out) and comps == list(range(len(out))):
                em.emit(f"uav_raw_load_id({RAW_UAV}) {dst_text(reg, comps)}, {_x(a)}")
                return
            tmp = em.temp_slots(4)
            em.emit(f"uav_raw_load_id({RAW_UAV}) {dst_text(tmp[0].num, list(range(len(out))))}, "
                    f"{_x(a)}")
            em.mov(out, tmp[:len(out)])
            return
        for k, o in enumerate(out):
            if kind == "lds":
                a = self._reg(self.offset(addr, 4 * k))
                em.emit(f"lds_load_id({LDS_ID}) {dst_text(o.num, [o.comp])}, {_x(a)}")
            else:
                em.emit(f"mov {dst_text(o.num, [o.comp])}, {self.private_element(addr, k)}.xxxx")

    def store_dwords(self, kind, addr, vals: list[Operand]) -> None:
        em = self.em
        if kind == "uav":
            a = self._reg(addr)
            n = len(vals)
            comps = list(range(n))
            src = em._source(vals, comps)
            em.emit(f"uav_raw_store_id({RAW_UAV}) mem0.{''.join(COMP[c] if c < n else '_' for c in range(4))}"
                    f", {_x(a)}, {src}")
            return
        for k, v in enumerate(vals):
            if kind == "lds":
                a = self._reg(self.offset(addr, 4 * k))
                em.emit(f"lds_store_id({LDS_ID}) {_x(a)}, {_x(self._reg(v))}")
            else:
                target = self.private_element(addr, k)
                em.emit(f"mov {target}.x___, {_x(self._reg(v))}")

    def private_element(self, addr, k: int) -> str:
        if isinstance(addr, int):
            if addr % 4:
                raise CompileError("amdil: unaligned private access")
            return f"x{PRIVATE_ARRAY}[{addr // 4 + k}]"
        index = self.em.one("ushr", addr, 2)
        return f"x{PRIVATE_ARRAY}[r{index.num}.{COMP[index.comp]}" + (f"+{k}]" if k else "]")

    def load_small(self, kind, addr, bits: int, out: Slot) -> None:
        em = self.em
        unsigned_name, _ = SUB_DWORD[bits]
        if kind == "uav" and self.device.family != "7XX":
            em.emit(f"uav_arena_load_id({ARENA_UAV})_size({unsigned_name}) "
                    f"{dst_text(out.num, [out.comp])}, {_x(self._reg(addr))}")
            return
        if kind == "lds":
            em.emit(f"lds_load_{unsigned_name}_id({LDS_ID}) {dst_text(out.num, [out.comp])}, "
                    f"{_x(self._reg(addr))}")
            return
        word, shift = self.containing_dword(kind, addr)
        em.op("ushr", [out], [word], [shift])

    def containing_dword(self, kind, addr) -> tuple[Slot, Operand]:
        em = self.em
        if isinstance(addr, int):
            base, shift = addr & ~3, (addr & 3) * 8
        else:
            base = em.one("iand", addr, 0xFFFFFFFC)
            shift = em.one("ishl", em.one("iand", addr, 3), 3)
        word = em.temp_slots(1)[0]
        self.load_dwords(kind, base, [word])
        return word, shift

    def store_small(self, kind, addr, bits: int, value: Operand) -> None:
        em = self.em
        _, signed_name = SUB_DWORD[bits]
        if kind == "uav" and self.device.family != "7XX":
            em.emit(f"uav_arena_store_id({ARENA_UAV})_size({signed_name}) "
                    f"{_x(self._reg(addr))}, {_x(self._reg(value))}")
            return
        if kind == "lds":
            em.emit(f"lds_store_{signed_name}_id({LDS_ID}) {_x(self._reg(addr))}, "
                    f"{_x(self._reg(value))}")
            return
        ones = (1 << bits) - 1
        if kind == "uav":
            # 7XX: no byte-addressable store; clear and set the bits of the containing dword
            # with two UAV atomics so that neighbouring work-items' bytes survive
            if isinstance(addr, int):
                base, shift = addr & ~3, (addr & 3) * 8
            else:
                base = em.one("iand", addr, 0xFFFFFFFC)
                shift = em.one("ishl", em.one("iand", addr, 3), 3)
            mask = em.one("ishl", ones, shift) if not isinstance(shift, int) else ones << shift
            keep = em.one("inot", mask) if not isinstance(mask, int) else ~mask & 0xFFFFFFFF
            v = em.one("iand", value, ones) if not isinstance(value, int) else value & ones
            v = em.one("ishl", v, shift) if not isinstance(v, int) or not isinstance(shift, int) \
                else (v << shift) & 0xFFFFFFFF
            a = _x(self._reg(base))
            em.emit(f"uav_and_id({RAW_UAV}) {a}, {_x(self._reg(keep))}")
            em.emit(f"uav_or_id({RAW_UAV}) {a}, {_x(self._reg(v))}")
            return
        # read-modify-write of the containing dword (private memory: one work-item's own)
        word, shift = self.containing_dword(kind, addr)
        mask = em.one("ishl", ones, shift) if not isinstance(shift, int) else ones << shift
        v = em.one("iand", value, ones) if not isinstance(value, int) else value & ones
        v = em.one("ishl", v, shift) if not isinstance(v, int) or not isinstance(shift, int) \
            else (v << shift) & 0xFFFFFFFF
        keep = em.one("iand", word, em.one("inot", mask) if not isinstance(mask, int)
                      else ~mask & 0xFFFFFFFF)
        merged = em.one("ior", keep, v)
        base = addr & ~3 if isinstance(addr, int) else em.one("iand", addr, 0xFFFFFFFC)
        self.store_dwords(kind, base, [merged])

    # -- atomics ---------------------------------------------------------------------------------
    def sel_atomicrmw(self, inst) -> None:
        pointer, value = inst.operands
        self.check_atomic_width(value.type)
        if slot_count(value.type) != 1 or inst.operation not in ATOMIC_OPS:
            raise CompileError(f"amdil: atomicrmw {inst.operation} on {value.type} is not "
                               f"supported")
        kind, addr = self.address(pointer)
        out = self.result(inst)
        op = ATOMIC_OPS[inst.operation]
        self.atomic(kind, op, addr, out[0], [self.val(value)[0]])

    def sel_cmpxchg(self, inst) -> None:
        pointer, cmp, new = inst.operands
        self.check_atomic_width(cmp.type)
        if slot_count(cmp.type) != 1:
            raise CompileError(f"amdil: cmpxchg on {cmp.type} is not supported")
        kind, addr = self.address(pointer)
        out = self.result(inst)
        c = self.val(cmp)[0]
        self.atomic(kind, "cmp_xchg", addr, out[0], [self.val(new)[0], c])
        self.em.op("ieq", [out[1]], [out[0]], [c])

    def check_atomic_width(self, ty) -> None:
        """AMD's stack offers cl_khr_int64_base/extended_atomics from Southern Islands (GCN)
        on; the R700, Evergreen and Northern Islands devices of AMD IL have 32-bit atomics."""
        if isinstance(ty, T.IntType) and ty.bits == 64:
            raise CompileError(f"amdil: 64-bit atomics (cl_khr_int64_base_atomics, "
                               f"cl_khr_int64_extended_atomics) are not supported by "
                               f"{self.device.name} ({self.device.family}): AMD IL devices have "
                               f"32-bit atomics only")

    def atomic(self, kind, op, addr, out: Slot, values: list[Operand]) -> None:
        em = self.em
        a = self._reg(addr)
        srcs = "".join(f", {_x(self._reg(v))}" for v in values)
        if kind == "uav":
            em.emit(f"uav_read_{op}_id({RAW_UAV}) {dst_text(out.num, [out.comp])}, {_x(a)}{srcs}")
        elif kind == "lds":
            em.emit(f"lds_read_{op}_id({LDS_ID}) {dst_text(out.num, [out.comp])}, {_x(a)}{srcs}")
        else:   # private memory: no other work-item sees it
            self.load_dwords("private", addr, [out])
            new = _private_atomic(em, op, out, values)
            self.store_dwords("private", addr, [new])

    def sel_alloca(self, inst) -> None:
        """Allocas were given their private frame offsets before selection."""
        if id(inst) not in self.values:
            raise CompileError(f"amdil: alloca {inst} has no place in the private frame")

    def sel_fence(self, inst) -> None:
        self.em.emit("fence_memory_lds")


def _generic_origin(pointer) -> int:
    """The named address space a generic pointer was cast from (the builtin library's generic
    helpers, inlined): followed through GEPs, casts, phis and selects."""
    from kernelkit.ir.values import ConstantExpr

    seen: set[int] = set()
    spaces: set[int] = set()
    work = [pointer]
    while work:
        v = work.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        op = getattr(v, "opcode", None)
        if op == "addrspacecast":
            src = v.operands[0]
            sp = src.type.addrspace
            if sp == 4:
                work.append(src)
            else:
                spaces.add(sp)
        elif op in ("getelementptr", "bitcast", "freeze"):
            work.append(v.operands[0])
        elif op == "phi":
            work += [x for x, _ in v.incoming()]
        elif op == "select":
            work += v.operands[1:3]
        elif isinstance(v, ConstantExpr):
            work.append(v.operands[0])
        else:
            spaces.add(-1)
    if len(spaces) != 1 or -1 in spaces:
        raise CompileError("amdil: a generic pointer whose address space is not known at compile "
                           "time (generic pointers need OpenCL C 2.0, which AMD IL devices do "
                           "not support)")
    return spaces.pop()


def _x(s: Slot) -> str:
    return f"{s.file}{s.num}.{COMP[s.comp]}"


def _private_atomic(em, op, old: Slot, values):
    v = values[0]
    simple = {"add": "iadd", "and": "iand", "or": "ior", "xor": "ixor", "max": "imax",
              "min": "imin", "umax": "umax", "umin": "umin"}
    if op in simple:
        return em.one(simple[op], old, v)
    if op == "sub":
        return em.one("iadd", old, em.one("inegate", v))
    if op == "xchg":
        return v
    if op == "cmp_xchg":
        return em.one("cmov_logical", em.one("ieq", old, values[1]), v, old)
    raise CompileError(f"amdil: private atomic {op}")
