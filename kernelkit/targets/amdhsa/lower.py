"""SPIR IR (the frontend's, after the mux passes) -> AMDGPU IR, edited in place on kernelkit.ir.

* address spaces (spec 001 "Address Spaces"): SPIR private 0 -> 5, global 1 -> 1, constant 2 -> 4,
  local 3 -> 3, generic 4 -> 0; in every type (values, globals, allocas, signatures, struct
  bodies, type-carrying attributes) and in the ``.pN`` suffixes of intrinsic names; functions stay
  in address space 0, the program address space;
* calling conventions: ``spir_kernel`` -> ``amdgpu_kernel``, ``spir_func`` -> default;
* OpenCL handle types: images and samplers -> ``ptr addrspace(4)``, queues, pipes and
  device events -> ``ptr addrspace(1)`` (what clang gives them on amdgcn);
* SPIR sync scopes -> AMDGPU's (``device`` -> ``agent``, ``subgroup`` -> ``wavefront``);
* clang's amdgcn visibility; triple, data layout and the ``amdhsa_code_object_version`` module flag.

The kernel-entry edits (kernel aggregates by reference, hidden arguments kept, code object V2's
inlining) are in ``kernel_entry.py``.
"""

from __future__ import annotations

import re

from kernelkit.ir import instructions as I
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDNode, MDString, ValueAsMetadata
from kernelkit.ir.module import Function, GlobalAlias, GlobalVariable, Module
from kernelkit.ir.transforms.type_map import StructuralTypeMap
from kernelkit.ir.values import Constant, ConstantExpr, InlineAsm, Value, const_int

# spec 001 "AMDGPU Address Spaces" vs the SPIR numbering the frontend uses
SPIR_TO_AMDGPU_ADDRESS_SPACE: dict[int, int] = {0: 5, 1: 1, 2: 4, 3: 3, 4: 0}
# OpenCL handle types: SPIR target extension type name -> AMDGPU address space of the pointer it becomes
HANDLE_TYPES: dict[str, int] = {"spirv.Image": 4, "spirv.Sampler": 4, "spirv.Queue": 1, "spirv.Pipe": 1,
                                "spirv.DeviceEvent": 1, "spirv.ReserveId": 1, "spirv.Event": 5}
OTHER_HANDLE_ADDRESS_SPACE = 5
# SPIR memory scopes -> AMDHSA LLVM sync scopes (spec 001 "AMDHSA LLVM Sync Scopes"); "" = system
SYNC_SCOPES: dict[str, str] = {"device": "agent", "subgroup": "wavefront", "workgroup": "workgroup",
                               "singlethread": "singlethread", "all_svm_devices": ""}
AMDGPU_TRIPLE = "amdgcn-amd-amdhsa"
CALLING_CONVENTIONS: dict[str, str] = {"spir_kernel": "amdgpu_kernel", "spir_func": ""}

# the address-space suffixes of an overloaded intrinsic's name (llvm.memcpy.p0.p1.i64)
_NAME_SUFFIX = re.compile(r"(?<=\.)p(\d+)(?=\.|$)")
CLANG_KERNEL_BODY_PREFIX = "__clang_ocl_kern_imp_"   # the bodies clang outlines from kernels


def amdgpu_address_space(n: int) -> int:
    return SPIR_TO_AMDGPU_ADDRESS_SPACE.get(n, n)


class _AmdgpuTypes(StructuralTypeMap):
    """SPIR type -> AMDGPU type (memoised; named struct bodies rewritten once, in place)."""

    def leaf(self, ty: T.Type) -> T.Type | None:
        if isinstance(ty, T.PointerType):
            return T.PointerType(amdgpu_address_space(ty.addrspace))
        if isinstance(ty, T.TargetExtType) and ty.name.startswith("spirv."):
            return T.PointerType(HANDLE_TYPES.get(ty.name, OTHER_HANDLE_ADDRESS_SPACE))
        return None


def intrinsic_name(name: str) -> str:
    """An overloaded intrinsic's name with its pointer suffixes in AMDGPU's address spaces."""
    return _NAME_SUFFIX.sub(lambda s: f"p{amdgpu_address_space(int(s.group(1)))}", name)


