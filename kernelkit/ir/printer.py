"""`str(module)`: LLVM IR text. Names are made unique on print (duplicates get a `.N`
suffix, unnamed values get sequential numbers); metadata nodes and attribute groups are
renumbered in order of appearance."""

from __future__ import annotations

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDNode, MDString, Metadata, MetadataAsValue, ValueAsMetadata
from kernelkit.ir.module import (
    Argument,
    AttributeGroup,
    BasicBlock,
    Function,
    GlobalAlias,
    GlobalValue,
    GlobalVariable,
    Module,
    UseListOrder,
)
from kernelkit.ir.names import format_global_name, format_local_name, quote_string
from kernelkit.ir.print_instructions import instruction_body
from kernelkit.ir.values import Value


def print_module(module: Module) -> str:
    return ModulePrinter(module).run()


def _unique_names(values: list[Value], start: int = 0) -> dict[int, str]:
    """id(value) -> printed name (without sigil); unnamed values numbered from `start`."""
    taken: set[str] = set()
    out: dict[int, str] = {}
    for v in values:
        n = v.name
        if n and not n.isdigit() and n not in taken:
            taken.add(n)
            out[id(v)] = n
    counter = start
    for v in values:
        if id(v) in out:
            continue
        n = v.name
        if n and not n.isdigit():
            k = 1
            while f"{n}.{k}" in taken:
                k += 1
            name = f"{n}.{k}"
            taken.add(name)
            out[id(v)] = name
        else:
            out[id(v)] = str(counter)
            counter += 1
    return out


def _unregistered_structs(m: Module) -> list[T.NamedStructType]:
    """Named structs used by the module but never added to `m.struct_types` (a pass made
    them directly), so their definitions are printed too."""
    known = {id(st) for st in m.struct_types.values()}
    found: list[T.NamedStructType] = []
    seen: set[T.Type] = set()

    def visit(ty: T.Type | None) -> None:
        if ty is None or ty.__class__ in _LEAF_TYPES or ty in seen:
            return
        seen.add(ty)
        if isinstance(ty, T.NamedStructType):
            if id(ty) not in known:
                known.add(id(ty))
                found.append(ty)
            for e in ty.elements or ():
                visit(e)
        elif isinstance(ty, T.LiteralStructType):
            for e in ty.elements:
                visit(e)
        elif isinstance(ty, T.ArrayType | T.VectorType):
            visit(ty.element)
        elif isinstance(ty, T.FunctionType):
            visit(ty.return_type)
            for p in ty.params:
                visit(p)

    for g in m.globals:
        visit(g.value_type)
    for f in m.functions:
        visit(f.function_type)
        for inst in f.instructions():
            visit(inst.type)
            for attr in ("allocated_type", "source_type", "function_type"):
                visit(getattr(inst, attr, None))
    return found


# types that hold no other type
_LEAF_TYPES = frozenset({T.IntType, T.FloatType, T.PointerType, T.VoidType, T.LabelType, T.MetadataType,
                         T.TokenType})


def _local_values(f: Function) -> list[Value]:
    """Arguments, blocks and value-producing instructions in slot order."""
    values: list[Value] = list(f.args)
    for block in f.blocks:
        values.append(block)
        values.extend(i for i in block.instructions if not isinstance(i.type, T.VoidType) or i.name)
    return values


