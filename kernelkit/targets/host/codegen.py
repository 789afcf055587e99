"""Host code generation: mux-form IR text -> native x86-64 object code (llvmlite, LLVM 22).

Pipeline (each step in :mod:`kernelkit.targets.host.passes`):
  1. checked-mode instrumentation (optional) and printf lowering, on the SPIR address spaces;
  2. retarget to the host triple, flatten address spaces, internalise non-kernels;
  3. host definitions of the ``__mux_*`` builtins; scheduling parameters on every function;
  4. LLVM: always-inline everything into the kernel entry points; cancellation points on the
     kernels' loop back-edges (Ctrl-C, launch timeouts);
  5. kernels with barriers become work-item coroutines; work-item loop entries are added;
  6. LLVM -O3 for the host CPU (coroutine splitting, loop vectorisation), object emission.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field

from kernelkit import ir
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDNode
from kernelkit.ir.transforms.link import link_into
from kernelkit.llvm_binding import llvm
from kernelkit.targets.host import builtins
from kernelkit.targets.host.cpu import HostCPU, host_cpu, selected_cpu
from kernelkit.targets.host.images import link_image_library
from kernelkit.targets.host.passes import (
    barriers,
    fast_rsqrt,
    implicit_loop_barriers,
    local_atomics,
    loop_pipelining,
    opencl_names,
    wrapper,
)
from kernelkit.targets.host.passes.cancellation import instrument_function
from kernelkit.targets.host.passes.retarget import retarget
from kernelkit.targets.host.passes.scheduling import add_scheduling_parameters
from kernelkit.targets.host.passes.vectorise import (
    VectorisedKernels,
    host_vector_width,
    packet_width,
    vectorise_kernels,
)
from kernelkit.targets.host.sched import WG_PARAM, WI_PARAM


def target_machine(opt: int = 3, cpu: HostCPU | None = None):
    """LLVM's target machine for ``cpu`` (default: this machine's CPU)."""
    name, features = (cpu or host_cpu()).target_machine_args()
    target = llvm().Target.from_default_triple()
    return target.create_target_machine(cpu=name, features=features, opt=opt, reloc="pic", codemodel="large")


_MACHINES = threading.local()


def codegen_machine(opt: int = 3, cpu: HostCPU | None = None):
    """:func:`target_machine`, made once per thread and kept: the code generator's passes and object
    emission only read it (0.3 ms to make, four times a build before). Not for an MCJIT engine, which
    takes ownership of the machine it is given."""
    cpu = cpu or host_cpu()
    machines = getattr(_MACHINES, "machines", None)
    if machines is None:
        machines = _MACHINES.machines = {}
    tm = machines.get((opt, cpu))
    if tm is None:
        tm = machines[(opt, cpu)] = target_machine(opt, cpu)
    return tm


def host_triple() -> str:
    return llvm().get_default_triple()


@dataclass
class HostCode:
    """The result of code generation for one module."""

    object_code: bytes
    kernels: list[str]
    coroutines: list[str] = field(default_factory=list)
    local_globals: list[str] = field(default_factory=list)   # symbols of static __local variables
    shared_globals: list[str] = field(default_factory=list)  # mutable program-scope __global variables
    printf_sites: list[list[str]] = field(default_factory=list)
    checked: bool = False
    log: list[str] = field(default_factory=list)         # build-log lines (vectorisation fallbacks)
    vectorised: dict[str, int] = field(default_factory=dict)  # kernel -> lanes of its vector form
    # vectorised kernels with barriers compiled without their work-item copy (see without_work_item_copy)
    packets_only: list[str] = field(default_factory=list)
    cpu: HostCPU | None = None                                 # what the object code was compiled for


_LAST_IR: dict[str, str] = {}  # the last module before -O3 when compile_host(keep_ir=True)


# build options that change the builtin library's code (OpenCL C 3.0 s5.8.4.2 math options)
LIBRARY_OPTIONS = ("-cl-fast-relaxed-math", "-cl-finite-math-only", "-cl-unsafe-math-optimizations",
                   "-cl-denorms-are-zero", "-cl-mad-enable", "-cl-no-signed-zeros")


def link_libraries(ir_text: str, options: list[str] | tuple[str, ...] = ()) -> str:
    """Step 0: the frontend's module with the image builtins (:mod:`~kernelkit.targets.host.images`)
    and the OpenCL builtins it calls (kernelkit.mux.clc) linked in; unchanged when it needs neither.
    Invalid frontend IR is a CompileError here."""
    with _PrivateModules() as modules:
        main = modules.parse(ir_text, "the frontend")
        with_images = link_image_library(main, lambda text: modules.parse(text, "image lowering"))
        if with_images is not None:
            main = with_images
        if not _link_builtins(main, options, modules) and with_images is None:
            return ir_text
        return str(main)


def link_builtin_library(ir_text: str, options: list[str] | tuple[str, ...] = ()) -> str:
    """The OpenCL builtins the module calls linked in (kernelkit.mux.clc); unchanged when it calls none."""
    with _PrivateModules() as modules:
        main = modules.parse(ir_text, "the frontend")
        return str(main) if _link_builtins(main, options, modules) else ir_text


class _PrivateModules:
    """llvmlite modules in an LLVM context of their own (in the global one, a struct type name
    another module already used comes back renamed, ``%struct.S.0``, then ``%struct.S.10.15``...:
    every LLVM step of a build parses in one, so that a process's tenth build gives the text, and
    checked mode's messages, which name struct types, and so the object, its first gives); on exit
    every module is disposed of, then the context (a garbage collector finalising them in the other
    order would crash LLVM)."""

    def __init__(self) -> None:
        self.context = llvm().create_context()
        self.modules: list = []

    def parse(self, text: str, stage: str):
        module = _parse(text, stage, self.context)
        self.modules.append(module)
        return module

    def __enter__(self) -> _PrivateModules:
        return self

    def __exit__(self, *exc) -> None:
        for module in self.modules:
            module.close()
        self.modules.clear()
        self.context.close()


def _link_builtins(main, options, modules: _PrivateModules) -> bool:
    """Link the library definitions of the ``_Z`` functions the (llvmlite) module ``main`` declares
    into it; returns whether it linked anything."""
    called = {f.name for f in main.functions if f.is_declaration and f.name.startswith("_Z")}
    if not called:
        return False
    try:
        from kernelkit.mux.clc import defined_builtins, library_ir
    except ImportError:
        return False
    spir = main.triple or "spir64-unknown-unknown"
    available = called & defined_builtins(spir)
    if not available:
        return False
    opts = [o for o in options if o in LIBRARY_OPTIONS]
    main.link_in(modules.parse(library_ir(spir, opts=opts, only=sorted(available)), "the builtin library"))
    return True


def lower_to_host_ir(ir_text: str, *, check: bool = False, parsed: ir.Module | None = None):
    """Steps 1-3 (on kernelkit.ir): returns (IR text, kernel names, static __local symbols, printf
    sites, mutable program-scope __global variables). ``parsed``: ``ir_text`` already read by
    kernelkit.ir (it is changed here), so it is not parsed again."""
    from kernelkit.targets.host.passes.printf import add_alloc_definition, lower_printf

    if check:   # (imported here: checked mode's pass, and json, are not loaded for a plain build)
        from kernelkit.targets.host.passes.checked import check_definition, instrument

        module = instrument(ir_text)
        link_into(module, check_definition())
    else:
        module = parsed if parsed is not None else ir.parse(ir_text)
    local_globals = [g.name for g in module.globals if g.addrspace == 3 and not g.is_constant]
    shared = [g.name for g in module.globals if g.addrspace == 1 and not g.is_constant]
    sites = lower_printf(module)
    tm = codegen_machine()
    if not check:
        local_atomics.lower_local_atomics(module.functions)
    kernels = retarget(module, host_triple(), str(tm.target_data))
    if not kernels:
        raise CompileError("host: the module has no kernels")
    called = {f.name for f in module.functions if f.is_declaration
              and any(isinstance(u, ir.CallInst) and u.callee is f for u in f.users)}
    shims, shim_defined, shim_needs = opencl_names.forwarding_definitions(called)
    mux, mux_defined = builtins.definitions_for((called | shim_needs) - shim_defined)
    helpers = _helper_names()
    add_scheduling_parameters(module, shim_defined | mux_defined | helpers | {"__mux_work_group_barrier"},
                              scheduled=helpers)
    if sites:
        add_alloc_definition(module)
    link_into(module, shims)
    link_into(module, mux)
    module.declare_function(barriers.BARRIER, T.FunctionType(T.void, (T.i32, T.i32, T.i32, T.ptr, T.ptr)))
    return str(module), kernels, local_globals, sites, shared


def _helper_names() -> set[str]:
    """Runtime helpers the printf/checked passes call (they take the scheduling parameters)."""
    from kernelkit.targets.host.passes.checked_helper import HELPERS as CHECK_HELPERS
    from kernelkit.targets.host.passes.printf import HELPERS as PRINTF_HELPERS

    return set(CHECK_HELPERS) | set(PRINTF_HELPERS)


def _parse(text: str, stage: str, context=None):
    m = None
    try:
        m = llvm().parse_assembly(text, context)
        m.verify()
    except RuntimeError as exc:
        if m is not None:
            m.close()      # (now: a module of a private context must not outlive it)
        raise CompileError(f"host: invalid IR after {stage}: {exc}") from exc
    return m


def inline_all(text: str, cpu: HostCPU | None = None) -> str:
    """Step 4: inline every alwaysinline function into the kernels and drop the dead ones."""
    return always_inline(text, "host lowering", drop_dead=True, cpu=cpu)


def always_inline(text: str, stage: str, *, drop_dead: bool, cpu: HostCPU | None = None) -> str:
    """LLVM's always inliner over module ``text`` (then its global dead-code elimination when
    ``drop_dead``), parsed in an LLVM context of its own."""
    b = llvm()
    with _PrivateModules() as modules:
        m = modules.parse(text, stage)
        pm = b.create_new_module_pass_manager()
        pm.add_always_inliner_pass()
        if drop_dead:
            pm.add_global_dead_code_eliminate_pass()
        pm.run(m, b.create_pass_builder(codegen_machine(cpu=cpu), b.create_pipeline_tuning_options(speed_level=0)))
        return str(m)


def lower_kernels(module: ir.Module, kernels: list[str],
                  vectorised: dict[str, tuple[str, int]]) -> tuple[dict[str, int], set[str]]:
    """Steps 4b-5a: cancellation points on the kernels' loop back-edges, and kernels with barriers
    (their W-lane copies too) become work-item coroutines. Returns the coroutines with their
    barrier counts, and the kernels whose work-items depend on each other between barriers
    (local atomics)."""
    names = kernels + [v[0] for v in vectorised.values()]
    for f in module.functions:
        if f.name in names and not f.is_declaration and f.return_type.is_void:
            instrument_function(f)
    serial = {n for n in kernels if (f := module.get_function(n)) is not None and local_atomics.has_local_atomics(f)}
    return barriers.lower_barriers(module, names), serial


def _private_arrays(f) -> bool:
    return any(isinstance(i, ir.AllocaInst) for i in f.instructions())


def add_entries(module: ir.Module, kernels: list[str], coroutines: dict[str, int],
                local_mem: dict[str, int] | None = None, vectorised: dict[str, tuple[str, int]] | None = None,
                local_sizes: dict[str, tuple[int, int, int]] | None = None,
                loops: dict[str, tuple[int, bool]] | None = None) -> None:
    """Step 5: work-item loop entries for the kernels without barriers (the coroutines get theirs
    after splitting, see :func:`add_region_drivers`); ``loops``: their ``!codeplay_ca_wrapper``."""
    for name in kernels:
        if name in coroutines:
            continue
        f = module.get_function(name)
        group = None
        if not (_private_arrays(f) or local_atomics.has_local_atomics(f)):
            group = MDNode(distinct=True)
            wrapper.mark_parallel_accesses(f, group)
        entry = wrapper.add_entry(module, f, access_group=group, local_mem=(local_mem or {}).get(name, 0),
                                  vector=(vectorised or {}).get(name), local_size=(local_sizes or {}).get(name))
        if name in (loops or {}):
            wrapper.add_wrapper_metadata(entry, *loops[name])
        f.linkage = "internal"


def add_region_drivers(module: ir.Module, coroutines: dict[str, int], local_mem: dict[str, int] | None = None,
                       serial: set[str] = frozenset(),
                       local_sizes: dict[str, tuple[int, int, int]] | None = None,
                       vectorised: dict[str, tuple[str, int]] | None = None,
                       loops: dict[str, tuple[int, bool]] | None = None,
                       packets_only: dict[str, ir.Function] | None = None) -> None:
    """Step 5b (after CoroSplit): work-item loop entries of the coroutine kernels (a kernel's W-lane
    copy, a coroutine per packet, is started from the kernel's entry; ``packets_only``: the kernels
    without their work-item copy, each with its declaration, not in ``module``, for the parameters)."""
    from kernelkit.targets.host.passes import region_values, resume_index, soa_frames

    alloc = module.get_function("kk_frame")
    if alloc is not None and "noinline" in alloc.attributes:
        alloc.attributes = ["alwaysinline" if a == "noinline" else a for a in alloc.attributes]
    packet_kernels = {v[0] for v in (vectorised or {}).values() if v[0] in coroutines}
    for fn, w, *_ in (vectorised or {}).values():
        if fn in coroutines:
            barriers.use_packet_frames(module, module.get_function(fn), w)
    infos = {name: resume_index.specialise_resume(module, name, coroutines[name]) for name in packet_kernels}
    soa_needed = False
    for name, count in coroutines.items():
        if name in packet_kernels:
            continue
        resume_fn = module.get_function(f"{name}.resume")
        soa = resume_fn is not None and soa_frames.convert(module, module.get_function(name), resume_fn)
        soa_needed |= soa
        infos[name] = info = resume_index.specialise_resume(module, name, count)
        if info is not None and soa:
            info.soa = True   # (the index offset read from the resume function is already re-laid out)
            info.values = region_values.analyse(module.get_function(name), module.get_function(info.function))
            if info.values is not None:
                region_values.rewrite_resume(module.get_function(info.function), info.values, info.index_offset)
                region_values.rewrite_ramp(module.get_function(name), info.values, info.index_offset)
    if soa_needed:
        soa_frames.add_allocator(module)
    packets = {name: (*v, infos[v[0]]) for name, v in (vectorised or {}).items() if v[0] in coroutines}
    packets_only = packets_only or {}
    for name in [*coroutines, *packets_only]:
        if name in packet_kernels:
            continue
        f = packets_only.get(name) or module.get_function(name)
        info = infos.get(name)
        group = None
        if info is not None and name not in serial and not _private_arrays(module.get_function(info.function)):
            # regions of different work-items are independent (their frames are disjoint, and
            # OpenCL orders their other memory accesses only at barriers)
            group = MDNode(distinct=True)
            wrapper.mark_parallel_accesses(module.get_function(info.function), group)
        entry = wrapper.add_entry(module, f, coroutine=True, access_group=group, resume=info,
                                  local_mem=(local_mem or {}).get(name, 0), local_size=(local_sizes or {}).get(name),
                                  vector=packets.get(name), scalar=name not in packets_only)
        if name in (loops or {}):
            wrapper.add_wrapper_metadata(entry, *loops[name])


def optimize(text: str, stage: str, cpu: HostCPU | None = None) -> str:
    with _PrivateModules() as modules:
        m = modules.parse(text, stage)
        _run_o3(m, codegen_machine(cpu=cpu))
        return str(m)


def _run_o3(m, tm) -> None:
    """LLVM's -O3 pipeline, loop and SLP vectorisers on, over llvmlite module ``m`` for machine ``tm``."""
    b = llvm()
    pto = b.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = b.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(m, pb)


