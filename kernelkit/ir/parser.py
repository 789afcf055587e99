"""`parse(text) -> Module`: module structure (header, types, globals, functions, attribute
groups, metadata). Function bodies are parsed by `parse_instructions.FunctionParser`."""

from __future__ import annotations

import gc

from kernelkit.errors import FormatError
from kernelkit.ir import types as T
from kernelkit.ir.lexer import tokenize
from kernelkit.ir.metadata import MDNode
from kernelkit.ir.module import (
    Argument,
    BasicBlock,
    Function,
    GlobalAlias,
    GlobalValue,
    GlobalVariable,
    Module,
    NamedMetadata,
    UseListOrder,
)
from kernelkit.ir.opcodes import (
    CALLING_CONVENTIONS,
    DLL_STORAGE,
    LINKAGES,
    PREEMPTION,
    UNNAMED_ADDR,
    VISIBILITIES,
)
from kernelkit.ir.parse_instructions import FunctionParser
from kernelkit.ir.parser_base import decode_name, string_body
from kernelkit.ir.values import Placeholder


def parse(text: str) -> Module:
    """Parse LLVM IR text into a Module. Raises kernelkit.FormatError (with line) on bad input."""
    collecting = gc.isenabled()
    if collecting:  # everything parsed stays alive: a cyclic collection midway would find nothing
        gc.disable()
    try:
        return _parse(text)
    finally:
        if collecting:
            gc.enable()


def parse_with_spans(text: str) -> tuple[Module, list[tuple[Function, int, int]]]:
    """``parse`` that also gives each function definition's place in ``text``: (function, offset of
    its ``define``, offset just after its closing ``}``), in text order."""
    parser = ModuleParser(text, record_spans=True)
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        module = _parse(text, parser)
    finally:
        if collecting:
            gc.enable()
    starts, ends = parser.tk.starts, parser.tk.ends
    return module, [(f, starts[first], ends[last]) for f, first, last in parser.definition_tokens]


def _parse(text: str, parser: ModuleParser | None = None) -> Module:
    parser = parser or ModuleParser(text)
    try:
        return parser.parse_module()
    except FormatError:
        raise
    except (AttributeError, TypeError, IndexError, KeyError, ValueError, RecursionError) as exc:
        last = len(parser.kinds) - 1
        if parser.pos >= last:  # the text ended inside a construct (a truncated file)
            raise FormatError("LLVM IR: unexpected end of input", line=parser.tk.line_of(last),
                              field="syntax") from None
        # ill-typed input the grammar accepted (e.g. extractelement of a scalar)
        pos = min(parser.stmt_start, last)
        raise FormatError(f"LLVM IR: malformed {type(exc).__name__}: {exc}",
                          line=parser.tk.line_of(pos), field="semantics") from None


