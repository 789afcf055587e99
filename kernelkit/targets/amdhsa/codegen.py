"""AMDGPU code generation: finalized mux IR -> amdgcn IR -> llvmlite object -> ld.lld code object.

Steps: link kernelkit's OpenCL builtin library (``kernelkit.mux.clc``, SPIR IR) for the builtins
the module calls; map SPIR to AMDGPU (``lower.spir_to_amdgpu``); link the ``__mux_*``
definitions (``mux_builtins.cl`` compiled by clang for the processor and code object version);
optimise and emit with LLVM's AMDGPU backend (llvmlite); link with ``ld.lld -shared``. Code
objects V2/V3, which LLVM 22 no longer writes, are produced from its V4 object by
``legacy.downgrade`` before linking.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from functools import cache, lru_cache
from pathlib import Path

from kernelkit.errors import CompileError
from kernelkit.formats.amdgpu.target_id import TargetID
from kernelkit.frontend.printf_order import printf_use_list_order
from kernelkit.ir import parse
from kernelkit.llvm_binding import llvm, parse_verified
from kernelkit.mux.clc import UNMANGLED_BUILTINS
from kernelkit.targets.amdhsa.collectives import add_collectives
from kernelkit.targets.amdhsa.enqueue import block_kernels_to_amdgpu, for_code_object_v2
from kernelkit.targets.amdhsa.kernel_attributes import (
    F32_DENORMAL_MODE,
    FLUSHED,
    flushes_f32_denormals,
)
from kernelkit.targets.amdhsa.kernel_entry import (
    LATE_HELPER,
    force_inline,
    keep_implicit_args,
    kernel_byval_to_byref,
    with_attribute_everywhere,
)
from kernelkit.targets.amdhsa.lower import spir_to_amdgpu

MUX_BUILTINS_SOURCE = Path(__file__).with_name("mux_builtins.cl")
NAMED_ATOMICS_SOURCE = Path(__file__).with_name("atomics_named.cl")
CL1_ATOMICS_SOURCE = Path(__file__).with_name("atomics_cl1.cl")
# a call of an OpenCL atomic on a global (U3AS1) or local (U3AS3) object: atomics_named.cl
NAMED_ATOMIC_CALL = re.compile(r"@_Z\d+atomic_\w+PU3AS[13]VU7_Atomic\w*\(")
# a call of an OpenCL 1.x atomic (atomic_add, atom_add...) on a volatile int, uint, long, ulong or float
CL1_ATOMIC_CALL = re.compile(r"@_Z\d+atom(?:ic)?_(?:add|sub|min|max|and|or|xor|inc|dec|xchg|cmpxchg)PU3AS[13]V[ijlmf]")
# the device libraries linked only into the modules that call one of their functions
ON_DEMAND_LIBRARIES = ((NAMED_ATOMICS_SOURCE, NAMED_ATOMIC_CALL), (CL1_ATOMICS_SOURCE, CL1_ATOMIC_CALL))
LIBRARY_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                   "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")
ALLOWED_EXTERNAL = ("printf",)   # lowered by LLVM's AMDGPU printf runtime binding
# OpenCL C builtins clang calls by unmangled names besides the Itanium-mangled ones (to_global...)
_BUILTIN_CALL = re.compile(r"@(_Z[\w$.]+|" + "|".join(UNMANGLED_BUILTINS) + r")\(")
# the LDS word work_group_reserve_*_pipe broadcasts its reservation through (pipes.cl); OpenCL C
# cannot declare a program-scope __local variable, so it is written in IR
PIPE_LDS_SLOT_IR = """
@kk.pipe.lds = internal addrspace(3) global i64 poison, align 8
define linkonce_odr hidden ptr addrspace(3) @kk_pipe_lds_slot() alwaysinline {
  ret ptr addrspace(3) @kk.pipe.lds
}
"""


def target_features(tid: TargetID, extra: tuple[str, ...] = ()) -> str:
    feats = []
    for name, setting in tid.settings:
        feats.append(("+" if setting == "on" else "-") + name)
    return ",".join([*feats, *extra])


def target_machine(tid: TargetID, opt: int = 2, features: tuple[str, ...] = ()):
    """``features``: LLVM target features of the machine options (``options.BackendOptions``)."""
    b = llvm()
    target = b.Target.from_triple("amdgcn-amd-amdhsa")
    return target.create_target_machine(cpu=tid.processor.name, features=target_features(tid, features), opt=opt,
                                        reloc="pic")


def _library_key(*parts: str) -> str:
    """Cache key of a library build: its inputs, the .cl/.h files beside mux_builtins.cl, clang's version."""
    from kernelkit.cache import make_key
    from kernelkit.frontend.clang import clang_version

    sources = sorted(p for p in MUX_BUILTINS_SOURCE.parent.iterdir() if p.suffix in (".cl", ".h"))
    return make_key(*parts, clang_version(), *(f"{p.name}\0{p.read_text()}" for p in sources))