# C library functions the generated code may call; the JIT resolves them in the process
RUNTIME_SYMBOLS = frozenset({"malloc", "aligned_alloc", "free", "memcpy", "memmove", "memset"})


@functools.cache
def _c_libraries() -> tuple:
    """This process's C library and libm, opened once (finding libm runs ``ldconfig -p``)."""
    import ctypes
    import ctypes.util

    out = []
    for lib in (None, ctypes.util.find_library("m")):
        try:
            out.append(ctypes.CDLL(lib))
        except OSError:
            continue
    return tuple(out)


def _c_library_symbol(name: str) -> bool:
    """Is ``name`` a C library / libm function of this process (the JIT resolves it there)?"""
    if name.startswith("_Z"):
        return False
    return any(hasattr(lib, name) for lib in _c_libraries())


def check_unresolved(module) -> None:
    """Every function the (llvmlite) module still only declares must be an intrinsic or a C runtime symbol."""
    missing = sorted(f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")
                     and f.name not in RUNTIME_SYMBOLS and not _c_library_symbol(f.name))
    if missing:
        from kernelkit.mux.mangling import try_demangle

        def show(n: str) -> str:
            d = try_demangle(n)
            return f"{d[0]} ({n})" if d else n

        raise CompileError("host: no definition for " + ", ".join(show(n) for n in missing) +
                           " (not provided by the builtin library or the host target)")


