"""The suite of vISA kernels written here (tests/visa/kernels), covering every instruction of
issue 5 point 2: Intel's finalizer must give the same Gen assembly for the kernel text, for the
binary kernelkit writes, and for the text kernelkit prints; on SKL, ICLLP, TGLLP and DG2
(kernels using LSC messages on DG2 only)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import require_tool
from finalizer import PLATFORMS, finalize_binary, finalize_text

from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.text_print import print_visaasm

KERNELS = sorted((Path(__file__).parent / "kernels").glob("*.visaasm"))


def _platforms(text: str) -> tuple[str, ...]:
    """A kernel may restrict its platforms with a `// platforms: A B` line; LSC needs DG2."""
    m = re.search(r"^// platforms: (.*)$", text, re.M)
    if m:
        return tuple(m.group(1).split())
    return ("DG2",) if "lsc_" in text else PLATFORMS


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_kernel_binary_and_printed_text_finalize_like_the_text(path):
    require_tool("GenX_IR")
    text = path.read_text()
    obj = parse_visaasm(text)
    data = write_isa(obj)
    assert write_isa(read_isa(data)) == data
    printed = print_visaasm(obj)
    # printing is stable: re-parsing keeps everything but the v_name of samplers/surfaces (the
    # finalizer, like our parser, names them by their S<n>/T<n> identifier)
    reprinted = print_visaasm(parse_visaasm(printed))
    assert re.sub(r" v_name=\S+", "", reprinted) == re.sub(r" v_name=\S+", "", printed)
    assert print_visaasm(parse_visaasm(reprinted)) == reprinted

    def check(platform: str) -> None:
        expected, _ = finalize_text(text, platform)
        assert len(expected) > 3
        assert finalize_binary(data, platform)[0] == expected, f"{path.stem}: binary differs on {platform}"
        assert finalize_text(printed, platform)[0] == expected, f"{path.stem}: printed text differs on {platform}"

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(check, _platforms(text)))


def test_suite_covers_every_instruction_of_issue_5():
    texts = "\n".join(p.read_text() for p in KERNELS)
    insts = set()
    for path in KERNELS:
        obj = parse_visaasm(path.read_text())
        for routine in obj.kernels + obj.functions:
            for inst in routine.instructions:
                name = inst.name
                if name == "fminmax":
                    name = "max" if inst["spec"] else "min"
                insts.add(name)
                if inst.sub is not None:
                    from kernelkit.formats.visa.opcodes import SVM_SUBOPS
                    from kernelkit.formats.visa.tables import LSC_OPS
                    insts.add(SVM_SUBOPS[inst.sub][0] if name == "svm" else LSC_OPS[inst.sub][1])
    required = {"mov", "movs", "add", "mul", "mad", "mulh", "avg", "shl", "shr", "asr", "and", "or", "xor",
                "not", "sel", "cmp", "min", "max", "frc", "rndd", "rndu", "rnde", "rndz", "inv", "sqrt",
                "rsqrt", "exp", "log", "sin", "cos", "pow", "div", "lifetime", "label", "jmp", "goto", "call",
                "fcall", "ret", "fret", "barrier", "fence", "block_ld", "block_st", "gather", "scatter",
                "atomic", "gather4_scaled", "scatter4_scaled", "dword_atomic", "load", "store", "raw_sends",
                "func"}
    assert not required - insts, sorted(required - insts)
    for needle in ("(!", ".any)", ".all)", "(abs)", "(-)", "(-abs)", "(~)", ".sat", "r[", ":q", ":uq", ":df",
                   ":hf", ":v", ":vf", ":uv", ":ub", ":b", ":w", ":uw", ":d", ":ud", ":f", "M5", "_NM"):
        assert needle in texts, needle


def test_platform_restrictions_are_the_finalizers():
    """LSC messages exist on DG2 and later only; switchjmp only before TGLLP (GenX_IR rejects both)."""
    require_tool("GenX_IR")
    kernels = {p.stem: p.read_text() for p in KERNELS}
    for name, platform in (("lsc", "TGLLP"), ("switch", "TGLLP"), ("switch", "DG2")):
        with pytest.raises(AssertionError, match="rejected"):
            finalize_text(kernels[name], platform)


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_finalizer_dump_of_our_binary_parses_back(path):
    """GenX_IR -dumpcommonisa prints the vISA it read from our binary; that text parses, and (when it
    is self-contained) our binary of it finalizes to the same code again."""
    require_tool("GenX_IR")
    text = path.read_text()
    platform = _platforms(text)[-1]
    asm, dump = finalize_binary(write_isa(parse_visaasm(text)), platform)
    obj = parse_visaasm(dump)
    assert [k.name for k in obj.kernels] == [k.name for k in parse_visaasm(text).kernels]
    if ".funcdecl" not in dump:          # a kernel calling a function is dumped without the function
        assert finalize_binary(write_isa(obj), platform)[0] == asm
