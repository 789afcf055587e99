"""clang's order of the printf calls, kept on the calls themselves.

LLVM's AMDGPU printf binding numbers the printf calls of a module in the order of printf's use
list. In clang's own amdgcn compile that is the order its code generation left in memory, which
is neither the text order nor its reverse (a function clang emits late, a printf declared after
its first use). clang writes that order as a ``uselistorder`` directive (``-emit-llvm-uselists``);
kernelkit's passes rewrite the module, so the directive would not survive them. Instead every
printf call gets its place in clang's order as ``!kk.printf.order !{i32 N}``
(``with_printf_order``), and the target restores the use list from those numbers
(``printf_use_list_order``) just before the binding runs.
"""

from __future__ import annotations

ORDER_KIND = "kk.printf.order"


def parse_order(uses_in_text: list[bool]) -> list[int]:
    """The use list LLVM's parser builds for a global, as indexes into its uses in text order;
    ``uses_in_text[i]``: whether use i comes before the global's declaration (a forward reference:
    the declaration takes those over in text order, and each later use goes to the list's front)."""
    before = [i for i, forward in enumerate(uses_in_text) if forward]
    after = [i for i, forward in enumerate(uses_in_text) if not forward]
    return after[::-1] + before


def _printf_calls(module) -> tuple[list, list[bool]]:
    """The calls of printf in text order, and whether each comes before printf's declaration."""
    from kernelkit.ir.instructions import CallInst

    calls, forward, declared = [], [], False
    for fn in module.functions:
        if fn.name == "printf":
            declared = True
            continue
        for inst in fn.instructions():
            if isinstance(inst, CallInst) and getattr(inst.called_function, "name", None) == "printf":
                calls.append(inst)
                forward.append(not declared)
    return calls, forward


def with_printf_order(text: str) -> str:
    """clang's IR written with ``-emit-llvm-uselists`` -> the same IR without use-list directives,
    each printf call carrying its place in clang's use list of printf. Text without directives
    and without printf calls needs no edit and is returned as it is."""
    if "uselistorder" not in text and "@printf(" not in text:
        return text
    from kernelkit import ir
    from kernelkit.ir import types as T
    from kernelkit.ir.metadata import MDNode, ValueAsMetadata
    from kernelkit.ir.values import const_int

    module = ir.parse(text)
    printf = module.get_function("printf")
    directive = next((order for order in module.use_list_orders if order.value is printf), None)
    module.drop_use_list_orders()
    calls, forward = _printf_calls(module)
    if not calls:
        return str(module)
    listed = parse_order(forward)
    if directive is not None:   # LLVM's uselistorder: the parser's i-th use goes to place indexes[i]
        if sorted(directive.indexes) != list(range(len(listed))):
            return str(module)   # not the uses seen here: the parser's order stands
        clang_order = [0] * len(listed)
        for i, place in enumerate(directive.indexes):
            clang_order[place] = listed[i]
    else:
        clang_order = listed
    for place, call_index in enumerate(clang_order):
        calls[call_index].metadata[ORDER_KIND] = MDNode([ValueAsMetadata(const_int(T.i32, place))])
    return str(module)


def _printf_uses(module) -> list[tuple[int | None, bool]]:
    """Each use of printf by an instruction, in text order: (its call's ``!kk.printf.order`` place or
    None, whether it comes before printf's declaration)."""
    from kernelkit.ir.metadata import MDNode, ValueAsMetadata

    printf = module.get_function("printf")
    uses: list[tuple[int | None, bool]] = []
    declared = False
    for fn in module.functions:
        if fn is printf:
            declared = fn.is_declaration
            continue
        for inst in fn.instructions():
            count = sum(op is printf for op in inst.operands) if printf is not None else 0
            if not count:
                continue
            tag = inst.metadata.get(ORDER_KIND)
            place = None
            if isinstance(tag, MDNode) and tag.operands and isinstance(tag.operands[0], ValueAsMetadata):
                place = getattr(tag.operands[0].value, "value", None)
            uses.extend([(place, not declared)] * count)
    return uses


def printf_use_list_order(module) -> None:
    """Give printf's use list clang's order: a module-level ``uselistorder`` directive that sorts the calls by their ``!kk.printf.order`` (calls without one
    keep their text order after those that have one). None when the parser's order is that
    already. A module whose calls carry no order (IR optimised by clang's SPIR pipeline: inlined
    calls, as the CL2 target and SPIR-V input give) gets its use list reversed, which numbers the
    kernels' own calls like clang."""
    from kernelkit.ir.module import UseListOrder

    uses_in_text = _printf_uses(module)
    if len(uses_in_text) < 2:
        return
    if all(place is None for place, _ in uses_in_text):
        indexes = list(reversed(range(len(uses_in_text))))
    else:
        listed = parse_order([forward for _, forward in uses_in_text])
        wanted = sorted(range(len(uses_in_text)),
                        key=lambda i: (uses_in_text[i][0] is None, uses_in_text[i][0] or 0, i))
        place_of = {use: place for place, use in enumerate(wanted)}
        indexes = [place_of[use] for use in listed]
        if indexes == sorted(indexes):
            return
    module.use_list_orders.append(UseListOrder(module.get_function("printf"), indexes))
