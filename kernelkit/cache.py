"""kernelkit's on-disk cache: content-addressed entries in the user's cache directory.

The directory is ``$KERNELKIT_CACHE_DIR`` when set, else platformdirs' user cache directory for
"kernelkit". Each entry is one file ``<root>/<namespace>/<key[:2]>/<key>``, written to a
temporary file in the same directory and moved into place with ``os.replace`` (atomic on POSIX),
so a reader sees either no entry or a complete one. Every entry also carries the SHA-256 of its
payload: a damaged file (disk full, foreign write) reads as a miss, never as data.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

ENTRY_MAGIC = b"KKC1"
_DIGEST_SIZE = 32


def cache_root() -> Path:
    """The cache directory: ``$KERNELKIT_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("KERNELKIT_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("kernelkit", appauthor=False))


def make_key(*parts: str | bytes) -> str:
    """SHA-256 hex digest of the parts, each length-prefixed so no two part lists collide."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


class Cache:
    """One namespace of the on-disk cache (e.g. ``"frontend"``)."""

    def __init__(self, namespace: str, root: Path | None = None):
        self.namespace = namespace
        self.root = Path(root) if root is not None else cache_root()

    def path(self, key: str) -> Path:
        return self.root / self.namespace / key[:2] / key

    def get(self, key: str) -> bytes | None:
        """The payload stored under ``key``, or None (absent, unreadable or damaged)."""
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return None
        head = len(ENTRY_MAGIC) + _DIGEST_SIZE
        if len(data) < head or not data.startswith(ENTRY_MAGIC):
            return None
        payload = data[head:]
        if hashlib.sha256(payload).digest() != data[len(ENTRY_MAGIC):head]:
            return None
        return payload

    def put(self, key: str, payload: bytes) -> None:
        """Store ``payload`` under ``key`` atomically. A cache that cannot be written is skipped."""
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(ENTRY_MAGIC)
                f.write(hashlib.sha256(payload).digest())
                f.write(payload)
            os.replace(tmp, target)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
