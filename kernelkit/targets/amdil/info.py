"""AMD IL devices, families and ``-mattr`` options (spec 000, "Calling the compiler" and
"Tablegen specific compiler options"), and the ``Info`` of the ``amdil`` target (Info ->
AmdilTarget -> AmdilModule -> AMD IL program text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernelkit.mux.device import AddressCapabilities, DeviceInfo, FloatingPointCapabilities
from kernelkit.mux.info import Info
from kernelkit.mux.result import MuxError, Result

FAMILY_7XX, FAMILY_EVERGREEN, FAMILY_NI = "7XX", "Evergreen", "Northern Islands"
# generation order: "Evergreen family or later" compares against this
FAMILY_ORDER = (FAMILY_7XX, FAMILY_EVERGREEN, FAMILY_NI)


@dataclass(frozen=True)
class AmdilDevice:
    name: str
    family: str
    note: str = ""
    aliases: tuple[str, ...] = ()
    # the Northern Islands chip this Evergreen device stands for in "8XX mode" (spec wording)
    eight_xx_mode_of: str | None = None
    # double-precision hardware (AMD's AMDIL device classes: RV770, Cypress, Cayman)
    hardware_fp64: bool = False
    # work-items per hardware wavefront (AMD's device classes: 64, halved on RV730/Redwood,
    # quartered on RV710/Cedar)
    wavefront: int = 64


# spec 000 "Calling the compiler": the -mcpu devices, their aliases and families.
# kauai and test have no family in the spec; AMD's AMDILDeviceInfo falls back to the 7XX device
# class for names it does not list, which is what they get here.
DEVICES: tuple[AmdilDevice, ...] = (
    AmdilDevice("rv710", FAMILY_7XX, wavefront=16),
    AmdilDevice("rv730", FAMILY_7XX, wavefront=32),
    AmdilDevice("rv770", FAMILY_7XX, "also includes rv740, 790 and 700",
                aliases=("rv740", "rv790", "rv700"), hardware_fp64=True),
    AmdilDevice("cypress", FAMILY_EVERGREEN, "Cayman in 8XX mode", eight_xx_mode_of="cayman",
                hardware_fp64=True),
    AmdilDevice("juniper", FAMILY_EVERGREEN, "Barts in 8XX mode", eight_xx_mode_of="barts"),
    AmdilDevice("redwood", FAMILY_EVERGREEN, "Turks in 8XX mode", eight_xx_mode_of="turks",
                wavefront=32),
    AmdilDevice("cedar", FAMILY_EVERGREEN, "Caicos in 8XX mode", eight_xx_mode_of="caicos",
                wavefront=16),
    AmdilDevice("cayman", FAMILY_NI, hardware_fp64=True),
    AmdilDevice("barts", FAMILY_NI),
    AmdilDevice("turks", FAMILY_NI),
    AmdilDevice("caicos", FAMILY_NI),
    AmdilDevice("kauai", FAMILY_7XX, "Emulator testing"),
    AmdilDevice("test", FAMILY_7XX, "Test backend for features that are in development"),
)
DEVICES_BY_NAME = {d.name: d for d in DEVICES} | {a: d for d in DEVICES for a in d.aliases}

# spec 000 "+cal=<#>": SC versions and the CAL version each corresponds to
SC_VERSIONS: tuple[tuple[str, int], ...] = (("SC_135", 950), ("SC_136", 982), ("SC_137", 1331))


@dataclass(frozen=True)
class FeatureRule:
    description: str
    min_family: str | None = None   # "only valid on <family> or later"
    min_cal_after: int | None = None  # "after CAL version N" (strictly greater)


# spec 000 "Tablegen specific compiler options": features and the rules that limit them
FEATURES: dict[str, FeatureRule] = {
    "fp64": FeatureRule("double support"),
    "byte_addressable_store": FeatureRule("byte addressable store code generation",
                                          FAMILY_EVERGREEN, 592),
    "barrier_detect": FeatureRule("barrier detect mode"),
    "images": FeatureRule("the image extension for OpenCL 1.0", FAMILY_EVERGREEN, 592),
    "multi_uav": FeatureRule("zero copy code generation on the GPU", FAMILY_EVERGREEN),
    "macrodb": FeatureRule("embedding of macros into the IL during codegen"),
    "noalias": FeatureRule("backend assumptions on pointer aliasing"),
    "noinline": FeatureRule("backend inlining of functions"),
}


# not in spec 000: a feature of AMD's later AMDIL compiler (AMDILBase.td), see metadata30.py
BACKEND_FEATURES: dict[str, FeatureRule] = {
    "metadata30": FeatureRule("metadata version 3.x (reflection and constarg records)"),
}


def resolve_device(name: str) -> AmdilDevice:
    device = DEVICES_BY_NAME.get(name)
    if device is None:
        raise MuxError(Result.INVALID_VALUE, f"unknown AMD IL device {name!r} (devices: "
                                             f"{', '.join(d.name for d in DEVICES)})")
    return device


def family_at_least(family: str, minimum: str) -> bool:
    return FAMILY_ORDER.index(family) >= FAMILY_ORDER.index(minimum)


def sc_version(cal: int) -> str | None:
    """The SC version a CAL version compiles for (the newest whose CAL number is reached)."""
    found = None
    for sc, cal_min in SC_VERSIONS:
        if cal >= cal_min:
            found = sc
    return found


@dataclass
class Attributes:
    """A parsed ``-mattr`` string."""
    max_work_group_size: tuple[int, int, int] | None = None
    max_work_group_dims: int | None = None
    cal: int | None = None
    features: dict[str, bool] = field(default_factory=dict)

    @property
    def sc_version(self) -> str | None:
        return sc_version(self.cal) if self.cal is not None else None


_MWGS = re.compile(r"mwgs-([1-3])((?:-[0-9]+){1,3})\Z")
_CAL = re.compile(r"\+?cal=([0-9]+)\Z")


def _bad(message: str) -> MuxError:
    return MuxError(Result.INVALID_COMPILER_OPTIONS, f"-mattr: {message}")


def parse_mattr(text: str, device: str | AmdilDevice) -> Attributes:
    """Parse ``-mattr=a,b,...`` for a device and check each item against the spec's rules."""
    dev = resolve_device(device) if isinstance(device, str) else device
    attrs = Attributes()
    items = [i.strip() for i in text.split(",") if i.strip()] if text else []
    for item in items:
        m = _MWGS.match(item)
        if m:
            dims = int(m.group(1))
            values = [int(v) for v in m.group(2)[1:].split("-")]
            if len(values) != dims:
                raise _bad(f"{item}: dimensionality {dims} but {len(values)} sizes")
            if any(v < 1 for v in values):
                raise _bad(f"{item}: work-group sizes must be positive")
            attrs.max_work_group_dims = dims
            attrs.max_work_group_size = tuple(values + [1] * (3 - dims))  # type: ignore[assignment]
            continue
        m = _CAL.match(item)
        if m:
            attrs.cal = int(m.group(1))
            continue
        if item[:1] in "+-" and (item[1:] in FEATURES or item[1:] in BACKEND_FEATURES):
            attrs.features[item[1:]] = item[0] == "+"
            continue
        raise _bad(f"unknown attribute {item!r} (mwgs-#d-#1-#2-#3, +cal=N, "
                   f"[+/-]{'|'.join([*FEATURES, *BACKEND_FEATURES])})")
    for name, enabled in attrs.features.items():
        rule = FEATURES.get(name) or BACKEND_FEATURES[name]
        if not enabled:
            continue
        if rule.min_family and not family_at_least(dev.family, rule.min_family):
            raise _bad(f"+{name} is only valid on the {rule.min_family} family or later "
                       f"({dev.name} is {dev.family})")
        if rule.min_cal_after is not None and attrs.cal is not None and attrs.cal <= rule.min_cal_after:
            raise _bad(f"+{name} is only valid after CAL version {rule.min_cal_after} "
                       f"(cal={attrs.cal})")
    return attrs


