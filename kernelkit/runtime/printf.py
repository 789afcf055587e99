"""Format the printf records a launch wrote (OpenCL C 1.2 s6.12.13 printf).

OpenCL's printf is C99's plus the vector specifier ``v<n>`` (elements formatted one by one,
separated by ``,``) with the length modifiers ``hh``/``h``/``hl``/``l`` that, for vectors, name
the element size; ``%s`` takes only string literals.

Like C libraries, the formatter bounds what a format can ask for: a field width or precision
above ``MAX_FIELD`` characters is capped to it (C's printf fails with EOVERFLOW past INT_MAX; a
device printf buffer is smaller still). ``*`` takes the width or precision from an int argument,
as in C99. A format the formatter cannot follow (an unknown conversion, too few arguments, a
``*`` whose argument is not an integer) is printed as written and reported once per launch
(:func:`decode_printf_buffer` returns the problems).
"""

from __future__ import annotations

import ctypes
import math
import re
import struct

from kernelkit.targets.host.passes.printf import RECORD_HEADER, type_size

_SPEC_RE = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d+|\*)?(?:\.(?P<prec>\d*|\*))?"
                      r"(?P<vec>v(?:2|3|4|8|16))?(?P<len>hh|hl|h|ll|l|j|z|t|L)?(?P<conv>[diouxXfFeEgGaAcsp%])")
_BAD_SPEC_RE = re.compile(r"%[-+ #0-9.*]*(?:[a-zA-Z]+|.)?", re.S)

# the widest field (width or precision, in characters) a conversion may produce
MAX_FIELD = 4096


