"""The vISA simulator: ``decode`` (vISA routine -> instruction records), ``Executor`` (numpy, every
thread and lane of a batch at once), ``launch`` (IGC's OpenCL payload, buffers, SLM)."""

from kernelkit.sim.visa.decode import decode
from kernelkit.sim.visa.launch import LaunchStats, launch

__all__ = ["decode", "launch", "LaunchStats"]
