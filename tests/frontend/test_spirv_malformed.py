"""Malformed SPIR-V modules the fuzzing harness (fuzz/, target ``spirv``) found escaping the SPIR-V
reader as other exceptions than FormatError (KeyError, IndexError, ValueError, OverflowError, StopIteration, RecursionError) or running
for ever (a vector of 2**31 components), rebuilt by hand from a valid module. Oracle: spirv-val accepts
the base module and rejects every damaged one (but one it does not check); the reader must refuse each with a FormatError."""

from __future__ import annotations

import struct
import subprocess

import pytest
from conftest import require_tool

from kernelkit.errors import FormatError
from kernelkit.frontend.spirv import translate

BASE = """
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Vector16
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpExecutionMode %k LocalSize 4 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %v3ulong = OpTypeVector %ulong 3
  %ptr_in_v3 = OpTypePointer Input %v3ulong
     %ptr_cw = OpTypePointer CrossWorkgroup %v2float
       %fnty = OpTypeFunction %void %ptr_cw
        %one = OpConstant %float 1
       %pair = OpConstantComposite %v2float %one %one
        %gid = OpVariable %ptr_in_v3 Input
          %k = OpFunction %void None %fnty
        %dst = OpFunctionParameter %ptr_cw
      %entry = OpLabel
          %g = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %g 0
         %to = OpInBoundsPtrAccessChain %ptr_cw %dst %i
               OpStore %to %pair Aligned 8
               OpReturn
               OpFunctionEnd
"""

OP_EXECUTION_MODE, OP_TYPE_INT, OP_TYPE_VECTOR, OP_CONSTANT, OP_CONSTANT_COMPOSITE = 16, 21, 23, 43, 44
OP_TYPE_FUNCTION, OP_TYPE_POINTER, OP_FUNCTION_PARAMETER, OP_UNDEF, OP_TYPE_FLOAT = 33, 32, 55, 1, 22


def _assemble(text: str) -> bytes:
    return subprocess.run([require_tool("spirv-as"), "--target-env", "opencl2.0", "-", "-o", "-"],
                          input=text.encode(), capture_output=True, check=True).stdout


def _valid(data: bytes) -> bool:
    return subprocess.run([require_tool("spirv-val"), "--target-env", "opencl2.0", "-"], input=data,
                          capture_output=True).returncode == 0


def _edit(data: bytes, opcode: int, change, nth: int = 0) -> bytes:
    """The module with the ``nth`` instruction of ``opcode`` replaced by ``change(operand words)``."""
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    i = 5
    while words[i] & 0xFFFF != opcode or nth:
        nth -= words[i] & 0xFFFF == opcode
        i += words[i] >> 16
    count = words[i] >> 16
    operands = change(words[i + 1:i + count])
    words[i:i + count] = [(len(operands) + 1) << 16 | opcode, *operands]
    return struct.pack(f"<{len(words)}I", *words)


def _operand(data: bytes, opcode: int, index: int) -> int:
    found = []
    _edit(data, opcode, lambda ops: found.append(ops[index]) or ops)
    return found[0]


DAMAGE = {
    # RecursionError: a pointer type whose pointee is itself
    "pointer-to-itself": lambda d: _edit(d, OP_TYPE_POINTER, lambda ops: [ops[0], ops[1], ops[0]], nth=1),
    # StopIteration: a kernel parameter's result id defined again by a later instruction
    # (an OpUndef after the function, of the parameter's id)
    "parameter-id-redefined": lambda d: d + struct.pack("<3I", 3 << 16 | OP_UNDEF, _operand(d, OP_TYPE_FLOAT, 0),
                                                        _operand(d, OP_FUNCTION_PARAMETER, 1)),
    # IndexError at the module level: OpExecutionMode without its mode
    "execution-mode-without-mode": lambda d: _edit(d, OP_EXECUTION_MODE, lambda ops: ops[:1]),
    # KeyError: a composite constant naming an id nothing defines
    "composite-of-undefined-id": lambda d: _edit(d, OP_CONSTANT_COMPOSITE, lambda ops: [*ops[:2], 0x1FFFFFF, ops[3]]),
    # ValueError (zip strict): a function type of two parameters for one OpFunctionParameter
    "parameter-count": lambda d: _edit(d, OP_TYPE_FUNCTION, lambda ops: [*ops, ops[-1]]),
    # OverflowError: a 32-bit float constant given two literal words
    "float-constant-of-two-words": lambda d: _edit(d, OP_CONSTANT, lambda ops: [*ops, 0xFFFFFFFF]),
    # ran for ever: a vector of 2**31 components read through the GlobalInvocationId built-in
    "vector-of-2**31": lambda d: _edit(d, OP_TYPE_VECTOR, lambda ops: [*ops[:2], 1 << 31], nth=1),
    "integer-of-width-7": lambda d: _edit(d, OP_TYPE_INT, lambda ops: [ops[0], 7, ops[2]]),
}


@pytest.fixture(scope="module")
def base() -> bytes:
    data = _assemble(BASE)
    assert _valid(data)
    translate(data)              # the undamaged module reads
    return data


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_malformed_module_is_a_format_error(base, name):
    data = DAMAGE[name](base)
    # spirv-val does not count a function's OpFunctionParameter against its type; SPIR-V spec §3.52.9
    # OpFunctionParameter: "one for each parameter of the function type"
    assert _valid(data) is (name == "parameter-count")
    with pytest.raises(FormatError) as err:
        translate(data)
    assert err.value.field