class ModulePrinter:
    def __init__(self, module: Module) -> None:
        self.module = module
        globals_: list[Value] = [*module.globals, *module.aliases, *module.functions]
        self.global_names = _unique_names(globals_)
        self.local_names: dict[int, str] = {}
        # id(value) -> its printed reference (`@name`, `%name`): globals, and the current function's locals
        self.global_refs = {k: format_global_name(n) for k, n in self.global_names.items()}
        self.local_refs: dict[int, str] = {}
        self.type_texts: dict[int, tuple[T.Type, str]] = {}  # id(type) -> (type, its text); the type kept alive
        self.foreign_names: dict[int, dict[int, str]] = {}
        self.md_slots: dict[int, int] = {}
        self.md_order: list[MDNode] = []
        self.group_slots: dict[int, int] = {}
        self.groups: list[AttributeGroup] = []

    # ---------------------------------------------------------------- references
    def ref(self, v: Value) -> str:
        key = id(v)
        r = self.local_refs.get(key) or self.global_refs.get(key)
        if r is not None:
            return r
        if isinstance(v, GlobalValue):
            name = self.global_names.get(id(v))
            if name is None:
                name = v.name or "<detached>"
            return format_global_name(name)
        if isinstance(v, Argument | I.Instruction | BasicBlock):
            name = self.local_names.get(id(v))
            if name is None:
                name = v.name or "<detached>"
            return format_local_name(name)
        if isinstance(v, MetadataAsValue):
            return self.metadata_ref(v.metadata)
        return v._ref(self)

    def block_ref(self, block: BasicBlock) -> str:
        """A block of any function (blockaddress), named as that function prints it."""
        func = block.parent
        if func is None:
            return self.ref(block)
        names = self.foreign_names.get(id(func))
        if names is None:
            names = self.foreign_names[id(func)] = _unique_names(_local_values(func))
        return format_local_name(names[id(block)])

    def typed(self, v: Value) -> str:
        return f"{self.type_text(v.type)} {self.ref(v)}"

    def type_text(self, ty: T.Type) -> str:
        known = self.type_texts.get(id(ty))
        if known is None:
            known = self.type_texts[id(ty)] = (ty, str(ty))
        return known[1]

    def metadata_ref(self, md: Metadata | None) -> str:
        if md is None:
            return "null"
        if isinstance(md, MDNode):
            if md.kind in _INLINE_KINDS or (md.kind is None and not md.operands and not md.distinct):
                return self.md_body(md)
            slot = self.md_slots.get(id(md))
            if slot is None:
                slot = self.add_md(md)
            return f"!{slot}"
        if isinstance(md, MDString):
            return f'!"{quote_string(md.value)}"'
        if isinstance(md, ValueAsMetadata):
            return self.typed(md.value)
        raise TypeError(f"cannot print metadata {md!r}")

    def md_body(self, node: MDNode) -> str:
        prefix = "distinct " if node.distinct else ""
        if node.kind is None:
            return prefix + "!{" + ", ".join(self.metadata_ref(op) for op in node.operands) + "}"
        parts = []
        for key, value in node.fields:
            text = value if isinstance(value, str) else self.metadata_ref(value)
            parts.append(f"{key}: {text}" if key else text)
        return f"{prefix}!{node.kind}({', '.join(parts)})"

    def add_md(self, root: MDNode) -> int:
        """Number `root` and every node reachable from it (depth first, in order)."""
        stack: list[Metadata] = [root]
        slots = self.md_slots
        while stack:
            md = stack.pop()
            if not isinstance(md, MDNode) or id(md) in slots:
                continue
            if md.kind in _INLINE_KINDS or (md.kind is None and not md.operands and not md.distinct):
                stack.extend(md.children())
                continue
            slots[id(md)] = len(self.md_order)
            self.md_order.append(md)
            stack.extend(reversed(list(md.children())))
        return slots.get(id(root), -1)

    def attrs_text(self, attrs: list) -> str:
        out = []
        for a in attrs:
            if isinstance(a, AttributeGroup):
                slot = self.group_slots.get(id(a))
                if slot is None:
                    slot = self.group_slots[id(a)] = len(self.groups)
                    self.groups.append(a)
                out.append(f"#{slot}")
            else:
                out.append(a)
        return " ".join(out)

    # ---------------------------------------------------------------- module
    def run(self) -> str:
        m = self.module
        lines: list[str] = []
        if m.source_filename is not None:
            lines.append(f'source_filename = "{quote_string(m.source_filename)}"')
        if m.data_layout is not None:
            lines.append(f'target datalayout = "{quote_string(m.data_layout)}"')
        if m.triple is not None:
            lines.append(f'target triple = "{quote_string(m.triple)}"')
        for asm in m.module_asm:
            lines.append(f'module asm "{quote_string(asm)}"')
        lines.append("")
        for st in [*m.struct_types.values(), *_unregistered_structs(m)]:
            lines.append(f"{st} = type {st.body_text()}")
        for name, kind in m.comdats.items():
            lines.append(f"${_comdat_name(name)} = comdat {kind}")
        body: list[str] = []
        for group in m.attribute_groups:  # module order first, new groups after
            self.attrs_text([group])
        # named metadata first so its nodes get the low numbers
        for nodes in m.named_metadata.values():
            for node in nodes:
                if isinstance(node, MDNode):
                    self.add_md(node)
        for g in m.globals:
            body.append(self.global_text(g))
        for a in m.aliases:
            body.append(self.alias_text(a))
        body.append("")
        for f in m.functions:
            body.append(self.function_text(f))
        lines.extend(body)
        lines.extend(m.extra_lines)
        lines.extend(self.use_list_order_text(order, in_function=False) for order in m.use_list_orders)
        for i, group in enumerate(self.groups):
            lines.append(f"attributes #{i} = {{ {' '.join(group.attributes)} }}")
        lines.append("")
        for name, nodes in m.named_metadata.items():
            lines.append(f"!{_md_name(name)} = !{{{', '.join(self.metadata_ref(n) for n in nodes)}}}")
        i = 0
        while i < len(self.md_order):  # printing may discover more nodes
            lines.append(f"!{i} = {self.md_body(self.md_order[i])}")
            i += 1
        return "\n".join(lines) + "\n"

    def prefix_text(self, g: GlobalValue) -> list[str]:
        return [x for x in (g.linkage, g.preemption, g.visibility, g.dll_storage, g.thread_local,
                            g.unnamed_addr) if x]

    def trailer_text(self, g: GlobalValue) -> str:
        out = []
        if g.section is not None:
            out.append(f', section "{quote_string(g.section)}"')
        if g.partition is not None:
            out.append(f', partition "{quote_string(g.partition)}"')
        if g.comdat is not None:
            out.append(", comdat" + (f"(${_comdat_name(g.comdat)})" if g.comdat else ""))
        if g.align is not None:
            out.append(f", align {g.align}")
        out.extend(f", {x}" for x in g.extra)
        out.extend(f", !{_md_name(k)} {self.metadata_ref(v)}" for k, v in g.metadata.items())
        return "".join(out)

    def global_text(self, g: GlobalVariable) -> str:
        parts = [f"{self.ref(g)} =", *self.prefix_text(g)]
        if g.initializer is None and not g.linkage:
            parts.insert(1, "external")  # a declaration needs an explicit linkage
        if g.addrspace:
            parts.append(f"addrspace({g.addrspace})")
        if g.externally_initialized:
            parts.append("externally_initialized")
        parts.append("constant" if g.is_constant else "global")
        parts.append(str(g.value_type))
        if g.initializer is not None:
            parts.append(self.ref(g.initializer))
        text = " ".join(parts) + self.trailer_text(g)
        if g.attributes:
            text += " " + self.attrs_text(g.attributes)
        return text

    def alias_text(self, a: GlobalAlias) -> str:
        parts = [f"{self.ref(a)} =", *self.prefix_text(a)]
        if a.addrspace:
            parts.append(f"addrspace({a.addrspace})")
        parts += [a.kind, f"{a.value_type},", self.typed(a.operands[0])]
        return " ".join(parts) + self.trailer_text(a)

    # ---------------------------------------------------------------- functions
    def function_text(self, f: Function) -> str:
        self.local_names = _unique_names(_local_values(f))
        self.local_refs = {k: format_local_name(n) for k, n in self.local_names.items()}
        head = ["define" if f.blocks else "declare",
                *(x for x in (f.linkage, f.preemption, f.visibility, f.dll_storage) if x)]
        if f.calling_conv:
            head.append(f.calling_conv)
        head.extend(f.return_attributes)
        head.append(str(f.return_type))
        params = []
        for arg in f.args:
            p = " ".join([str(arg.type), *arg.attributes])
            if f.blocks:
                p += " " + self.ref(arg)
            params.append(p)
        if f.function_type.vararg:
            params.append("...")
        text = " ".join(head) + f" {self.ref(f)}({', '.join(params)})"
        if f.unnamed_addr:
            text += " " + f.unnamed_addr
        if f.addrspace:
            text += f" addrspace({f.addrspace})"
        if f.attributes:
            text += " " + self.attrs_text(f.attributes)
        if f.section is not None:
            text += f' section "{quote_string(f.section)}"'
        if f.partition is not None:
            text += f' partition "{quote_string(f.partition)}"'
        if f.comdat is not None:
            text += " comdat" + (f"(${_comdat_name(f.comdat)})" if f.comdat else "")
        if f.align is not None:
            text += f" align {f.align}"
        if f.gc is not None:
            text += f' gc "{quote_string(f.gc)}"'
        for kw, op in zip(f.special_operands, f.operands, strict=True):
            text += f" {kw} {self.typed(op)}"
        if not f.blocks:  # a declaration's attachments go right after `declare`
            if f.metadata:
                attached = " ".join(f"!{_md_name(k)} {self.metadata_ref(v)}" for k, v in f.metadata.items())
                text = text.replace("declare", f"declare {attached}", 1)
            return text + "\n"
        for k, v in f.metadata.items():
            text += f" !{_md_name(k)} {self.metadata_ref(v)}"
        lines = [text + " {"]
        for n, block in enumerate(f.blocks):
            if n:
                lines.append("")
            if n or block.name:
                lines.append(format_local_name(self.local_names[id(block)])[1:] + ":")
            for inst in block.instructions:
                for rec in inst.debug_records:
                    ops = ", ".join(self.metadata_ref(op) for op in rec.operands)
                    lines.append(f"    #{rec.kind}({ops})")
                lines.append("  " + self.instruction_text(inst))
        if f.use_list_orders:
            lines.append("")
            lines.extend("  " + self.use_list_order_text(order, in_function=True) for order in f.use_list_orders)
        lines.append("}\n")
        return "\n".join(lines)

    def use_list_order_text(self, order: UseListOrder, in_function: bool) -> str:
        """``uselistorder <ty> <value>, { ... }``; a block at module level is named through its function:
        ``uselistorder_bb @f, %bb, { ... }``."""
        indexes = ", ".join(map(str, order.indexes))
        value = order.value
        if not in_function and isinstance(value, BasicBlock) and value.parent is not None:
            return f"uselistorder_bb {self.ref(value.parent)}, {self.block_ref(value)}, {{ {indexes} }}"
        return f"uselistorder {self.typed(value)}, {{ {indexes} }}"

    def instruction_text(self, inst: I.Instruction) -> str:
        body = instruction_body(self, inst)
        if not isinstance(inst.type, T.VoidType) or inst.name:
            body = f"{self.ref(inst)} = {body}"
        for k, v in inst.metadata.items():
            body += f", !{_md_name(k)} {self.metadata_ref(v)}"
        return body


# Nodes LLVM always writes inline (never numbered).
_INLINE_KINDS = frozenset({"DIArgList", "DIExpression"})


def _md_name(name: str) -> str:
    return name


def _comdat_name(name: str) -> str:
    return format_local_name(name)[1:]


def value_text(value: Value) -> str:
    """Text of one function, block or instruction (names as the whole module would print)."""
    func = value if isinstance(value, Function) else None
    if isinstance(value, BasicBlock):
        func = value.parent
    elif isinstance(value, I.Instruction):
        func = value.function
    module = (func.module if func is not None else None) or Module()
    p = ModulePrinter(module)
    if func is not None:
        text = p.function_text(func)
        if value is func:
            return text
    if isinstance(value, I.Instruction):
        return p.instruction_text(value)
    if isinstance(value, BasicBlock):
        label = format_local_name(p.local_names.get(id(value), value.name))[1:]
        return "\n".join([f"{label}:", *("  " + p.instruction_text(i) for i in value.instructions)])
    return p.typed(value)
