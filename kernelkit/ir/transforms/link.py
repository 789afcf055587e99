"""Add the globals and functions of another module to a module (a small linker).

``link_into(module, other)`` moves every global variable and function of ``other`` into
``module``: a declaration meets the module's definition or declaration of the same name (its uses
go to that one); a definition replaces the module's declaration of that name. Named struct types
and attribute groups come along. ``add_definitions(module, text)`` does the same with ``text``
parsed on its own (it must declare what it uses) — how passes add helper functions written as IR.
"""

from __future__ import annotations

from kernelkit.ir.module import Function, GlobalValue, GlobalVariable, Module


def link_into(module: Module, other: Module) -> list[GlobalValue]:
    """Move the globals and functions of ``other`` into ``module``; returns the ones added."""
    added: list[GlobalValue] = []
    for name, st in other.struct_types.items():
        module.struct_types.setdefault(name, st)
    for group in other.attribute_groups:
        if all(group is not g for g in module.attribute_groups):
            module.attribute_groups.append(group)
    for g in [*other.globals, *other.functions]:
        existing: GlobalValue | None = (module.get_function(g.name) if isinstance(g, Function)
                                        else module.get_global(g.name))
        if existing is not None and g.is_declaration:
            g.replace_all_uses_with(existing)
            continue
        if existing is not None and not existing.is_declaration:
            raise ValueError(f"@{g.name} is defined twice")
        g.module = module
        if isinstance(g, Function):
            _put(module.functions, g, existing)
        else:
            assert isinstance(g, GlobalVariable)
            _put(module.globals, g, existing)
        if existing is not None:
            existing.replace_all_uses_with(g)
            _drop(module, existing)
        added.append(g)
    other.globals, other.functions = [], []
    return added


def _put(items: list, g: GlobalValue, existing: GlobalValue | None) -> None:
    if existing is None:
        items.append(g)
    else:
        items.insert(next(i for i, x in enumerate(items) if x is existing), g)


def _drop(module: Module, g: GlobalValue) -> None:
    if isinstance(g, Function):
        module.functions = [f for f in module.functions if f is not g]
    else:
        module.globals = [v for v in module.globals if v is not g]
    g.drop_operands()
    g.module = None


def add_definitions(module: Module, text: str) -> list[GlobalValue]:
    """Parse ``text`` (complete definitions and the declarations they need) into ``module``."""
    from kernelkit.ir.parser import parse

    return link_into(module, parse(text))
