"""Intel vISA objects (spec 004): binary ``.isa`` and text ``.visaasm``, read and write."""

from kernelkit.formats.visa.binary import read_isa, write_isa

__all__ = ["read_isa", "write_isa"]
