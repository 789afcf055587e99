"""Module, globals, functions, arguments and basic blocks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from kernelkit.ir import types as T
from kernelkit.ir.values import Constant, User, Value

if TYPE_CHECKING:
    from kernelkit.ir.instructions import Instruction
    from kernelkit.ir.metadata import MDNode, Metadata


class AttributeGroup:
    """`attributes #N = { ... }`: verbatim attribute strings shared by functions and calls."""

    __slots__ = ("attributes",)

    def __init__(self, attributes: Iterable[str] = ()) -> None:
        self.attributes = list(attributes)

    def __repr__(self) -> str:
        return f"AttributeGroup({self.attributes})"


# parameter attributes that carry a type (LangRef "Parameter Attributes")
TYPE_ATTRIBUTES = frozenset({"byval", "byref", "sret", "elementtype", "inalloca", "preallocated"})


class TypeAttribute(str):
    """A parameter attribute carrying a type (``byval(%struct.S)``): its text as a ``str`` (so code
    reading attributes as text keeps working), with ``kind`` and the parsed ``type``; a pass that
    retypes a module maps the type (``with_type``) instead of editing the text."""

    kind: str
    type: T.Type

    def __new__(cls, kind: str, type: T.Type, text: str | None = None) -> TypeAttribute:
        self = super().__new__(cls, f"{kind}({type})" if text is None else text)
        self.kind = kind
        self.type = type
        return self

    def with_type(self, ty: T.Type) -> TypeAttribute:
        """This attribute with type ``ty`` (itself when the type does not change)."""
        return self if ty is self.type or ty == self.type else TypeAttribute(self.kind, ty)

    def __getnewargs__(self) -> tuple:
        return self.kind, self.type, str(self)

    def __copy__(self) -> TypeAttribute:
        return self

    def __deepcopy__(self, memo) -> TypeAttribute:   # immutable; its type is shared like any type
        return self


class UseListOrder:
    """A use-list order directive (LangRef, "Use-list Order Directives"): when LLVM parses the
    printed text, the parser's i-th use of ``value`` moves to place ``indexes[i]`` of its use list.
    At module level (``Module.use_list_orders``) the value is a global, a constant, or a basic
    block (printed ``uselistorder_bb @f, %bb``); in a function (``Function.use_list_orders``) it is
    one of its values or a constant. ``value`` is a plain reference, not a use: an edit that
    changes the value's uses makes the directive wrong, so a pass that rewrites a module drops
    them (``Module.drop_use_list_orders``)."""

    __slots__ = ("value", "indexes")

    def __init__(self, value: Value, indexes: Iterable[int]) -> None:
        self.value = value
        self.indexes = list(indexes)

    def __repr__(self) -> str:
        return f"UseListOrder({self.value!r}, {self.indexes})"


class NamedMetadata(list):
    """`!name = !{!0, !1}`: a list of nodes (also reachable as `.operands`)."""

    @property
    def operands(self) -> list:
        return self


class GlobalValue(User):
    __slots__ = ("module", "linkage", "preemption", "visibility", "dll_storage", "unnamed_addr",
                 "addrspace", "section", "partition", "comdat", "align", "metadata",
                 "thread_local", "extra")

    def __init__(self, name: str, addrspace: int = 0, operands: Iterable[Value] = ()) -> None:
        super().__init__(T.PointerType(addrspace), operands, name)
        self.module: Module | None = None
        self.linkage = ""
        self.preemption = ""
        self.visibility = ""
        self.dll_storage = ""
        self.thread_local = ""
        self.unnamed_addr = ""
        self.addrspace = addrspace
        self.section: str | None = None
        self.partition: str | None = None
        self.comdat: str | None = None  # "" = comdat named like the global
        self.align: int | None = None
        self.metadata: dict[str, MDNode] = {}
        self.extra: list[str] = []  # verbatim trailing properties kernelkit does not model

    def _ref(self, w) -> str:
        return w.ref(self)


class GlobalVariable(GlobalValue):
    __slots__ = ("value_type", "is_constant", "externally_initialized", "attributes")

    def __init__(self, name: str, value_type: T.Type, initializer: Constant | None = None, *,
                 addrspace: int = 0, constant: bool = False) -> None:
        super().__init__(name, addrspace, () if initializer is None else (initializer,))
        self.value_type = value_type
        self.is_constant = constant
        self.externally_initialized = False
        self.attributes: list = []

    @property
    def initializer(self) -> Constant | None:
        return self.operands[0] if self.operands else None  # type: ignore[return-value]

    @initializer.setter
    def initializer(self, value: Constant | None) -> None:
        self.set_operands(() if value is None else (value,))

    @property
    def is_declaration(self) -> bool:
        return not self.operands


class GlobalAlias(GlobalValue):
    """`@a = alias T, ptr @target` (kind "alias") or `ifunc` (kind "ifunc")."""

    __slots__ = ("value_type", "kind")

    def __init__(self, name: str, value_type: T.Type, aliasee: Constant, *, addrspace: int = 0,
                 kind: str = "alias") -> None:
        super().__init__(name, addrspace, (aliasee,))
        self.value_type = value_type
        self.kind = kind


class Argument(Value):
    __slots__ = ("parent", "index", "attributes")

    def __init__(self, type: T.Type, name: str = "", index: int = 0,
                 attributes: Iterable[str] = ()) -> None:
        super().__init__(type, name)
        self.parent: Function | None = None
        self.index = index
        self.attributes: list[str] = list(attributes)

    def _ref(self, w) -> str:
        return w.ref(self)


class BasicBlock(Value):
    __slots__ = ("parent", "instructions")

    def __init__(self, name: str = "", parent: Function | None = None) -> None:
        super().__init__(T.label, name)
        self.parent = parent
        self.instructions: list[Instruction] = []

    def _ref(self, w) -> str:
        return w.ref(self)

    def __str__(self) -> str:
        from kernelkit.ir.printer import value_text

        return value_text(self)

    def __iter__(self) -> Iterator[Instruction]:
        return iter(self.instructions)

    def __len__(self) -> int:
        return len(self.instructions)

    def index_of(self, inst: Instruction) -> int:
        for i, x in enumerate(self.instructions):
            if x is inst:
                return i
        raise ValueError("instruction is not in this block")

    def append(self, inst: Instruction) -> Instruction:
        inst.remove_from_parent()
        self.instructions.append(inst)
        inst.parent = self
        return inst

    def insert(self, index: int, inst: Instruction) -> Instruction:
        inst.remove_from_parent()
        self.instructions.insert(index, inst)
        inst.parent = self
        return inst

    @property
    def terminator(self) -> Instruction | None:
        if self.instructions and self.instructions[-1].is_terminator:
            return self.instructions[-1]
        return None

    @property
    def successors(self) -> list[BasicBlock]:
        term = self.terminator
        return term.successors() if term is not None else []

    @property
    def predecessors(self) -> list[BasicBlock]:
        preds: dict[int, BasicBlock] = {}
        for use in self.uses:
            user = use.user
            parent = getattr(user, "parent", None)
            if getattr(user, "is_terminator", False) and isinstance(parent, BasicBlock):
                preds.setdefault(id(parent), parent)
        return list(preds.values())

    def phis(self) -> list[Instruction]:
        out = []
        for inst in self.instructions:
            if inst.opcode != "phi":
                break
            out.append(inst)
        return out

    def first_insertion_index(self) -> int:
        """Index after the leading phis."""
        return len(self.phis())

    def remove_from_parent(self) -> None:
        if self.parent is not None:
            self.parent.blocks.remove(self)
            self.parent = None

    def erase(self) -> None:
        """Unlink from the function and drop every instruction's operands."""
        self.remove_from_parent()
        for inst in self.instructions:
            inst.drop_operands()
            inst.parent = None
        self.instructions = []

    def move_after(self, other: BasicBlock) -> None:
        func = other.parent
        assert func is not None
        self.remove_from_parent()
        func.blocks.insert(func.blocks.index(other) + 1, self)
        self.parent = func

    def move_before(self, other: BasicBlock) -> None:
        func = other.parent
        assert func is not None
        self.remove_from_parent()
        func.blocks.insert(func.blocks.index(other), self)
        self.parent = func


class Function(GlobalValue):
    """A definition (has blocks) or a declaration. Operands: personality/prefix/prologue
    constants when present (see `special_operands`)."""

    __slots__ = ("function_type", "args", "blocks", "calling_conv", "return_attributes",
                 "attributes", "gc", "special_operands", "use_list_orders")

    def __init__(self, name: str, function_type: T.FunctionType, *, addrspace: int = 0,
                 arg_names: Iterable[str] = ()) -> None:
        super().__init__(name, addrspace)
        self.function_type = function_type
        names = list(arg_names)
        self.args: list[Argument] = []
        for i, ty in enumerate(function_type.params):
            arg = Argument(ty, names[i] if i < len(names) else "", i)
            arg.parent = self
            self.args.append(arg)
        self.blocks: list[BasicBlock] = []
        self.calling_conv = ""
        self.return_attributes: list[str] = []
        self.attributes: list = []  # verbatim strings and AttributeGroup objects
        self.gc: str | None = None
        self.special_operands: list[str] = []  # keyword per operand: personality/prefix/prologue
        self.use_list_orders: list[UseListOrder] = []  # directives printed at the end of the body

    def __str__(self) -> str:
        from kernelkit.ir.printer import value_text

        return value_text(self)

    @property
    def return_type(self) -> T.Type:
        return self.function_type.return_type

    @property
    def is_declaration(self) -> bool:
        return not self.blocks

    @property
    def entry(self) -> BasicBlock:
        return self.blocks[0]

    def special_operand(self, keyword: str) -> Value | None:
        for kw, op in zip(self.special_operands, self.operands, strict=True):
            if kw == keyword:
                return op
        return None

    def append_block(self, name: str = "") -> BasicBlock:
        block = BasicBlock(name, self)
        self.blocks.append(block)
        return block

    def add_block(self, block: BasicBlock, after: BasicBlock | None = None) -> BasicBlock:
        block.remove_from_parent()
        if after is None:
            self.blocks.append(block)
        else:
            self.blocks.insert(self.blocks.index(after) + 1, block)
        block.parent = self
        return block

    def instructions(self) -> Iterator[Instruction]:
        for block in self.blocks:
            yield from block.instructions

    def all_attributes(self) -> list[str]:
        """Inline attributes and those of the referenced groups, flattened."""
        out: list[str] = []
        for a in self.attributes:
            out.extend(a.attributes if isinstance(a, AttributeGroup) else [a])
        return out

    def set_signature(self, function_type: T.FunctionType, args: list[Argument]) -> None:
        """Install a new type and argument list (see `kernelkit.ir.transforms`)."""
        self.function_type = function_type
        for i, arg in enumerate(args):
            arg.parent = self
            arg.index = i
        self.args = args


