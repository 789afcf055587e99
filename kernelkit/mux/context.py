"""compiler::Context (spec 003 "Context"): a lock guarding one compiler instance."""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence

from kernelkit.mux.result import MuxError, Result

SPIRV_MAGIC = 0x07230203  # SPIR-V specification §3.1 "Magic Number"
SPIRV_HEADER_WORDS = 5  # SPIR-V specification §2.3 "Physical Layout": magic, version, generator, bound, schema


def spirv_words(code: bytes | Sequence[int]) -> list[int]:
    """SPIR-V words from bytes (either endianness, as the magic number tells) or a word list."""
    if isinstance(code, bytes | bytearray | memoryview):
        data = bytes(code)
        if len(data) % 4:
            return []
        words = list(struct.unpack(f"<{len(data) // 4}I", data))
        if words and words[0] != SPIRV_MAGIC:
            words = list(struct.unpack(f">{len(data) // 4}I", data))
        return words
    return [int(w) & 0xFFFFFFFF for w in code]


def spirv_bytes(code: bytes | Sequence[int]) -> bytes:
    """A SPIR-V module given as bytes or as a word list, as bytes."""
    if isinstance(code, bytes | bytearray | memoryview):
        return bytes(code)
    return b"".join((int(w) & 0xFFFFFFFF).to_bytes(4, "little") for w in code)


class Context:
    """Satisfies 'Lockable': ``lock``/``try_lock``/``unlock``, and is a context manager."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def lock(self) -> None:
        self._lock.acquire()

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def __enter__(self) -> Context:
        self.lock()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unlock()

    def is_valid_spirv(self, code: bytes | Sequence[int]) -> bool:
        """True when ``code`` starts with a SPIR-V header (magic number and a full header)."""
        words = spirv_words(code)
        return len(words) >= SPIRV_HEADER_WORDS and words[0] == SPIRV_MAGIC

    def get_specializable_constants(self, code: bytes | Sequence[int]) -> dict[int, object]:
        """SpecId -> ``SpecializableConstant`` (kind, size in bits, default) of each specialisation
        constant of a SPIR-V module; an unreadable module is INVALID_VALUE with the reader's message."""
        from kernelkit.errors import FormatError
        from kernelkit.frontend.spirv.spec_constants import specializable_constants

        if not self.is_valid_spirv(code):
            raise MuxError(Result.INVALID_VALUE, "not a SPIR-V module")
        try:
            return dict(specializable_constants(spirv_bytes(code)))
        except FormatError as exc:
            raise MuxError(Result.INVALID_VALUE, f"SPIR-V: {exc}") from exc
