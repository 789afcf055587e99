"""Programs whose kernels run on a simulator: which executor runs a target, and the kernels of
a program built for one (``Program(src).build("amdil:cayman")``).

``SIMULATORS`` maps a target family to the function building its ``SimulatedProgram``; the
arguments are checked and packed by the same rules as on the host (``runtime.args``), then the
simulator's launch receives numpy buffers, ``LocalArg`` sizes and value bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kernelkit.errors import KernelkitError
from kernelkit.runtime.args import pack_arguments
from kernelkit.runtime.ndrange import make_ndrange


@dataclass
class SimulatedProgram:
    target: str
    binary: bytes
    signatures: list                       # KernelSignature per kernel, in program order
    launch: Callable                       # (kernel, args, global, local, offset) -> stats
    log: str = ""

    @property
    def kernel_names(self) -> list[str]:
        return [s.name for s in self.signatures]

    def signature(self, name: str):
        for s in self.signatures:
            if s.name == name:
                return s
        raise KernelkitError(f"no kernel named {name!r} (kernels: {', '.join(self.kernel_names)})")


def _amdil(source: str, options, target: str, filename: str, spirv: bytes | None = None) -> SimulatedProgram:
    from kernelkit.abi.signature import signatures_from_ir, signatures_from_source
    from kernelkit.builder import build
    from kernelkit.mux.registry import resolve_target
    from kernelkit.sim.amdil import SimImage, launch

    _, device = resolve_target(target)
    result = build(source, target, options, filename=filename, spirv=spirv)
    text = result.binary.decode()
    # the argument rules need the source's signatures (the IL metadata has no type names)
    from kernelkit.targets.amdil.info import frontend_options, resolve_device
    user = [o for o in options if not o.startswith("-mattr=")]
    if spirv is not None:
        from kernelkit.frontend.spirv import translate

        signatures = signatures_from_ir(translate(spirv))
    else:
        signatures = signatures_from_source(source, frontend_options(resolve_device(device)) + user,
                                            pointer_size=4)

    def run(kernel, args, global_size, local_size, global_offset):
        args = [SimImage(a) if isinstance(a, np.ndarray) and a.ndim in (3, 4) else a
                for a in args]
        return launch(text, kernel, args, global_size, local_size, global_offset, device=device)
    return SimulatedProgram(target, result.binary, signatures, run, result.log)


def _visa(source: str, options, target: str, filename: str, spirv: bytes | None = None) -> SimulatedProgram:
    from kernelkit.mux.registry import resolve_target
    from kernelkit.targets.visa.runner import visa_program

    _, device = resolve_target(target)
    binary, run = visa_program(source, options, device, filename, spirv)
    return SimulatedProgram(target, binary.isa_of_built(), [k.signature for k in binary.kernels], run)


# target family -> builder of its SimulatedProgram
SIMULATORS: dict[str, Callable[..., SimulatedProgram]] = {"amdil": _amdil, "visa": _visa}


def build_simulated(source: str, options, target: str, filename: str,
                    spirv: bytes | None = None) -> SimulatedProgram:
    family = target.partition(":")[0]
    builder = SIMULATORS.get(family)
    if builder is None:
        raise KernelkitError(f"kernels built for {target} cannot run here: targets that run are "
                             f"host, {', '.join(f'{f}:<device>' for f in SIMULATORS)}")
    return builder(source, options, target, filename, spirv)


class SimulatedKernel:
    """A kernel of a SimulatedProgram; call it like a host Kernel."""

    def __init__(self, program: SimulatedProgram, name: str):
        self.program = program
        self.signature = program.signature(name)
        self.name = name
        self.last_output = ""
        self.last_stats = None

    def __repr__(self) -> str:
        args = ", ".join(f"{a.type_name} {a.name}" for a in self.signature.args)
        return f"<kernelkit.Kernel {self.name}({args}) on {self.program.target}>"

    def __call__(self, *args, global_size, local_size=None, global_offset=None, **_ignored) -> str:
        from kernelkit.abi.amdil import LocalArg
        from kernelkit.abi.opencl_types import NUMPY_DTYPES
        from kernelkit.runtime.images import simulator_image_value

        nd = make_ndrange(self.name, global_size, local_size, global_offset,
                          reqd_work_group_size=self.signature.reqd_work_group_size)
        # images and samplers go to the simulator as given (numpy arrays, sampler values);
        # everything else is checked and packed as on the host
        plain = [a for a in self.signature.args if a.kind not in ("image", "sampler")]
        if len(args) != len(self.signature.args):
            pack_arguments(self.name, self.signature.args, args)    # raises the host's error
        given = dict(zip([a.index for a in self.signature.args], args, strict=True))
        packed_plain = pack_arguments(self.name, plain, [given[a.index] for a in plain])
        packed = iter(packed_plain)
        values = []
        for a in self.signature.args:
            if a.kind in ("image", "sampler"):
                values.append(simulator_image_value(self.name, a, given[a.index]))
                continue
            p = next(packed)
            if a.kind == "pointer" and a.address_space == "local":
                values.append(LocalArg(p.local_bytes))
            elif a.kind == "pointer":
                values.append(p.array if p.array is not None else np.zeros(1, np.uint8))
            elif a.kind in ("scalar", "vector"):
                dtype = np.dtype(NUMPY_DTYPES[a.element])
                raw = np.frombuffer(bytes(p.storage), dtype=dtype)
                values.append(raw[:a.vector_width])
            else:
                values.append(bytes(p.storage)[:a.size])
        dims = nd.work_dim
        # no local size given: the simulator picks one within its device's and kernel's limits
        chosen = nd.local_size[:dims] if local_size is not None or self.signature.reqd_work_group_size else None
        self.last_stats = self.program.launch(self.name, values, nd.global_size[:dims], chosen,
                                              nd.global_offset[:dims])
        output = format_printf(getattr(self.last_stats, "printf", None) or [])
        if output:
            sys.stdout.write(output)
            sys.stdout.flush()
        self.last_output = output
        return output


def format_printf(records) -> str:
    """Simulator printf records [(format, [(type, bytes)])] formatted as the host formats its
    own (runtime.printf.format_record); string arguments arrive as their bytes."""
    import ctypes
    import struct

    from kernelkit.runtime.printf import format_record
    from kernelkit.targets.host.passes.printf import RECORD_HEADER

    out = []
    for fmt, values in records:
        types, payload, keep = [], bytearray(RECORD_HEADER), []
        for ty, raw in values:
            if ty == "string":
                buf = ctypes.create_string_buffer(bytes(raw))
                keep.append(buf)
                ty, raw = "ptr", struct.pack("<Q", ctypes.addressof(buf))
            types.append(ty)
            payload += bytes(raw).ljust((len(raw) + 7) // 8 * 8, b"\0")
        out.append(format_record(fmt, types, bytes(payload)))
    return "".join(out)