class ModuleParser(FunctionParser):
    def __init__(self, text: str, record_spans: bool = False) -> None:
        super().__init__(tokenize(text), Module())
        self.attr_group_order: list[int] = []
        # (definition, index of its `define` token, index of its closing `}`) when asked for
        self.definition_tokens: list[tuple[Function, int, int]] | None = [] if record_spans else None

    def parse_module(self) -> Module:
        while self.kinds[self.pos] != "eof":
            self.parse_top_level()
        self.finish()
        return self.module

    def finish(self) -> None:
        for name, ph in self.global_forward.items():
            g = self.global_table.get(name)
            if g is None and name.startswith("llvm."):
                g = self._declare_intrinsic(name, ph)
            if g is None:
                self.pos = self.forward_pos.get(name, len(self.kinds) - 1)
                self.error(f"use of undefined global @{name}", "global")
            ph.replace_all_uses_with(g)
        for fn, ph, pos in self.pending_blockaddress:
            block = None
            if isinstance(fn, Placeholder):
                fn = self.global_table.get(fn.name)
            if isinstance(fn, Function):
                found = self.locals_by_function.get(id(fn), {}).get(ph.name)
                block = found if isinstance(found, BasicBlock) else None
            if block is None:
                self.pos = pos
                self.error(f"blockaddress of unknown block %{ph.name}", "block")
            ph.replace_all_uses_with(block)
        for num, node in self.md_nodes.items():
            if node.kind is None and not node.operands and num not in self.md_defined:
                self.pos = len(self.kinds) - 1
                self.error(f"use of undefined metadata !{num}", "metadata")
        self.module.attribute_groups = [self.attr_groups[n] for n in sorted(self.attr_groups)]
        self.resolve_use_list_orders()

    def _declare_intrinsic(self, name: str, ph: Placeholder) -> Function | None:
        """An intrinsic called without a declaration is declared with the call's type, as LLVM's
        own parser does (LLVM 20+)."""
        from kernelkit.ir.instructions import CallInst

        for use in ph.uses:
            call = use.user
            if isinstance(call, CallInst) and use.index == 0:
                f = Function(name, call.function_type)
                self.module.add_function(f)
                self.global_table[name] = f
                return f
        return None

    def parse_top_level(self) -> None:
        self.stmt_start = self.pos
        kind = self.kinds[self.pos]
        v = self.vals[self.pos]
        if kind == "ident":
            if v == "define" or v == "declare":
                self.pos += 1
                self.parse_function(v == "define")
            elif v == "source_filename":
                self.pos += 1
                self.expect("=")
                self.module.source_filename = string_body(self.expect("str"))
            elif v == "target":
                self.pos += 1
                which = self.next()
                self.expect("=")
                value = string_body(self.expect("str"))
                if which == "datalayout":
                    self.module.data_layout = value
                elif which == "triple":
                    self.module.triple = value
                else:
                    self.error("expected datalayout or triple")
            elif v == "attributes":
                self.pos += 1
                self.parse_attribute_group()
            elif v == "module":
                self.pos += 1
                self.expect_word("asm")
                self.module.module_asm.append(string_body(self.expect("str")))
            elif v == "uselistorder":
                self.pos += 1
                self.module.use_list_orders.append(self.parse_use_list_order())
            elif v == "uselistorder_bb":
                self.pos += 1
                self.module.use_list_orders.append(self.parse_use_list_order_bb())
            else:
                self.keep_line()
        elif kind == "local":
            self.pos += 1
            self.expect("=")
            self.expect_word("type")
            st = self.module.struct_types.get(decode_name(v)) or self.module.add_struct(decode_name(v))
            if self.accept_word("opaque"):
                st.elements = None
            else:
                packed = self.accept("<")
                body = self.parse_struct_body(packed)
                if packed:
                    self.expect(">")
                st.elements, st.packed = body.elements, packed
        elif kind == "global":
            self.pos += 1
            self.expect("=")
            self.parse_global(decode_name(v))
        elif kind == "comdat":
            self.pos += 1
            self.expect("=")
            self.expect_word("comdat")
            self.module.comdats[decode_name(v)] = self.next()
        elif kind == "mdname":
            self.pos += 1
            self.expect("=")
            self.expect("excl")
            self.expect("{")
            nm = NamedMetadata()
            if not self.accept("}"):
                while True:
                    nm.append(self.parse_metadata())
                    if self.accept("}"):
                        break
                    self.expect(",")
            self.module.named_metadata[v[1:]] = nm
        elif kind == "mdnum":
            self.pos += 1
            self.expect("=")
            num = int(v[1:])
            node = self.md_node(num)
            self.md_defined.add(num)
            node.distinct = self.accept_word("distinct")
            if self.accept("excl"):
                self.parse_md_tuple(node)
            else:
                self.parse_specialized(node, self.expect("mdname", "metadata node")[1:])
        else:
            self.error("unexpected token at top level")

    def parse_use_list_order_bb(self) -> UseListOrder:
        """``@f, %bb, { i, j, ... }`` after ``uselistorder_bb``: a block of a function defined above."""
        fn = self.global_table.get(decode_name(self.expect("global", "function name in uselistorder_bb")))
        if not isinstance(fn, Function) or fn.is_declaration:
            self.pos -= 1
            self.error("uselistorder_bb needs a function defined above it", "uselistorder")
        self.expect(",")
        block = self.locals_by_function.get(id(fn), {}).get(decode_name(self.expect("local", "basic block")))
        if not isinstance(block, BasicBlock):
            self.pos -= 1
            self.error("invalid basic block in uselistorder_bb", "uselistorder")
        self.expect(",")
        return UseListOrder(block, self.parse_use_list_indexes())

    def resolve_use_list_orders(self) -> None:
        """Directives naming a global before its definition hold its placeholder: give them the global."""
        for orders in [self.module.use_list_orders, *(f.use_list_orders for f in self.module.functions)]:
            for order in orders:
                if isinstance(order.value, Placeholder) and order.value.name in self.global_forward:
                    order.value = self.global_table[order.value.name]

    def keep_line(self) -> None:
        """Keep an unmodelled top-level line verbatim."""
        text = self.tk.text
        start = self.tk.starts[self.pos]
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        self.module.extra_lines.append(text[start:end])
        while self.kinds[self.pos] != "eof" and self.tk.starts[self.pos] < end:
            self.pos += 1

    def parse_attribute_group(self) -> None:
        num = int(self.expect("attrgrp", "#N")[1:])
        self.expect("=")
        self.expect("{")
        group = self.parse_attribute_from_number(num)
        group.attributes = []
        while not self.accept("}"):
            attr = self.parse_attribute()
            group.attributes.append(attr)  # type: ignore[arg-type]

    def parse_attribute_from_number(self, num: int):
        from kernelkit.ir.module import AttributeGroup

        group = self.attr_groups.get(num)
        if group is None:
            group = self.attr_groups[num] = AttributeGroup()
        return group

    def define_global(self, g: GlobalValue) -> None:
        name = g.name
        if name in self.global_table:
            self.error(f"redefinition of global @{name}", "global")
        self.global_table[name] = g
        g.module = self.module
        if name.isdigit():
            g.name = ""

    def parse_linkage_prefix(self, g: GlobalValue) -> None:
        while self.kinds[self.pos] == "ident":
            v = self.vals[self.pos]
            if v in LINKAGES:
                g.linkage = v
            elif v in PREEMPTION:
                g.preemption = v
            elif v in VISIBILITIES:
                g.visibility = v
            elif v in DLL_STORAGE:
                g.dll_storage = v
            elif v in UNNAMED_ADDR:
                g.unnamed_addr = v
            elif v == "thread_local":
                start = self.pos
                self.pos += 1
                if self.kinds[self.pos] == "(":
                    self.pos = self.balanced_end(self.pos) - 1
                g.thread_local = self.source_between(start, self.pos + 1)
            elif v == "addrspace":
                g.addrspace = self.parse_addrspace()
                g.type = T.PointerType(g.addrspace)
                continue
            else:
                return
            self.pos += 1

    def parse_global(self, name: str) -> None:
        probe = GlobalVariable(name, T.void)
        self.parse_linkage_prefix(probe)
        if self.at_word("alias", "ifunc"):
            kind = self.next()
            value_type = self.parse_type()
            self.expect(",")
            aliasee = self.parse_typed_value()
            g: GlobalValue = GlobalAlias(name, value_type, aliasee, addrspace=probe.addrspace,  # type: ignore[arg-type]
                                         kind=kind)
            self.copy_prefix(probe, g)
            self.define_global(g)
            self.module.aliases.append(g)  # type: ignore[arg-type]
            self.parse_global_trailer(g)
            return
        var = probe
        var.externally_initialized = self.accept_word("externally_initialized")
        if self.accept_word("constant"):
            var.is_constant = True
        else:
            self.expect_word("global")
        var.value_type = self.parse_type()
        self.define_global(var)
        self.module.globals.append(var)
        if var.linkage not in ("external", "extern_weak"):  # LLParser: only these omit it
            var.append_operand(self.parse_value(var.value_type))
        self.parse_global_trailer(var)

    @staticmethod
    def copy_prefix(src: GlobalValue, dst: GlobalValue) -> None:
        for attr in ("linkage", "preemption", "visibility", "dll_storage", "thread_local",
                     "unnamed_addr"):
            setattr(dst, attr, getattr(src, attr))

    def parse_global_trailer(self, g: GlobalValue) -> None:
        while self.accept(","):
            if self.kinds[self.pos] == "mdname":
                key, node = self.parse_attachment()
                g.metadata[key] = node
            elif self.accept_word("section"):
                g.section = string_body(self.expect("str"))
            elif self.accept_word("partition"):
                g.partition = string_body(self.expect("str"))
            elif self.accept_word("align"):
                g.align = self.int_value()
            elif self.accept_word("comdat"):
                g.comdat = self.parse_comdat_ref()
            else:
                start = self.pos
                self.next()
                if self.kinds[self.pos] in ("(",):
                    self.pos = self.balanced_end(self.pos)
                elif self.kinds[self.pos] in ("str", "int"):
                    self.pos += 1
                g.extra.append(self.source_between(start, self.pos))
        if isinstance(g, GlobalVariable):
            while self.kinds[self.pos] == "attrgrp":
                g.attributes.append(self.parse_attribute())

    def parse_comdat_ref(self) -> str:
        if self.accept("("):
            name = decode_name(self.expect("comdat"))
            self.expect(")")
            return name
        return ""

    # ---------------------------------------------------------------- functions
    def parse_function(self, is_definition: bool) -> None:
        first = self.pos - 1  # `define` / `declare`
        leading: list[tuple[str, MDNode]] = []
        while self.kinds[self.pos] == "mdname":  # `declare !dbg !5 ...`
            leading.append(self.parse_attachment())
        probe = GlobalVariable("", T.void)
        self.parse_linkage_prefix(probe)
        cconv = ""
        if self.kinds[self.pos] == "ident" and self.vals[self.pos] in CALLING_CONVENTIONS:
            cconv = self.next()
            if cconv == "cc":
                cconv = f"cc {self.int_value()}"
        ret_attrs = self.parse_param_attributes()
        ret_type = self.parse_type()
        name = decode_name(self.expect("global", "function name"))
        params, vararg = self.parse_parameter_list()
        args = [Argument(ty, arg_name, i, attrs) for i, (ty, attrs, arg_name) in enumerate(params)]
        f = Function(name, T.FunctionType(ret_type, tuple(ty for ty, _, _ in params), vararg))
        f.args = args
        for a in args:
            a.parent = f
        self.copy_prefix(probe, f)
        f.calling_conv = cconv
        f.return_attributes = ret_attrs
        f.metadata.update(leading)
        self.parse_function_trailer(f)
        self.define_global(f)
        self.module.functions.append(f)
        if is_definition:
            self.parse_body(f)
            if self.definition_tokens is not None:
                self.definition_tokens.append((f, first, self.pos - 1))

    def parse_function_trailer(self, f: Function) -> None:
        while True:
            kind = self.kinds[self.pos]
            v = self.vals[self.pos]
            if kind == "ident":
                if v in UNNAMED_ADDR:
                    f.unnamed_addr = self.next()
                elif v == "addrspace":
                    f.addrspace = self.parse_addrspace()
                    f.type = T.PointerType(f.addrspace)
                elif v == "section":
                    self.pos += 1
                    f.section = string_body(self.expect("str"))
                elif v == "partition":
                    self.pos += 1
                    f.partition = string_body(self.expect("str"))
                elif v == "comdat":
                    self.pos += 1
                    f.comdat = self.parse_comdat_ref()
                elif v == "align" and self.kinds[self.pos + 1] == "int":
                    self.pos += 1
                    f.align = self.int_value()
                elif v == "gc":
                    self.pos += 1
                    f.gc = string_body(self.expect("str"))
                elif v in ("prefix", "prologue", "personality"):
                    self.pos += 1
                    f.append_operand(self.parse_typed_value())
                    f.special_operands.append(v)
                elif v in ("define", "declare", "attributes", "source_filename", "target", "module",
                           "uselistorder", "uselistorder_bb"):
                    return
                else:
                    f.attributes.append(self.parse_attribute())
            elif kind in ("str", "attrgrp"):
                f.attributes.append(self.parse_attribute())
            elif kind == "mdname" and self.kinds[self.pos + 1] != "=":
                key, node = self.parse_attachment()
                f.metadata[key] = node
            else:
                return



