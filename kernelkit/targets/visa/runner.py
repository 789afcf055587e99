"""Running kernelkit's vISA kernels on the vISA simulator (kernelkit.sim.visa): the runtime's
``visa`` executor (kernelkit.runtime.simulated.SIMULATORS)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kernelkit.targets.visa.module import VisaBinary, read_visa_binary
from kernelkit.targets.visa.target import split_simd_option


def visa_program(source: str, options: Sequence[str], platform: str, filename: str,
                 spirv: bytes | None = None) -> tuple[VisaBinary, Callable]:
    """The compiled program (from ``source``, or from the SPIR-V module ``spirv``) and
    ``run(kernel, args, global, local, offset) -> LaunchStats``. The program is built in a build
    worker and cached like every target binary (kernelkit.builder.build_visa_program)."""
    from kernelkit.builder import build_visa_program
    from kernelkit.formats.visa import parse_visaasm
    from kernelkit.sim.visa import decode, launch

    split_simd_option(options)   # a bad --simd is refused here, before any build
    binary = read_visa_binary(build_visa_program(source, f"visa:{platform}", options, filename=filename,
                                                 spirv=spirv).binary)
    programs: dict[str, object] = {}
    # program-scope variables keep their values from launch to launch (OpenCL 2.0 program scope)
    segments: dict[str, object] = {}

    def run(kernel: str, args, global_size, local_size, global_offset):
        k = binary.kernel(kernel)
        if kernel not in programs:
            programs[kernel] = decode(parse_visaasm(k.text).kernels[0])
        import numpy as np

        for name, data in (k.segments or {}).items():
            segments.setdefault(name, np.frombuffer(data, np.uint8).copy())
        return launch(programs[kernel], k.payload, list(args), list(global_size),
                      None if local_size is None else list(local_size),
                      list(global_offset), signature=k.signature, static_slm=k.static_slm,
                      segments={n: segments[n] for n in (k.segments or {})}, private_bytes=k.private_bytes,
                      printf_strings=k.printf_strings, printf_arguments=k.printf_arguments)
    return binary, run