class Module:
    def __init__(self, name: str = "") -> None:
        self.name = name
        self.source_filename: str | None = None
        self.data_layout: str | None = None
        self.triple: str | None = None
        self.struct_types: dict[str, T.NamedStructType] = {}
        self.comdats: dict[str, str] = {}
        self.globals: list[GlobalVariable] = []
        self.aliases: list[GlobalAlias] = []
        self.functions: list[Function] = []
        self.attribute_groups: list[AttributeGroup] = []
        self.named_metadata: dict[str, NamedMetadata] = {}
        self.module_asm: list[str] = []
        self.extra_lines: list[str] = []  # verbatim top-level lines not modelled
        self.use_list_orders: list[UseListOrder] = []  # module-level directives (globals, constants, blocks)

    def __str__(self) -> str:
        from kernelkit.ir.printer import print_module

        return print_module(self)

    def copy(self) -> Module:
        """An independent deep copy (through the printed text)."""
        from kernelkit.ir.parser import parse

        return parse(str(self))

    # -- lookup
    def get_function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None

    def get_global(self, name: str) -> GlobalVariable | None:
        for g in self.globals:
            if g.name == name:
                return g
        return None

    def get_struct(self, name: str) -> T.NamedStructType | None:
        return self.struct_types.get(name)

    def kernels(self) -> list[Function]:
        return [f for f in self.functions
                if not f.is_declaration and f.calling_conv in ("spir_kernel", "amdgpu_kernel", "ptx_kernel")]

    def drop_use_list_orders(self) -> None:
        """Remove every use-list order directive, the module's and its functions'."""
        self.use_list_orders.clear()
        for f in self.functions:
            f.use_list_orders.clear()

    # -- creation
    def add_function(self, function: Function) -> Function:
        function.module = self
        self.functions.append(function)
        return function

    def declare_function(self, name: str, function_type: T.FunctionType,
                         calling_conv: str = "") -> Function:
        """The existing function called `name`, or a new declaration."""
        existing = self.get_function(name)
        if existing is not None:
            return existing
        f = Function(name, function_type)
        f.calling_conv = calling_conv
        return self.add_function(f)

    def add_global(self, var: GlobalVariable) -> GlobalVariable:
        var.module = self
        self.globals.append(var)
        return var

    def add_struct(self, name: str, elements: Iterable[T.Type] | None = None,
                   packed: bool = False) -> T.NamedStructType:
        st = T.NamedStructType(name, None if elements is None else tuple(elements), packed)
        self.struct_types[name] = st
        return st

    def add_named_metadata(self, name: str, nodes: Iterable[Metadata] = ()) -> NamedMetadata:
        nm = self.named_metadata.setdefault(name, NamedMetadata())
        nm.extend(nodes)
        return nm

    def remove_global(self, var: GlobalVariable) -> None:
        """Unlink a global variable (which must be unused)."""
        if var.uses:
            raise ValueError(f"@{var.name} still has {len(var.uses)} uses")
        self.globals.remove(var)
        var.drop_operands()
        var.module = None

    def remove_function(self, function: Function) -> None:
        """Unlink a function (which must be unused) and drop everything it uses."""
        if function.uses:
            raise ValueError(f"@{function.name} still has {len(function.uses)} uses")
        self.functions.remove(function)
        for block in list(function.blocks):
            block.erase()
        function.drop_operands()
        function.module = None
