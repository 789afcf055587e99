"""The host binary: native object code plus KernelInfo, in one msgpack container.

Layout: the 8-byte magic ``KKHOST\\x00\\x01`` followed by a msgpack map:
``version``, ``triple``, ``cpu`` (the LLVM name of the CPU the object was compiled for),
``features`` (that CPU's ISA features, LLVM names: a launch on a CPU lacking one is refused), ``kernels`` (one map per
kernel: ``signature`` = KernelSignature JSON, ``coroutine``, ``max_work_dim``,
``uniform_work_groups``, ``vector_width``: work-items per call of the whole-function-vectorised
form, 1 when scalar, ``work_item_copy``: false when a vectorised kernel with barriers was compiled
without its one-work-item-at-a-time copy, so that this object runs only groups whose x size is a
multiple of ``vector_width``; absent means true), ``printf_sites`` (format string then argument LLVM types),
``local_globals`` (static ``__local`` symbols), ``shared_globals`` (mutable program-scope variables), ``object`` (ELF relocatable for the host),
``object_sha256`` (its digest: a damaged object is refused before LLVM loads it, which would abort
the process) and ``mux_ir`` (the finalized mux-form IR, from which checked mode is compiled on request).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import msgpack

from kernelkit.abi.signature import KernelSignature
from kernelkit.errors import FormatError

MAGIC = b"KKHOST\x00\x01"
VERSION = 2   # 2: object_sha256


@dataclass
class HostKernelInfo:
    signature: dict
    coroutine: bool = False
    max_work_dim: int = 3
    uniform_work_groups: bool = True
    reach: list[dict] = field(default_factory=list)   # kernelkit.ir.analysis.reach.Reach.to_json()
    vector_width: int = 1
    work_item_copy: bool = True

    @property
    def name(self) -> str:
        return self.signature["name"]

    def needs_work_item_copy(self, global_x: int, local_x: int) -> bool:
        """Has an NDRange of these x sizes a group whose x size is not a multiple of the vector width,
        which an object without the kernel's work-item copy cannot run?"""
        if self.work_item_copy or self.vector_width == 1:
            return False
        return bool(local_x % self.vector_width or global_x % local_x % self.vector_width)


@dataclass
class HostBinary:
    triple: str
    cpu: str
    kernels: list[HostKernelInfo]
    object_code: bytes
    printf_sites: list[list[str]] = field(default_factory=list)
    local_globals: list[str] = field(default_factory=list)
    shared_globals: list[str] = field(default_factory=list)
    mux_ir: str = ""
    options: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)

    def kernel(self, name: str) -> HostKernelInfo:
        index = self.__dict__.get("_by_name")
        if index is None or len(index[0]) != len(self.kernels) or index[0] is not self.kernels:
            index = (self.kernels, {})
            for k in self.kernels:          # the first of a name, as a linear search finds it
                index[1].setdefault(k.name, k)
            self.__dict__["_by_name"] = index
        found = index[1].get(name)
        if found is None:
            raise KeyError(name)
        return found

    def to_bytes(self) -> bytes:
        body = {
            "version": VERSION, "triple": self.triple, "cpu": self.cpu, "features": self.features,
            "kernels": [{"signature": k.signature, "coroutine": k.coroutine, "max_work_dim": k.max_work_dim,
                         "uniform_work_groups": k.uniform_work_groups, "reach": k.reach,
                         "vector_width": k.vector_width, "work_item_copy": k.work_item_copy}
                        for k in self.kernels],
            "printf_sites": self.printf_sites, "local_globals": self.local_globals,
            "shared_globals": self.shared_globals,
            "object": self.object_code, "object_sha256": hashlib.sha256(self.object_code).hexdigest(),
            "mux_ir": self.mux_ir, "options": self.options,
        }
        return MAGIC + msgpack.packb(body, use_bin_type=True)


def is_host_binary(data: bytes) -> bool:
    return bytes(data[: len(MAGIC)]) == MAGIC


def _field(body: dict, name: str, kind, where: int):
    value = body.get(name)
    if not isinstance(value, kind):
        raise FormatError(f"host binary: field {name!r} missing or not {getattr(kind, '__name__', kind)}",
                          offset=where, field=name)
    return value


