"""Intel vISA objects (spec 004): binary ``.isa`` and text ``.visaasm``, read and write.

``read_isa``/``write_isa`` (binary), ``parse_visaasm``/``print_visaasm`` (text), ``validate`` (the
spec's limits); the model lives in ``model``, instructions in ``instructions`` and ``opcodes``.
"""

from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.text_print import print_visaasm
from kernelkit.formats.visa.validate import check, validate

__all__ = ["read_isa", "write_isa", "parse_visaasm", "print_visaasm", "validate", "check"]
