"""kernelkit's on-disk cache: content-addressed entries in the user's cache directory.

The directory is ``$KERNELKIT_CACHE_DIR`` when set, else platformdirs' user cache directory for
"kernelkit". Each entry is one file ``<root>/<namespace>/<key[:2]>/<key>``, written to a
temporary file in the same directory and moved into place with ``os.replace`` (atomic on POSIX),
so a reader sees either no entry or a complete one. Every entry also carries a SHA-256 over its
namespace, its key and its payload: a damaged file (disk full, foreign write) or an entry that is
not the one its name says (copied or renamed under another key) reads as a miss, never as data.

``KERNELKIT_NO_CACHE=1`` (the CLI's ``--no-cache``) turns the cache off: nothing is read and
nothing is written, except that namespaces of kernelkit's own prebuilt libraries (``library=True``:
entries that depend on kernelkit and its tools, never on the user's input) may still be read.

The cache holds at most ``$KERNELKIT_CACHE_MAX_BYTES`` (default 2 GiB): after a write that takes
it over, the least recently used entries (a hit refreshes an entry's time) are removed until it
is under 90 % of the limit.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

ENTRY_MAGIC = b"KKC2"            # KKC1 (digest of the payload alone) entries read as misses
_DIGEST_SIZE = 32
DEFAULT_MAX_BYTES = 2 << 30
_TMP_PREFIX = ".tmp-"


def cache_dir() -> str:
    """The cache directory as a string: ``$KERNELKIT_CACHE_DIR`` or the user's cache directory.
    (pathlib is imported by those who need a Path: a cached CLI build reads its entry with os alone.)"""
    env = os.environ.get("KERNELKIT_CACHE_DIR")
    if env:
        return env
    import platformdirs

    return platformdirs.user_cache_dir("kernelkit", appauthor=False)


def cache_root() -> Path:
    """The cache directory: ``$KERNELKIT_CACHE_DIR`` or the user's cache directory."""
    from pathlib import Path

    return Path(cache_dir())


def cache_disabled() -> bool:
    """Whether ``KERNELKIT_NO_CACHE`` turns the cache off."""
    return os.environ.get("KERNELKIT_NO_CACHE", "") not in ("", "0")


