"""Issue 17 point 3/4: a cache entry loads only under the key it was written for (its digest covers
namespace, key and payload), so a copied, renamed or old-format entry is a miss, never another build."""

from __future__ import annotations

import hashlib
import shutil

import kernelkit.cache as kcache
from kernelkit.builder import key as binary_cache


def test_entry_copied_under_another_key_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.delenv("KERNELKIT_NO_CACHE", raising=False)
    cache = kcache.Cache("frontend", tmp_path)
    first, second = "a" * 64, "b" * 64
    cache.put(first, b"payload of the first build")
    for where in (cache.path(second), kcache.Cache("other", tmp_path).path(first)):
        where.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cache.path(first), where)
    assert cache.get(first) == b"payload of the first build"
    assert cache.get(second) is None                            # renamed: another key
    assert kcache.Cache("other", tmp_path).get(first) is None    # moved: another namespace


def test_entry_digest_of_the_payload_alone_is_a_miss(tmp_path, monkeypatch):
    # the format before the key was bound (KKC1: SHA-256 of the payload only) never loads
    monkeypatch.delenv("KERNELKIT_NO_CACHE", raising=False)
    cache = kcache.Cache("frontend", tmp_path)
    key, payload = "c" * 64, b"payload"
    cache.path(key).parent.mkdir(parents=True)
    cache.path(key).write_bytes(b"KKC1" + hashlib.sha256(payload).digest() + payload)
    assert cache.get(key) is None
    cache.path(key).write_bytes(kcache.ENTRY_MAGIC + hashlib.sha256(payload).digest() + payload)
    assert cache.get(key) is None


def test_binary_entry_of_another_build_never_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("KERNELKIT_NO_CACHE", raising=False)
    saxpy = binary_cache.binary_key("kernel void saxpy() {}", "gfx90a", [], "saxpy.cl")
    scale = binary_cache.binary_key("kernel void scale() {}", "gfx90a", [], "scale.cl")
    binary_cache.store(saxpy, b"\x7fELF saxpy", "", [], ["saxpy"])
    entry = kcache.Cache(binary_cache.NAMESPACE).path
    entry(scale).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(entry(saxpy), entry(scale))
    assert binary_cache.lookup(saxpy).kernels == ["saxpy"]
    assert binary_cache.lookup(scale) is None