def _scalar_values(ty: str, raw: bytes) -> list:
    m = re.fullmatch(r"<(\d+) x (.+)>", ty)
    if m:
        n, ety = int(m.group(1)), m.group(2)
        size = type_size(ety)
        return [_scalar_values(ety, raw[i * size:(i + 1) * size])[0] for i in range(n)]
    if ty == "float":
        return [struct.unpack("<f", raw[:4])[0]]
    if ty == "double":
        return [struct.unpack("<d", raw[:8])[0]]
    if ty == "half":
        return [struct.unpack("<e", raw[:2])[0]]
    if ty.startswith("ptr"):
        return [int.from_bytes(raw[:8], "little")]
    bits = int(ty[1:])
    return [int.from_bytes(raw[:max(1, bits // 8)], "little", signed=True)]


def _int_bits(length: str | None, ty_bits: int) -> int:
    return {"hh": 8, "h": 16, "hl": 32, "l": 64, "ll": 64}.get(length or "", ty_bits)


def _format_one(flags: str, width: str | None, prec: str | None, length: str | None, conv: str, value,
                ty_bits: int) -> str:
    spec = "%" + flags + (width or "") + (f".{prec}" if prec is not None else "")
    if conv in "di":
        bits = _int_bits(length, ty_bits)
        v = int(value) & ((1 << bits) - 1)
        if v >= 1 << (bits - 1):
            v -= 1 << bits
        return (spec + "d") % v
    if conv in "ouxX":
        bits = _int_bits(length, ty_bits)
        v = int(value) & ((1 << bits) - 1)
        if conv == "o" and "#" in flags:  # C: a leading 0, not Python's 0o
            digits = f"{v:o}"
            digits = digits if digits.startswith("0") else "0" + digits
            return ("%" + flags.replace("#", "").replace("0", "") + (width or "") + "s") % digits
        return (spec + conv) % v
    if conv == "c":
        return (spec + "c") % chr(int(value) & 0xFF)
    if conv in "fFeEgG":
        v = float(value)
        if math.isnan(v):
            text = "nan" if conv.islower() else "NAN"
            return (("%" + flags.replace("0", "") + (width or "") + "s") % (("-" if math.copysign(1, v) < 0
                                                                             else "") + text))
        return (spec + conv) % v
    if conv in "aA":
        text = _hex_float(float(value), None if prec is None else int(prec))
        text = text if conv == "a" else text.upper()
        if "+" in flags and not text.startswith("-"):
            text = "+" + text
        return ("%" + flags.replace("0", "").replace("+", "") + (width or "") + "s") % text
    if conv == "p":
        return ("%" + flags + (width or "") + "s") % hex(int(value))
    raise ValueError(conv)


def _hex_float(v: float, prec: int | None) -> str:
    """C99 %a: 0x1.<hex>p<exp>, trailing zeros dropped unless a precision is given."""
    if math.isinf(v) or math.isnan(v):
        return ("-" if math.copysign(1, v) < 0 else "") + ("inf" if math.isinf(v) else "nan")
    text = v.hex()  # [-]0x1.hhhhhhhhhhhhhp+e
    sign = "-" if text.startswith("-") else ""
    mant, _, exp = text.lstrip("-")[2:].partition("p")
    lead, _, frac = mant.partition(".")
    if prec is None:
        frac = frac.rstrip("0")
    else:
        frac = (frac + "0" * prec)[:prec]
    return f"{sign}0x{lead}{'.' + frac if frac else ''}p{int(exp):+d}"


def _field(text: str | None, star, what: str, problems: set[str], fmt: str) -> str | None:
    """A width/precision as digits: ``*`` replaced by its argument, capped at MAX_FIELD."""
    if text is None:
        return None
    if text == "*":
        if star is None:
            problems.add(f"format {fmt!r}: the '*' {what} has no integer argument; printed as written")
            return ""
        value = int(star)
        if value < 0:   # C99: a negative '*' width is the '-' flag; a negative precision is none
            return None if what == "precision" else f"-{min(-value, MAX_FIELD)}"
        text = str(value)
    if text == "":   # "%.f": precision 0
        return "0"
    if int(text) > MAX_FIELD:
        problems.add(f"format {fmt!r}: {what} {int(text)} capped at {MAX_FIELD} characters")
        return str(MAX_FIELD)
    return text


def format_record(fmt: str, types: list[str], payload: bytes, problems: set[str] | None = None) -> str:
    """One printf call's output; what cannot be followed is added to ``problems``."""
    problems = set() if problems is None else problems
    values = []
    off = RECORD_HEADER
    for ty in types:
        size = type_size(ty)
        values.append((ty, payload[off:off + size]))
        off += (size + 7) // 8 * 8
    out = []
    pos = 0
    k = 0

    def star_argument():
        nonlocal k
        if k >= len(values) or not values[k][0].startswith("i"):
            return None
        ty, raw = values[k]
        k += 1
        return _scalar_values(ty, raw)[0]

    while (start := fmt.find("%", pos)) >= 0:
        out.append(fmt[pos:start])
        spec = _SPEC_RE.match(fmt, start)
        if spec is None:
            bad = _BAD_SPEC_RE.match(fmt, start).group(0)
            problems.add(f"format {fmt!r}: {bad!r} is not an OpenCL C conversion; printed as written")
            out.append(bad)
            pos = start + len(bad)
            continue
        pos = spec.end()
        if spec.group("conv") == "%":
            out.append("%")
            continue
        flags = spec.group("flags")
        width = _field(spec.group("width"), star_argument() if spec.group("width") == "*" else None, "width",
                       problems, fmt)
        prec = _field(spec.group("prec"), star_argument() if spec.group("prec") == "*" else None, "precision",
                      problems, fmt)
        if width is not None and width.startswith("-"):
            flags, width = flags + "-", width[1:]
        if k >= len(values):
            problems.add(f"format {fmt!r}: more conversions than arguments; printed as written")
            out.append(spec.group(0))
            continue
        ty, raw = values[k]
        k += 1
        conv = spec.group("conv")
        if conv == "s":
            if not ty.startswith("ptr"):
                problems.add(f"format {fmt!r}: %s needs a string literal, got a {ty}; printed as written")
                out.append(spec.group(0))
                continue
            addr = _scalar_values(ty, raw)[0]
            text = ctypes.string_at(addr).decode("utf-8", "replace") if addr else "(null)"
            out.append(("%" + flags + (width or "") + (f".{prec}" if prec is not None else "") + "s") % text)
            continue
        elems = _scalar_values(ty, raw)
        ety = re.fullmatch(r"<\d+ x (.+)>", ty)
        ety_name = ety.group(1) if ety else ty
        bits = int(ety_name[1:]) if ety_name.startswith("i") else 64
        try:
            parts = [_format_one(flags, width or None, prec, spec.group("len"), conv, v, bits) for v in elems]
        except (ValueError, TypeError, OverflowError) as exc:
            problems.add(f"format {fmt!r}: cannot format {spec.group(0)!r} with a {ty} ({exc}); printed as written")
            parts = [spec.group(0)]
        out.append(",".join(parts))
    out.append(fmt[pos:])
    return "".join(out)


def decode_printf_buffer(data: bytes, used: int, sites: list[list[str]]) -> tuple[str, list[str]]:
    """All records in ``data[:used]`` formatted, in the order they were written, and the
    problems met (each once)."""
    out = []
    problems: set[str] = set()
    off = 0
    end = min(used, len(data))
    while off + RECORD_HEADER <= end:
        site, length = struct.unpack_from("<II", data, off)
        if length < RECORD_HEADER or off + length > end or site >= len(sites):
            break
        fmt, *types = sites[site]
        out.append(format_record(fmt, types, data[off:off + length], problems))
        off += length
    return "".join(out), sorted(problems)
