"""The AMD IL simulator: ``decode`` (IL text -> instruction records) and ``Executor`` (numpy,
vectorised across work-items with an explicit execution mask), launched with the runtime's ABI
by ``launch``."""

from kernelkit.abi.amdil import LocalArg
from kernelkit.sim.amdil.decode import DecodedProgram, Instr, Operand, decode
from kernelkit.sim.amdil.launch import LaunchStats, launch
from kernelkit.sim.amdil.memory import SimImage

__all__ = ["decode", "DecodedProgram", "Instr", "Operand", "launch", "LaunchStats", "LocalArg",
           "SimImage"]
