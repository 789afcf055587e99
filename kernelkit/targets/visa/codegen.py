"""kernelkit.ir kernel -> vISA text (spec 004 text format), SIMD lanes = work-items.

Values the uniformity analysis (kernelkit.ir.analysis) finds uniform live in one-element variables
written with NoMask at execution size 1 and read with the scalar region <0;1,0>; varying values in
SIMD-wide variables written under the execution mask. Control flow is vISA's SIMD control flow as
IGC emits it: every branch is a ``goto`` (lanes whose predicate holds wait at the label), uniform
conditions give execution size 1; phi copies sit at the end of each predecessor, predicated on the
edge. Global memory is reached with SVM (A64) gather/scatter messages, one lane per work-item;
``__local`` memory with SLM messages. The payload is kernelkit.abi.visa's.

What is not generated yet is refused with a CompileError naming the instruction.
"""

from __future__ import annotations

import struct

from kernelkit import ir
from kernelkit.abi.opencl_types import ir_field_offset
from kernelkit.abi.visa import GRF_BYTES, Payload
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.analysis import UniformityAnalysis, WorkItemRoots
from kernelkit.targets.visa.arith import ArithmeticCodegen
from kernelkit.targets.visa.calls import CallCodegen
from kernelkit.targets.visa.collectives import CollectiveCodegen, collective_kind
from kernelkit.targets.visa.debuginfo import source_position
from kernelkit.targets.visa.float64 import DoubleCodegen
from kernelkit.targets.visa.generic import GenericCodegen, casts_local_to_generic
from kernelkit.targets.visa.memory_access import MemoryCodegen
from kernelkit.targets.visa.printf import PrintfCodegen, printf_only_fpext
from kernelkit.targets.visa.private import PrivateCodegen
from kernelkit.targets.visa.subgroups import NEEDS_LANE, NEEDS_LINEAR, SubGroupCodegen
from kernelkit.targets.visa.vtypes import (
    BINARY,
    CMP,
    LOCAL_SPACE,
    NO_INTEGER_DIVISION,
    POINTER_BYTES,
    RAW,
    SIZES,
    UNSIGNED,
    UNSIGNED_OPS,
    _mask_values,
    _size_of,
    element_constant,
    lanes_of,
    vtype_of,
)