def optimize_and_emit(text: str, cpu: HostCPU | None = None) -> bytes:
    """Step 6."""
    with _PrivateModules() as modules:
        m = modules.parse(text, "work-item loops")
        check_unresolved(m)
        tm = codegen_machine(cpu=cpu)
        _run_o3(m, tm)
        return tm.emit_object(m)


def _wrapper_loops(kernels: list[str], widths: dict[str, tuple[str, int]],
                   local_sizes: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, bool]]:
    """kernel -> (main loop width, scalar tail?) for ``!codeplay_ca_wrapper``: a vectorised kernel's
    tail goes when its fixed x size is a multiple of the width."""
    out = {}
    for k in kernels:
        width = widths[k][1] if k in widths else 1
        fixed = local_sizes.get(k)
        out[k] = (width, width > 1 and not (fixed is not None and fixed[0] % width == 0))
    return out


def without_work_item_copy(module: ir.Module, kernels: list[str], widths: dict[str, tuple[str, int]],
                           local_sizes: dict[str, tuple[int, int, int]]) -> list[str]:
    """The vectorised kernels with barriers whose work-item copy (one coroutine per work-item, for
    groups whose x size is not a multiple of W) is left out: their bodies go (their declarations
    give the entries their parameters). A kernel whose every group has a fixed x size not a
    multiple of W keeps it (it is all that runs)."""
    out = []
    for name in kernels:
        f, copy = module.get_function(name), module.get_function(widths[name][0]) if name in widths else None
        fixed = local_sizes.get(name)
        if (copy is not None and f is not None and not f.is_declaration and barriers.has_barriers(f)
                and barriers.has_barriers(copy) and not (fixed is not None and fixed[0] % widths[name][1])):
            for block in list(f.blocks):
                block.erase()
            f.metadata.pop("dbg", None)   # (LLVM refuses a declaration with a subprogram: all debug info would go)
            out.append(name)
    return out


