"""ELF header ``e_flags`` of AMDGPU code objects (spec 001 "e_flags for Code Object V2/V3/V4+").

Code object V2 as LLVM writes it uses the V3 layout (EF_AMDGPU_MACH + xnack/sramecc bits); the
spec's original V2 bits (XNACK_V2 = 0x01, TRAP_HANDLER_V2 = 0x02, processor in the ISA note) are
decoded when the machine byte is not an amdgcn processor.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelkit.errors import FormatError
from kernelkit.formats.amdgpu.tables import (
    EF_AMDGPU_GENERIC_VERSION_OFFSET,
    EF_V2,
    EF_V3,
    EF_V4,
    EF_V4_FEATURE_SETTINGS,
    PROCESSOR_BY_MACH,
    Processor,
)
from kernelkit.formats.amdgpu.target_id import DEFAULT_TRIPLE, TargetID


@dataclass(frozen=True)
class EFlags:
    processor: Processor | None
    xnack: str                  # on | off | any | unsupported
    sramecc: str
    generic_version: int = 0
    trap_handler: bool = False

    def target_id(self, triple: str = DEFAULT_TRIPLE) -> TargetID:
        if self.processor is None:
            raise FormatError("e_flags name no processor", field="e_flags")
        settings = tuple(sorted((f, s) for f, s in (("sramecc", self.sramecc), ("xnack", self.xnack))
                                if s in ("on", "off")))
        return TargetID(self.processor, settings, triple, self.processor.name)

    def names(self) -> list[str]:
        """Flag names as llvm-readelf prints them: processor, xnack[+-], sramecc[+-], generic_vN."""
        out = [self.processor.name] if self.processor else []
        for feat in ("xnack", "sramecc"):
            s = getattr(self, feat)
            if s in ("on", "off", "any"):
                out.append(feat + {"on": "+", "off": "-", "any": ""}[s])
        if self.generic_version:
            out.append(f"generic_v{self.generic_version}")
        return out


def encode_eflags(tid: TargetID, version: int, *, generic_version: int | None = None) -> int:
    proc = tid.processor
    if version <= 3:
        flags = proc.mach
        if tid.setting("xnack") in ("on", "any"):
            flags |= EF_V3["EF_AMDGPU_FEATURE_XNACK_V3"]
        if tid.setting("sramecc") in ("on", "any"):
            flags |= EF_V3["EF_AMDGPU_FEATURE_SRAMECC_V3"]
        return flags
    flags = proc.mach
    for feat, values in EF_V4_FEATURE_SETTINGS.items():
        flags |= values[tid.setting(feat)]
    if version >= 6 and proc.is_generic:
        gv = proc.generic_version if generic_version is None else generic_version
        flags |= gv << EF_AMDGPU_GENERIC_VERSION_OFFSET
    return flags


def decode_eflags(flags: int, version: int, *, v2_processor: Processor | None = None) -> EFlags:
    """``v2_processor``: the processor of a V2 object's ISA note, for spec-style V2 flags."""
    mach = flags & EF_V3["EF_AMDGPU_MACH"]
    proc = PROCESSOR_BY_MACH.get(mach)
    if mach and proc is None:
        raise FormatError(f"unknown EF_AMDGPU_MACH value {mach:#x}", offset=0x30, field="e_flags")
    if version == 2 and (proc is None or proc.arch != "amdgcn"):
        proc = v2_processor
        xnack = "on" if flags & EF_V2["EF_AMDGPU_FEATURE_XNACK_V2"] else "off"
        return EFlags(proc, _only(proc, "xnack", xnack), _only(proc, "sramecc", "on"),
                      trap_handler=bool(flags & EF_V2["EF_AMDGPU_FEATURE_TRAP_HANDLER_V2"]))
    if version <= 3:
        xnack = "on" if flags & EF_V3["EF_AMDGPU_FEATURE_XNACK_V3"] else "off"
        sramecc = "on" if flags & EF_V3["EF_AMDGPU_FEATURE_SRAMECC_V3"] else "off"
        return EFlags(proc, _only(proc, "xnack", xnack), _only(proc, "sramecc", sramecc))
    settings = {}
    for feat, values in EF_V4_FEATURE_SETTINGS.items():
        mask = EF_V4[f"EF_AMDGPU_FEATURE_{feat.upper()}_V4"]
        by_value = {v: k for k, v in values.items()}
        settings[feat] = by_value[flags & mask]
    gv = (flags & EF_V4["EF_AMDGPU_GENERIC_VERSION"]) >> EF_AMDGPU_GENERIC_VERSION_OFFSET
    return EFlags(proc, settings["xnack"], settings["sramecc"], gv)


def _only(proc: Processor | None, feature: str, value: str) -> str:
    if proc is None or feature not in proc.target_id_features:
        return "unsupported"
    return value
