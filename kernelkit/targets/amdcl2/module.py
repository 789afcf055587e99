"""The amdcl2 compiler::Module: finalized mux IR -> AMD CL2 binary (``binary.py``).

Build options: ``-mamdcl2-driver-version=N`` (the driver whose layout the binary follows; default
the newest kernelkit knows that has the device; ``kernelkit build --driver-version N``), the amdhsa machine options;
``-mcode-object-version`` is refused (the inner binary is the driver's own HSA format).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kernelkit.errors import CompileError
from kernelkit.formats.amdcl2.binary import DEVICE_CODES, NEWEST_DRIVER, newest_driver_of
from kernelkit.targets.amdhsa.module import AmdhsaModule

DRIVER_OPTION = re.compile(r"^-mamdcl2-driver-version=(\S*)$")
OLDEST_DRIVER = min(DEVICE_CODES)


def split_driver_version(options: Sequence[str], default: int = NEWEST_DRIVER) -> tuple[int, list[str]]:
    driver, rest = default, []
    for opt in options:
        m = DRIVER_OPTION.match(opt)
        if m is None:
            if opt.startswith("-mcode-object-version="):
                raise CompileError(f"build option {opt}: AMD CL2 binaries hold the driver's own HSA code "
                                   "(no code object version to choose)")
            rest.append(opt)
            continue
        if not m.group(1).isdigit() or not OLDEST_DRIVER <= int(m.group(1)) <= 10 ** 7:
            raise CompileError(f"build option {opt}: driver version must be a number like 203603 "
                               f"(the oldest CL2 driver is {OLDEST_DRIVER})")
        driver = int(m.group(1))
    return driver, rest


class Cl2Module(AmdhsaModule):
    driver_version = NEWEST_DRIVER
    printf_reached: dict[str, set[str]] = {}   # kernel -> format strings it reaches (printf_records)

    def take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        self.driver_version, rest = split_driver_version(options, newest_driver_of(self.target.device))
        return super().take_target_options(rest)

    def create_assembly(self) -> str:
        from kernelkit.targets.amdcl2.binary import cl2_assembly

        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        return cl2_assembly(self)

    def create_binary(self) -> bytes:
        from kernelkit.targets.amdcl2.binary import build_cl2_binary

        if self.finalized_llvm_module is None or self.program_info is None:
            self.finalize()
        try:
            return build_cl2_binary(self)
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise
