"""Checked mode: bounds-check every memory access of every kernel (on :mod:`kernelkit.ir`).

Everything is first inlined into the kernels (OpenCL C has no recursion), so that each pointer's
origin is visible in one function. Then each load, store, atomicrmw and cmpxchg, each
``llvm.memcpy``/``memmove``/``memset`` (struct copies, private array initialisers), each OpenCL atomic
builtin (``atomic_add``, ``atomic_fetch_add_explicit``..., over each pointer argument's pointee) and
each ``__mux_dma_*`` work-group copy (``async_work_group_copy``, spec 003; checked at both ends over the
bytes its strides span) first calls ``kk_check(ptr, size, kind, base, end, object, site)``:

- a pointer derived from a private object — an ``alloca`` (private array, struct temporary,
  by-value copy, variable) or a ``byval`` kernel argument — in any address space (private, or
  generic after a cast) is checked against that object's bytes ``[base, end)``
  (:mod:`private_bounds` tracks the object statically);
- a pointer derived from a ``__global``/``__constant`` pointer parameter of the kernel is checked
  against the buffer passed for it (a pointer may not stray from one buffer into another);
- a pointer derived from a program-scope variable (``__global``, ``__constant``, static ``__local``)
  is checked against that variable;
- any other pointer is looked up in the launch's table of valid ranges (the buffers and
  ``__local`` allocations passed, the module's own variables, ``@kk.checked.globals``). A private
  or generic pointer of unknown origin that is not in that table (a private pointer loaded from
  memory or made from an integer) is refused: nothing bounds it.

Accesses to an ``alloca`` itself with its own type (the variables of ``-O0`` code) are in bounds by
construction and are not instrumented. A violation is recorded once (address, size, kind, object,
work-item, source location) and the access is redirected to a sink, so the process is not
corrupted; a violating copy copies nothing. The runtime raises after the launch
(:mod:`kernelkit.runtime.checked`). ``@kk.checked.sites`` (JSON) names each check's source
location (``file:line:column`` from the ``!dbg`` locations of a ``-g`` build) and each private
object (its variable name with ``-g``), as hex digits.
"""

from __future__ import annotations

import json
import os

from kernelkit.abi.opencl_types import SCALAR_SIZES, value_size
from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder
from kernelkit.ir.metadata import MDNode, MDString
from kernelkit.ir.module import Function, GlobalVariable, Module
from kernelkit.ir.parser import parse
from kernelkit.ir.values import ConstantAggregate, ConstantBytes, ConstantExpr, ConstantInt, Value
from kernelkit.mux.mangling import try_demangle
from kernelkit.targets.host.passes.checked_helper import ARG_BOUNDS, HELPER, HELPERS, check_definition
from kernelkit.targets.host.passes.private_bounds import UNKNOWN, PrivateObjects, Provenance, size_of

GLOBALS_TABLE = "kk.checked.globals"
SITES_TABLE = "kk.checked.sites"
__all__ = ["GLOBALS_TABLE", "HELPERS", "SITES_TABLE", "check_definition", "inline_into_kernels", "instrument"]

_MEMORY_INTRINSICS = ("llvm.memcpy.", "llvm.memmove.", "llvm.memset.", "llvm.memcpy.inline.",
                      "llvm.memset.inline.")
# spec 003 __mux_dma_{read,write}_{1,2,3}D(dst, src, width, ...): (stride, count) argument pairs after width
_DMA_SHAPE = {"1": ((), ()), "2": ((3, 5), (4, 5)), "3": ((3, 5, 6, 8), (4, 5, 7, 8))}


def _is_kernel(f: Function) -> bool:
    return f.calling_conv == "spir_kernel" or '"mux-kernel"="entry-point"' in f.all_attributes()


