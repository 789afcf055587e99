"""kernelkit.ir — an LLVM IR object model: parse text, edit, print text.

`parse(text) -> Module`; `str(module)` prints LLVM IR that llvmlite parses and verifies.

Editing: every operand edge is in `value.uses` (`users`, `replace_all_uses_with`);
`Instruction.insert_before/after/erase`, `BasicBlock.move_before/after/erase`;
`IRBuilder` creates instructions; `transforms` clones functions, adds/removes parameters
(updating call sites), splits blocks, removes unreachable blocks. Names are made unique and
unnamed values numbered when printing, so passes may reuse names freely.
"""

from __future__ import annotations

from kernelkit.ir import types
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.instructions import (
    AggregateOpInst,
    AllocaInst,
    AtomicRMWInst,
    BinaryOp,
    BranchInst,
    CallInst,
    CastInst,
    CmpXchgInst,
    CompareInst,
    FenceInst,
    FreezeInst,
    GetElementPtrInst,
    Instruction,
    LoadInst,
    PhiInst,
    ReturnInst,
    SelectInst,
    StoreInst,
    SwitchInst,
    UnreachableInst,
    VectorOpInst,
)
from kernelkit.ir.metadata import MDNode, MDString, Metadata, MetadataAsValue, ValueAsMetadata
from kernelkit.ir.module import (
    Argument,
    AttributeGroup,
    BasicBlock,
    Function,
    GlobalAlias,
    GlobalValue,
    GlobalVariable,
    Module,
    NamedMetadata,
    TypeAttribute,
    UseListOrder,
)
from kernelkit.ir.parser import parse
from kernelkit.ir.values import (
    Constant,
    ConstantAggregate,
    ConstantBytes,
    ConstantExpr,
    ConstantFP,
    ConstantInt,
    ConstantSimple,
    ConstantSplat,
    Use,
    User,
    Value,
)

__all__ = [
    "AggregateOpInst", "AllocaInst", "Argument", "AtomicRMWInst", "AttributeGroup", "BasicBlock",
    "BinaryOp", "BranchInst", "CallInst", "CastInst", "CmpXchgInst", "CompareInst", "Constant",
    "ConstantAggregate", "ConstantBytes", "ConstantExpr", "ConstantFP", "ConstantInt",
    "ConstantSimple", "ConstantSplat", "FenceInst", "FreezeInst", "Function", "GetElementPtrInst",
    "GlobalAlias", "GlobalValue", "GlobalVariable", "Instruction", "LoadInst", "MDNode", "MDString",
    "Metadata", "MetadataAsValue", "Module", "NamedMetadata", "PhiInst", "ReturnInst",
    "SelectInst", "StoreInst", "SwitchInst", "TypeAttribute", "UnreachableInst", "Use", "UseListOrder", "User", "Value",
    "ValueAsMetadata", "VectorOpInst", "parse", "types", "IRBuilder", "const",
]
