"""Editing helpers passes share: clone instructions and functions (with value remapping),
add/remove function parameters (updating direct call sites), find call sites."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.metadata import DebugRecord, MDNode, Metadata, MetadataAsValue, ValueAsMetadata
from kernelkit.ir.module import Argument, BasicBlock, Function, Module
from kernelkit.ir.values import Value

_SLOTS_CACHE: dict[type, tuple[str, ...]] = {}
# Slots holding values/links that clone_instruction rebuilds instead of copying.
_REBUILT = frozenset({"uses", "operands", "parent", "debug_records"})


def _all_slots(cls: type) -> tuple[str, ...]:
    slots = _SLOTS_CACHE.get(cls)
    if slots is None:
        names: list[str] = []
        for klass in cls.__mro__:
            for s in getattr(klass, "__slots__", ()):
                if s not in names and s not in _REBUILT:
                    names.append(s)
        slots = _SLOTS_CACHE[cls] = tuple(names)
    return slots


def _remap_metadata(md: Metadata | None, vmap: Mapping[Value, Value]) -> Metadata | None:
    if isinstance(md, ValueAsMetadata) and md.value in vmap:
        return ValueAsMetadata(vmap[md.value])
    return md


def clone_instruction(inst: I.Instruction, vmap: Mapping[Value, Value] | None = None) -> I.Instruction:
    """A detached copy of `inst`; operands found in `vmap` are replaced by their mapping."""
    vmap = vmap or {}
    cls = type(inst)
    new = cls.__new__(cls)
    for slot in _all_slots(cls):
        value = getattr(inst, slot)
        if isinstance(value, list | dict):
            value = copy.deepcopy(value) if slot == "arg_attributes" else copy.copy(value)
        setattr(new, slot, value)
    new.uses = []
    new.operands = []
    new.parent = None
    new.debug_records = [DebugRecord(r.kind, [_remap_metadata(op, vmap) for op in r.operands])
                         for r in inst.debug_records]
    for op in inst.operands:
        new.append_operand(vmap.get(op, op))
    return new


def clone_function(f: Function, name: str, module: Module | None = None,
                   vmap: dict[Value, Value] | None = None) -> Function:
    """Copy `f` (signature, attributes, metadata, body) as a new function `name`, added to
    `module` (default: f's module). `vmap` receives old -> new for arguments, blocks and
    instructions; entries present beforehand remap references (e.g. globals of another module)."""
    vmap = {} if vmap is None else vmap
    new = Function(name, f.function_type, addrspace=f.addrspace)
    for attr in ("linkage", "preemption", "visibility", "dll_storage", "unnamed_addr", "section",
                 "partition", "comdat", "align", "calling_conv", "gc"):
        setattr(new, attr, getattr(f, attr))
    new.return_attributes = list(f.return_attributes)
    new.attributes = list(f.attributes)
    new.metadata = dict(f.metadata)
    new.extra = list(f.extra)
    for kw, op in zip(f.special_operands, f.operands, strict=True):
        new.special_operands.append(kw)
        new.append_operand(vmap.get(op, op))
    for old_arg, new_arg in zip(f.args, new.args, strict=True):
        new_arg.name = old_arg.name
        new_arg.attributes = list(old_arg.attributes)
        vmap[old_arg] = new_arg
    for block in f.blocks:
        vmap[block] = new.append_block(block.name)
    clones: list[I.Instruction] = []
    for block in f.blocks:
        target = vmap[block]
        for inst in block.instructions:
            c = clone_instruction(inst, vmap)
            target.append(c)  # type: ignore[attr-defined]
            vmap[inst] = c
            clones.append(c)
    for c in clones:  # forward references (phis, later blocks) now have their mapping
        for i, op in enumerate(c.operands):
            mapped = vmap.get(op)
            if mapped is not None and mapped is not op:
                c.set_operand(i, mapped)
        for rec in c.debug_records:
            rec.operands = [_remap_metadata(op, vmap) for op in rec.operands]
    _own_subprogram(new, f.metadata.get("dbg"), clones)
    (module or f.module or Module()).add_function(new)
    return new


def _own_subprogram(new: Function, subprogram: Metadata | None, clones: list[I.Instruction]) -> None:
    """Give a clone its own distinct DISubprogram, as LLVM's CloneFunctionInto does for a clone in
    the same module (one subprogram per function, or LLVM's verifier drops the module's debug
    info): the subprogram and every node that reaches it (locations, scopes, local variables,
    labels) are copied, and the clone's attachments and debug records name the copies; compile
    unit, files and types stay shared."""
    if not isinstance(subprogram, MDNode) or subprogram.kind != "DISubprogram":
        return
    attached = [subprogram]
    for c in clones:
        attached.extend(c.metadata.values())
        attached.extend(op for rec in c.debug_records for op in rec.operands if isinstance(op, MDNode))
        attached.extend(op.metadata for op in c.operands if isinstance(op, MetadataAsValue))
    users: dict[int, list[MDNode]] = {}      # node -> the nodes naming it, within what the clone reaches
    seen: set[int] = set()
    stack = [md for md in attached if isinstance(md, MDNode)]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for child in node.children():
            if isinstance(child, MDNode):
                users.setdefault(id(child), []).append(node)
                stack.append(child)
    copies: dict[int, MDNode] = {}
    todo = [subprogram]
    while todo:                               # the subprogram and what reaches it
        node = todo.pop()
        if id(node) not in copies:
            copies[id(node)] = MDNode(kind=node.kind, distinct=node.distinct)
            todo.extend(users.get(id(node), ()))
    originals = {id(n): n for n in [subprogram, *(u for us in users.values() for u in us)] if id(n) in copies}

    def mapped(md):
        return copies.get(id(md), md) if isinstance(md, MDNode) else md

    for key, copy_ in copies.items():
        node = originals[key]
        copy_.operands = [mapped(op) for op in node.operands]
        copy_.fields = [(name, mapped(value)) for name, value in node.fields]
    new.metadata["dbg"] = copies[id(subprogram)]
    for c in clones:
        for key, value in c.metadata.items():
            c.metadata[key] = mapped(value)
        for rec in c.debug_records:
            rec.operands = [mapped(op) for op in rec.operands]
        for i, op in enumerate(c.operands):
            if isinstance(op, MetadataAsValue) and id(op.metadata) in copies:
                c.set_operand(i, MetadataAsValue(copies[id(op.metadata)]))


def call_sites(f: Function) -> list[I.CallInst]:
    """Calls whose callee is `f` itself."""
    return [u.user for u in f.uses if isinstance(u.user, I.CallInst) and u.index == 0]  # type: ignore[misc]


def add_parameters(f: Function, params: Sequence[tuple[T.Type, str]],
                   attributes: Sequence[Iterable[str]] | None = None,
                   call_args: Callable[[I.CallInst], Sequence[Value]] | None = None) -> list[Argument]:
    """Append parameters (type, name) to `f`. Direct calls get the values `call_args(call)`
    returns (required when `f` is called)."""
    sites = call_sites(f)
    if sites and call_args is None:
        raise ValueError(f"@{f.name} has {len(sites)} call sites: pass call_args")
    new_args = []
    for i, (ty, name) in enumerate(params):
        attrs = list(attributes[i]) if attributes is not None else []
        new_args.append(Argument(ty, name, 0, attrs))
    old = f.function_type
    fnty = T.FunctionType(old.return_type, old.params + tuple(t for t, _ in params), old.vararg)
    f.set_signature(fnty, [*f.args, *new_args])
    for call in sites:
        values = list(call_args(call))  # type: ignore[misc]
        if len(values) != len(params):
            raise ValueError(f"call_args gave {len(values)} values for {len(params)} parameters")
        _rebuild_call(call, fnty, [*call.args, *values],
                      [*call.arg_attributes, *([] for _ in values)])
    return new_args


def remove_parameters(f: Function, indices: Iterable[int]) -> None:
    """Remove the parameters at `indices` (each must be unused in the body) from `f` and
    the matching arguments from every direct call."""
    drop = set(indices)
    for i in drop:
        if f.args[i].uses:
            raise ValueError(f"parameter {i} of @{f.name} is still used")
    keep = [i for i in range(len(f.args)) if i not in drop]
    old = f.function_type
    fnty = T.FunctionType(old.return_type, tuple(old.params[i] for i in keep), old.vararg)
    for call in call_sites(f):
        args = call.args
        _rebuild_call(call, fnty, [args[i] for i in keep] + args[len(old.params):],
                      [call.arg_attributes[i] for i in keep] + call.arg_attributes[len(old.params):])
    f.set_signature(fnty, [f.args[i] for i in keep])


def append_call_args(call: I.CallInst, values: Sequence[Value], attributes: Sequence[Iterable[str]] = ()) -> None:
    """Pass ``values`` as extra trailing arguments of ``call`` (its function type grows to match;
    the callee's own signature is the caller's business, see `add_parameters`)."""
    old = call.function_type
    fnty = T.FunctionType(old.return_type, old.params + tuple(v.type for v in values), old.vararg)
    attrs = [list(a) for a in attributes] or [[] for _ in values]
    _rebuild_call(call, fnty, [*call.args, *values], [*call.arg_attributes, *attrs])


def _rebuild_call(call: I.CallInst, fnty: T.FunctionType, args: list[Value],
                  arg_attrs: list[list[str]]) -> None:
    n = call.num_args
    bundles = call.operands[1 + n:]
    call.set_operands([call.operands[0], *args, *bundles])
    call.arg_attributes = [list(a) for a in arg_attrs]
    call.function_type = fnty


def replace_instruction(inst: I.Instruction, value: Value) -> None:
    """Replace every use of `inst` by `value`, then erase `inst`."""
    inst.replace_all_uses_with(value)
    inst.erase()


def remove_unreachable_blocks(f: Function) -> int:
    """Erase blocks not reachable from the entry; returns how many were removed."""
    if not f.blocks:
        return 0
    seen: set[int] = set()
    stack: list[BasicBlock] = [f.blocks[0]]
    while stack:
        b = stack.pop()
        if id(b) in seen:
            continue
        seen.add(id(b))
        stack.extend(b.successors)
    dead = [b for b in f.blocks if id(b) not in seen]
    for b in dead:
        for succ in b.successors:
            for phi in succ.phis():
                phi.remove_incoming(b)  # type: ignore[attr-defined]
    for b in dead:
        b.erase()
    return len(dead)


def instruction_users(value: Value) -> list[I.Instruction]:
    """Instructions using `value` directly or through constant expressions/aggregates."""
    from kernelkit.ir.values import Constant

    out: dict[int, I.Instruction] = {}
    stack = [value]
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        for use in v.uses:
            user = use.user
            if isinstance(user, I.Instruction):
                out.setdefault(id(user), user)
            elif isinstance(user, Constant) and id(user) not in seen:
                seen.add(id(user))
                stack.append(user)
    return list(out.values())


def split_block(inst: I.Instruction, name: str = "") -> BasicBlock:
    """Move `inst` and everything after it into a new block placed after the old one, which
    now ends with `br label %new`; phis of the successors are updated. Returns the new block."""
    block = inst.parent
    if block is None or block.parent is None:
        raise ValueError("instruction is not in a function")
    if inst.opcode == "phi":
        raise ValueError("cannot split a block at a phi")
    idx = block.index_of(inst)
    new = block.parent.add_block(BasicBlock(name), after=block)
    moved = block.instructions[idx:]
    del block.instructions[idx:]
    for i in moved:
        i.parent = new
    new.instructions = moved
    for succ in new.successors:
        for phi in succ.phis():
            for k in range(1, len(phi.operands), 2):
                if phi.operands[k] is block:
                    phi.set_operand(k, new)
    block.append(I.BranchInst(T.void, "br", (new,)))
    return new