def read_host_binary(data: bytes) -> HostBinary:
    data = bytes(data)
    if not is_host_binary(data):
        raise FormatError("not a kernelkit host binary (bad magic)", offset=0, field="magic")
    try:
        body = msgpack.unpackb(data[len(MAGIC):], raw=False)
    except (ValueError, msgpack.exceptions.ExtraData, msgpack.exceptions.UnpackException) as exc:
        raise FormatError(f"host binary: corrupt KernelInfo container: {exc}", offset=len(MAGIC),
                          field="container") from None
    if not isinstance(body, dict):
        raise FormatError("host binary: container is not a map", offset=len(MAGIC), field="container")
    off = len(MAGIC)
    if body.get("version") != VERSION:
        raise FormatError(f"host binary: version {body.get('version')!r}, expected {VERSION}", offset=off,
                          field="version")
    kernels = []
    for k in _field(body, "kernels", list, off):
        if not isinstance(k, dict) or not isinstance(k.get("signature"), dict):
            raise FormatError("host binary: malformed kernel entry", offset=off, field="kernels")
        try:     # kept as its checked, normalized document: unknown keys and odd types do not pass
            signature = KernelSignature.from_json(k["signature"]).to_json()
        except FormatError as exc:
            raise FormatError(f"host binary: kernel signature: {exc.message}", offset=off,
                              field=f"kernels.signature.{exc.field}") from None
        max_work_dim = k.get("max_work_dim", 3)
        if not isinstance(max_work_dim, int) or isinstance(max_work_dim, bool) or not 1 <= max_work_dim <= 3:
            raise FormatError(f"host binary: max_work_dim {max_work_dim!r} is not 1, 2 or 3", offset=off,
                              field="kernels.max_work_dim")
        width = k.get("vector_width", 1)
        if not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= 64:
            raise FormatError(f"host binary: vector_width {width!r} is not 1..64", offset=off,
                              field="kernels.vector_width")
        work_item_copy = k.get("work_item_copy", True)
        if not isinstance(work_item_copy, bool):
            raise FormatError(f"host binary: work_item_copy {work_item_copy!r} is not a boolean", offset=off,
                              field="kernels.work_item_copy")
        kernels.append(HostKernelInfo(signature, bool(k.get("coroutine")), max_work_dim,
                                      bool(k.get("uniform_work_groups", True)), _reach(k.get("reach") or [], off),
                                      vector_width=width, work_item_copy=work_item_copy))
    obj = _field(body, "object", bytes, off)
    if _field(body, "object_sha256", str, off) != hashlib.sha256(obj).hexdigest():
        raise FormatError("host binary: the object code does not match its SHA-256 digest (damaged file)",
                          offset=off, field="object")
    sites = _field(body, "printf_sites", list, off)
    if not all(isinstance(s, list) and s and all(isinstance(x, str) for x in s) for s in sites):
        raise FormatError("host binary: malformed printf site table", offset=off, field="printf_sites")
    return HostBinary(
        triple=_field(body, "triple", str, off), cpu=_field(body, "cpu", str, off), kernels=kernels,
        object_code=obj, printf_sites=sites,
        local_globals=_strings(_field(body, "local_globals", list, off), "local_globals", off),
        shared_globals=_strings(body.get("shared_globals") or [], "shared_globals", off),
        mux_ir=_optional(body, "mux_ir", str, "", off),
        options=_strings(body.get("options") or [], "options", off),
        features=_strings(body.get("features") or [], "features", off))


def _reach(value, where: int) -> list[dict]:
    """The kernel's reach records (``{"arg", "offset": [[coef, [symbol...]]...], "size", "store"}``)."""
    def ok(r) -> bool:
        return (isinstance(r, dict) and isinstance(r.get("arg"), int) and isinstance(r.get("size"), int)
                and isinstance(r.get("store"), bool) and isinstance(r.get("offset"), list)
                and all(isinstance(t, list) and len(t) == 2 and isinstance(t[0], int) and isinstance(t[1], list)
                        and all(isinstance(x, str) for x in t[1]) for t in r["offset"]))
    if not isinstance(value, list) or not all(ok(r) for r in value):
        raise FormatError("host binary: malformed reach records", offset=where, field="kernels.reach")
    return value


def _strings(value, name: str, where: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise FormatError(f"host binary: field {name!r} is not a list of strings", offset=where, field=name)
    return value


def _optional(body: dict, name: str, kind, default, where: int):
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, kind):
        raise FormatError(f"host binary: field {name!r} is not {kind.__name__}", offset=where, field=name)
    return value
