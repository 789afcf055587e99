"""The runtime's link step for multi-kernel AMD IL (spec 000, "Runtime Source Modification").

For one kernel: collect the functions it needs (its wrapper, then transitively every id named by
``;function:`` metadata) and the intrinsics (``;intrinsic:``, linked from a separate library),
strip debug sections, keep the needed functions in their original order, and overwrite the
``;$$$$$$$$$$`` token in place with ``call N;`` (N = the kernel's unique id).

Facts established against AMD's driver output (``reference/amdil/hlc-juniper``): a function's
span runs from its ``func`` line up to the next ``func`` line or the final ``end`` line (so its
metadata block and any blank lines after it belong to it); each span that is not needed
is replaced by one empty line; debug sections vanish with their lines; the token keeps its
remaining ``$`` characters after the call (``call 1120;$``)."""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.errors import FormatError
from kernelkit.formats.amdil.program import (
    MULTI_KERNEL_TOKEN,
    DebugSection,
    Function,
    Item,
    MetadataBlock,
    Program,
    item_lines,
)


@dataclass
class LinkResult:
    text: str
    kernel: str
    kernel_id: int
    functions: list[int]      # ids kept, in program order
    intrinsics: list[int]     # ids the intrinsic library must provide, sorted


def required_ids(program: Program, kernel_id: int, index: dict[int, MetadataBlock] | None = None
                 ) -> tuple[set[int], set[int]]:
    """Functions (transitively through ``;function:``) and intrinsics a kernel needs (``index``:
    ``program.metadata_index()``, passed by callers that ask for many kernels)."""
    index = program.metadata_index() if index is None else index
    needed: set[int] = set()
    intrinsics: set[int] = set()
    work = [kernel_id]
    while work:
        fid = work.pop()
        if fid in needed:
            continue
        needed.add(fid)
        block = index.get(fid)
        if block is None:
            continue
        intrinsics.update(block.intrinsics)
        work += [f for f in block.functions if f not in needed]
    return needed, intrinsics


def _is_end(item: Item) -> bool:
    return isinstance(item, str) and item.strip() == "end"


def replace_token(line: str, kernel_id: int) -> str:
    """Overwrite the multi-kernel token in place with ``call N;``."""
    at = line.find(MULTI_KERNEL_TOKEN)
    call = f"call {kernel_id};"
    if len(call) >= len(MULTI_KERNEL_TOKEN):
        return line[:at] + call + line[at + len(MULTI_KERNEL_TOKEN):]
    return line[:at] + call + line[at + len(call):]


def link_program(program: Program, kernel: str) -> LinkResult:
    block = program.find_kernel(kernel)
    kernel_id = block.uniqueid
    if kernel_id is None:
        raise FormatError(f"kernel {kernel!r} has no ;uniqueid", field="uniqueid")
    needed, intrinsics = required_ids(program, kernel_id)
    missing = sorted(f for f in needed if program.function(f) is None)
    if missing:
        raise FormatError(f"kernel {kernel!r} needs function(s) {missing} absent from the program",
                          field="function")

    out: list[str] = []
    kept: list[int] = []
    token_seen = False
    items = program.items
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Function):
            j = i + 1
            while j < len(items) and not isinstance(items[j], Function) and not _is_end(items[j]):
                j += 1
            if item.id in needed:
                kept.append(item.id)
                for span_item in items[i:j]:
                    out += item_lines(span_item, with_debug=False)
            else:
                out.append("")
            i = j
            continue
        if isinstance(item, str) and MULTI_KERNEL_TOKEN in item and not token_seen:
            out.append(replace_token(item, kernel_id))
            token_seen = True
        elif not isinstance(item, DebugSection):
            out += item_lines(item, with_debug=False)
        i += 1
    if not token_seen:
        raise FormatError(f"the program has no multi-kernel token {MULTI_KERNEL_TOKEN!r}",
                          field="token")
    text = program.newline.join(out) + (program.newline if program.final_newline else "")
    return LinkResult(text, block.name, kernel_id, kept, sorted(intrinsics))


def link(text: str, kernel: str) -> str:
    """Link AMD IL text for one kernel (see ``link_program``)."""
    from kernelkit.formats.amdil.program import parse_program
    return link_program(parse_program(text), kernel).text