def compile_host(ir_text: str, *, check: bool = False, options=(), local_mem: dict[str, int] | None = None,
                 keep_ir: bool = False, local_sizes: dict[str, tuple[int, int, int]] | None = None,
                 parsed: ir.Module | None = None, work_item_copies: bool = True) -> HostCode:
    """``local_sizes``: kernels whose every work-group has that fixed size (constant loop bounds);
    ``parsed``: ``ir_text`` already read by kernelkit.ir (used, and changed, when no library is linked
    into the text); ``work_item_copies`` False: vectorised kernels with barriers only run groups whose x
    size is a multiple of W (``HostCode.packets_only``; the launch builds the full binary for others),
    unless the module has mutable program-scope variables."""
    cpu = selected_cpu(options)
    text = link_libraries(ir_text, options)
    text, kernels, local_globals, sites, shared = lower_to_host_ir(text, check=check,
                                                                   parsed=parsed if text is ir_text else None)
    text = inline_all(text, cpu)
    # from here to LLVM's -O3 the passes hand one kernelkit.ir module on
    width = host_vector_width(cpu.feature_string())
    packet = packet_width(width, True, False)
    if check:
        module, wfv, copies = ir.parse(text), VectorisedKernels(), {}
    else:
        module, wfv, copies = implicit_loop_barriers.vectorise_with_loop_barriers(
            text, kernels, options, lambda m, names: vectorise_kernels(m, names, options, width), local_sizes or {},
            packet)
    every = kernels + list(copies.values())   # (a kernel with loop barriers keeps a copy without them)
    local_mem = {**(local_mem or {}), **{c: (local_mem or {}).get(k, 0) for k, c in copies.items()}}
    loop_pipelining.pipeline_module(module, [v[0] for v in wfv.widths.values()], options, cpu.features)
    fast_rsqrt.lower_module(module, every + [v[0] for v in wfv.widths.values()], cpu.features, options)
    # (mutable program-scope variables live in one object: every launch must run the same one)
    lazy = not (work_item_copies or copies or shared)
    packets_only = without_work_item_copy(module, kernels, wfv.widths, local_sizes or {}) if lazy else []
    coroutines, serial = lower_kernels(module, every, wfv.widths)
    loops = _wrapper_loops(every, wfv.widths, local_sizes or {})
    add_entries(module, [k for k in every if k not in packets_only], coroutines, local_mem, wfv.widths, local_sizes,
                loops)
    stand_ins = {name: module.get_function(name) for name in packets_only}   # (-O3 drops the declarations)
    if coroutines:
        module = ir.parse(optimize(str(module), "work-item loops", cpu))
        add_region_drivers(module, coroutines, local_mem, serial, local_sizes, wfv.widths, loops, stand_ins)
    implicit_loop_barriers.add_dispatchers(module, copies, packet)
    text = str(module)
    obj = optimize_and_emit(text, cpu)
    if keep_ir:
        _LAST_IR["text"] = text
    return HostCode(obj, kernels, sorted(c for c in [*coroutines, *packets_only] if c in kernels), local_globals,
                    shared, sites, check, wfv.log, {k: v[1] for k, v in wfv.widths.items()}, cpu=cpu, packets_only=packets_only)


__all__ = ["HostCode", "WG_PARAM", "WI_PARAM", "compile_host", "llvm", "target_machine"]
