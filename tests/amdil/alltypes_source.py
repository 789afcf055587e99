"""tests/amdil/sources/alltypes.cl, our kernel with the parameter list AMD's compilers recorded for
``myKernel`` in the Catalyst and CL2 alltypes binaries, and its parameters read as plain words (no
kernelkit front end: the tests compare kernelkit's reading of the same source with these words)."""

from __future__ import annotations

import re

from conftest import own_source

SOURCE = own_source("amdil", "alltypes.cl")
COUNTERS = "cl_ext_atomic_counters_32"   # what the counter argument v70 is conditional on


def parameters(defined: tuple[str, ...] = (COUNTERS,)) -> list[tuple[str, list[str]]]:
    """(name, words) of each parameter of myKernel in order, with ``defined`` macros set; ``*`` is a
    word of its own (``global void *restrict v69`` -> global void * restrict v69)."""
    kept, skipping = [], False
    for line in SOURCE.read_text().splitlines():
        line = line.split("//")[0].strip()
        if line.startswith("#ifdef"):
            skipping = line.split()[1] not in defined
        elif line.startswith("#endif"):
            skipping = False
        elif not skipping and not line.startswith("#"):
            kept.append(line)
    text = " ".join(kept)
    params = text[text.index("myKernel(") + len("myKernel("):]
    params = params[:params.index(")")]
    out = []
    for param in params.split(","):
        words = re.sub(r"\*", " * ", param).split()
        out.append((words[-1], words))
    return out