def spir_to_amdgpu(module: Module, datalayout: str, code_object_version: int) -> None:
    """Map the SPIR module to AMDGPU in place (see the module's docstring)."""
    types = _AmdgpuTypes()
    function_casts: list[ConstantExpr] = []
    seen: set[int] = set()

    def constant(c: Value) -> None:
        stack = [c]
        while stack:
            k = stack.pop()
            if id(k) in seen or isinstance(k, GlobalVariable | Function | GlobalAlias) or not isinstance(k, Constant):
                continue
            seen.add(id(k))
            k.type = types(k.type)
            if isinstance(k, ConstantExpr):
                if k.source_type is not None:
                    k.source_type = types(k.source_type)
                # SPIR casts function addresses to generic (4): on AMDGPU both are address space 0
                if k.opcode == "addrspacecast" and isinstance(k.operands[0], Function) and k.type == T.ptr:
                    function_casts.append(k)
            stack.extend(k.operands)

    for st in module.struct_types.values():
        types(st)
    for g in [*module.globals, *module.aliases]:
        g.addrspace = amdgpu_address_space(g.addrspace)
        g.type = T.PointerType(g.addrspace)
        g.value_type = types(g.value_type)
        if isinstance(g, GlobalVariable):
            g.attributes = types.attributes(g.attributes)
        for op in g.operands:
            constant(op)
    for f in module.functions:
        f.function_type = types(f.function_type)
        f.return_attributes = types.attributes(f.return_attributes)
        f.attributes = types.attributes(f.attributes)
        f.calling_conv = CALLING_CONVENTIONS.get(f.calling_conv, f.calling_conv)
        for a in f.args:
            a.type = types(a.type)
            a.attributes = types.attributes(a.attributes)
        for op in f.operands:
            constant(op)
        for inst in f.instructions():
            _instruction(inst, types, constant)
        if f.name.startswith("llvm."):
            f.name = intrinsic_name(f.name)
    for group in module.attribute_groups:
        group.attributes = types.attributes(group.attributes)
    for cast in function_casts:
        cast.replace_all_uses_with(cast.operands[0])
    for f in module.functions:
        if not f.is_declaration:
            _function_visibility(f)
    for g in module.globals:
        _variable_visibility(g)
    if module.data_layout is not None:
        module.data_layout = datalayout
    if module.triple is not None:
        module.triple = AMDGPU_TRIPLE
    add_module_flag(module, "amdhsa_code_object_version", code_object_version * 100)


def _instruction(inst: I.Instruction, types: _AmdgpuTypes, constant) -> None:
    inst.type = types(inst.type)
    if isinstance(inst, I.AllocaInst):
        inst.allocated_type = types(inst.allocated_type)
        inst.addrspace = amdgpu_address_space(inst.addrspace)
    elif isinstance(inst, I.GetElementPtrInst):
        inst.source_type = types(inst.source_type)
    elif isinstance(inst, I.CallInst):
        inst.function_type = types(inst.function_type)
        inst.calling_conv = CALLING_CONVENTIONS.get(inst.calling_conv, inst.calling_conv)
        inst.return_attributes = types.attributes(inst.return_attributes)
        inst.arg_attributes = [types.attributes(a) for a in inst.arg_attributes]
        inst.attributes = types.attributes(inst.attributes)
    elif isinstance(inst, I.MemoryAccess) and inst.syncscope is not None:
        scope = SYNC_SCOPES.get(inst.syncscope, inst.syncscope)
        inst.syncscope = scope or None
    for op in inst.operands:
        if isinstance(op, Constant):
            constant(op)
        elif isinstance(op, InlineAsm):
            op.type = types(op.type)


def _function_visibility(f: Function) -> None:
    """clang's amdgcn visibility: kernels protected (the loader finds them), other functions
    hidden; the bodies clang outlines from kernels internal."""
    if f.linkage or f.visibility in ("hidden", "protected"):
        return
    if f.preemption == "dso_local":
        f.preemption = ""
    if f.name.startswith(CLANG_KERNEL_BODY_PREFIX):
        f.linkage = "internal"
        return
    f.visibility = "protected" if f.calling_conv == "amdgpu_kernel" else "hidden"


def _variable_visibility(g: GlobalVariable) -> None:
    """Program-scope variables are protected, as clang's."""
    if g.linkage or g.visibility in ("hidden", "protected"):
        return
    if g.preemption == "dso_local":
        g.preemption = ""
    g.visibility = "protected"


def add_module_flag(module: Module, name: str, value: int) -> None:
    """``!llvm.module.flags`` gets ``!{i32 1 (error), !"name", i32 value}``."""
    flag = MDNode([ValueAsMetadata(const_int(T.i32, 1)), MDString(name), ValueAsMetadata(const_int(T.i32, value))])
    module.add_named_metadata("llvm.module.flags", [flag])
