"""Mutations of real binaries and texts: bit flips, truncation, insertion, deletion, splicing,
boundary integers (binary formats) and numeric/line edits (text formats).

``mutate(rng, data, others, text=False)`` applies one to four mutations chosen by ``rng``
(a ``random.Random``), so a run is reproducible from its seed.
"""

from __future__ import annotations

import random
import re

BOUNDARY = (0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 0x7FFF, 0x8000, 0xFFFF,
            0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000, (1 << 63) - 1, 1 << 63,
            (1 << 64) - 1)
WIDTHS = (1, 2, 4, 8)
TEXT_NUMBERS = ("0", "-1", "1", "-0", "00", "4294967296", "18446744073709551616", "99999999999999999999",
                "-2147483649", "0x", "0xffffffffffffffff", "1e309", "nan", "", " ", "+", "9" * 40)
_NUMBER = re.compile(rb"-?\d+")


def _flip(rng: random.Random, d: bytearray, others) -> None:
    if d:
        for _ in range(rng.randint(1, 8)):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)


def _set_byte(rng: random.Random, d: bytearray, others) -> None:
    if d:
        d[rng.randrange(len(d))] = rng.choice((0, 0xFF, 0x7F, 0x80, rng.randrange(256)))


def _truncate(rng: random.Random, d: bytearray, others) -> None:
    if d:
        del d[rng.randrange(len(d)):]


def _insert(rng: random.Random, d: bytearray, others) -> None:
    at = rng.randint(0, len(d))
    if d and rng.random() < 0.5:
        start = rng.randrange(len(d))
        chunk = d[start:start + rng.randint(1, 256)]
    else:
        chunk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    d[at:at] = chunk


def _delete(rng: random.Random, d: bytearray, others) -> None:
    if d:
        start = rng.randrange(len(d))
        del d[start:start + rng.randint(1, 64)]


def _splice(rng: random.Random, d: bytearray, others) -> None:
    other = rng.choice(others)
    if not d or not other:
        return
    if rng.random() < 0.5:                      # prefix of this + suffix of the other
        cut = rng.randrange(len(d))
        d[cut:] = other[rng.randrange(len(other)):]
    else:                                       # overwrite a chunk with the other's bytes
        start, src = rng.randrange(len(d)), rng.randrange(len(other))
        chunk = other[src:src + rng.randint(1, 512)]
        d[start:start + len(chunk)] = chunk


def _boundary(rng: random.Random, d: bytearray, others) -> None:
    width = rng.choice(WIDTHS)
    if len(d) < width:
        return
    at = rng.randrange(len(d) - width + 1)
    if rng.random() < 0.7:
        at -= at % width                        # header fields are aligned
    value = rng.choice(BOUNDARY + (len(d), len(d) + 1, len(d) - 1)) & ((1 << (8 * width)) - 1)
    d[at:at + width] = value.to_bytes(width, rng.choice(("little", "big")))


def _text_number(rng: random.Random, d: bytearray, others) -> None:
    matches = list(_NUMBER.finditer(d))
    if matches:
        m = rng.choice(matches)
        d[m.start():m.end()] = rng.choice(TEXT_NUMBERS).encode()


def _text_line(rng: random.Random, d: bytearray, others) -> None:
    lines = bytes(d).split(b"\n")
    i = rng.randrange(len(lines))
    choice = rng.random()
    if choice < 0.4:
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif choice < 0.7:
        del lines[i]
    else:
        other = rng.choice(others).split(b"\n")
        lines.insert(i, rng.choice(other))
    d[:] = b"\n".join(lines)


def _text_field(rng: random.Random, d: bytearray, others) -> None:
    """Cut, double or blank one ``:``/``,``/space separated field of a line."""
    lines = bytes(d).split(b"\n")
    i = rng.randrange(len(lines))
    parts = re.split(rb"([:, ])", lines[i])
    if len(parts) > 1:
        j = rng.randrange(0, len(parts), 2)
        parts[j] = rng.choice((b"", parts[j] * 2, b"x", b":", parts[j][:1]))
        lines[i] = b"".join(parts)
        d[:] = b"\n".join(lines)


BINARY_MUTATIONS = (_flip, _flip, _set_byte, _truncate, _insert, _delete, _splice, _boundary, _boundary)
TEXT_MUTATIONS = BINARY_MUTATIONS + (_text_number, _text_number, _text_line, _text_field, _text_field)


def mutate(rng: random.Random, data: bytes, others: list[bytes], *, text: bool = False) -> bytes:
    d = bytearray(data)
    table = TEXT_MUTATIONS if text else BINARY_MUTATIONS
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        rng.choice(table)(rng, d, others)
    return bytes(d)


# ------------------------------------------------------------------ structure-aware (msgpack documents)
def _palette(rng: random.Random):
    import msgpack

    return rng.choice((b"\x00bytes", -1, 1 << 63, (1 << 64) - 1, -(1 << 63), 0.5, float("inf"), None, True,
                       "", "x" * rng.randint(1, 300), [], {}, [1, "a", b"b"], {"k": b"v"}, {1: 2},
                       msgpack.ExtType(1, b"ext"), [[[[[]]]]], rng.randrange(1 << 32)))


def mutate_document(rng: random.Random, doc):
    """A copy of a msgpack document with one value replaced by another type, deleted or duplicated."""
    import copy

    doc = copy.deepcopy(doc)
    containers = []

    def walk(node, depth=0):
        if isinstance(node, dict) and node:
            containers.append(node)
            for v in node.values():
                walk(v, depth + 1)
        elif isinstance(node, list) and node:
            containers.append(node)
            for v in node:
                walk(v, depth + 1)
    walk(doc)
    if not containers:
        return _palette(rng)
    for _ in range(rng.randint(1, 3)):
        node = rng.choice(containers)
        keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            continue
        key = rng.choice(keys)
        action = rng.random()
        if action < 0.7:
            node[key] = _palette(rng)
        elif action < 0.85:
            del node[key]
        elif isinstance(node, list):
            node.extend(node[:rng.randint(1, 4)])
        else:
            node[rng.choice(("name", ".name", "amdhsa.x", 7, b"k"))] = node[key]
    return doc
