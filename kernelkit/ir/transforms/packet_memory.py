"""Memory accesses of the packetiser (`transforms.packetise`): by the stride analysis, a uniform
address stays a scalar access, consecutive elements are one vector load/store from lane 0's
address (masked in a divergent region), anything else is a gather/scatter; OpenCL vectors that
are not consecutive go per lane. In a divergent region an access whose lanes share one address is
one scalar access done when any lane is active (a store: the last active lane's value, as work-items
run in order), not a gather/scatter of that address (which x86 code generation makes expensive)."""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.transforms.divergent_regions import DivergentRegion, VectorisationFailure
from kernelkit.ir.values import ConstantInt, ConstantSimple, Value


def type_suffix(ty: T.Type) -> str:
    """LLVM's overloaded-intrinsic spelling of a type: f32, i64, v8f32, p1, v8p0."""
    if isinstance(ty, T.IntType):
        return f"i{ty.bits}"
    if isinstance(ty, T.FloatType):
        return {"half": "f16", "float": "f32", "double": "f64", "bfloat": "bf16"}.get(ty.kind, ty.kind)
    if isinstance(ty, T.PointerType):
        return f"p{ty.addrspace}"
    if isinstance(ty, T.VectorType):
        return f"v{ty.count}{type_suffix(ty.element)}"
    raise VectorisationFailure(f"no intrinsic overload for type {ty}")