@lru_cache(maxsize=32)
def mux_library_ir(processor: str, version: int, cl2: bool = False) -> str:
    """The __mux_* definitions for one processor and code object version (clang, amdgcn), ready to
    link (``_linkable``), kept in the cache as kernelkit's own library (read even with --no-cache);
    ``cl2``: the setup arguments of AMD's CL2 ABI lead the kernel arguments."""
    parts = ("mux_builtins", processor, str(version), *(("cl2",) if cl2 else ()))
    return _linkable_library(parts, MUX_BUILTINS_SOURCE, processor, version, cl2)


@lru_cache(maxsize=32)
def on_demand_library_ir(library: str, processor: str, version: int) -> str:
    """One of the ON_DEMAND_LIBRARIES by name (``atomics_named``: the scoped atomics on global and
    local objects; ``atomics_cl1``: the OpenCL 1.x atomics) for one processor, cached like
    mux_library_ir."""
    return _linkable_library((library, processor, str(version)), MUX_BUILTINS_SOURCE.with_name(f"{library}.cl"),
                             processor, version)


def _linkable_library(parts: tuple[str, ...], source: Path, processor: str, version: int, cl2: bool = False) -> str:
    """clang's library (cached under ``parts``) edited by ``_linkable`` on kernelkit.ir, cached too:
    the edit parses and prints megabytes of IR, once."""
    from kernelkit.cache import Cache
    from kernelkit.targets.amdhsa.library_index import _code_digest  # _linkable's code, kernelkit.ir's

    store = Cache("amdhsa-mux", library=True)
    linkable_key = _library_key(*parts, "linkable", _code_digest())
    cached = store.get(linkable_key)
    if cached is not None:
        return cached.decode()
    key = _library_key(*parts)
    clangs = store.get(key)
    text = clangs.decode() if clangs is not None else _compile_library(source, processor, version, cl2)
    if clangs is None:
        store.put(key, text.encode())
    module = parse(text)
    _linkable(module, source == MUX_BUILTINS_SOURCE)
    text = str(module)
    store.put(linkable_key, text.encode())
    return text


def _linkable(library, mux_builtins: bool) -> None:
    """A clang-compiled device library as the kernel module links it: no CPU or features of its own
    (the kernel module's target machine decides them); its hidden definitions linkonce_odr (dropped
    when unused) but for the __mux_* library's __kk_*/__printf_alloc, which stay until the printf
    binding is done (amdgpu_ir); the __mux_* library's LDS slot defined (PIPE_LDS_SLOT_IR)."""
    for group in library.attribute_groups:
        group.attributes = [a for a in group.attributes
                            if not (isinstance(a, str) and a.startswith(('"target-cpu"=', '"target-features"=')))]
    for f in library.functions:
        if not f.is_declaration and not f.linkage and f.visibility == "hidden" and f.preemption == "" \
                and not (mux_builtins and LATE_HELPER.fullmatch(f.name)):
            f.linkage = "linkonce_odr"
    if mux_builtins:
        from kernelkit.ir.transforms.link import add_definitions

        declared = library.get_function("kk_pipe_lds_slot")     # defined after everything else
        if declared is not None:
            library.functions.remove(declared)
            library.functions.append(declared)
        add_definitions(library, PIPE_LDS_SLOT_IR)


@lru_cache(maxsize=32)
def _opencl_definitions(library_ir: str) -> frozenset[str]:
    """The OpenCL builtins (mangled names) a library defines: read once per library text (2 MB)."""
    return frozenset(re.findall(r"^define\b[^@]*@(_Z[\w$.]+)\(", library_ir, flags=re.M))


