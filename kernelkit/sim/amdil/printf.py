"""The printf buffer of an AMD IL launch (layout: kernelkit.targets.amdil.printf): records read
back as (format, [(type, bytes)]) with each argument's LLVM-style type worked out from the
format's conversion and the size the ``;printf_fmt`` metadata gives; ``%s`` arguments are the
strings they point to in global memory (the data segment)."""

from __future__ import annotations

import re
import struct

from kernelkit.errors import LaunchError

BUFFER_BYTES = 1 << 20
_CONVERSION = re.compile(r"%[-+ #0]*(\d+|\*)?(?:\.(\d*|\*))?(v(?:2|3|4|8|16))?(hh|hl|h|ll|l)?"
                         r"([diouxXfFeEgGaAcsp%])")


def argument_types(fmt: str, sizes: list[int]) -> list[str]:
    types: list[str] = []
    for m in _CONVERSION.finditer(fmt):
        width, prec, vec, _length, conv = m.groups()
        if conv == "%":
            continue
        types += ["i32"] * ((width == "*") + (prec == "*"))
        k = len(types)
        size = sizes[k] if k < len(sizes) else 4
        count = int(vec[1:]) if vec else 1
        count_stored = 4 if count == 3 else count
        esize = max(1, size // count_stored)
        if conv == "s":
            types.append("string")
        elif conv in "fFeEgGaA":
            ety = "double" if esize == 8 else "float"
            types.append(f"<{count} x {ety}>" if vec else ety)
        else:
            ety = f"i{esize * 8}"
            types.append(f"<{count} x {ety}>" if vec else ety)
    return types


def _c_string(heap: bytes, address: int) -> bytes:
    if not 0 <= address < len(heap):
        return b"(bad string address)"
    end = heap.find(b"\0", address)
    return heap[address:end if end >= 0 else len(heap)]


def read_records(heap: bytes, base: int, size: int, formats: dict) -> list:
    """[(format, [(type, bytes)])] in the order the work-items wrote them."""
    used = struct.unpack_from("<I", heap, base)[0]
    end = base + 4 + min(used, size - 4)
    off = base + 4
    out = []
    while off + 4 <= end:
        site = struct.unpack_from("<I", heap, off)[0]
        rec = formats.get(site)
        if rec is None:
            raise LaunchError(f"printf buffer: record with unknown id {site} at {off - base}")
        off += 4
        values = []
        types = argument_types(rec.format, rec.arg_sizes)
        for ty, asize in zip(types, rec.arg_sizes, strict=False):
            raw = heap[off:off + asize]
            if ty == "string":
                raw = _c_string(heap, struct.unpack_from("<I", raw)[0])
            values.append((ty, raw))
            off += (asize + 3) // 4 * 4
        out.append((rec.format, values))
    return out