class PacketMemory:
    """Loads and stores of a `Packetiser` (mixed into it; uses its lanes, masks and vector forms)."""

    def _contiguous(self, pointer: Value, ty: T.Type) -> bool:
        size = self.sa.size_of(ty)
        if isinstance(ty, T.VectorType) and self.sa.size_of(ty.element) * ty.count != size:
            return False
        return self.sa.stride(pointer).step == size

    def _align_attr(self, inst: I.MemoryAccess) -> list[str]:
        return [f"align {inst.align}"] if inst.align else []

    def _intrinsic(self, name: str, ret: T.Type, args: list[Value], attrs: list[list[str]],
                   b: IRBuilder) -> I.CallInst:
        module = self.g.module
        fnty = T.FunctionType(ret, tuple(a.type for a in args))
        fn = module.declare_function(name, fnty)  # type: ignore[union-attr]
        call = b.call(fn, args, function_type=fnty)
        call.arg_attributes = attrs
        return call

    def _load(self, inst: I.LoadInst, region: DivergentRegion | None, b: IRBuilder) -> Value:
        if inst.volatile or inst.atomic:
            raise VectorisationFailure("varying volatile or atomic load")
        ty = inst.type
        wide = self.widen(ty)
        mask = self.block_mask.get(inst.parent) if region is not None else None
        ptr = inst.pointer
        if ptr in self.varying and self._contiguous(ptr, ty):
            base = self._contiguous_base(ptr, ty, mask, b)
            if mask is None:
                return b.load(wide, base, inst.name, inst.align)
            return self._intrinsic(f"llvm.masked.load.{type_suffix(wide)}.{type_suffix(base.type)}", wide,
                                   [base, self._mask_for(mask, wide, b), ConstantSimple(wide, "poison")],
                                   [self._align_attr(inst), [], []], b)
        one = self._shared_address(ptr, mask, b) if mask is not None and not isinstance(ty, T.VectorType) else None
        if one is not None:
            single = T.VectorType(ty, 1)
            got = self._intrinsic(f"llvm.masked.load.{type_suffix(single)}.{type_suffix(one.type)}", single,
                                  [one, self._any_lane(mask, b), ConstantSimple(single, "poison")],
                                  [self._align_attr(inst), [], []], b)
            return self._splat(b.extract_element(got, ConstantInt(T.i32, 0)), b)
        if isinstance(ty, T.VectorType):
            if mask is not None:
                raise VectorisationFailure("masked gather of OpenCL vectors")
            lanes = [b.load(ty, self._lane(self._vop(ptr, b), lane, b), "", inst.align) for lane in range(self.w)]
            return self._concat(lanes, b)
        ptrs = self._vop(ptr, b)
        return self._intrinsic(f"llvm.masked.gather.{type_suffix(wide)}.{type_suffix(ptrs.type)}", wide,
                               [ptrs, mask if mask is not None else self.all_true(), ConstantSimple(wide, "poison")],
                               [self._align_attr(inst), [], []], b)

    def _contiguous_base(self, ptr: Value, ty: T.Type, mask: Value | None, b: IRBuilder) -> Value:
        """Lane 0's address of a contiguous access; under a mask, when the address zero-extends lane
        arithmetic, from the first active lane's: in ``lid >= off ? tmp[lid - off] : 0`` with ``uint
        lid``, inactive lanes below ``off`` compute 2^32 - k, not a linear address (a variable
        extract costs 10-30% in scan and sgemm, so not for signed or 64-bit index arithmetic, which
        stays linear modulo 2^64 even in inactive lanes)."""
        ptrs = self._vop(ptr, b)
        if mask is None or not self._unsigned_index(ptr):
            return b.extract_element(ptrs, ConstantInt(T.i32, 0))
        first = self._first_lane(mask, b)
        first = b.and_(first, ConstantInt(first.type, self.w - 1))   # (no lane active: lane 0, nothing accessed)
        back = b.mul(b.int_resize(first, T.i64, signed=False), ConstantInt(T.i64, -self.sa.size_of(ty)))
        return b.gep(T.i8, b.extract_element(ptrs, first), [back])

    def _unsigned_index(self, ptr: Value) -> bool:
        """Does varying address ``ptr`` zero-extend arithmetic on the lanes' values (not just an id)?"""
        todo, seen = [ptr], set()
        while todo:
            v = todo.pop()
            if v in seen or v not in self.varying or not isinstance(v, I.Instruction):
                continue
            seen.add(v)
            if isinstance(v, I.CastInst) and v.opcode == "zext":
                inner = v.operands[0]
                while isinstance(inner, I.CastInst) and inner.opcode == "trunc":
                    inner = inner.operands[0]
                if inner in self.varying and not (isinstance(inner, I.Instruction) and self.roots.classify(inner)):
                    return True
            if isinstance(v, I.GetElementPtrInst | I.CastInst | I.BinaryOp):
                todo.extend(v.operands)
        return False

    def _shared_address(self, ptr: Value, mask: Value, b: IRBuilder) -> Value | None:
        """The one address of an access whose lanes all use the same one (None otherwise): the pointer
        when it is uniform, else the first active lane's (inactive lanes' may be undefined)."""
        if ptr not in self.varying:
            return ptr
        if not self.sa.stride(ptr).uniform:
            return None
        return b.extract_element(self._vop(ptr, b), self._first_lane(mask, b))

    def _first_lane(self, mask: Value, b: IRBuilder) -> Value:
        """The first active lane of ``mask`` (W when none is)."""
        bits = b.bitcast(mask, T.IntType(self.w))
        return self._intrinsic(f"llvm.cttz.i{self.w}", bits.type, [bits, ConstantInt(T.i1, 0)], [[], []], b)

    def _any_lane(self, mask: Value, b: IRBuilder) -> Value:
        """<1 x i1>: is any lane of ``mask`` active?"""
        width = T.IntType(self.w)
        active = b.icmp("ne", b.bitcast(mask, width), ConstantInt(width, 0))
        return b.insert_element(ConstantSimple(T.VectorType(T.i1, 1), "poison"), active, ConstantInt(T.i32, 0))

    def _last_lane(self, mask: Value, b: IRBuilder) -> Value:
        bits = b.bitcast(mask, T.IntType(self.w))
        lead = self._intrinsic(f"llvm.ctlz.i{self.w}", bits.type, [bits, ConstantInt(T.i1, 0)], [[], []], b)
        return b.sub(ConstantInt(bits.type, self.w - 1), lead)

    def _concat(self, lanes: list[Value], b: IRBuilder) -> Value:
        ty = lanes[0].type
        n = ty.count  # type: ignore[attr-defined]
        acc: Value = ConstantSimple(T.VectorType(ty.element, n * self.w), "poison")  # type: ignore[attr-defined]
        for lane, v in enumerate(lanes):
            for j in range(n):
                acc = b.insert_element(acc, b.extract_element(v, ConstantInt(T.i32, j)),
                                       ConstantInt(T.i32, lane * n + j))
        return acc

    def _store(self, inst: I.StoreInst, region: DivergentRegion | None, b: IRBuilder) -> None:
        value, ptr = inst.value, inst.pointer
        if region is None and value not in self.varying and ptr not in self.varying:
            return
        mask = self.block_mask.get(inst.parent) if region is not None else None
        if inst.volatile or inst.atomic:   # per lane, in lane order
            self._per_lane(inst, b, mask)
            return
        ty = value.type
        wide = self.widen(ty)
        vv = self._vop(value, b)
        if ptr in self.varying and self._contiguous(ptr, ty):
            base = self._contiguous_base(ptr, ty, mask, b)
            if mask is None:
                b.store(vv, base, inst.align)
            else:
                self._intrinsic(f"llvm.masked.store.{type_suffix(wide)}.{type_suffix(base.type)}", T.void,
                                [vv, base, self._mask_for(mask, wide, b)], [[], self._align_attr(inst), []], b)
        elif mask is not None and not isinstance(ty, T.VectorType) and (
                one := self._shared_address(ptr, mask, b)) is not None:
            single = T.VectorType(ty, 1)
            lane = self._last_lane(mask, b) if value in self.varying else ConstantInt(T.i32, 0)
            stored = b.insert_element(ConstantSimple(single, "poison"), b.extract_element(vv, lane), ConstantInt(T.i32, 0))
            self._intrinsic(f"llvm.masked.store.{type_suffix(single)}.{type_suffix(one.type)}", T.void,
                            [stored, one, self._any_lane(mask, b)], [[], self._align_attr(inst), []], b)
        elif isinstance(ty, T.VectorType):
            if mask is not None:
                raise VectorisationFailure("masked scatter of OpenCL vectors")
            ptrs = self._vop(ptr, b)
            for lane in range(self.w):
                b.store(self._lane(vv, lane, b), self._lane(ptrs, lane, b), inst.align)
        else:
            ptrs = self._vop(ptr, b)
            self._intrinsic(f"llvm.masked.scatter.{type_suffix(wide)}.{type_suffix(ptrs.type)}", T.void,
                            [vv, ptrs, mask if mask is not None else self.all_true()],
                            [[], self._align_attr(inst), []], b)
        self.replaced.append(inst)