def max_bytes() -> int:
    """The size limit: ``$KERNELKIT_CACHE_MAX_BYTES`` (a number of bytes, or with K/M/G) or 2 GiB."""
    text = os.environ.get("KERNELKIT_CACHE_MAX_BYTES", "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1].upper(), 1)
    try:
        return max(0, int(text[:-1] if scale > 1 else text) * scale)
    except ValueError:
        from kernelkit.errors import KernelkitError

        raise KernelkitError(f"KERNELKIT_CACHE_MAX_BYTES={text!r}: expected a number of bytes "
                             "(e.g. 500M, 2G)") from None


def sha256(data: bytes = b""):
    """A SHA-256 hash object: hashlib's when hashlib is loaded (OpenSSL, fast on megabytes), else CPython's
    own module's (the same digest; its import costs a third of hashlib's, which loads OpenSSL: a CLI call
    that hashes a few kilobytes need not pay that)."""
    if "hashlib" not in sys.modules:
        try:
            from _sha2 import sha256 as own  # Python 3.12+
        except ImportError:
            try:
                from _sha256 import sha256 as own
            except ImportError:
                own = None
        if own is not None:
            return own(data)
    import hashlib

    return hashlib.sha256(data)


def make_key(*parts: str | bytes) -> str:
    """SHA-256 hex digest of the parts, each length-prefixed so no two part lists collide."""
    h = sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def entry_digest(namespace: str, key: str, payload: bytes) -> bytes:
    """The digest an entry carries: SHA-256 over its namespace, key and payload (length-prefixed)."""
    h = sha256()
    for part in (namespace.encode("utf-8"), key.encode("utf-8"), payload):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def read_entry(root: str, namespace: str, key: str, *, library: bool = False) -> bytes | None:
    """The payload stored under ``key`` in ``namespace`` of the cache at ``root``, or None (absent,
    unreadable, damaged, or the cache off); a hit refreshes the entry's time."""
    disabled = cache_disabled()
    if disabled and not library:
        return None
    path = os.path.join(root, namespace, key[:2], key)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(ENTRY_MAGIC) + _DIGEST_SIZE
    if len(data) < head or not data.startswith(ENTRY_MAGIC):
        return None
    payload = data[head:]
    if entry_digest(namespace, key, payload) != data[len(ENTRY_MAGIC):head]:
        return None
    if not disabled:
        try:
            os.utime(path)  # least recently used goes first when the cache is over its limit
        except OSError:
            pass
    return payload


class Cache:
    """One namespace of the on-disk cache (e.g. ``"frontend"``); ``library=True`` for entries of
    kernelkit's own prebuilt libraries (still read when the cache is turned off)."""

    def __init__(self, namespace: str, root: Path | None = None, *, library: bool = False):
        from pathlib import Path

        self.namespace = namespace
        self.root = Path(root) if root is not None else cache_root()
        self.library = library

    def path(self, key: str) -> Path:
        return self.root / self.namespace / key[:2] / key

    def get(self, key: str) -> bytes | None:
        """The payload stored under ``key``, or None (absent, unreadable, damaged, or the cache off)."""
        return read_entry(str(self.root), self.namespace, key, library=self.library)

    def put(self, key: str, payload: bytes) -> None:
        """Store ``payload`` under ``key`` atomically. A cache that cannot be written (or is turned
        off) is skipped."""
        if cache_disabled():
            return
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            import tempfile  # (not at the top: a cache hit should not pay for importing it)

            fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=target.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(ENTRY_MAGIC)
                f.write(entry_digest(self.namespace, key, payload))
                f.write(payload)
            os.replace(tmp, target)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        enforce_limit(self.root)


class Entry:
    """One entry file of the cache."""

    __slots__ = ("namespace", "path", "size", "mtime")

    def __init__(self, namespace: str, path: Path, size: int, mtime: float):
        self.namespace, self.path, self.size, self.mtime = namespace, path, size, mtime


def entries(root: Path | None = None) -> list[Entry]:
    """Every entry file of the cache (``<namespace>/<xx>/<key>``); other files are not ours."""
    from pathlib import Path

    root = Path(root) if root is not None else cache_root()
    out: list[Entry] = []
    try:
        namespaces = [d for d in os.scandir(root) if d.is_dir(follow_symlinks=False)]
    except OSError:
        return out
    for ns in namespaces:
        try:
            shards = [d for d in os.scandir(ns.path) if d.is_dir(follow_symlinks=False) and len(d.name) == 2]
        except OSError:
            continue
        for shard in shards:
            try:
                files = list(os.scandir(shard.path))
            except OSError:
                continue
            for f in files:
                if not f.name.startswith(shard.name) and not f.name.startswith(_TMP_PREFIX):
                    continue
                try:
                    st = f.stat(follow_symlinks=False)
                except OSError:
                    continue
                out.append(Entry(ns.name, Path(f.path), st.st_size, st.st_mtime))
    return out


def enforce_limit(root: Path | None = None, limit: int | None = None) -> int:
    """Remove least recently used entries while the cache is over ``limit``; bytes removed."""
    limit = max_bytes() if limit is None else limit
    all_entries = entries(root)
    total = sum(e.size for e in all_entries)
    if total <= limit:
        return 0
    goal = int(limit * 0.9)
    removed = 0
    now = time.time()
    for e in sorted(all_entries, key=lambda e: e.mtime):
        if total - removed <= goal:
            break
        if e.path.name.startswith(_TMP_PREFIX) and now - e.mtime < 3600:
            continue  # another process is writing it
        try:
            e.path.unlink()
            removed += e.size
        except OSError:
            pass
    return removed


def clear(root: Path | None = None) -> tuple[int, int]:
    """Remove every entry; (entries, bytes) removed. Files that are not entries stay."""
    count = size = 0
    for e in entries(root):
        try:
            e.path.unlink()
        except OSError:
            continue
        count += 1
        size += e.size
    return count, size
