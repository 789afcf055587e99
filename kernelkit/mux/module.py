"""compiler::BaseModule (spec 003 "Module"): drives front end, link, finalize and code generation.

States: ``EMPTY`` -> ``COMPILED`` (compile_opencl_c, link, deserialize) -> ``FINALIZED``.
``llvm_module`` holds the front end's IR; ``finalize`` works on a copy (``finalized_llvm_module``)
so the original stays available for deferred kernels. A caller that only makes the binary (the
build worker) sets ``keeps_compiled_ir = False``: finalize then works on the IR itself, without the
copy (a print and a parse of the whole program).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgpack

from kernelkit.errors import CompileError, KernelkitError
from kernelkit.mux.result import MuxCompileError, MuxError, Result, unsupported

if TYPE_CHECKING:
    from kernelkit.abi.signature import KernelSignature
    from kernelkit.ir import Module as IRModule
    from kernelkit.mux.kernel import Kernel
    from kernelkit.mux.passes.printf_calls import PrintfDescriptor
    from kernelkit.mux.target import Target

SERIAL_MAGIC = "kernelkit.mux.module"
SERIAL_VERSION = 1
PROFILES = ("FULL_PROFILE", "EMBEDDED_PROFILE")  # OpenCL CL_DEVICE_PROFILE values


@dataclass(frozen=True)
class InputHeader:
    """compiler::InputHeader: a header the program #includes by ``name``."""

    name: str
    source: str


def _check_header_name(name: str) -> None:
    """An input header's name must stay inside the folder the headers are written to: relative,
    ``/``-separated, without ``..``, ``.`` or empty parts (an escaping name is an error)."""
    parts = name.split("/") if isinstance(name, str) else []
    if (not parts or name.startswith("/") or "\\" in name or "\0" in name or os.path.isabs(name)
            or any(part in ("", ".", "..") for part in parts)):
        raise MuxError(Result.INVALID_VALUE, f"input header name {name!r} is not a relative path inside the "
                                             "program (no absolute names, no '..', '.' or empty parts)")


@dataclass
class ProgramInfo:
    """What ``finalize`` reports: each kernel's interface, in module order."""

    kernels: list[KernelSignature] = field(default_factory=list)
    printf_calls: list[PrintfDescriptor] = field(default_factory=list)   # finalize's printf_calls

    def kernel(self, name: str) -> KernelSignature:
        for sig in self.kernels:
            if sig.name == name:
                return sig
        raise MuxError(Result.INVALID_VALUE, f"no kernel named {name!r}")


def link_ir(texts: Sequence[str]) -> str:
    """LLVM IR modules linked by LLVM's linker and verified (RuntimeError when they do not link)."""
    from kernelkit.llvm_binding import llvm

    linked = llvm().parse_assembly(texts[0])
    for text in texts[1:]:
        linked.link_in(llvm().parse_assembly(text))
    linked.verify()
    return str(linked)


