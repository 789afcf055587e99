"""SPIR-V types -> kernelkit.ir types, OpenCL C type names and mangling types."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import Instruction
from kernelkit.formats.spirv import tables as S
from kernelkit.formats.spirv.tables import STORAGE_CLASS_ADDRSPACE
from kernelkit.frontend.spirv.images import SAMPLER_TYPE, image_mangling_name, image_name, image_type
from kernelkit.frontend.spirv.pipes import pipe_type
from kernelkit.ir import types as T
from kernelkit.mux.mangling import OclType

_INT_NAMES = {8: "char", 16: "short", 32: "int", 64: "long"}
_FLOAT_TYPES = {16: T.half, 32: T.float32, 64: T.float64}
_FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}
# OpenCL 2.0 device-enqueue and pipe handles: SPIR-V type -> (clang's target type, OpenCL C name, mangling name)
_OPAQUE = {"TypeQueue": ("spirv.Queue", "queue_t", "ocl_queue"),
           "TypeDeviceEvent": ("spirv.DeviceEvent", "clk_event_t", "ocl_clkevent"),
           "TypeReserveId": ("spirv.ReserveId", "reserve_id_t", "ocl_reserveid")}


class TypeTable:
    """The module's types by id: their IR type and their defining instruction."""

    def __init__(self, struct_names: dict[int, str], module) -> None:
        self.defs: dict[int, Instruction] = {}
        self.ir: dict[int, T.Type] = {}
        self._names = struct_names
        self._module = module

    def define(self, inst: Instruction) -> None:
        rid = inst.operands[0]
        self.defs[rid] = inst
        self.ir[rid] = self._ir_type(inst)

    def _ir_type(self, inst: Instruction) -> T.Type:
        ops, name = inst.operands, inst.name
        if name == "TypeVoid":
            return T.void
        if name == "TypeBool":
            return T.i1
        if name == "TypeInt":
            if ops[1] not in S.INT_WIDTHS:
                raise FormatError(f"integer width {ops[1]}", offset=inst.offset + 8, field="OpTypeInt width")
            return T.IntType(ops[1])
        if name == "TypeFloat":
            if ops[1] not in _FLOAT_TYPES:
                raise FormatError(f"float width {ops[1]}", offset=inst.offset + 8, field="OpTypeFloat width")
            return _FLOAT_TYPES[ops[1]]
        if name == "TypeVector":
            if ops[2] not in S.VECTOR_COUNTS:
                raise FormatError(f"vector of {ops[2]} components", offset=inst.offset + 12,
                                  field="OpTypeVector component count")
            return T.VectorType(self[ops[1]], ops[2])
        if name == "TypeArray":
            return T.ArrayType(self[ops[1]], self._module.constant_int(ops[2]))
        if name == "TypeStruct":
            raw = self._names.get(ops[0], f"spirv.struct.{ops[0]}")
            st = self._module.ir.add_struct(raw if raw.startswith(("struct.", "union.")) else f"struct.{raw}",
                                           [self[e] for e in ops[1:]])
            st.packed = self._module.decoration(ops[0], S.DEC_CPACKED) is not None
            return st
        if name == "TypePointer":
            return T.pointer(self.addrspace(ops[1], inst))
        if name == "TypeFunction":
            return T.FunctionType(self[ops[1]], tuple(self[p] for p in ops[2:]))
        if name == "TypeImage":
            return image_type(ops)
        if name == "TypeSampler":
            return SAMPLER_TYPE
        if name == "TypeSampledImage":   # only ever an operand of OpImageSample*: the image's own type
            return self[ops[1]]
        if name == "TypePipe":
            return pipe_type(inst)
        if name in _OPAQUE:
            return T.TargetExtType(_OPAQUE[name][0])
        if name in ("TypeEvent", "TypeOpaque"):
            raise FormatError(f"Op{name} is not supported by kernelkit's SPIR-V reader yet",
                              offset=inst.offset, field="opcode")
        raise FormatError(f"Op{name} is not a type", offset=inst.offset, field="opcode")

    @staticmethod
    def addrspace(storage: int, inst: Instruction) -> int:
        if storage not in STORAGE_CLASS_ADDRSPACE:
            raise FormatError(f"storage class {storage} is not one of OpenCL's", offset=inst.offset + 8,
                              field="storage class")
        return STORAGE_CLASS_ADDRSPACE[storage]

    def __getitem__(self, tid: int) -> T.Type:
        try:
            return self.ir[tid]
        except KeyError:
            raise FormatError(f"%{tid} is not a type defined before its use", field="type id") from None

    def pointee(self, tid: int) -> int:
        inst = self.defs[tid]
        return inst.operands[2]

    def opencl_name(self, tid: int, signed: bool = True, within: tuple[int, ...] = ()) -> str:
        """The OpenCL C spelling of a type (integers signed unless told: SPIR-V has no signedness);
        ``within``: the types being spelled that contain this one (a type containing itself is malformed)."""
        inst = self.defs[tid]
        if tid in within:
            raise FormatError(f"type %{tid} contains itself", offset=inst.offset, field="type id")
        within = (*within, tid)
        ops, name = inst.operands, inst.name
        if name == "TypeInt":
            base = _INT_NAMES.get(ops[1], f"i{ops[1]}")
            return base if signed else "u" + base
        if name == "TypeBool":
            return "bool"
        if name == "TypeFloat":
            return _FLOAT_NAMES[ops[1]]
        if name == "TypeVector":
            return f"{self.opencl_name(ops[1], signed, within)}{ops[2]}"
        if name == "TypePointer":
            return self.opencl_name(ops[2], signed, within) + "*"
        if name == "TypeStruct":
            st = self.ir[tid]
            raw = st.name if isinstance(st, T.NamedStructType) else "struct"
            kind, _, tag = raw.partition(".")
            return f"{kind} {tag}" if kind in ("struct", "union") else raw
        if name == "TypeVoid":
            return "void"
        if name == "TypeImage":
            return image_name(ops)
        if name == "TypeSampler":
            return "sampler_t"
        if name in _OPAQUE:
            return _OPAQUE[name][1]
        return name

    def ocl_type(self, tid: int, signed: bool | None) -> OclType:
        """The mangling type of a value of type ``tid``."""
        inst = self.defs[tid]
        ops, name = inst.operands, inst.name
        if name == "TypeVector":
            return OclType.vector(self.ocl_type(ops[1], signed), ops[2])
        if name == "TypePointer":
            return OclType("pointer", element=self.ocl_type(ops[2], signed),
                           address_space=self.addrspace(ops[1], inst))
        if name == "TypeImage":
            return OclType("named", name=image_mangling_name(ops))
        if name == "TypeSampler":
            return OclType("named", name="ocl_sampler")
        if name in _OPAQUE:
            return OclType("named", name=_OPAQUE[name][2])
        return OclType.scalar(self.opencl_name(tid, signed is not False))