def frontend_options(dev: AmdilDevice) -> list[str]:
    """What every OpenCL C compile for the device gets: OpenCL C 1.2, and the append counters
    behind cl_ext_atomic_counters_32 on Evergreen and later (GDS)."""
    # no binary16 arithmetic on any of them (vload_half/vstore_half only)
    opts = ["-cl-std=CL1.2", "-cl-ext=-cl_khr_fp16"]
    if family_at_least(dev.family, FAMILY_EVERGREEN):
        opts.append("-Dcl_ext_atomic_counters_32=1")
    return opts


def device_info(dev: AmdilDevice) -> DeviceInfo:
    evergreen_or_later = family_at_least(dev.family, FAMILY_EVERGREEN)
    return DeviceInfo(
        device_name=dev.name, device_type="gpu",
        address_capabilities=AddressCapabilities.BITS32,
        double_capabilities=(FloatingPointCapabilities.FULL if dev.hardware_fp64
                             else FloatingPointCapabilities(0)),
        max_work_group_size=(256, 256, 256), max_concurrent_work_items=256,
        supports_work_group_collectives=False, supports_generic_address_space=False,
        image_support=evergreen_or_later, local_memory_size=32768,
        extra={"family": dev.family})


class AmdilInfo(Info):
    """The ``amdil`` compiler: ``amdil:<device>`` (aliases accepted)."""

    name = "amdil"
    description = "AMD IL with compiler metadata (R700, Evergreen, Northern Islands)"

    def __init__(self, device: str = "juniper"):
        dev = resolve_device(device)
        super().__init__(device_info(dev), supports_deferred_compilation=True)
        self.device = dev

    def devices(self) -> list[str]:
        return [d.name for d in DEVICES]

    def accepts_device(self, device: str) -> bool:
        return device in DEVICES_BY_NAME

    def _create_target(self, context, device, callback):
        from kernelkit.targets.amdil.target import AmdilTarget

        return AmdilTarget(self, context, callback, resolve_device(device or self.device.name).name)

    def parse_target(self, target_name: str) -> str | None:
        family, sep, device = target_name.partition(":")
        if family != self.name:
            return None
        if not sep:
            return self.device.name
        dev = DEVICES_BY_NAME.get(device)
        return dev.name if dev else None


def get_compilers() -> list[Info]:
    return [AmdilInfo()]