def _compile_library(source: Path, processor: str, version: int, cl2: bool = False) -> str:
    from kernelkit.frontend.clang import clang_command

    with tempfile.TemporaryDirectory(prefix="kernelkit-amdhsa-") as tmp:
        out = Path(tmp) / "lib.ll"
        cmd = [*clang_command(), "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-nostdinc",
               "-target", "amdgcn-amd-amdhsa", f"-mcpu={processor}", "-nogpulib", "-O2",
               "-Xclang", "-cl-ext=+all", "-I", str(source.parent),
               f"-DKK_COV={version}", *(["-DKK_CL2"] if cl2 else []), f"-mcode-object-version={version}", "-S",
               "-emit-llvm", str(source), "-o", str(out)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise CompileError(f"amdhsa: building {source.name} for {processor} failed", log=result.stderr)
        return out.read_text()


def builtin_library_ir(ir_text: str, options, exclude: frozenset[str] = frozenset()) -> str | None:
    """Definitions of the OpenCL builtins the module calls (kernelkit.mux.clc, SPIR IR, its
    portable math: no C library call, nothing the AMDGPU backend cannot select), but for those
    in ``exclude`` (the amdgcn device library's own: the scoped atomics of atomics.cl); None when
    it calls none. (Names read from the text: the module is parsed after this.)"""
    defined = set(re.findall(r"^define\b[^@]*@([-\w$.]+)\(", ir_text, flags=re.M)) | exclude
    called = {n for n in _BUILTIN_CALL.findall(ir_text) if n not in defined}
    if not called:
        return None
    from kernelkit.mux.clc import defined_builtins, library_ir

    available = called & defined_builtins("spir64-unknown-unknown", portable_math=True)
    if not available:
        return None
    return library_ir("spir64-unknown-unknown", opts=[o for o in options if o in LIBRARY_OPTIONS],
                      only=sorted(available), portable_math=True)


def _parse(text: str, what: str):
    return parse_verified(text, what, "amdhsa")


def _linked_and_named(ir_text: str, options, exclude: frozenset[str], tm) -> str:
    """The frontend's module with the builtin library linked in (``builtin_library_ir``) and every
    value named (LLVM's instruction namer), in one LLVM parse and print."""
    b = llvm()
    main = _parse(ir_text, "the frontend")
    library = builtin_library_ir(ir_text, options, exclude)
    if library is not None:
        main.link_in(_parse(library, "the builtin library"))
    pm = b.create_new_module_pass_manager()
    pm.add_instruction_namer_pass()
    pm.run(main, b.create_pass_builder(tm, b.create_pipeline_tuning_options(speed_level=0)))
    return str(main)


def opt_level(options) -> int:
    for o in reversed(list(options)):
        if re.fullmatch(r"-O[0-3]", o):
            return int(o[2])
    return 2


def amdgpu_ir(mux_ir: str, tid: TargetID, version: int, options=(), features: tuple[str, ...] = (), *,
              cl2: bool = False, no_implicit_arg_kernels: frozenset[str] = frozenset()) -> str:
    """The optimised amdgcn IR of a finalized mux module (LLVM writes V4 for V2/V3); ``cl2``: the
    kernels take AMD CL2's setup arguments first and no hidden arguments; ``no_implicit_arg_kernels``:
    the kernels LLVM may give no hidden arguments (``kernel_attributes.kernels_without_unknown_calls``);
    the others keep them all."""
    from kernelkit.targets.amdhsa.library_index import MUX_BUILTINS, declared_names, linkable_library

    llvm_version = max(version, 4)
    libraries = [(MUX_BUILTINS_SOURCE, linkable_library(MUX_BUILTINS, tid.processor.name, llvm_version, cl2))]
    libraries += [(source, linkable_library(source.stem, tid.processor.name, llvm_version))
                  for source, call in ON_DEMAND_LIBRARIES if call.search(mux_ir)]
    own = frozenset(n for _, lib in libraries for n in lib.opencl_definitions)
    b = llvm()
    tm = target_machine(tid, features=features)
    module = parse(_linked_and_named(mux_ir, options, own, tm))    # edited in place from here to LLVM's link
    kernel_byval_to_byref(module)
    block_kernels_to_amdgpu(module)
    if version == 2:
        for_code_object_v2(module)
    spir_to_amdgpu(module, str(tm.target_data), llvm_version)
    add_collectives(module)
    if not cl2:
        keep_implicit_args(module, no_implicit_arg_kernels)
    if version == 2:
        force_inline(module)
    flushes = flushes_f32_denormals(tid.processor.name, options)
    if flushes:
        with_attribute_everywhere(module, F32_DENORMAL_MODE, FLUSHED)
    kernels = {f.name for f in module.kernels()}
    printf_use_list_order(module)
    main = _parse(str(module), "the SPIR to AMDGPU mapping")
    try:
        for source, lib in libraries:
            lib_text = lib.text(declared_names(main))   # only what main needs
            if flushes and not flushes_f32_denormals(tid.processor.name, ()):
                lib_text = _flushing(lib_text)          # clang compiled the library for the processor's default
            main.link_in(_parse(lib_text, source.name))
    except RuntimeError as exc:
        raise CompileError(f"amdhsa: linking the __mux_* builtins failed: {exc}", log=str(exc)) from exc
    # the __mux_* definitions linked in are used here only
    _internalise(main, lambda f: f.name.startswith("__mux_") and _is_linkonce_odr_hidden(f))
    level = opt_level(options)
    # unused functions go before the pipeline's printf binding numbers the printf calls in them
    # (the kernel bodies clang outlines, left internal and dead once inlined into their kernels)
    dce = b.create_new_module_pass_manager()
    dce.add_global_dead_code_eliminate_pass()
    dce.run(main, b.create_pass_builder(tm, b.create_pipeline_tuning_options(speed_level=0)))
    pto = b.create_pipeline_tuning_options(speed_level=level)
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    # calls LLVM added while optimising (printf binding) are resolved now; then the helpers
    # become internal and a second run inlines or drops them
    _internalise(main, lambda f: LATE_HELPER.fullmatch(f.name) is not None and _is_hidden(f))
    if version == 2:
        _internalise(main, lambda f: f.name not in kernels, inline=True)
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(main, pb)
    text = str(main)
    _check_unresolved(text)
    return text


def _flushing(library_text: str) -> str:
    """A library's text with every function flushing f32 denormals (``-cl-denorms-are-zero``)."""
    library = parse(library_text)
    with_attribute_everywhere(library, F32_DENORMAL_MODE, FLUSHED)
    return str(library)


def _internalise(main, which, inline: bool = False) -> None:
    """The definitions of the llvmlite module ``which`` selects become internal (``inline``: and
    always-inline)."""
    for f in main.functions:
        if not f.is_declaration and which(f):
            f.linkage = "internal"
            if inline:
                f.add_function_attribute("alwaysinline")


def _is_hidden(f) -> bool:
    return f.visibility.name == "hidden"


def _is_linkonce_odr_hidden(f) -> bool:
    return f.linkage.name == "linkonce_odr" and _is_hidden(f)


def _check_unresolved(text: str) -> None:
    declared = set(re.findall(r"^declare\b[^@]*@([-\w$.]+)\(", text, flags=re.M))
    missing = sorted(n for n in declared if not n.startswith("llvm.") and n not in ALLOWED_EXTERNAL)
    if missing:
        from kernelkit.mux.mangling import try_demangle

        def show(n: str) -> str:
            d = try_demangle(n)
            return getattr(d, "name", None) or n

        raise CompileError("amdhsa: no AMDGPU definition for " + ", ".join(sorted({show(n) for n in missing}))
                           + " (not an OpenCL builtin kernelkit's amdhsa device library defines)")


# one load, sample and store (results kept live); sample as images.cl selects it ("sample" on
# gfx90a, "sample.lz" elsewhere)
_IMAGE_PROBE_IR = """target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @probe(<8 x i32> inreg %r, <4 x i32> inreg %s, float %x, ptr addrspace(1) %o) {
  %v = call <4 x float> @llvm.amdgcn.image.load.1d.v4f32.i32(i32 15, i32 0, <8 x i32> %r, i32 0, i32 0)
  %w = call <4 x float> @llvm.amdgcn.image.SAMPLE.1d.v4f32.f32(i32 15, float %x, <8 x i32> %r, <4 x i32> %s, i1 false,
                                                                  i32 0, i32 0)
  store <4 x float> %v, ptr addrspace(1) %o
  %o2 = getelementptr <4 x float>, ptr addrspace(1) %o, i64 1
  store <4 x float> %w, ptr addrspace(1) %o2
  call void @llvm.amdgcn.image.store.1d.v4f32.i32(<4 x float> %w, i32 15, i32 0, <8 x i32> %r, i32 0, i32 0)
  ret void
}
declare <4 x float> @llvm.amdgcn.image.load.1d.v4f32.i32(i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
declare <4 x float> @llvm.amdgcn.image.SAMPLE.1d.v4f32.f32(i32 immarg, float, <8 x i32>, <4 x i32>, i1 immarg, i32 immarg,
                                                           i32 immarg)
declare void @llvm.amdgcn.image.store.1d.v4f32.i32(<4 x float>, i32 immarg, i32, <8 x i32>, i32 immarg, i32 immarg)
"""


@cache
def has_image_instructions(processor: str) -> bool:
    """Whether LLVM selects image instructions for the processor (the gfx940 family has none).
    Asked of clang in a subprocess (LLVM aborts the process that asks it to select them); the
    answer is kept in the cache."""
    from kernelkit.cache import Cache

    store = Cache("amdhsa-mux", library=True)
    key = _library_key("image-probe", processor, _IMAGE_PROBE_IR)
    cached = store.get(key)
    if cached in (b"0", b"1"):
        return cached == b"1"
    answer = _probe_image_instructions(processor)
    store.put(key, b"1" if answer else b"0")
    return answer


def _probe_image_instructions(processor: str) -> bool:
    from kernelkit.frontend.clang import clang_command

    with tempfile.TemporaryDirectory(prefix="kernelkit-amdhsa-") as tmp:
        src = Path(tmp) / "probe.ll"
        src.write_text(_IMAGE_PROBE_IR.replace("SAMPLE", "sample" if processor == "gfx90a" else "sample.lz"))
        cmd = [*clang_command(), "-x", "ir", "-nogpulib", "-target", "amdgcn-amd-amdhsa",
               f"-mcpu={processor}", "-c", str(src), "-o", str(Path(tmp) / "probe.o")]
        return subprocess.run(cmd, capture_output=True, text=True).returncode == 0


def _check_images(ir_text: str, tid: TargetID) -> None:
    if re.search(r"^\s.*\bcall\b.*@llvm\.amdgcn\.image\.", ir_text, re.M) and \
            not has_image_instructions(tid.processor.name):
        raise CompileError(f"amdhsa: {tid.processor.name} has no image instructions (the kernels use "
                           "image builtins)")


def emit_object(ir_text: str, tid: TargetID, options=(), features: tuple[str, ...] = ()) -> bytes:
    b = llvm()
    _check_images(ir_text, tid)
    m = b.parse_assembly(ir_text)    # a module can be code-generated only once: parse per emit
    tm = target_machine(tid, opt_level(options), features)
    try:
        return tm.emit_object(m)
    except RuntimeError as exc:
        raise CompileError(f"amdhsa: code generation failed: {exc}", log=str(exc)) from exc


def emit_assembly(ir_text: str, tid: TargetID, options=(), features: tuple[str, ...] = ()) -> str:
    """LLVM's assembly text of the optimised amdgcn IR (what ``emit_object`` assembles)."""
    b = llvm()
    _check_images(ir_text, tid)
    try:
        return target_machine(tid, opt_level(options), features).emit_assembly(b.parse_assembly(ir_text))
    except RuntimeError as exc:
        raise CompileError(f"amdhsa: code generation failed: {exc}", log=str(exc)) from exc


def compile_assembly(mux_ir: str, tid: TargetID, version: int, options=(), *,
                     features: tuple[str, ...] = (), no_implicit_arg_kernels: frozenset[str] = frozenset()) -> str:
    """``--emit asm``: LLVM's assembly of the kernels (for V2/V3, of the V4 code their objects are
    rewritten from)."""
    check_target(tid, version)
    return emit_assembly(amdgpu_ir(mux_ir, tid, version, options, features, no_implicit_arg_kernels=no_implicit_arg_kernels),
                         tid, options, features)


def link_shared(objects: list[bytes]) -> bytes:
    """``ld.lld --no-undefined -shared`` (the ziglang wheel's lld)."""
    from kernelkit.frontend.clang import zig_command

    with tempfile.TemporaryDirectory(prefix="kernelkit-amdhsa-") as tmp:
        paths = []
        for i, obj in enumerate(objects):
            p = Path(tmp) / f"k{i}.o"
            p.write_bytes(obj)
            paths.append(str(p))
        out = Path(tmp) / "k.hsaco"
        cmd = [*zig_command("ld.lld"), "--no-undefined", "-shared", *paths, "-o", str(out)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise CompileError(f"amdhsa: ld.lld failed: {result.stderr.strip()}", log=result.stderr)
        return out.read_bytes()


def check_target(tid: TargetID, version: int) -> None:
    """Refuse what LLVM would abort on: generic processors exist from code object V6 on."""
    if tid.processor.is_generic and version < 6:
        raise CompileError(f"amdhsa: generic target {tid.processor.name} needs code object version 6 "
                           f"(asked for {version})")


def compile_code_object(mux_ir: str, tid: TargetID, version: int, options=(), *,
                        features: tuple[str, ...] = (), no_implicit_arg_kernels: frozenset[str] = frozenset()) -> bytes:
    check_target(tid, version)
    text = amdgpu_ir(mux_ir, tid, version, options, features, no_implicit_arg_kernels=no_implicit_arg_kernels)
    obj = emit_object(text, tid, options, features)
    if version <= 3:
        from kernelkit.abi.hsa import uses_device_queue
        from kernelkit.targets.amdhsa.legacy import downgrade

        obj = downgrade(obj, tid, version, uses_device_queue=uses_device_queue(mux_ir))
    return link_shared([obj])
