"""Messages between a build client and its worker process: a 4-byte little-endian length, then one
map of plain values (None, bool, int, float, str, bytes, lists and maps), written with ``marshal``.

Both ends are the same Python (a worker is started with the client's interpreter; the build server's
socket name covers the interpreter, its version and kernelkit's files), so marshal's format is shared;
it is built in, where msgpack's import (with datetime) was a tenth of a cold client's CPU. Tuples go
over as lists, so a reply reads the same whatever sequence type its sender used. Only values of the
types above are sent: anything else is a TypeError at the sender.
"""

from __future__ import annotations

import marshal

MAX_MESSAGE = 1 << 31
_EXACT = frozenset((str, bytes, int, float, bool, type(None)))
# enum members and other subclasses go over as their base's value (str.__str__: the characters, not a
# subclass's own __str__)
_SUBCLASSED = ((bool, bool), (int, int.__index__), (float, float.__float__), (str, str.__str__), (bytes, bytes))


def _plain(value):
    """``value`` with every tuple a list and every subclass of a plain type its base (marshal writes exact
    types only); TypeError for a value of another type."""
    kind = type(value)
    if kind in _EXACT:
        return value
    if kind is list or kind is tuple:
        return [_plain(v) for v in value]
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    for base, convert in _SUBCLASSED:
        if isinstance(value, base):
            return convert(value)
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"a message cannot hold a {kind.__name__}")


def write_message(stream, message: dict) -> None:
    data = marshal.dumps(_plain(message))
    stream.write(len(data).to_bytes(4, "little") + data)
    stream.flush()


def _read_exactly(stream, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_message(stream) -> dict | None:
    """The next message, or None at the end of the stream (the other side has gone) or when what came is
    not a message."""
    head = _read_exactly(stream, 4)
    if head is None:
        return None
    size = int.from_bytes(head, "little")
    if size > MAX_MESSAGE:
        return None
    body = _read_exactly(stream, size)
    if body is None:
        return None
    try:
        message = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    return message if isinstance(message, dict) else None
