"""SPIR-V specialisation constants (SPIR-V spec §2.12 "Specialization"; spec 003 "Context",
``getSpecializableConstants``, and ``compileSPIRV``'s ``spirv_spec_info``).

``specializable_constants(data)`` lists a module's OpSpecConstant{,True,False} that carry a SpecId:
id, type and default. ``SpecializationInfo`` is what ``compileSPIRV`` takes: the values to use,
as spec 003's ``spirv::SpecializationInfo`` holds them (``entries``: id -> (offset, size) into
``data``). ``fold_spec_constant_op`` evaluates an OpSpecConstantOp once its operands are known.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import read_module
from kernelkit.formats.spirv import tables as S

BOOL, INT, FLOAT = "bool", "int", "float"   # spirv::SpecializableConstantInfo::constant_type
_FLOAT_FORMATS = {16: "<e", 32: "<f", 64: "<d"}


@dataclass(frozen=True)
class SpecializableConstant:
    """One specialisation constant: its SpecId, kind (bool, int, float), width and default."""

    spec_id: int
    constant_type: str
    size_in_bits: int
    default: bool | int | float

    def encode(self, value: object) -> bytes:
        """``value`` as the bytes a SpecializationInfo entry holds (little-endian, size_in_bits wide);
        a value the constant's type cannot hold is a ValueError."""
        if self.constant_type == BOOL:
            if not isinstance(value, bool | int) or int(value) not in (0, 1):
                raise ValueError(f"spec constant {self.spec_id} is a bool; {value!r} is not")
            return struct.pack("<B", int(value))
        if self.constant_type == FLOAT:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"spec constant {self.spec_id} is a {self.size_in_bits}-bit float; "
                                 f"{value!r} is not a number")
            return struct.pack(_FLOAT_FORMATS[self.size_in_bits], float(value))
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"spec constant {self.spec_id} is a {self.size_in_bits}-bit integer; "
                             f"{value!r} is not an integer")
        if not -(1 << (self.size_in_bits - 1)) <= value < (1 << self.size_in_bits):
            raise ValueError(f"spec constant {self.spec_id}: {value} does not fit {self.size_in_bits} bits")
        return (value & ((1 << self.size_in_bits) - 1)).to_bytes(self.size_in_bits // 8, "little")

    def decode(self, data: bytes) -> bool | int | float:
        if self.constant_type == BOOL:
            return bool(data[0])
        if self.constant_type == FLOAT:
            return struct.unpack(_FLOAT_FORMATS[self.size_in_bits], data[:self.size_in_bits // 8])[0]
        return int.from_bytes(data[:self.size_in_bits // 8], "little")


@dataclass
class SpecializationInfo:
    """spirv::SpecializationInfo: ``entries`` maps a SpecId to (offset, size) of its value in ``data``."""

    entries: dict[int, tuple[int, int]] = field(default_factory=dict)
    data: bytes = b""

    @classmethod
    def from_values(cls, constants: Mapping[int, SpecializableConstant],
                    values: Mapping[int, object]) -> SpecializationInfo:
        """The info giving each SpecId in ``values`` its value; an id the module does not declare, or
        a value its type cannot hold, is a ValueError."""
        info, data = cls(), bytearray()
        for spec_id, value in values.items():
            constant = constants.get(int(spec_id))
            if constant is None:
                known = ", ".join(str(i) for i in sorted(constants)) or "none"
                raise ValueError(f"the module has no specialisation constant with SpecId {spec_id} "
                                 f"(SpecIds: {known})")
            raw = constant.encode(value)
            info.entries[int(spec_id)] = (len(data), len(raw))
            data += raw
        info.data = bytes(data)
        return info

    def value_bytes(self, spec_id: int) -> bytes | None:
        entry = self.entries.get(spec_id)
        if entry is None:
            return None
        offset, size = entry
        if offset < 0 or offset + size > len(self.data):
            raise FormatError(f"SpecId {spec_id}: entry ({offset}, {size}) lies outside the {len(self.data)}-byte "
                              "data", offset=offset, field="spirv_spec_info entry")
        return self.data[offset:offset + size]


def _type_of(types: dict[int, tuple[str, int]], type_id: int, inst) -> tuple[str, int]:
    kind = types.get(type_id)
    if kind is None:
        raise FormatError(f"spec constant %{inst.operands[1]} has type %{type_id}, not a bool, integer or float",
                          offset=inst.offset + 4, field="result type")
    return kind


def specializable_constants(data: bytes) -> dict[int, SpecializableConstant]:
    """SpecId -> SpecializableConstant for every decorated OpSpecConstant{,True,False} of a module."""
    module = read_module(data)
    types: dict[int, tuple[str, int]] = {}
    spec_ids: dict[int, int] = {}
    out: dict[int, SpecializableConstant] = {}
    for inst in module.instructions:
        ops = inst.operands
        if inst.name == "TypeBool":
            types[ops[0]] = (BOOL, 8)
        elif inst.name == "TypeInt":
            types[ops[0]] = (INT, ops[1])
        elif inst.name == "TypeFloat":
            types[ops[0]] = (FLOAT, ops[1])
        elif inst.name == "Decorate" and len(ops) >= 3 and ops[1] == S.DEC_SPEC_ID:
            spec_ids[ops[0]] = ops[2]
        elif inst.name in ("SpecConstant", "SpecConstantTrue", "SpecConstantFalse") and ops[1] in spec_ids:
            kind, bits = _type_of(types, ops[0], inst)
            if inst.name == "SpecConstant":
                raw = ops[2] | (ops[3] << 32 if len(ops) > 3 else 0)
                default: bool | int | float = (
                    struct.unpack(_FLOAT_FORMATS[bits], raw.to_bytes(bits // 8, "little"))[0]
                    if kind == FLOAT else raw & ((1 << bits) - 1))
            else:
                default = inst.name == "SpecConstantTrue"
            sid = spec_ids[ops[1]]
            out[sid] = SpecializableConstant(sid, kind, bits, default)
    return out


# -- OpSpecConstantOp (SPIR-V spec §3.52.7): the operations the Kernel capability allows, on scalars --
def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_INT_BINARY = {
    "IAdd": lambda a, b, n: a + b, "ISub": lambda a, b, n: a - b, "IMul": lambda a, b, n: a * b,
    "UDiv": lambda a, b, n: a // b, "UMod": lambda a, b, n: a % b,
    "SDiv": lambda a, b, n: _trunc_div(_signed(a, n), _signed(b, n)),
    "SRem": lambda a, b, n: _signed(a, n) - _trunc_div(_signed(a, n), _signed(b, n)) * _signed(b, n),
    "SMod": lambda a, b, n: _signed(a, n) % _signed(b, n) if _signed(b, n) > 0 else -((-_signed(a, n)) % -_signed(b, n)),
    "ShiftLeftLogical": lambda a, b, n: a << (b % n), "ShiftRightLogical": lambda a, b, n: a >> (b % n),
    "ShiftRightArithmetic": lambda a, b, n: _signed(a, n) >> (b % n),
    "BitwiseOr": lambda a, b, n: a | b, "BitwiseAnd": lambda a, b, n: a & b, "BitwiseXor": lambda a, b, n: a ^ b,
}
_INT_COMPARE = {
    "IEqual": lambda a, b, n: a == b, "INotEqual": lambda a, b, n: a != b,
    "ULessThan": lambda a, b, n: a < b, "UGreaterThan": lambda a, b, n: a > b,
    "ULessThanEqual": lambda a, b, n: a <= b, "UGreaterThanEqual": lambda a, b, n: a >= b,
    "SLessThan": lambda a, b, n: _signed(a, n) < _signed(b, n),
    "SGreaterThan": lambda a, b, n: _signed(a, n) > _signed(b, n),
    "SLessThanEqual": lambda a, b, n: _signed(a, n) <= _signed(b, n),
    "SGreaterThanEqual": lambda a, b, n: _signed(a, n) >= _signed(b, n),
}
_BOOL_OPS = {
    "LogicalOr": lambda a, b: a or b, "LogicalAnd": lambda a, b: a and b,
    "LogicalEqual": lambda a, b: a == b, "LogicalNotEqual": lambda a, b: a != b,
}
_FLOAT_BINARY = {
    "FAdd": lambda a, b: a + b, "FSub": lambda a, b: a - b, "FMul": lambda a, b: a * b,
    "FDiv": lambda a, b: a / b if b else (math.copysign(math.inf, a) * math.copysign(1, b) if a else math.nan),
    "FRem": lambda a, b: math.fmod(a, b) if b else math.nan,
    "FMod": lambda a, b: a - b * math.floor(a / b) if b else math.nan,
}


def fold_spec_constant_op(op: str, result: tuple[str, int], args: list[tuple[tuple[str, int], object]],
                          offset: int) -> bool | int | float:
    """The value of ``OpSpecConstantOp op`` of result kind ``result`` ((kind, bits)) on ``args``
    ((kind, bits), value) pairs; an operation outside the scalar set is a FormatError."""
    kind, bits = result
    vals = [v for _, v in args]
    if op in _INT_BINARY and len(vals) == 2:
        b = vals[1]
        if op in ("UDiv", "UMod", "SDiv", "SRem", "SMod") and b == 0:
            raise FormatError(f"OpSpecConstantOp {op} divides by zero", offset=offset, field="operand")
        return _INT_BINARY[op](vals[0], b, bits) & ((1 << bits) - 1)
    if op in _INT_COMPARE and len(vals) == 2:
        return bool(_INT_COMPARE[op](vals[0], vals[1], args[0][0][1]))
    if op in _BOOL_OPS and len(vals) == 2:
        return bool(_BOOL_OPS[op](bool(vals[0]), bool(vals[1])))
    if op in _FLOAT_BINARY and len(vals) == 2:
        return float(_FLOAT_BINARY[op](float(vals[0]), float(vals[1])))
    if op == "LogicalNot":
        return not vals[0]
    if op == "Not":
        return ~vals[0] & ((1 << bits) - 1)
    if op == "SNegate":
        return -vals[0] & ((1 << bits) - 1)
    if op == "FNegate":
        return -float(vals[0])
    if op == "Select":
        return vals[1] if vals[0] else vals[2]
    if op == "UConvert":
        return vals[0] & ((1 << bits) - 1)
    if op == "SConvert":
        return _signed(vals[0], args[0][0][1]) & ((1 << bits) - 1)
    if op == "FConvert":
        return float(vals[0])
    if op in ("ConvertSToF", "ConvertUToF"):
        return float(_signed(vals[0], args[0][0][1]) if op == "ConvertSToF" else vals[0])
    if op in ("ConvertFToS", "ConvertFToU"):
        if not math.isfinite(vals[0]):
            raise FormatError(f"OpSpecConstantOp {op} of {vals[0]}", offset=offset, field="operand")
        return int(vals[0]) & ((1 << bits) - 1)
    raise FormatError(f"OpSpecConstantOp {op} on {kind} operands is not supported (scalar integer, float and "
                      "logical operations and conversions are)", offset=offset, field="opcode")
