"""The attributes that steer LLVM's inliner, set on the model before the inliner runs.

``drop_function_attributes`` removes attributes (``noinline``, ``optnone``) from every function,
call site and attribute group of a module; ``with_own_group`` gives one function an attribute
group of its own, so that what is added to the shared groups afterwards does not reach it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from kernelkit.ir.instructions import CallInst
from kernelkit.ir.module import AttributeGroup, Function, Module

NOT_INLINED = ("noinline", "optnone")


def _without(attributes: list, names: Collection[str]) -> list:
    return [a for a in attributes if isinstance(a, AttributeGroup) or a not in names]


def drop_function_attributes(module: Module, names: Collection[str] = NOT_INLINED, *,
                             keep_empty_groups: bool = False) -> None:
    """``names`` go from every attribute group and from the attributes written on functions and
    call sites (the groups are edited in place: every user of a group sees the change). A group
    left empty goes too (LLVM rejects ``attributes #N = { }``), unless ``keep_empty_groups``: the
    caller fills every group again."""
    for group in module.attribute_groups:
        group.attributes = _without(group.attributes, names)
    empty = {id(g) for g in module.attribute_groups if not g.attributes}
    if keep_empty_groups:
        empty = set()
    module.attribute_groups = [g for g in module.attribute_groups if id(g) not in empty]
    for f in module.functions:
        f.attributes = [a for a in _without(f.attributes, names) if id(a) not in empty]
        for inst in f.instructions():
            if isinstance(inst, CallInst):
                inst.attributes = [a for a in _without(inst.attributes, names) if id(a) not in empty]


def group_attributes(attributes: Iterable) -> list[str]:
    """The attributes of the groups among ``attributes`` (``#N`` references), in order."""
    return [a for g in attributes if isinstance(g, AttributeGroup) for a in g.attributes]


def with_own_group(f: Function, attributes: Iterable[str]) -> AttributeGroup:
    """``f``'s group references become one new group holding ``attributes`` (its attributes written
    in place stay). The group is not one of the module's shared groups; the printer numbers it
    after them."""
    group = AttributeGroup(attributes)
    f.attributes = [a for a in f.attributes if not isinstance(a, AttributeGroup)] + [group]
    return group
