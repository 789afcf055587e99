"""OpenCL C -> vISA object for a platform: the frontend's IR, kernelkit.abi.visa's payload per
kernel, kernelkit.targets.visa.codegen's text, parsed by kernelkit.formats.visa into the object
model (validated, written as ``.isa`` or printed as ``.visaasm``). A whole VisaBinary (what the
vISA simulator runs: every kernel's text, payload and refusal) is also a byte container
(``VisaBinary.to_bytes`` / ``read_visa_binary``): the builder caches it and hands it across processes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kernelkit import ir
from kernelkit.abi.signature import KernelSignature, signatures_from_ir
from kernelkit.abi.visa import Payload, PayloadInput, implicit_inputs, lay_out, resolve_platform
from kernelkit.errors import CompileError, FormatError, KernelkitError
from kernelkit.formats.visa import check, parse_visaasm, write_isa
from kernelkit.formats.visa.model import VisaObject
from kernelkit.targets.visa.calls import handles_call
from kernelkit.targets.visa.codegen import KernelCodegen
from kernelkit.targets.visa.collectives import SCRATCH_BYTES
from kernelkit.targets.visa.irpipeline import with_builtin_library
from kernelkit.targets.visa.private import allocas_of
from kernelkit.targets.visa.simd import kernel_simd
from kernelkit.targets.visa.vtypes import LOCAL_SPACE


@dataclass
class VisaKernel:
    signature: KernelSignature
    payload: Payload | None
    text: str | None
    static_slm: int
    error: str | None = None          # why the code generator refused this kernel
    segments: dict | None = None      # implicit input (constant_base / global_base) -> initial bytes
    private_bytes: int = 0            # private memory per work-item
    printf_strings: list | None = None    # the program's printf strings, by index (printf kernels)
    printf_arguments: dict | None = None  # format string index -> argument count


# the VisaBinary container: magic, then a msgpack map (version, platform, kernels)
VISA_BINARY_MAGIC = b"KKVISA\x00\x01"
VISA_BINARY_VERSION = 1


@dataclass
class VisaBinary:
    platform: str
    kernels: list[VisaKernel]
    deps: list = field(default_factory=list)   # (path, SHA-256) of every file the source included

    def to_bytes(self) -> bytes:
        """The container ``read_visa_binary`` reads back (``deps`` stay out: the cache keeps them)."""
        import msgpack

        def kernel_doc(k: VisaKernel) -> dict:
            return {"signature": k.signature.to_json(), "payload": k.payload.to_json() if k.payload else None,
                    "text": k.text, "static_slm": k.static_slm, "error": k.error, "segments": k.segments,
                    "private_bytes": k.private_bytes, "printf_strings": k.printf_strings,
                    "printf_arguments": sorted(k.printf_arguments.items()) if k.printf_arguments is not None
                    else None}
        return VISA_BINARY_MAGIC + msgpack.packb({"version": VISA_BINARY_VERSION, "platform": self.platform,
                                                  "kernels": [kernel_doc(k) for k in self.kernels]},
                                                 use_bin_type=True)

    def _built(self, every: bool) -> list[VisaKernel]:
        failed = [k for k in self.kernels if k.error]
        if failed and every:
            raise CompileError("; ".join(k.error for k in failed))
        return [k for k in self.kernels if not k.error]

    def object(self, every: bool = True) -> VisaObject:
        obj = VisaObject()
        for k in self._built(every):
            obj.kernels.extend(parse_visaasm(k.text).kernels)
        check(obj)
        return obj

    def isa(self) -> bytes:
        """The vISA object of every kernel (a CompileError names the kernels that failed)."""
        return write_isa(self.object())

    def isa_of_built(self) -> bytes:
        """The vISA object of the kernels that compiled."""
        return write_isa(self.object(every=False))

    def visaasm(self) -> str:
        return "".join(k.text for k in self._built(True))

    def kernel(self, name: str) -> VisaKernel:
        for k in self.kernels:
            if k.signature.name == name:
                if k.error:
                    raise CompileError(k.error)
                return k
        raise KeyError(name)


def _payload_from_json(doc: dict) -> Payload:
    return Payload(doc["kernel"], doc["platform"], doc["simd"], [PayloadInput(**i) for i in doc["inputs"]])


def read_visa_binary(data: bytes) -> VisaBinary:
    """The VisaBinary of ``VisaBinary.to_bytes``; FormatError if ``data`` is not one."""
    import msgpack

    data = bytes(data)
    if not data.startswith(VISA_BINARY_MAGIC):
        raise FormatError("not a kernelkit vISA program container (bad magic)", offset=0, field="magic")
    off = len(VISA_BINARY_MAGIC)
    try:
        body = msgpack.unpackb(data[off:], raw=False)
    except (ValueError, msgpack.exceptions.ExtraData, msgpack.exceptions.UnpackException) as exc:
        raise FormatError(f"vISA program container: corrupt: {exc}", offset=off, field="container") from None
    version = body.get("version") if isinstance(body, dict) else None
    if version != VISA_BINARY_VERSION:
        raise FormatError(f"vISA program container: version {version!r}, expected {VISA_BINARY_VERSION}",
                          offset=off, field="version")
    kernels, where = [], "kernels"
    try:
        for k in body["kernels"]:
            where = "kernels.signature"
            signature = KernelSignature.from_json(k["signature"])
            where = "kernels.payload"
            payload = None if k["payload"] is None else _payload_from_json(k["payload"])
            where = "kernels"
            arguments = k["printf_arguments"]
            kernels.append(VisaKernel(signature, payload, k["text"], int(k["static_slm"]), k["error"],
                                      segments=k["segments"], private_bytes=int(k["private_bytes"]),
                                      printf_strings=k["printf_strings"],
                                      printf_arguments=None if arguments is None else {int(i): int(n)
                                                                                       for i, n in arguments}))
        return VisaBinary(str(body["platform"]), kernels)
    except (KeyError, TypeError, ValueError) as exc:
        raise FormatError(f"vISA program container: malformed {where}: {exc}", offset=off, field=where) from None


def _uses_double(function) -> bool:
    from kernelkit.ir import types as T
    from kernelkit.targets.visa.printf import printf_only_fpext

    for block in function.blocks:
        for inst in block:
            if printf_only_fpext(inst):        # a float promoted for printf: written as a float
                continue
            if isinstance(inst, ir.CallInst) and inst.called_function is not None \
                    and inst.called_function.name == "printf":
                continue
            for value in (inst, *inst.operands):
                ty = getattr(value, "type", None)
                ty = ty.element if isinstance(ty, T.VectorType) else ty
                if isinstance(ty, T.FloatType) and ty.kind == "double":
                    return True
    return False


def _double_refusal(filename: str, kernel: str, platform: str, own_function) -> str:
    """Why a kernel that (itself, or the builtin library's code for it) computes in double is refused."""
    if _uses_double(own_function):
        return f"{filename}: kernel {kernel} uses double, which {platform} does not support (no fp64 on this platform)"
    called = sorted({i.called_function.name for b in own_function.blocks for i in b
                     if isinstance(i, ir.CallInst) and i.called_function is not None
                     and i.called_function.is_declaration and not handles_call(i.called_function.name)
                     and not i.called_function.name.startswith("llvm.")})
    return (f"{filename}: kernel {kernel}: the builtin library computes {', '.join(called)} in double precision, "
            f"which {platform} does not support (no fp64 on this platform)")


def compile_visa(source: str, platform: str, options: Sequence[str] = (), *, simd: int | None = None,
                 filename: str = "<source>") -> VisaBinary:
    from kernelkit.frontend import compile_opencl

    opts = list(options)
    compiled = compile_opencl(source, opts, filename=filename)
    own = ir.parse(compiled.ir_text)
    unoptimised = ir.parse(compile_opencl(source, opts + ["-O0"], filename=filename).ir_text)
    binary = compile_visa_ir(own, platform, opts, simd=simd, filename=filename, unoptimised=unoptimised)
    binary.deps = [tuple(d) for d in compiled.deps]
    return binary


def compile_visa_program(source: str, platform: str, options: Sequence[str], filename: str,
                         spirv: bytes | None = None) -> VisaBinary:
    """The program the vISA simulator runs: OpenCL C ``source`` (or the SPIR-V module ``spirv``) for
    ``platform``, ``--simd`` taken from ``options``."""
    from kernelkit.targets.visa.target import split_simd_option

    simd, rest = split_simd_option(options)
    if spirv is not None:
        from kernelkit.frontend.spirv import translate

        return compile_visa_ir_text(str(translate(spirv)), platform, rest, simd=simd, filename=filename)
    return compile_visa(source, platform, rest, simd=simd, filename=filename)


def compile_visa_ir_text(text: str, platform: str, options: Sequence[str] = (), *, simd: int | None = None,
                         filename: str = "<source>") -> VisaBinary:
    """vISA from a frontend's IR text that has no -O0 twin (SPIR-V input, a specialised kernel)."""
    return compile_visa_ir(ir.parse(text), platform, options, simd=simd, filename=filename)


def compile_visa_ir(own: ir.Module, platform: str, options: Sequence[str] = (), *, simd: int | None = None,
                    filename: str = "<source>", unoptimised: ir.Module | None = None) -> VisaBinary:
    """vISA from the frontend's IR (OpenCL builtins as clang emits them); ``unoptimised`` is the
    same program at -O0 (what IGC decides the implicit inputs from), else ``own`` stands for it."""
    p = resolve_platform(platform)
    opts = list(options)
    module = with_builtin_library(own, opts, handles_call, float_only=True)
    own_functions = {f.name: f for f in own.functions}
    functions = {f.name: f for f in module.functions}
    at_o0 = {f.name: f for f in (unoptimised or module).functions}
    static, offset = {}, 0
    for g in module.globals:
        if g.addrspace == LOCAL_SPACE:
            from kernelkit.abi.opencl_types import ir_size_align

            size, align = ir_size_align(g.value_type, 8)
            offset = -(-offset // max(align, 4)) * max(align, 4)
            static[g.name] = offset
            offset += size
    from kernelkit.targets.visa.segments import lay_out_segments

    segments = lay_out_segments(module)
    kernels = []
    printf_strings: list[str] = []
    printf_arguments: dict[int, int] = {}
    for sig in signatures_from_ir(module):
        fn = functions[sig.name]
        if _uses_double(fn) and not p.fp64:
            kernels.append(VisaKernel(sig, None, None, offset, _double_refusal(filename, sig.name, p.name,
                                                                               own_functions[sig.name])))
            continue
        try:
            width = simd or kernel_simd(fn, sig)
            implicit = implicit_inputs(fn, at_o0.get(sig.name), p.name)
            if allocas_of(fn):
                implicit.add("private_base")
            # program-scope data the builtin library's code reads (its tables)
            implicit |= implicit_inputs(fn, fn, p.name) & {"constant_base", "global_base"}
            payload = lay_out(sig, width, p.name, implicit)
            scratch = -(-offset // 16) * 16
            codegen = KernelCodegen(fn, sig, payload, static, segments, collective_slm=scratch)
            codegen.printf_strings, codegen.printf_arguments, codegen.fp64 = printf_strings, printf_arguments, p.fp64
            text = codegen.generate()
        except (CompileError, KernelkitError) as exc:
            kernels.append(VisaKernel(sig, None, None, offset, f"{filename}: kernel {sig.name}: {exc}"))
            continue
        slm = scratch + SCRATCH_BYTES if codegen.uses_collectives else offset
        kernels.append(VisaKernel(sig, payload, text, slm, segments={k: bytes(v) for k, v in segments.data.items()},
                                  private_bytes=codegen.private_bytes,
                                  printf_strings=printf_strings if payload.implicit("printf_buffer") else None,
                                  printf_arguments=printf_arguments))
    return VisaBinary(p.name, kernels)
