"""Transforms on `kernelkit.ir` shared by every target: IR editing helpers (`editing`), and the passes
targets share (structurise, scalarise, packetise), one module each."""

from kernelkit.ir.transforms.editing import (
    add_parameters,
    call_sites,
    clone_function,
    clone_instruction,
    instruction_users,
    remove_parameters,
    remove_unreachable_blocks,
    replace_instruction,
    split_block,
)

__all__ = ["add_parameters", "call_sites", "clone_function", "clone_instruction", "instruction_users",
           "remove_parameters", "remove_unreachable_blocks", "replace_instruction", "split_block"]
