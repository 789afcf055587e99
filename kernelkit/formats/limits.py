"""Resource limits shared by the readers: the largest input read and the largest decompressed
output, so a hostile or damaged file is a FormatError, never an exhausted machine.

``first_overlap(spans)`` finds two byte ranges of a container that overlap: readers refuse them, so
no header can make them read (or copy) the same bytes many times.

``max_input_size()`` is ``$KERNELKIT_MAX_INPUT_SIZE`` (bytes; suffixes k, M, G) or 1 GiB; commands
take ``--max-input-size`` to raise it for one run. ``read_input(path)`` reads a file (or device, or
pipe) refusing anything larger. ``inflate(method, payload, size)`` streams zlib/zstd output up to the
size a header declares, refusing declarations past the cap or ``MAX_EXPANSION`` times the payload.
"""

from __future__ import annotations

import os
import zlib

from kernelkit.errors import FormatError

DEFAULT_MAX_INPUT_SIZE = 1 << 30
# zlib cannot expand more than ~1032:1; zstd can, but no real code object bundle comes close
MAX_EXPANSION = 1024
_CHUNK = 1 << 20
_SUFFIXES = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def parse_size(text: str) -> int:
    """``4096``, ``64k``, ``512M``, ``2G`` -> bytes."""
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    scale = _SUFFIXES.get(t[-1:], 1)
    digits = t[:-1] if t[-1:] in _SUFFIXES else t
    if not digits.isdigit():
        raise ValueError(f"not a size: {text!r} (e.g. 4096, 64k, 512M, 2G)")
    return int(digits) * scale


def max_input_size() -> int:
    env = os.environ.get("KERNELKIT_MAX_INPUT_SIZE")
    if env:
        try:
            return parse_size(env)
        except ValueError as exc:
            raise FormatError(f"KERNELKIT_MAX_INPUT_SIZE: {exc}", field="KERNELKIT_MAX_INPUT_SIZE") from None
    return DEFAULT_MAX_INPUT_SIZE


def _too_large(path: str, limit: int) -> FormatError:
    return FormatError(f"{path}: larger than the input size limit of {limit} bytes (raise it with "
                       f"--max-input-size or KERNELKIT_MAX_INPUT_SIZE)", offset=limit, field="size")


def read_input(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of ``path``; a FormatError (before reading) when it holds more than ``limit``."""
    limit = max_input_size() if limit is None else limit
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if st.st_size > limit:
            raise _too_large(os.fspath(path), limit)
        chunks, total = [], 0
        while True:                      # devices and pipes report no size: read in chunks
            chunk = f.read(min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise _too_large(os.fspath(path), limit)
    return b"".join(chunks)


def decompressed_limit(declared: int, payload_size: int, *, offset: int, field: str) -> int:
    """Check a header's uncompressed size against the cap and the expansion bound."""
    cap = min(max_input_size(), max(_CHUNK, MAX_EXPANSION * payload_size))
    if declared > cap:
        raise FormatError(f"uncompressed size {declared} exceeds the limit of {cap} bytes for "
                          f"{payload_size} bytes of compressed data", offset=offset, field=field)
    return declared


def inflate(method: str, payload, size: int, *, offset: int) -> bytes:
    """Decompress ``payload`` (``zlib`` or ``zstd``) expecting exactly ``size`` bytes; never produces
    more than ``size + 1`` bytes, whatever the stream or its frame header claims."""
    import zstandard  # (here: every command reads its input through this module, few decompress)

    want = size + 1
    chunks: list[bytes] = []
    total = 0
    try:
        if method == "zstd":
            reader = zstandard.ZstdDecompressor().stream_reader(bytes(payload))
            while total < want:
                chunk = reader.read(min(_CHUNK, want - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        else:
            d = zlib.decompressobj()
            data = bytes(payload)
            while total < want and data:
                chunk = d.decompress(data, min(_CHUNK, want - total))
                data = d.unconsumed_tail
                chunks.append(chunk)
                total += len(chunk)
                if not chunk and not data:
                    break
            if total < want and not d.eof:
                tail = d.flush()
                chunks.append(tail[:want - total])
                total += len(tail[:want - total])
                if not d.eof:
                    raise FormatError("zlib data is truncated", offset=offset, field="compressed_data")
    except (zstandard.ZstdError, zlib.error) as exc:
        raise FormatError(f"{method} data does not decompress: {exc}", offset=offset,
                          field="compressed_data") from None
    if total != size:
        raise FormatError(f"decompressed to {'more than ' if total > size else ''}{min(total, size)} bytes, "
                          f"header says {size}", offset=offset, field="uncompressed_size")
    return b"".join(chunks)


def first_overlap(spans) -> tuple[tuple, tuple] | None:
    """Of ``(start, end, label...)`` byte ranges (empty ones ignored), the first two that overlap once
    sorted by start (``(earlier, later)``), or None. n·log n."""
    ordered = sorted(s for s in spans if s[1] > s[0])
    for a, b in zip(ordered, ordered[1:], strict=False):
        if b[0] < a[1]:
            return a, b
    return None
