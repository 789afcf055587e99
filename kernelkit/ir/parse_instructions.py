"""Function bodies: blocks, local names, forward references and every instruction."""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.lexer import Tokens
from kernelkit.ir.metadata import DebugRecord
from kernelkit.ir.module import Argument, BasicBlock, Function, Module, UseListOrder
from kernelkit.ir.opcodes import (
    ATOMICRMW_OPS,
    BINARY_OPS,
    CALLING_CONVENTIONS,
    CAST_OPS,
    FAST_MATH_FLAGS,
    OPCODE_FLAGS,
    ORDERINGS,
    TERMINATORS,
)
from kernelkit.ir.parser_base import ParserBase, decode_name, string_body
from kernelkit.ir.values import Placeholder, Value

# function attributes that may follow a call's arguments (none of them is an instruction name)
CALL_SITE_ATTRIBUTE_WORDS = frozenset({
    "alwaysinline", "builtin", "cold", "convergent", "hot", "memory", "mustprogress", "nobuiltin",
    "nocallback", "noduplicate", "nofree", "noinline", "nomerge", "norecurse", "noreturn", "nosync",
    "nounwind", "readnone", "readonly", "strictfp", "willreturn", "writeonly",
})


class FunctionParser(ParserBase):
    def __init__(self, tokens: Tokens, module: Module) -> None:
        super().__init__(tokens, module)
        self.md_defined: set[int] = set()
        self.locals: dict[str, Value] = {}
        self.forward: dict[str, Value] = {}  # Placeholder or not-yet-placed BasicBlock
        self.function: Function | None = None
        self.next_number = 0
        self.locals_by_function: dict[int, dict[str, Value]] = {}

    # ---------------------------------------------------------------- names
    def lookup_local(self, name: str, ty: T.Type) -> Value:
        v = self.locals.get(name)
        if v is not None:
            return v
        v = self.forward.get(name)
        if v is None:
            v = self.forward[name] = BasicBlock(name) if isinstance(ty, T.LabelType) else Placeholder(ty, name)
            self.forward_pos["%" + name] = self.pos - 1
        return v

    def lookup_block(self, name: str) -> BasicBlock:
        v = self.lookup_local(name, T.label)
        if not isinstance(v, BasicBlock):
            self.error(f"%{name} is not a basic block", "block")
        return v

    def define_local(self, name: str, value: Value) -> None:
        if name == "":
            name = str(self.next_number)
        if name.isdigit():
            self.next_number = int(name) + 1
            value.name = ""
        else:
            value.name = name
        if name in self.locals:
            self.error(f"redefinition of %{name}", "value")
        self.locals[name] = value
        fwd = self.forward.pop(name, None)
        if fwd is not None and fwd is not value:
            fwd.replace_all_uses_with(value)

    # ---------------------------------------------------------------- body
    def parse_body(self, f: Function) -> None:
        self.function = f
        self.locals = {}
        self.forward = {}
        self.next_number = 0
        for arg in f.args:
            self.define_local(arg.name, arg)
        self.expect("{")
        block: BasicBlock | None = None
        pending_records: list[str] = []
        while True:
            kind = self.kinds[self.pos]
            if kind == "}":
                self.pos += 1
                break
            if kind == "label":
                label = self.next()[:-1]
                name = decode_name("%" + label)
                block = self.start_block(f, name)
                continue
            if kind == "dbgrec":
                pending_records.append(self.parse_debug_record())
                continue
            if kind == "ident" and self.vals[self.pos] == "uselistorder":
                self.pos += 1
                f.use_list_orders.append(self.parse_use_list_order())
                continue
            if block is None or (block.instructions and block.instructions[-1].opcode in TERMINATORS):
                block = self.start_block(f, "")
            inst = self.parse_instruction()
            block.instructions.append(inst)
            inst.parent = block
            if pending_records:
                inst.debug_records = pending_records
                pending_records = []
        if self.forward:
            name = next(iter(self.forward))
            self.pos = self.forward_pos.get("%" + name, self.pos)
            self.error(f"use of undefined value %{name} in @{f.name}", "value")
        self.locals_by_function[id(f)] = self.locals
        self.function = None

    def parse_use_list_order(self) -> UseListOrder:
        """``<ty> <value>, { i, j, ... }`` after the keyword ``uselistorder``."""
        value = self.parse_typed_value()
        self.expect(",")
        return UseListOrder(value, self.parse_use_list_indexes())

    def parse_use_list_indexes(self) -> list[int]:
        """``{ i, j, ... }``: a permutation of 0..n-1, n >= 2, not the identity (LLParser's rules)."""
        start = self.pos
        self.expect("{")
        indexes = [self.int_value()]
        while self.accept(","):
            indexes.append(self.int_value())
        self.expect("}")
        if len(indexes) < 2 or sorted(indexes) != list(range(len(indexes))) or indexes == sorted(indexes):
            self.pos = start
            self.error("uselistorder indexes must be a permutation of 0..n-1 (n >= 2) that changes the order",
                       "uselistorder")
        return indexes

    def parse_debug_record(self) -> DebugRecord:
        kind = self.next()[1:]
        self.expect("(")
        ops: list = []
        if not self.accept(")"):
            while True:
                ops.append(None if self.accept_word("null") else self.parse_metadata())
                if self.accept(")"):
                    break
                self.expect(",")
        return DebugRecord(kind, ops)

    def start_block(self, f: Function, name: str) -> BasicBlock:
        key = name or str(self.next_number)
        fwd = self.forward.get(key)
        block = fwd if isinstance(fwd, BasicBlock) else BasicBlock()
        self.define_local(key, block)
        block.parent = f
        f.blocks.append(block)
        return block

    def parse_instruction(self) -> I.Instruction:
        kinds = self.kinds
        pos = self.stmt_start = self.pos
        name = ""
        if kinds[pos] == "local" and kinds[pos + 1] == "=":
            name = decode_name(self.vals[pos])
            pos += 2
        self.pos = pos
        if kinds[pos] != "ident":
            self.error("expected instruction")
        opcode = self.vals[pos]
        self.pos = pos + 1
        handler = _HANDLERS.get(opcode)
        if handler is None:
            if opcode in BINARY_OPS or opcode == "fneg":
                inst = self.parse_binary(opcode)
            elif opcode in CAST_OPS:
                inst = self.parse_cast(opcode)
            elif opcode in ("tail", "musttail", "notail"):
                self.expect_word("call")
                inst = self.parse_call(opcode)
            else:
                self.pos -= 1
                self.error(f"unknown instruction '{opcode}'", "opcode")
        else:
            inst = handler(self)
        if name or inst.type.__class__ is not T.VoidType:
            self.define_local(name, inst)
        if kinds[self.pos] == ",":
            self.parse_attachments(inst)
        return inst

    def parse_attachments(self, inst: I.Instruction) -> None:
        while self.kinds[self.pos] == "," and self.kinds[self.pos + 1] == "mdname":
            self.pos += 1
            key, node = self.parse_attachment()
            inst.metadata[key] = node

    # ---------------------------------------------------------------- helpers
    def parse_flags(self, opcode: str) -> list[str]:
        allowed = OPCODE_FLAGS.get(opcode, frozenset())
        flags = []
        while self.kinds[self.pos] == "ident" and (self.vals[self.pos] in allowed
                                                   or self.vals[self.pos] in FAST_MATH_FLAGS):
            flags.append(self.next())
        return flags

    def parse_fmf(self) -> list[str]:
        flags = []
        while self.kinds[self.pos] == "ident" and self.vals[self.pos] in FAST_MATH_FLAGS:
            flags.append(self.next())
        return flags

    def parse_trailing_align(self) -> int | None:
        """`, align N` (stops before `, !md`)."""
        if self.kinds[self.pos] == "," and self.kinds[self.pos + 1] == "ident" and self.vals[self.pos + 1] == "align":
            self.pos += 2
            return self.int_value()
        return None

    def parse_atomic_tail(self, inst: I.MemoryAccess) -> None:
        if self.accept_word("syncscope"):
            self.expect("(")
            inst.syncscope = string_body(self.expect("str"))
            self.expect(")")
        if self.at_word(*ORDERINGS):
            inst.ordering = self.next()

    # ---------------------------------------------------------------- instructions
    def parse_binary(self, opcode: str) -> I.Instruction:
        flags = self.parse_flags(opcode)
        ty = self.parse_type()
        a = self.parse_value(ty)
        if opcode == "fneg":
            return I.BinaryOp(ty, opcode, (a,), flags=flags)
        self.expect(",")
        b = self.parse_value(ty)
        return I.BinaryOp(ty, opcode, (a, b), flags=flags)

    def parse_cast(self, opcode: str) -> I.Instruction:
        flags = self.parse_flags(opcode)
        v = self.parse_typed_value()
        self.expect_word("to")
        return I.CastInst(self.parse_type(), opcode, (v,), flags=flags)

    def parse_compare(self, opcode: str) -> I.Instruction:
        flags = self.parse_flags(opcode)
        pred = self.next()
        ty = self.parse_type()
        a = self.parse_value(ty)
        self.expect(",")
        b = self.parse_value(ty)
        return I.CompareInst(opcode, pred, a, b, flags=flags)

    def parse_alloca(self) -> I.Instruction:
        keywords = []
        while self.at_word("inalloca", "swifterror"):
            keywords.append(self.next())
        ty = self.parse_type()
        count = None
        align = None
        addrspace = 0
        while self.kinds[self.pos] == "," and self.kinds[self.pos + 1] != "mdname":
            self.pos += 1
            if self.accept_word("align"):
                align = self.int_value()
            elif self.at_word("addrspace"):
                addrspace = self.parse_addrspace()
            else:
                count = self.parse_typed_value()
        inst = I.AllocaInst(ty, count, align, addrspace)
        inst.keywords = keywords
        return inst

    def parse_load(self) -> I.Instruction:
        atomic = self.accept_word("atomic")
        volatile = self.accept_word("volatile")
        ty = self.parse_type()
        self.expect(",")
        p = self.parse_typed_value()
        inst = I.LoadInst(ty, "load", (p,))
        inst.atomic, inst.volatile = atomic, volatile
        if atomic:
            self.parse_atomic_tail(inst)
        inst.align = self.parse_trailing_align()
        return inst

    def parse_store(self) -> I.Instruction:
        atomic = self.accept_word("atomic")
        volatile = self.accept_word("volatile")
        v = self.parse_typed_value()
        self.expect(",")
        p = self.parse_typed_value()
        inst = I.StoreInst(T.void, "store", (v, p))
        inst.atomic, inst.volatile = atomic, volatile
        if atomic:
            self.parse_atomic_tail(inst)
        inst.align = self.parse_trailing_align()
        return inst

    def parse_atomicrmw(self) -> I.Instruction:
        volatile = self.accept_word("volatile")
        op = self.next()
        if op not in ATOMICRMW_OPS:
            self.pos -= 1
            self.error("unknown atomicrmw operation", "operation")
        p = self.parse_typed_value()
        self.expect(",")
        v = self.parse_typed_value()
        inst = I.AtomicRMWInst(v.type, "atomicrmw", (p, v))
        inst.operation = op
        inst.volatile = volatile
        inst.atomic = True
        self.parse_atomic_tail(inst)
        inst.align = self.parse_trailing_align()
        return inst

    def parse_cmpxchg(self) -> I.Instruction:
        weak = self.accept_word("weak")
        volatile = self.accept_word("volatile")
        p = self.parse_typed_value()
        self.expect(",")
        cmp = self.parse_typed_value()
        self.expect(",")
        new = self.parse_typed_value()
        inst = I.CmpXchgInst(T.LiteralStructType((cmp.type, T.i1)), "cmpxchg", (p, cmp, new))
        inst.weak, inst.volatile, inst.atomic = weak, volatile, True
        self.parse_atomic_tail(inst)
        inst.failure_ordering = self.next()
        inst.align = self.parse_trailing_align()
        return inst

    def parse_fence(self) -> I.Instruction:
        inst = I.FenceInst(T.void, "fence", ())
        inst.atomic = True
        self.parse_atomic_tail(inst)
        return inst

    def parse_gep(self) -> I.Instruction:
        flags = []
        while self.at_word("inbounds", "nusw", "nuw", "inrange"):
            start = self.pos
            self.pos += 1
            if self.kinds[self.pos] == "(":
                self.pos = self.balanced_end(self.pos)
            flags.append(self.source_between(start, self.pos))
        source = self.parse_type()
        self.expect(",")
        p = self.parse_typed_value()
        indices = []
        while self.kinds[self.pos] == "," and self.kinds[self.pos + 1] != "mdname":
            self.pos += 1
            indices.append(self.parse_typed_value())
        return I.GetElementPtrInst(source, p, indices, flags=flags)

    def parse_select(self) -> I.Instruction:
        flags = self.parse_fmf()
        c = self.parse_typed_value()
        self.expect(",")
        a = self.parse_typed_value()
        self.expect(",")
        b = self.parse_typed_value()
        return I.SelectInst(a.type, "select", (c, a, b), flags=flags)

    def parse_phi(self) -> I.Instruction:
        flags = self.parse_fmf()
        ty = self.parse_type()
        inst = I.PhiInst(ty, "phi", (), flags=flags)
        while True:
            self.expect("[")
            v = self.parse_value(ty)
            self.expect(",")
            b = self.lookup_block(decode_name(self.expect("local", "block")))
            self.expect("]")
            inst.add_incoming(v, b)
            if not (self.kinds[self.pos] == "," and self.kinds[self.pos + 1] == "["):
                return inst
            self.pos += 1

    def parse_label_ref(self) -> BasicBlock:
        self.expect_word("label")
        return self.lookup_block(decode_name(self.expect("local", "block")))

    def parse_br(self) -> I.Instruction:
        if self.at_word("label"):
            return I.BranchInst(T.void, "br", (self.parse_label_ref(),))
        c = self.parse_typed_value()
        self.expect(",")
        t = self.parse_label_ref()
        self.expect(",")
        f = self.parse_label_ref()
        return I.BranchInst(T.void, "br", (c, t, f))

    def parse_switch(self) -> I.Instruction:
        c = self.parse_typed_value()
        self.expect(",")
        ops: list[Value] = [c, self.parse_label_ref()]
        self.expect("[")
        while not self.accept("]"):
            ops.append(self.parse_typed_value())
            self.expect(",")
            ops.append(self.parse_label_ref())
        return I.SwitchInst(T.void, "switch", ops)

    def parse_indirectbr(self) -> I.Instruction:
        ops: list[Value] = [self.parse_typed_value()]
        self.expect(",")
        self.expect("[")
        while not self.accept("]"):
            ops.append(self.parse_label_ref())
            self.accept(",")
        return I.IndirectBrInst(T.void, "indirectbr", ops)

    def parse_ret(self) -> I.Instruction:
        if self.accept_word("void"):
            return I.ReturnInst(T.void, "ret", ())
        return I.ReturnInst(T.void, "ret", (self.parse_typed_value(),))

    def parse_unreachable(self) -> I.Instruction:
        return I.UnreachableInst(T.void, "unreachable", ())

    def parse_plain_call(self) -> I.Instruction:
        return self.parse_call("")

    def parse_call(self, tail: str) -> I.Instruction:
        flags = self.parse_fmf()
        cconv = ""
        if self.kinds[self.pos] == "ident" and self.vals[self.pos] in CALLING_CONVENTIONS:
            cconv = self.next()
            if cconv == "cc":
                cconv = f"cc {self.int_value()}"
        ret_attrs = self.parse_param_attributes()
        addrspace = None
        if self.at_word("addrspace"):
            addrspace = self.parse_addrspace()
        ret = self.parse_type()
        fnty: T.FunctionType | None = None
        if self.kinds[self.pos] == "(":
            fnty = self.parse_function_type_params(ret)
        callee = self.parse_value(T.PointerType(addrspace or 0))
        self.expect("(")
        args: list[Value] = []
        arg_attrs: list[list[str]] = []
        if not self.accept(")"):
            while True:
                ty = self.parse_type()
                arg_attrs.append(self.parse_param_attributes())
                args.append(self.parse_value(ty))
                if self.accept(")"):
                    break
                self.expect(",")
        explicit = fnty is not None
        if fnty is None:
            fnty = T.FunctionType(ret, tuple(a.type for a in args))
        inst = I.CallInst(fnty, callee, args)
        inst.explicit_type = explicit
        inst.flags = flags
        inst.tail = tail
        inst.calling_conv = cconv
        inst.return_attributes = ret_attrs
        inst.arg_attributes = arg_attrs
        inst.addrspace = addrspace
        # call-site attributes: groups as LLVM prints them, or written out (`call void @f() convergent`)
        while self.kinds[self.pos] == "attrgrp" or (self.kinds[self.pos] == "ident"
                                                    and self.vals[self.pos] in CALL_SITE_ATTRIBUTE_WORDS):
            inst.attributes.append(self.parse_attribute())
        if self.kinds[self.pos] == "[":
            self.pos += 1
            while True:
                tag = string_body(self.expect("str", "operand bundle tag"))
                self.expect("(")
                count = 0
                if not self.accept(")"):
                    while True:
                        inst.append_operand(self.parse_typed_value())
                        count += 1
                        if self.accept(")"):
                            break
                        self.expect(",")
                inst.bundles.append((tag, count))
                if self.accept("]"):
                    break
                self.expect(",")
        return inst

    def parse_function_type_params(self, ret: T.Type) -> T.FunctionType:
        params, vararg = self.parse_parameter_list()
        return T.FunctionType(ret, tuple(ty for ty, _, _ in params), vararg)

    def parse_extractelement(self) -> I.Instruction:
        v = self.parse_typed_value()
        self.expect(",")
        idx = self.parse_typed_value()
        return I.VectorOpInst(v.type.element, "extractelement", (v, idx))  # type: ignore[attr-defined]

    def parse_insertelement(self) -> I.Instruction:
        v = self.parse_typed_value()
        self.expect(",")
        e = self.parse_typed_value()
        self.expect(",")
        idx = self.parse_typed_value()
        return I.VectorOpInst(v.type, "insertelement", (v, e, idx))

    def parse_shufflevector(self) -> I.Instruction:
        a = self.parse_typed_value()
        self.expect(",")
        b = self.parse_typed_value()
        self.expect(",")
        mask = self.parse_typed_value()
        ty = T.VectorType(a.type.element, mask.type.count, mask.type.scalable)  # type: ignore[attr-defined]
        return I.VectorOpInst(ty, "shufflevector", (a, b, mask))

    def parse_indices(self) -> list[int]:
        out = []
        while self.kinds[self.pos] == "," and self.kinds[self.pos + 1] == "int":
            self.pos += 1
            out.append(self.int_value())
        return out

    def parse_extractvalue(self) -> I.Instruction:
        agg = self.parse_typed_value()
        idx = self.parse_indices()
        ty = I.result_type_of_extractvalue(agg.type, idx)
        return I.AggregateOpInst(ty, "extractvalue", (agg,), idx)

    def parse_insertvalue(self) -> I.Instruction:
        agg = self.parse_typed_value()
        self.expect(",")
        v = self.parse_typed_value()
        return I.AggregateOpInst(agg.type, "insertvalue", (agg, v), self.parse_indices())

    def parse_freeze(self) -> I.Instruction:
        v = self.parse_typed_value()
        return I.FreezeInst(v.type, "freeze", (v,))

    def parse_va_arg(self) -> I.Instruction:
        p = self.parse_typed_value()
        self.expect(",")
        return I.VAArgInst(self.parse_type(), "va_arg", (p,))