class KernelCodegen(CallCodegen, ArithmeticCodegen, MemoryCodegen, PrivateCodegen, CollectiveCodegen,
                    SubGroupCodegen, GenericCodegen, PrintfCodegen, DoubleCodegen):
    def __init__(self, function, signature, payload: Payload, static_slm: dict, segments=None,
                 collective_slm: int = 0):
        from kernelkit.targets.visa.segments import Segments

        self.platform = payload.platform
        self.segments = segments or Segments()
        self.fn = function
        self.sig = signature
        self.payload = payload
        self.simd = payload.simd
        self.static_slm = static_slm              # program-scope __local variable -> SLM offset
        self.collective_slm = collective_slm      # scratch of the work-group collectives
        self.uses_collectives = False
        self.generic_local = casts_local_to_generic(function)    # generic accesses split on the tag
        self.position: tuple[str, int] | None = None              # the last FILE/LOC emitted
        self.uniformity = UniformityAnalysis(function, WorkItemRoots.all_dimensions())
        self.decls: list[str] = []
        self.inputs: list[str] = []
        self.body: list[str] = []
        self.names: dict[int, str] = {}
        self.count = 0
        self.preds = 0
        self.labels: dict[int, str] = {}
        self.aliases: dict[tuple[str, str], str] = {}
        self.exit = "BB_exit"
        self.k = 0                                # the vector element being generated
        self.pairs: dict[int, tuple[str, str]] = {}   # cmpxchg -> (old value, success) operands
        self.printf_strings: list[str] = []       # the program's printf strings (shared by its kernels)
        self.printf_arguments: dict[int, int] = {}    # format string index -> argument count
        self.fp64 = False                         # the platform has doubles (printf writes them)

    # ---- variables
    def _new(self, vtype: str, n: int, prefix: str = "G") -> str:
        self.count += 1
        name = f"{prefix}{self.count}"
        align = "GRF" if n * SIZES[vtype] >= GRF_BYTES else "dword" if SIZES[vtype] <= 4 else "qword"
        self.decls.append(f".decl {name} v_type=G type={vtype} num_elts={n} align={align}")
        return name

    def _alias(self, name: str, vtype: str) -> str:
        key = (name, vtype)
        if key not in self.aliases:
            self.count += 1
            alias = f"A{self.count}"
            base = next(d for d in self.decls if d.split()[1] == name)
            n = int(base.split("num_elts=")[1].split()[0])
            btype = base.split(" type=")[1].split()[0]
            count = max(1, n * SIZES[btype] // SIZES[vtype])
            self.decls.append(f".decl {alias} v_type=G type={vtype} num_elts={count} align=dword "
                              f"alias=<{name}, 0>")
            self.aliases[key] = alias
        return self.aliases[key]

    def _pred(self) -> str:
        self.preds += 1
        name = f"P{self.preds}"
        self.decls.append(f".decl {name} v_type=P num_elts={self.simd}")
        return name

    def _tmp(self, like, vtype: str) -> tuple[str, str]:
        """A temporary as wide as ``like`` (scalar when uniform): (destination, source) operands."""
        n = 1 if self.uniform(like) else self.simd
        name = self._new(vtype, n)
        return f"{name}(0,0)<1>", f"{name}(0,0){'<0;1,0>' if n == 1 else '<1;1,0>'}"

    def uniform(self, value) -> bool:
        return isinstance(value, ir.Constant) or self.uniformity.is_uniform(value)

    def var(self, value) -> str:
        key = id(value)
        if key not in self.names:
            n = (1 if self.uniform(value) else self.simd) * lanes_of(value.type)
            self.names[key] = self._new(vtype_of(value.type), n)
        return self.names[key]

    # ---- operands
    def _place(self, value, vtype: str) -> str:
        """(row,col) of element ``self.k`` of ``value`` (its own element 0 when scalar)."""
        k = self.k if isinstance(value.type, T.VectorType) else 0
        width = 1 if self.uniform(value) else self.simd
        byte = k * width * SIZES[vtype_of(value.type)]
        return f"({byte // GRF_BYTES},{byte % GRF_BYTES // SIZES[vtype]})"

    def modified(self, modifier: str, value, vtype: str | None = None) -> str:
        """``(abs)``/``(-)`` applied to a source; to an immediate (which GenX_IR's text grammar cannot
        modify), the folded immediate."""
        text = self.src(value, vtype)
        if not text.startswith("0x"):
            return f"({modifier}){text}"
        raw, ty = text.split(":")
        bits = 8 * SIZES[ty]
        value, sign = int(raw, 16), 1 << (bits - 1)
        if ty in ("f", "df", "hf"):
            value = value & ~sign if modifier == "abs" else value ^ sign
        else:
            signed = value - 2 * (value & sign)
            value = (abs(signed) if modifier == "abs" else -signed) & ((1 << bits) - 1)
        return f"0x{value:x}:{ty}"

    def src(self, value, vtype: str | None = None) -> str:
        """``value`` (element ``self.k`` of a vector) as a source operand (of type ``vtype`` when
        reinterpreted)."""
        if isinstance(value, ir.Constant) and not isinstance(value, ir.GlobalValue | ir.ConstantExpr):
            value = element_constant(value, self.k if isinstance(value.type, T.VectorType) else 0)
        if isinstance(value, ir.ConstantInt):
            ty = vtype or vtype_of(value.type)
            if value.type == T.i1:
                return f"0x{(-1 if value.value & 1 else 0) & 0xFFFF:x}:{ty}"
            bits = SIZES[ty] * 8
            return f"0x{value.value & ((1 << bits) - 1):x}:{ty}"
        if isinstance(value, ir.ConstantFP):      # reinterpreted as ``vtype`` (bits kept) when given
            own = vtype_of(value.type)
            ty = vtype or own
            raw = int.from_bytes(struct.pack({"f": "<f", "df": "<d", "hf": "<e"}[own], value.value), "little")
            return f"0x{raw & ((1 << 8 * SIZES[ty]) - 1):x}:{ty}"
        if isinstance(value, ir.GlobalVariable) and value.addrspace == LOCAL_SPACE:
            return f"0x{self.static_slm[value.name]:x}:{vtype or 'ud'}"
        if isinstance(value, ir.GlobalVariable | ir.ConstantExpr):
            return self._global_address(value)
        if isinstance(value, ir.Constant):
            raise CompileError(f"vISA code generation: constant {value} is not supported")
        name = self.var(value)
        own = vtype_of(value.type)
        step = 1
        if vtype and vtype != own:
            name = self._alias(name, vtype)
            step = max(1, SIZES[own] // SIZES[vtype])    # the low part of each wider element
        region = "<0;1,0>" if self.uniform(value) else f"<{step};1,0>"
        return f"{name}{self._place(value, vtype or own)}{region}"

    def _global_address(self, value) -> str:
        """A program-scope __global/__constant variable (or a constant GEP into one): its segment's
        base (implicit input) plus its offset, in a scalar temporary."""
        offset = 0
        while isinstance(value, ir.ConstantExpr) and value.opcode in ("getelementptr", "addrspacecast", "bitcast"):
            if value.opcode == "getelementptr":
                base_ty, first = value.source_type, True
                for idx in value.operands[1:]:
                    if not isinstance(idx, ir.ConstantInt):
                        raise CompileError(f"vISA code generation: constant expression {value} is not supported")
                    if first:
                        offset += idx.value * _size_of(base_ty)
                        first = False
                    elif isinstance(base_ty, T.LiteralStructType | T.NamedStructType):
                        offset += ir_field_offset(base_ty, idx.value, POINTER_BYTES)
                        base_ty = base_ty.elements[idx.value]
                    else:
                        base_ty = base_ty.element
                        offset += idx.value * _size_of(base_ty)
            value = value.operands[0]
        if not isinstance(value, ir.GlobalVariable) or value.name not in self.segments.offsets:
            raise CompileError(f"vISA code generation: constant {value} is not supported")
        kind, start = self.segments.offsets[value.name]
        tmp = self._new("uq", 1)
        self.emit(f"add (M1_NM, 1) {tmp}(0,0)<1> {self.implicit(kind)}(0,0)<0;1,0> 0x{start + offset:x}:uq")
        return f"{tmp}(0,0)<0;1,0>"

    def dst(self, value, vtype: str | None = None) -> str:
        name = self.var(value)
        if vtype and vtype != vtype_of(value.type):
            name = self._alias(name, vtype)
        return f"{name}{self._place(value, vtype or vtype_of(value.type))}<1>"

    def exe(self, value) -> str:
        return "(M1_NM, 1)" if self.uniform(value) else f"(M1, {self.simd})"

    def emit(self, line: str) -> None:
        self.body.append("    " + line)

    # ---- the kernel
    def generate(self) -> str:
        self._prologue()
        blocks = list(self.fn.blocks)
        for i, block in enumerate(blocks):
            self.labels[id(block)] = f"BB_{i}"
        for i, block in enumerate(blocks):
            self.body.append(f"{self.labels[id(block)]}:")
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            for inst in block:
                self._source_position(inst)
                self._instruction(inst, block, nxt)
        self.body.append(f"{self.exit}:")
        self.emit("ret (M1, 1)")
        head = [".version 4.1", f'.kernel "{self.fn.name}"']
        attrs = ['.kernel_attr Target="3d"', f".kernel_attr SimdSize={self.simd}"]
        return "\n".join(head + self.decls + self.inputs + attrs + ['.function "_main_0"', "_main_0:"]
                         + self.body) + "\n"

    def _source_position(self, inst) -> None:
        """FILE/LOC before the code of an instruction whose source position changes (-g builds)."""
        position = source_position(inst)
        if position is None or position == self.position:
            return
        if self.position is None or position[0] != self.position[0]:
            self.emit(f'FILE "{position[0]}"')
        self.emit(f"LOC {position[1]}")
        self.position = position

    def _prologue(self) -> None:
        self.input_vars: dict[str, str] = {}
        self.byval_inputs: list[tuple] = []
        for inp in self.payload.inputs:
            name = self._new(inp.type, inp.num_elements, "I")
            self.inputs.append(f".input {name} offset={inp.offset} size={inp.size}")
            self.input_vars[inp.name if inp.kind != "implicit" else inp.kind] = name
            if inp.kind == "argument":
                arg = self.fn.args[inp.arg_index]
                if self.sig.args[inp.arg_index].kind in ("struct", "union"):
                    self.byval_inputs.append((arg, name, inp.size))     # copied to private memory
                    continue
                want = vtype_of(arg.type)
                if SIZES.get(inp.type) != SIZES[want]:
                    raise CompileError(f"vISA code generation: argument {inp.arg_index} ({inp.name}) of type "
                                       f"{arg.type} is not supported")
                self.names[id(arg)] = name if inp.type == want else self._alias(name, want)
        self.r0 = self._new("ud", 8, "R")
        self.decls.append(self.decls.pop().replace("align=GRF", "align=GRF alias=<%r0, 0>"))
        # SIMD-wide local ids (dword), from the 16-lane uw payload GRFs
        self.local_ids = []
        for dim in range(3):
            parts = [i for i in self.payload.inputs if i.kind == "local_id" and i.dim == dim]
            if not parts:
                break
            lid = self._new("d", self.simd, "L")
            for part in parts:
                n = min(16, self.simd - part.lane)
                mask = f"M{part.lane // 4 + 1}"
                self.emit(f"mov ({mask}_NM, {n}) {lid}(0,{part.lane})<1> {self.input_name(part)}(0,0)<1;1,0>")
            self.local_ids.append(lid)
        self._private_prologue()
        called = {_base_name(i) for b in self.fn.blocks for i in b if isinstance(i, ir.CallInst)}
        if any(collective_kind(name) for name in called) or called & NEEDS_LINEAR:
            self._local_linear()             # (in the entry block: every collective's loop reads it)
        if called & NEEDS_LANE:
            self._lane_index()

    def input_name(self, inp) -> str:
        return self.input_vars[inp.name]

    def implicit(self, kind: str) -> str:
        inp = self.payload.implicit(kind)
        if inp is None:
            raise CompileError(f"vISA code generation: the payload has no {kind}")
        return self.input_vars[inp.name]

    # ---- instructions
    def _instruction(self, inst, block, nxt) -> None:
        op = inst.opcode
        if isinstance(inst, ir.PhiInst) or printf_only_fpext(inst):
            return
        if isinstance(inst.type, T.VectorType) and op in ELEMENTWISE | {"call"}:
            for self.k in range(inst.type.count):
                self._scalar_instruction(inst, block, nxt)
            self.k = 0
            return
        if op in ("extractelement", "insertelement", "shufflevector"):
            self._vector_op(inst)
            return
        self._scalar_instruction(inst, block, nxt)

    def _scalar_instruction(self, inst, block, nxt) -> None:
        op = inst.opcode
        if op in BINARY or op == "fneg":
            self._binary(inst)
        elif isinstance(inst, ir.CompareInst):
            self._compare(inst)
        elif isinstance(inst, ir.CastInst) or op in ("zext", "sext", "trunc", "sitofp", "uitofp", "fptosi",
                                                      "fptoui", "fpext", "fptrunc", "bitcast"):
            self._cast(inst)
        elif op == "select":
            self._select(inst)
        elif op == "getelementptr":
            self._gep(inst)
        elif op == "load":
            self._load(inst)
        elif op == "store":
            self._store(inst)
        elif op == "call":
            self._call(inst)
        elif op == "br":
            self._branch(inst, block, nxt)
        elif op == "switch":
            self._switch(inst, block)
        elif op == "ret":
            self._phi_copies(block, None)
            self.emit(f"goto (M1, {self.simd}) {self.exit}")
        elif op == "unreachable":
            pass
        elif op == "alloca":
            self._alloca(inst)
        elif op in ("atomicrmw", "cmpxchg"):
            self._atomic_instruction(inst)
        elif op == "extractvalue":
            self._extract_value(inst)
        elif op == "freeze":
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.src(inst.operands[0])}")
        else:
            raise CompileError(f"vISA code generation: {op} ({inst}) is not supported")

    def _binary(self, inst) -> None:
        op = inst.opcode
        vt = vtype_of(inst.type)
        if op == "fneg":
            self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {self.modified('-', inst.operands[0])}")
            return
        a, b = inst.operands
        st = UNSIGNED[vt] if op in UNSIGNED_OPS else vt
        if inst.type == T.i1 and op in ("and", "or", "xor"):
            st = "w"
        if op == "mul" and SIZES[vt] == 8:
            self._mul64(inst, a, b)
            return
        if op in ("udiv", "sdiv", "urem", "srem"):
            if self._divide_by_power_of_two(inst, a, b):
                return
            if self.platform in NO_INTEGER_DIVISION or SIZES[vt] == 8:
                self._long_division(inst, a, b)
                return
        if op in ("sub", "fsub") and isinstance(b, ir.ConstantInt):
            sb = self.src(ir.ConstantInt(b.type, -b.value), st)
        elif op in ("sub", "fsub") and isinstance(b, ir.ConstantFP):
            sb = self.src(ir.ConstantFP(b.type, -b.value), st)
        elif op in ("sub", "fsub"):
            sb = "(-)" + self.src(b, st)
        else:
            sb = self.src(b, st)
        self.emit(f"{BINARY[op]} {self.exe(inst)} {self.dst(inst, st)} {self.src(a, st)} {sb}")

    def _compare(self, inst) -> None:
        a, b = inst.operands
        vt = vtype_of(a.type)
        pred = inst.predicate
        if pred.startswith("u") and inst.opcode == "icmp":
            vt = UNSIGNED[vt]
        if pred in ("ord", "uno"):           # both operands are numbers / either is a NaN
            self._nan_test(inst, a, b, self.dst(inst), pred == "ord")
            return
        if pred not in CMP:
            raise CompileError(f"vISA code generation: comparison {pred} is not supported")
        if inst.opcode == "fcmp" and pred in UNORDERED_OR_ORDERED_NE:
            # vISA's cmp is false for NaN operands except cmp.ne: ueq/ugt/uge/ult/ule also hold for
            # NaNs, one does not
            ordered = pred == "one"
            test, nan = self._tmp(inst, "w"), self._tmp(inst, "w")
            self.emit(f"cmp.{CMP[pred]} {self.exe(inst)} {test[0]} {self.src(a, vt)} {self.src(b, vt)}")
            self._nan_test(inst, a, b, nan[0], ordered)
            self.emit(f"{'and' if ordered else 'or'} {self.exe(inst)} {self.dst(inst)} {test[1]} {nan[1]}")
            return
        self.emit(f"cmp.{CMP[pred]} {self.exe(inst)} {self.dst(inst)} {self.src(a, vt)} {self.src(b, vt)}")

    def _nan_test(self, inst, a, b, dst: str, ordered: bool) -> None:
        """``dst`` = both ``a`` and ``b`` are numbers (``ordered``) / either is a NaN."""
        test, join = ("eq", "and") if ordered else ("ne", "or")
        tested = [v for v in (a, b) if not isinstance(v, ir.ConstantFP)]   # (a constant is a number)
        if len(tested) == 1:
            self.emit(f"cmp.{test} {self.exe(inst)} {dst} {self.src(tested[0])} {self.src(tested[0])}")
            return
        left, right = self._tmp(inst, "w"), self._tmp(inst, "w")
        self.emit(f"cmp.{test} {self.exe(inst)} {left[0]} {self.src(a)} {self.src(a)}")
        self.emit(f"cmp.{test} {self.exe(inst)} {right[0]} {self.src(b)} {self.src(b)}")
        self.emit(f"{join} {self.exe(inst)} {dst} {left[1]} {right[1]}")

    def _cast(self, inst) -> None:
        op = inst.opcode
        src = inst.operands[0]
        dt, st = vtype_of(inst.type), vtype_of(src.type)
        exe = self.exe(inst)
        if op == "bitcast" and lanes_of(src.type) != lanes_of(inst.type):
            if isinstance(src.type, T.VectorType) and src.type.element == T.i1 and isinstance(inst.type, T.IntType):
                self._bools_to_bits(inst, src)
                return
            raise CompileError(f"vISA code generation: bitcast {src.type} to {inst.type} is not supported")
        if src.type == T.i1 and op == "zext":
            self.emit(f"and {exe} {self.dst(inst)} {self.src(src, 'w')} 0x1:w")
            return
        if inst.type == T.i1 and op == "trunc":
            tmp = self._new(st, 1 if self.uniform(inst) else self.simd)
            region = "<0;1,0>" if self.uniform(inst) else "<1;1,0>"
            self.emit(f"and {exe} {tmp}(0,0)<1> {self.src(src)} 0x1:{st}")
            self.emit(f"cmp.ne {exe} {self.dst(inst)} {tmp}(0,0){region} 0x0:{st}")
            return
        if op in ("zext", "uitofp"):
            st = UNSIGNED[st]
        elif op == "fptoui":
            dt = UNSIGNED[dt]
        elif op in ("bitcast", "ptrtoint", "inttoptr"):
            st = dt = RAW[SIZES[dt]]
        elif op == "addrspacecast" and getattr(src.type, "addrspace", 0) == LOCAL_SPACE:
            self._local_to_generic(inst, src)
            return
        elif op == "addrspacecast" and getattr(inst.type, "addrspace", 0) == LOCAL_SPACE:
            st = dt = "ud"                                  # generic -> __local: the SLM offset
        elif op not in ("sext", "trunc", "sitofp", "fptosi", "fpext", "fptrunc", "addrspacecast"):
            raise CompileError(f"vISA code generation: {op} ({inst}) is not supported")
        self.emit(f"mov {exe} {self.dst(inst, dt)} {self.src(src, st)}")

    def _bools_to_bits(self, inst, src) -> None:
        """``bitcast <N x i1> to iN``: bit k of the result is element k (LLVM's any/all-of idiom)."""
        exe, dt = self.exe(inst), UNSIGNED[vtype_of(inst.type)]
        width = 1 if self.uniform(inst) else self.simd
        region = "<0;1,0>" if self.uniform(inst) else "<1;1,0>"
        acc = self._new(dt, width)
        self.emit(f"mov {exe} {acc}(0,0)<1> 0x0:{dt}")
        for k in range(src.type.count):
            self.k = k
            bit = self.src(src, "w")
            self.k = 0
            tmp = self._new(dt, width)
            self.emit(f"and {exe} {tmp}(0,0)<1> {bit} 0x1:w")
            if k:
                self.emit(f"shl {exe} {tmp}(0,0)<1> {tmp}(0,0){region} 0x{k:x}:{dt}")
            self.emit(f"or {exe} {acc}(0,0)<1> {acc}(0,0){region} {tmp}(0,0){region}")
        self.emit(f"mov {exe} {self.dst(inst, dt)} {acc}(0,0){region}")

    def _select(self, inst) -> None:
        cond, a, b = inst.operands
        pred = self._predicate(cond)
        self.emit(f"({pred}) sel {self.exe(inst)} {self.dst(inst)} {self.src(a)} {self.src(b)}")

    def _predicate(self, cond) -> str:
        """A SIMD-wide predicate holding i1 ``cond`` (true = all ones) for every lane."""
        pred = self._pred()
        if isinstance(cond, ir.ConstantInt):
            bits = (1 << self.simd) - 1 if cond.value & 1 else 0
            self.emit(f"setp (M1_NM, {self.simd}) {pred} 0x{bits:x}:ud")
        else:
            self.emit(f"cmp.ne (M1_NM, {self.simd}) {pred} {self.src(cond)} 0x0:w")
        return pred

    # ---- control flow
    def _phi_copies(self, block, successor, pred: str | None = None) -> None:
        if successor is None:
            return
        phis = [p for p in successor if isinstance(p, ir.PhiInst)]
        temps = []
        for phi in phis:
            value = phi.value_for(block)
            for self.k in range(lanes_of(phi.type)):
                tmp = self._new(vtype_of(phi.type), 1 if self.uniform(phi) else self.simd)
                self.emit(f"mov {self.exe(phi)} {tmp}(0,0)<1> {self.src(value)}")
                temps.append((phi, self.k, tmp))
        for phi, k, tmp in temps:
            self.k = k
            region = "<0;1,0>" if self.uniform(phi) else "<1;1,0>"
            prefix = f"({pred}) " if pred and not self.uniform(phi) else ""
            self.emit(f"{prefix}mov {self.exe(phi)} {self.dst(phi)} {tmp}(0,0){region}")
        self.k = 0

    def _branch(self, inst, block, nxt) -> None:
        ops = inst.operands
        if len(ops) == 1:
            target = ops[0]
            self._phi_copies(block, target)
            if target is not nxt:
                self.emit(f"goto (M1, {self.simd}) {self.labels[id(target)]}")
            return
        cond, true_block, false_block = ops
        pred = self._predicate(cond)
        uniform = self.uniform(cond)
        self._phi_copies(block, true_block, pred)
        self._phi_copies(block, false_block, f"!{pred}")
        size = 1 if uniform else self.simd
        self.emit(f"(!{pred}) goto (M1, {size}) {self.labels[id(false_block)]}")
        if true_block is not nxt:
            self.emit(f"goto (M1, {self.simd}) {self.labels[id(true_block)]}")

    def _vector_op(self, inst) -> None:
        """extractelement / insertelement / shufflevector with constant indices: moves of parts."""
        op = inst.opcode
        exe = self.exe(inst)

        def move(k_dst: int, value, k_src: int) -> None:
            self.k = k_src
            source = self.src(value)
            self.k = k_dst
            self.emit(f"mov {exe} {self.dst(inst)} {source}")
            self.k = 0
        if op == "extractelement":
            vec, idx = inst.operands
            if not isinstance(idx, ir.ConstantInt):
                raise CompileError(f"vISA code generation: {inst} with a variable index is not supported")
            move(0, vec, idx.value)
            return
        if op == "insertelement":
            vec, elt, idx = inst.operands
            if not isinstance(idx, ir.ConstantInt):
                raise CompileError(f"vISA code generation: {inst} with a variable index is not supported")
            for j in range(inst.type.count):
                if j == idx.value:
                    move(j, elt, 0)
                elif not isinstance(vec, ir.ConstantSimple):
                    move(j, vec, j)
            return
        a, b, mask = inst.operands
        na = a.type.count
        for j, m in enumerate(_mask_values(mask, inst.type.count)):
            if m is None:
                continue
            move(j, a if m < na else b, m if m < na else m - na)

    def _switch(self, inst, block) -> None:
        """A chain of compares: lanes whose value equals a case go to it, the rest to the default."""
        cond = inst.operands[0]
        default = inst.operands[1]
        vt = vtype_of(cond.type)
        for value, target in inst.cases():
            pred = self._pred()
            self.emit(f"cmp.eq (M1_NM, {self.simd}) {pred} {self.src(cond)} {self.src(value, vt)}")
            self._phi_copies(block, target, pred)
            self.emit(f"({pred}) goto (M1, {1 if self.uniform(cond) else self.simd}) {self.labels[id(target)]}")
        self._phi_copies(block, default)
        self.emit(f"goto (M1, {self.simd}) {self.labels[id(default)]}")


UNORDERED_OR_ORDERED_NE = frozenset({"ueq", "ugt", "uge", "ult", "ule", "one"})
ELEMENTWISE = frozenset(set(BINARY) | {"fneg", "icmp", "fcmp", "zext", "sext", "trunc", "sitofp", "uitofp",
                                         "fptosi", "fptoui", "fpext", "fptrunc", "bitcast", "select", "freeze"})


def _base_name(call) -> str:
    """The unmangled name of a call's callee ("" when it has none)."""
    from kernelkit.targets.visa.calls import _demangle

    fn = call.called_function
    parsed = _demangle(fn.name) if fn is not None else None
    return parsed[0] if parsed else ""