class Module:
    EMPTY, COMPILED, FINALIZED = "empty", "compiled", "finalized"
    keeps_compiled_ir = True   # False: finalize consumes llvm_module (no deferred kernels, link or serialize after)

    def __init__(self, target: Target):
        self.target = target
        self.context = target.context
        self.num_errors = 0
        self.log = ""
        self.options: list[str] = []
        self.state = self.EMPTY
        self.llvm_module: IRModule | None = None
        self.finalized_llvm_module: IRModule | None = None
        self.program_info: ProgramInfo | None = None
        self._kernels: dict[str, Kernel] = {}
        # (path, sha256) of the files the program #included (not the input headers)
        self.dependencies: list[tuple[str, str]] = []

    # -- diagnostics ------------------------------------------------------------------------
    def add_diagnostic(self, message: str) -> None:
        self.log += message if message.endswith("\n") else message + "\n"

    def add_build_error(self, message: str) -> None:
        self.num_errors += 1
        self.add_diagnostic(message)

    def clear(self) -> None:
        """Drop the IR (after a binary was made) but keep the log."""
        self.llvm_module = None
        self.finalized_llvm_module = None

    # -- front ends --------------------------------------------------------------------------
    def take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        """(the target's own build options, which the OpenCL C frontend must not see but the back end
        reads from ``self.options``; the rest). Targets take theirs here (remembering what they need) for
        OpenCL C and SPIR-V alike; a bad one raises CompileError."""
        return [], list(options)

    def _take_target_options(self, options: Sequence[str]) -> tuple[list[str], list[str]]:
        try:
            return self.take_target_options(options)
        except CompileError as exc:
            self.add_build_error(exc.message)
            raise MuxCompileError(Result.COMPILE_PROGRAM_FAILURE, exc) from exc

    def compile_opencl_c(self, source: str, options: Sequence[str] = (), *,
                         device_profile: str = "FULL_PROFILE",
                         input_headers: Sequence[InputHeader] = (),
                         filename: str = "<source>") -> None:
        from kernelkit.frontend import compile_opencl
        from kernelkit.ir import parse

        if self.state != self.EMPTY:
            raise MuxError(Result.INVALID_VALUE, f"module already holds a program (state {self.state})")
        if device_profile not in PROFILES:
            raise MuxError(Result.INVALID_VALUE, f"device profile must be one of {', '.join(PROFILES)}")
        kept, options = self._take_target_options(options)
        opts = [*self.target.frontend_options(), *options]
        if device_profile == "EMBEDDED_PROFILE":
            opts.append("-D__EMBEDDED_PROFILE__=1")
        for header in input_headers:
            _check_header_name(header.name)
        with tempfile.TemporaryDirectory(prefix="kernelkit-headers-") as tmp:
            if input_headers:
                for header in input_headers:
                    path = os.path.join(tmp, *header.name.split("/"))
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(header.source)
                opts.append(f"-I{tmp}")
            try:
                compiled = compile_opencl(source, opts, filename=filename,
                                          triple=self.target.frontend_triple,
                                          llvm_passes=self.target.frontend_llvm_passes)
            except CompileError as exc:
                self.add_build_error(exc.log or exc.message)
                raise MuxCompileError(Result.COMPILE_PROGRAM_FAILURE, exc) from exc
            inside = os.path.realpath(tmp) + os.sep
            self.dependencies = [(p, d) for p, d in compiled.deps if not p.startswith(inside)]
        if compiled.log:
            self.add_diagnostic(compiled.log)
        self.options = [o for o in opts if o != f"-I{tmp}"] + kept
        self.llvm_module = parse(compiled.ir_text)
        self.state = self.COMPILED

    def compile_spirv(self, code: bytes | Sequence[int], spirv_device_info: object = None,
                      spirv_spec_info: object = None, *, options: Sequence[str] = ()) -> object:
        """Read a SPIR-V module (OpenCL environment) into IR; unreadable input is COMPILE_PROGRAM_FAILURE.
        ``spirv_spec_info`` (a ``SpecializationInfo``, or a mapping SpecId -> value) gives specialisation
        constants their values; an unknown SpecId or a value its type cannot hold is INVALID_VALUE.
        ``options`` are the build options (spec 003's module options): the back end reads them as it does
        for OpenCL C (-O, -g, -mcode-object-version, -cl-fast-relaxed-math, ...); preprocessor options
        have nothing to act on, as OpenCL's clBuildProgram ignores them for programs made from IL."""
        from kernelkit.errors import FormatError
        from kernelkit.frontend.spirv import translate
        from kernelkit.frontend.spirv.spec_constants import SpecializationInfo
        from kernelkit.ir import parse
        from kernelkit.mux.context import spirv_bytes

        if not self.context.is_valid_spirv(code):
            raise MuxError(Result.INVALID_VALUE, "not a SPIR-V module (bad magic number or header)")
        if self.state != self.EMPTY:
            raise MuxError(Result.INVALID_VALUE, f"module already holds a program (state {self.state})")
        kept, options = self._take_target_options(options)
        data = spirv_bytes(code)
        spec_info = spirv_spec_info
        if spec_info is not None and not isinstance(spec_info, SpecializationInfo):
            try:
                spec_info = SpecializationInfo.from_values(self.context.get_specializable_constants(data),
                                                           dict(spec_info))  # type: ignore[call-overload]
            except (TypeError, ValueError) as exc:
                self.add_build_error(f"SPIR-V: {exc}")
                raise MuxError(Result.INVALID_VALUE, str(exc)) from exc
        try:
            ir_module = translate(data, spec_info)
            self.llvm_module = parse(str(ir_module))
        except (FormatError, KernelkitError) as exc:
            self.add_build_error(f"SPIR-V: {exc}")
            raise MuxError(Result.COMPILE_PROGRAM_FAILURE, str(exc)) from exc
        self.options = [*options, *kept]
        self.state = self.COMPILED
        return None

    def link(self, input_modules: Sequence[Module]) -> None:
        """Link other compiled modules into this one (LLVM's linker, through llvmlite, in a build
        worker: kernelkit.llvm_binding.in_worker)."""
        from kernelkit.ir import parse
        from kernelkit.llvm_binding import in_worker

        parts = ([self] if self.llvm_module is not None else []) + list(input_modules)
        if not parts:
            raise MuxError(Result.INVALID_VALUE, "nothing to link")
        for part in parts:
            if part.llvm_module is None or part.state == self.FINALIZED:
                raise MuxError(Result.INVALID_VALUE, "only compiled, unfinalized modules can be linked")
        try:
            with self.context:
                text = in_worker(link_ir, [str(part.llvm_module) for part in parts], target=self.target.device,
                                 kernels=[k for part in parts for k in part.kernel_names()], stage="link")
        except RuntimeError as exc:
            self.add_build_error(f"link error: {exc}")
            raise MuxError(Result.LINK_PROGRAM_FAILURE, str(exc)) from exc
        self.llvm_module = parse(text)
        self.state = self.COMPILED

    # -- finalize ----------------------------------------------------------------------------
    def finalize(self) -> ProgramInfo:
        """Run the mux pass pipeline, then the target's late passes, on a copy of the IR (on the IR
        itself when ``keeps_compiled_ir`` is False)."""
        from kernelkit.abi.signature import signatures_from_ir
        from kernelkit.ir import parse
        from kernelkit.mux.passes.pipeline import run_pipeline
        from kernelkit.mux.passes.printf_calls import printf_descriptors

        if self.llvm_module is None:
            raise MuxError(Result.INVALID_VALUE, "finalize needs a compiled module")
        with self.context:
            info = ProgramInfo(signatures_from_ir(self.llvm_module), printf_descriptors(self.llvm_module))
            module = parse(str(self.llvm_module)) if self.keeps_compiled_ir else self.llvm_module
            if not self.keeps_compiled_ir:
                self.llvm_module = None
            try:
                run_pipeline(module, self.target)
                self.late_module_passes(module)
            except MuxError:
                raise
            except Exception as exc:  # a pass failing is a finalize failure, not a crash
                self.add_build_error(f"finalize: {type(exc).__name__}: {exc}")
                raise MuxError(Result.FINALIZE_PROGRAM_FAILURE, f"{type(exc).__name__}: {exc}") from exc
        self.finalized_llvm_module = module
        self.program_info = info
        self.state = self.FINALIZED
        return info

    def late_module_passes(self, module: IRModule) -> None:
        """BaseModule::getLateTargetPasses for passes that read the module's own state (its build
        options); runs after ``Target.late_passes``. The base runs none."""

    def create_binary(self) -> bytes:
        raise unsupported("creating binaries")

    # -- kernels -----------------------------------------------------------------------------
    def kernel_names(self) -> list[str]:
        if self.program_info is not None:
            return [k.name for k in self.program_info.kernels]
        if self.llvm_module is None:
            return []
        from kernelkit.abi.signature import signatures_from_ir

        return [k.name for k in signatures_from_ir(self.llvm_module)]

    def get_kernel(self, name: str) -> Kernel:
        kernel = self._kernels.get(name)
        if kernel is None:
            if name not in self.kernel_names():
                raise MuxError(Result.INVALID_VALUE, f"no kernel named {name!r} in the module")
            kernel = self.create_kernel(name)
            self._kernels[name] = kernel
        return kernel

    def create_kernel(self, name: str) -> Kernel:
        if not self.target.info.supports_deferred_compilation:
            raise unsupported("deferred compilation (createKernel)")
        return self._create_kernel(name)

    def _create_kernel(self, name: str) -> Kernel:
        raise unsupported("deferred compilation (createKernel)")

    # -- serialization -----------------------------------------------------------------------
    def serialize(self) -> bytes:
        """The module's compiled (unfinalized) state, restorable by ``deserialize``."""
        if self.llvm_module is None:
            raise MuxError(Result.INVALID_VALUE, "nothing to serialize: the module holds no program")
        return msgpack.packb({
            "magic": SERIAL_MAGIC, "version": SERIAL_VERSION,
            "compiler": self.target.info.name, "device": self.target.device,
            "state": self.COMPILED, "options": list(self.options), "ir": str(self.llvm_module),
        }, use_bin_type=True)

    def size(self) -> int:
        return len(self.serialize())

    def deserialize(self, data: bytes) -> None:
        try:
            obj = msgpack.unpackb(bytes(data), raw=False)
        except (ValueError, msgpack.exceptions.ExtraData, msgpack.exceptions.UnpackException) as exc:
            raise MuxError(Result.INVALID_VALUE, f"not a serialized module: {exc}") from exc
        if not isinstance(obj, dict) or obj.get("magic") != SERIAL_MAGIC:
            raise MuxError(Result.INVALID_VALUE, "not a serialized kernelkit module")
        if obj.get("version") != SERIAL_VERSION:
            raise MuxError(Result.INVALID_VALUE, f"serialized module version {obj.get('version')!r} "
                                                 f"is not {SERIAL_VERSION}")
        if obj.get("compiler") != self.target.info.name or obj.get("device") != self.target.device:
            raise MuxError(Result.INVALID_VALUE, f"module was serialized for {obj.get('compiler')}:"
                                                 f"{obj.get('device')}, not {self.target.info.name}:"
                                                 f"{self.target.device}")
        if not isinstance(obj.get("ir"), str) or not isinstance(obj.get("options"), list):
            raise MuxError(Result.INVALID_VALUE, "serialized module lacks its IR or options")
        from kernelkit.ir import parse

        try:
            self.llvm_module = parse(obj["ir"])
        except KernelkitError as exc:
            raise MuxError(Result.INVALID_VALUE, f"serialized module IR does not parse: {exc}") from exc
        self.options = [str(o) for o in obj["options"]]
        self.state = self.COMPILED
        self.finalized_llvm_module = None
        self.program_info = None
        self._kernels.clear()
