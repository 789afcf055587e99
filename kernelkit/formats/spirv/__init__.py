"""kernelkit.formats.spirv: SPIR-V binary modules (header, instructions, literal strings)."""

from kernelkit.formats.spirv.module import (
    HEADER_WORDS,
    MAGIC,
    Instruction,
    SpirvModule,
    decode_string,
    malformed_operands,
    read_module,
)

__all__ = ["HEADER_WORDS", "MAGIC", "Instruction", "SpirvModule", "decode_string", "malformed_operands",
           "read_module"]