_HANDLERS = {
    "icmp": lambda p: p.parse_compare("icmp"),
    "fcmp": lambda p: p.parse_compare("fcmp"),
    "alloca": FunctionParser.parse_alloca,
    "load": FunctionParser.parse_load,
    "store": FunctionParser.parse_store,
    "atomicrmw": FunctionParser.parse_atomicrmw,
    "cmpxchg": FunctionParser.parse_cmpxchg,
    "fence": FunctionParser.parse_fence,
    "getelementptr": FunctionParser.parse_gep,
    "select": FunctionParser.parse_select,
    "phi": FunctionParser.parse_phi,
    "br": FunctionParser.parse_br,
    "switch": FunctionParser.parse_switch,
    "indirectbr": FunctionParser.parse_indirectbr,
    "ret": FunctionParser.parse_ret,
    "unreachable": FunctionParser.parse_unreachable,
    "call": FunctionParser.parse_plain_call,
    "extractelement": FunctionParser.parse_extractelement,
    "insertelement": FunctionParser.parse_insertelement,
    "shufflevector": FunctionParser.parse_shufflevector,
    "extractvalue": FunctionParser.parse_extractvalue,
    "insertvalue": FunctionParser.parse_insertvalue,
    "freeze": FunctionParser.parse_freeze,
    "va_arg": FunctionParser.parse_va_arg,
}

__all__ = ["FunctionParser", "Argument"]
