"""Build options the amdhsa compiler takes out before the OpenCL frontend sees them, spelled as
clang spells them: ``-mcode-object-version=N`` (2..6, default 6 like clang 22) and the machine
options ``-m[no-]cumode``, ``-m[no-]tgsplit``, ``-m[no-]wavefrontsize64``, which become LLVM
target features as clang's driver makes them (clang 22: ``-mno-cumode`` is ignored for processors
before gfx10; ``-mno-wavefrontsize64`` is the default)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.tables import CODE_OBJECT_VERSIONS, DEFAULT_CODE_OBJECT_VERSION

_COV = re.compile(r"^-mcode-object-version=(\S+)$")
# option -> (LLVM feature, setting); None: nothing to add
MACHINE_OPTIONS: dict[str, tuple[str, str] | None] = {
    "-mcumode": ("cumode", "+"), "-mno-cumode": ("cumode", "-"),
    "-mtgsplit": ("tgsplit", "+"), "-mno-tgsplit": ("tgsplit", "-"),
    "-mwavefrontsize64": ("wavefrontsize64", "+"), "-mno-wavefrontsize64": None,
}
# features clang drops for processors without work-group processors (before gfx10, the ones
# without wave32): ``-mno-cumode`` ("not currently supported for processor")
WGP_ONLY = ("-cumode",)


@dataclass
class BackendOptions:
    code_object_version: int = DEFAULT_CODE_OBJECT_VERSION
    machine: list[str] = field(default_factory=list)    # the -m options, last one of each wins

    def features(self, processor) -> tuple[str, ...]:
        chosen: dict[str, str] = {}
        for opt in self.machine:
            mapped = MACHINE_OPTIONS[opt]
            if mapped is None:
                chosen.pop("wavefrontsize64", None)
            else:
                chosen[mapped[0]] = mapped[1]
        wgp = 32 in processor.wavefront_sizes
        return tuple(f"{s}{name}" for name, s in chosen.items() if wgp or f"{s}{name}" not in WGP_ONLY)


def split_backend_options(options: Sequence[str]) -> tuple[BackendOptions, list[str]]:
    out = BackendOptions()
    rest = []
    for opt in options:
        if opt in MACHINE_OPTIONS:
            out.machine.append(opt)
            continue
        m = _COV.match(opt)
        if not m:
            rest.append(opt)
            continue
        if not m.group(1).isdigit() or int(m.group(1)) not in CODE_OBJECT_VERSIONS:
            raise CompileError(f"build option {opt}: code object version must be one of "
                               f"{', '.join(map(str, CODE_OBJECT_VERSIONS))}")
        out.code_object_version = int(m.group(1))
    return out, rest
