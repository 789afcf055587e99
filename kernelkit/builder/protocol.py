"""Messages between a build client and its worker process: a 4-byte little-endian length, then
one msgpack map."""

from __future__ import annotations

import struct

import msgpack

_LENGTH = struct.Struct("<I")
MAX_MESSAGE = 1 << 31


def write_message(stream, message: dict) -> None:
    data = msgpack.packb(message, use_bin_type=True)
    stream.write(_LENGTH.pack(len(data)) + data)
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
    """The next message, or None at the end of the stream (the other side has gone)."""
    head = _read_exactly(stream, _LENGTH.size)
    if head is None:
        return None
    (size,) = _LENGTH.unpack(head)
    if size > MAX_MESSAGE:
        return None
    body = _read_exactly(stream, size)
    if body is None:
        return None
    message = msgpack.unpackb(body, raw=False)
    return message if isinstance(message, dict) else None