def inline_into_kernels(text: str) -> str:
    """Every function becomes ``alwaysinline`` (``noinline``/``optnone`` go) and LLVM's always
    inliner puts them into the kernels, so that the origin of each pointer is visible there."""
    from kernelkit.targets.host.codegen import always_inline

    module = parse(text)
    for group in module.attribute_groups:
        group.attributes = [a for a in group.attributes if a not in ("noinline", "optnone")]
    for f in module.functions:
        f.attributes = [a for a in f.attributes if a not in ("noinline", "optnone")]
        if not f.is_declaration and not _is_kernel(f) and "alwaysinline" not in f.all_attributes():
            f.attributes.append("alwaysinline")
    return always_inline(str(module), "checked-mode inlining", drop_dead=False)


def _lifetime_marker(inst: I.Instruction) -> bool:
    return (isinstance(inst, I.CallInst) and inst.called_function is not None and not inst.uses
            and inst.called_function.name.startswith(("llvm.lifetime.start", "llvm.lifetime.end")))


class _Sites:
    """Source locations of the checks, by index (index 0: unknown)."""

    def __init__(self) -> None:
        self.locations: list[list] = [["", 0, 0]]

    def add(self, inst: I.Instruction) -> Value:
        self.locations.append(_location(inst.metadata.get("dbg")))
        return ConstantInt(T.i64, len(self.locations) - 1)


def _field(node: MDNode, name: str):
    try:
        return node.field(name)
    except KeyError:
        return None


def _text(value) -> str:
    if isinstance(value, MDString):
        return value.value
    return value.strip('"') if isinstance(value, str) else ""


def _location(loc) -> list:
    """``[file, line, column]`` of a DILocation (the innermost one: the access itself)."""
    if not isinstance(loc, MDNode) or loc.kind != "DILocation":
        return ["", 0, 0]
    line, column = _field(loc, "line"), _field(loc, "column")
    scope, filename = _field(loc, "scope"), ""
    for _ in range(64):   # DILexicalBlock / DISubprogram -> file
        if not isinstance(scope, MDNode):
            break
        file = _field(scope, "file")
        if isinstance(file, MDNode):
            filename, directory = _text(_field(file, "filename")), _text(_field(file, "directory"))
            if directory and filename and not filename.startswith("<"):
                filename = os.path.join(directory, filename)
            break
        scope = _field(scope, "scope")
    return [filename, int(line or 0), int(column or 0)]


class _Instrumenter:
    def __init__(self, f: Function, module: Module, helpers: tuple[Function, Function], sites: _Sites,
                 objects: PrivateObjects) -> None:
        self.f, self.helper, self.sites = f, helpers[0], sites
        self.prov = Provenance(f, module, objects, helpers[1] if _is_kernel(f) else None)

    def run(self) -> None:
        for inst in list(self.f.instructions()):
            if isinstance(inst, I.GetElementPtrInst):
                # an out-of-bounds `getelementptr inbounds` is poison, and LLVM would fold the
                # checks of its result away: the address arithmetic must be plain
                inst.flags = []
            elif _lifetime_marker(inst):
                # the shadows keep each variable's address live; CoroSplit (barrier kernels) would
                # leave the markers on reloads of it from the frame, which LLVM rejects
                inst.erase()
        accesses = [inst for inst in self.f.instructions()
                    if isinstance(inst, I.LoadInst | I.StoreInst | I.AtomicRMWInst | I.CmpXchgInst | I.CallInst)]
        self.prov.record_pointer_stores()
        for inst in accesses:
            if isinstance(inst, I.CallInst):
                self._call(inst)
            else:
                self._access(inst)

    # -- one check
    def _check(self, inst: I.Instruction, index: int, size: Value, store: int) -> Value | None:
        """Check operand ``index`` (a pointer) of ``inst`` before it; the operand becomes the
        checked pointer (the sink after a violation). None when nothing needs checking."""
        ptr = inst.operands[index]
        if not isinstance(ptr.type, T.PointerType):
            return None
        space = ptr.type.addrspace
        shadow = self.prov.of(ptr) or UNKNOWN
        b = IRBuilder()
        b.position_before(inst)
        fnty = T.FunctionType(ptr.type, (ptr.type, T.i64, T.i64, T.i64, T.i64, T.i64, T.i64))
        call = b.call(self.helper, [ptr, size, ConstantInt(T.i64, store | space << 1), shadow.base, shadow.end,
                                    shadow.object, self.sites.add(inst)], function_type=fnty)
        inst.set_operand(index, call)
        return call

    def _access(self, inst: I.Instruction) -> None:
        if isinstance(inst, I.LoadInst):
            index, ty, store = 0, inst.type, 0
        elif isinstance(inst, I.StoreInst):
            index, ty, store = 1, inst.operands[0].type, 1
        else:   # atomicrmw / cmpxchg: (ptr, value...)
            index, ty, store = 0, inst.operands[1].type, 1
        ptr = inst.operands[index]
        if isinstance(ptr, I.AllocaInst) and not ptr.operands and ptr.allocated_type == ty:
            return   # a variable accessed whole: in bounds by construction
        self._check(inst, index, size_of(ty), store)

    def _call(self, call: I.CallInst) -> None:
        callee = call.called_function
        name = callee.name if callee is not None else ""
        if name.startswith(_MEMORY_INTRINSICS):
            self._memory_intrinsic(call, name)
        elif name.startswith("__mux_dma_") and name[-2:] in ("1D", "2D", "3D"):
            self._dma(call, name)
        elif name.startswith("_Z") and callee.is_declaration:
            self._atomic_builtin(call, name)

    def _atomic_builtin(self, call: I.CallInst, name: str) -> None:
        """OpenCL's atomic builtins (defined after this pass): each pointer argument over its
        pointee (the object, and ``expected`` of a compare-exchange)."""
        demangled = try_demangle(name)
        if demangled is None or not demangled[0].startswith("atom"):
            return
        store = 0 if demangled[0].startswith("atomic_load") else 1
        for i, param in enumerate(demangled[1][:call.num_args]):
            size = _pointee_size(param)
            if size is not None:
                self._check(call, 1 + i, ConstantInt(T.i64, size), store)

    def _checked_copy(self, call: I.CallInst, roles: list[tuple[int, int, Value]], length_index: int) -> None:
        """Check each ``(argument, is store, extent)`` pointer of a copy; the copy's length becomes
        0 if a pointer was redirected to the sink (a violating copy copies nothing)."""
        checked = []
        for arg, store, size in roles:
            original = call.operands[1 + arg]
            new = self._check(call, 1 + arg, size, store)
            if new is not None:
                checked.append((new, original))
        if not checked:
            return
        b = IRBuilder()
        b.position_before(call)
        all_ok = None
        for new, original in checked:
            same = b.icmp("eq", new, original)
            all_ok = same if all_ok is None else b.and_(all_ok, same)
        length = call.operands[1 + length_index]
        call.set_operand(1 + length_index, b.select(all_ok, length, ConstantInt(length.type, 0)))

    def _memory_intrinsic(self, call: I.CallInst, name: str) -> None:
        """``llvm.memcpy/memmove(dst, src, n, volatile)``, ``llvm.memset(dst, byte, n, volatile)``."""
        args = call.args
        if len(args) < 3:
            return
        b = IRBuilder()
        b.position_before(call)
        size = b.int_resize(args[2], T.i64)
        roles = [(0, 1, size)] + ([(1, 0, size)] if not name.startswith("llvm.memset") else [])
        self._checked_copy(call, roles, 2)

    def _dma_extent(self, call: I.CallInst, dims: str, strides: tuple[int, ...]) -> Value:
        """Bytes a DMA spans at one end: width + (rows-1) * row stride [+ (planes-1) * plane
        stride], 0 when there are no rows or planes."""
        args = call.args
        width = args[2]
        if dims == "1":
            return width
        b = IRBuilder()
        b.position_before(call)
        total, empty = width, None
        for k in range(0, len(strides), 2):
            stride, count = args[strides[k]], args[strides[k + 1]]
            total = b.add(total, b.mul(b.sub(count, ConstantInt(T.i64, 1)), stride))
            zero = b.icmp("eq", count, ConstantInt(T.i64, 0))
            empty = zero if empty is None else b.or_(empty, zero)
        return b.select(empty, ConstantInt(T.i64, 0), total)

    def _dma(self, call: I.CallInst, name: str) -> None:
        """The work-group copies of async_work_group_copy: both ends, each over its span."""
        dims = name[-2]
        dst_strides, src_strides = _DMA_SHAPE[dims]
        if len(call.args) < 4 or any(i >= len(call.args) for i in dst_strides + src_strides):
            return
        dst = self._dma_extent(call, dims, dst_strides)
        src = self._dma_extent(call, dims, src_strides)
        self._checked_copy(call, [(0, 1, dst), (1, 0, src)], 2)


def _pointee_size(param) -> int | None:
    """Bytes a builtin's pointer parameter points to (``atomic_T`` is T), None for a non-pointer."""
    if param.kind != "pointer" or param.element is None:
        return None
    element = param.element
    while element.kind == "atomic" and element.element is not None:
        element = element.element
    if element.name in SCALAR_SIZES:
        return value_size(element.name, element.width)
    return 8 if element.name in ("size_t", "ptrdiff_t", "intptr_t", "uintptr_t") else None


def _json_global(module: Module, name: str, document) -> None:
    # as hex digits: the later text passes must not see IR words (types, names) in the string
    data = json.dumps(document, separators=(",", ":")).encode().hex().encode()
    ty = T.LiteralStructType((T.i64, T.ArrayType(T.i8, len(data))))
    init = ConstantAggregate(ty, [ConstantInt(T.i64, len(data)), ConstantBytes(T.ArrayType(T.i8, len(data)), data)])
    var = module.add_global(GlobalVariable(name, ty, init, constant=True))
    var.linkage = "dso_local"


def _globals_table(module: Module) -> None:
    """``@kk.checked.globals``: { count, [(address, size)] } of the module's variables."""
    entries = []
    pair = T.LiteralStructType((T.ptr, T.i64))
    for g in list(module.globals):
        if g.is_declaration or g.name.startswith("kk.checked."):
            continue
        address = g if g.addrspace == 0 else ConstantExpr(T.ptr, "addrspacecast", [g])
        entries.append(ConstantAggregate(pair, [address, size_of(g.value_type)]))
    array = T.ArrayType(pair, len(entries))
    ty = T.LiteralStructType((T.i64, array))
    var = module.add_global(GlobalVariable(GLOBALS_TABLE, ty, ConstantAggregate(
        ty, [ConstantInt(T.i64, len(entries)), ConstantAggregate(array, entries)])))
    var.linkage = "dso_local"


def instrument(text: str) -> Module:
    """The checked twin of a mux-form module (SPIR address spaces); ``kk_check`` is only declared
    (its definition, :func:`check_definition`, takes the scheduling parameters)."""
    module = parse(inline_into_kernels(text))
    helpers = (module.declare_function(HELPER, T.FunctionType(T.pointer(1), (T.pointer(1),) + (T.i64,) * 6)),
               module.declare_function(ARG_BOUNDS, T.FunctionType(T.i64, (T.i64, T.i64))))
    sites, objects = _Sites(), PrivateObjects()
    for f in list(module.functions):
        if not f.is_declaration and (f.uses or _is_kernel(f)):   # (the others were inlined)
            _Instrumenter(f, module, helpers, sites, objects).run()
    _globals_table(module)
    _json_global(module, SITES_TABLE, {"sites": sites.locations, "objects": objects.descriptions})
    return module

