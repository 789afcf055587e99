"""AMDGPU target triples and target IDs (spec 001 "Target Triples", "Target ID").

``TargetID.parse("gfx90a:xnack-")``, ``TargetID.parse("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-")``
and the code object V2-V3 form ``TargetID.parse_v2v3("gfx90a+xnack")``. Feature settings are
``"on"``, ``"off"`` or ``"any"`` (not named in the ID); ``"unsupported"`` when the processor
lacks the feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernelkit.errors import KernelkitError
from kernelkit.formats.amdgpu.tables import (
    ARCHITECTURES,
    OPERATING_SYSTEMS,
    PROCESSOR_BY_ALIAS,
    PROCESSOR_BY_NAME,
    PROCESSORS,
    VENDORS,
    Processor,
)

DEFAULT_TRIPLE = "amdgcn-amd-amdhsa-"
# vendors LLVM's Triple also parses besides the spec's table (clang users write amdgcn-mesa-mesa3d)
LLVM_VENDOR_SPELLINGS = ("mesa",)


class TargetIDError(KernelkitError, ValueError):
    """A target triple or target ID that the spec does not allow."""


def _valid_processors(arch: str | None = None) -> str:
    names = [p.name for p in PROCESSORS if arch is None or p.arch == arch]
    return ", ".join(names)


@dataclass(frozen=True)
class TargetID:
    processor: Processor
    settings: tuple[tuple[str, str], ...] = ()   # (feature, "on"|"off"), alphabetical
    triple: str = DEFAULT_TRIPLE                  # "<arch>-<vendor>-<os>-<environment>"
    spelled: str = field(default="", compare=False)  # the processor name as written

    # ------------------------------------------------------------------ parsing
    @classmethod
    def parse(cls, text: str) -> TargetID:
        """A target ID, optionally preceded by a triple (``<triple>-<target-id>``)."""
        text = text.strip()
        triple = DEFAULT_TRIPLE
        if text.split("-", 1)[0] in ARCHITECTURES and text.count("-") >= 2 and \
                text.split(":")[0] not in PROCESSOR_BY_ALIAS:
            parts = text.split("-", 3)
            arch, vendor, os_name = parts[0], parts[1], parts[2]
            rest = parts[3] if len(parts) > 3 else ""
            env = ""
            if rest.startswith("-"):
                rest = rest[1:]
            if vendor not in VENDORS and vendor not in LLVM_VENDOR_SPELLINGS:
                raise TargetIDError(f"unknown vendor {vendor!r} in {text!r} (valid: {', '.join(VENDORS)})")
            if os_name not in OPERATING_SYSTEMS:
                raise TargetIDError(f"unknown OS {os_name!r} in {text!r} (valid: "
                                    f"{', '.join(o for o in OPERATING_SYSTEMS if o)})")
            triple = f"{arch}-{vendor}-{os_name}-{env}"
            if not rest:
                raise TargetIDError(f"{text!r} names no processor (e.g. {arch}-{vendor}-{os_name}--"
                                    f"{'gfx90a' if arch == 'amdgcn' else 'juniper'})")
            text = rest
        name, *feats = text.split(":")
        if "-" in name and name not in PROCESSOR_BY_ALIAS and triple == DEFAULT_TRIPLE:
            raise TargetIDError(f"unknown architecture {name.split('-')[0]!r} in {text!r} "
                                f"(valid: {', '.join(ARCHITECTURES)}; e.g. amdgcn-amd-amdhsa--gfx90a)")
        proc = cls._processor(name, triple)
        settings: dict[str, str] = {}
        for feat in feats:
            if len(feat) < 2 or feat[-1] not in "+-":
                raise TargetIDError(f"target feature {feat!r} in {text!r} must end in '+' or '-' "
                                    f"(e.g. xnack+)")
            fname = feat[:-1]
            cls._check_feature(proc, fname, text)
            if fname in settings:
                raise TargetIDError(f"target feature {fname!r} appears more than once in {text!r}")
            settings[fname] = "on" if feat[-1] == "+" else "off"
        return cls(proc, tuple(sorted(settings.items())), triple, name)

    @classmethod
    def parse_v2v3(cls, text: str) -> TargetID:
        """Code object V2-V3 form ``<processor>(+<feature>)*`` (absent = off, present = on)."""
        name, *feats = text.strip().split("+")
        proc = cls._processor(name, DEFAULT_TRIPLE)
        settings = {f: "off" for f in proc.target_id_features}
        seen: set[str] = set()
        for fname in feats:
            cls._check_feature(proc, fname, text)
            if fname in seen:
                raise TargetIDError(f"target feature {fname!r} appears more than once in {text!r}")
            seen.add(fname)
            settings[fname] = "on"
        return cls(proc, tuple(sorted(settings.items())), DEFAULT_TRIPLE, name)

    @staticmethod
    def _processor(name: str, triple: str) -> Processor:
        proc = PROCESSOR_BY_ALIAS.get(name)
        arch = triple.split("-")[0]
        if proc is None:
            raise TargetIDError(f"unknown AMDGPU processor {name!r}; valid processors: "
                                f"{_valid_processors(arch)}")
        if proc.arch != arch:
            raise TargetIDError(f"processor {name!r} belongs to architecture {proc.arch!r}, not {arch!r}")
        return proc

    @staticmethod
    def _check_feature(proc: Processor, fname: str, text: str) -> None:
        valid = proc.target_id_features
        if fname not in valid:
            allowed = ", ".join(valid) if valid else "none"
            raise TargetIDError(f"processor {proc.name} does not support target feature {fname!r} "
                                f"in a target ID {text!r}; valid features: {allowed}")

    # ------------------------------------------------------------------ queries
    def setting(self, feature: str) -> str:
        if feature not in self.processor.target_id_features:
            return "unsupported"
        return dict(self.settings).get(feature, "any")

    @property
    def arch(self) -> str:
        return self.triple.split("-")[0]

    def canonical(self) -> str:
        """Canonical target ID: primary processor name, features alphabetical."""
        return self.processor.name + "".join(
            f":{f}{'+' if s == 'on' else '-'}" for f, s in self.settings)

    def full(self) -> str:
        """``<triple>-<target-id>`` as in ``amdhsa.target`` (V4+)."""
        return f"{self.triple}-{self.canonical()}"

    def v2v3(self) -> str:
        """Code object V2-V3 form: features present when on or any (spec 001)."""
        return self.processor.name + "".join(
            f"+{f}" for f in self.processor.target_id_features if self.setting(f) in ("on", "any"))

    def with_settings(self, **settings: str) -> TargetID:
        merged = dict(self.settings)
        for f, s in settings.items():
            self._check_feature(self.processor, f, self.canonical())
            if s == "any":
                merged.pop(f, None)
            else:
                merged[f] = s
        return TargetID(self.processor, tuple(sorted(merged.items())), self.triple, self.spelled)

    def __str__(self) -> str:
        return self.canonical()


def processor_by_name(name: str) -> Processor:
    proc = PROCESSOR_BY_NAME.get(name) or PROCESSOR_BY_ALIAS.get(name)
    if proc is None:
        raise TargetIDError(f"unknown AMDGPU processor {name!r}; valid processors: {_valid_processors()}")
    return proc


def is_amdgpu_target(text: str) -> bool:
    """True when ``text`` parses as an AMDGPU target ID or triple-prefixed target ID."""
    try:
        TargetID.parse(text)
    except TargetIDError:
        return False
    return True


def v2_isa_version(proc: Processor) -> tuple[int, int, int]:
    """(major, minor, stepping) of a gfx processor name: gfx90a -> (9, 0, 10), gfx1030 -> (10, 3, 0)."""
    digits = proc.name[3:]
    if proc.arch != "amdgcn" or proc.is_generic or len(digits) < 3:
        raise TargetIDError(f"{proc.name} has no ISA version")
    return int(digits[:-2]), int(digits[-2], 16), int(digits[-1], 16)
