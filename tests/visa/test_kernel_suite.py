"""The suite of vISA kernels written here (tests/visa/kernels), covering every instruction of
issue 5 point 2: Intel's finalizer must give the same Gen assembly for the kernel text, for the
binary kernelkit writes, and for the text kernelkit prints; on SKL, ICLLP, TGLLP and DG2
(kernels using LSC messages on DG2 only)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import reference_path, require_tool
from finalizer import PLATFORMS, dump_lines, finalize_binary, finalize_text, split_attribute_lines

from kernelkit.formats.visa.binary import read_isa, write_isa
from kernelkit.formats.visa.operands import IMMEDIATE, VectorOperand
from kernelkit.formats.visa.tables import EMASKS, EXEC_SIZES, MODIFIERS, OPERAND_CLASSES, TYPES
from kernelkit.formats.visa.text_parse import parse_visaasm
from kernelkit.formats.visa.text_print import print_routine, print_visaasm

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
    # operand features, from the parsed instructions (not the text): predicates (plain, inverted, any,
    # all), source modifiers and saturation, indirect and address operands, immediates of every type
    # the finalizer's text grammar accepts (it has no bf or bool immediates), exec sizes and masks
    seen: set = set()
    for path in KERNELS:
        for routine in (obj := parse_visaasm(path.read_text())).kernels + obj.functions:
            for inst in routine.instructions:
                for key, value in inst.fields.items():
                    if key == "pred" and value is not None:
                        seen.add(("pred", value.inverse, value.control))
                    elif key == "exec":
                        seen.update({("exec", EXEC_SIZES[value & 0xF]), ("mask", EMASKS[value >> 4])})
                    elif isinstance(value, VectorOperand):
                        seen.add(("class", OPERAND_CLASSES[value.cls]))
                        seen.add(("mod", MODIFIERS[value.modifier]))
                        if value.cls == IMMEDIATE:
                            seen.add(("imm", TYPES[value.type][0]))
    wanted = {("pred", inv, ctl) for inv in (False, True) for ctl in (0, 1, 2)}
    wanted |= {("mod", m) for m in MODIFIERS.values()}
    wanted |= {("class", c) for c in ("general", "address", "predicate", "indirect", "immediate", "state")}
    wanted |= {("imm", t) for t, _size in TYPES.values() if t not in ("bf", "bool")}
    wanted |= {("exec", n) for n in (1, 2, 4, 8, 16, 32)} | {("mask", m) for m in ("M1", "M5", "M1_NM")}
    assert not wanted - seen, sorted(wanted - seen)
    assert "r[" in texts


def test_platform_restrictions_are_the_finalizers():
    """LSC messages exist on DG2 and later only; switchjmp only before TGLLP (GenX_IR rejects both)."""
    require_tool("GenX_IR")
    kernels = {p.stem: p.read_text() for p in KERNELS}
    for name, platform in (("lsc", "TGLLP"), ("switch", "TGLLP"), ("switch", "DG2")):
        with pytest.raises(AssertionError, match="rejected"):
            finalize_text(kernels[name], platform)


def _dump_cases() -> list:
    cases = [pytest.param(p, id=p.stem) for p in KERNELS]
    cases += [pytest.param(c, id=f"igc:{c}") for c in ("tgllp_simple/simple", "skl_saxpy/saxpy", "dg2-g10_saxpy/saxpy")]
    return cases


@pytest.mark.parametrize("source", _dump_cases())
def test_finalizer_reads_back_every_declaration_and_instruction_of_our_binary(source):
    """GenX_IR -dumpcommonisa prints the vISA it read from our binary: line for line our printed text
    (declarations, inputs, attributes, every instruction with its operands), so every field we encode
    is the one the finalizer decodes. Differences of the finalizer's printer only: it names address
    variables A<n>, appends its default Target when a routine sets none, renames labels (see
    ``dump_lines``); it dumps each function of the file to its own text. The dump parses back and our
    binary of it finalizes to the same code again."""
    require_tool("GenX_IR")
    if isinstance(source, Path):
        text = source.read_text()
    else:
        text = reference_path("visa", source + ".visaasm").read_text()
    platform = _platforms(text)[-1]
    obj = parse_visaasm(text)
    asm, dump = finalize_binary(write_isa(obj), platform)
    expected = []
    for routine in obj.kernels + obj.functions:
        for i, a in enumerate(routine.addresses):
            a.name = f"A{i}"
        lines = dump_lines(print_routine(routine))
        if not any(a.name == "Target" for a in routine.attributes):
            last = max(i for i, ln in enumerate(lines) if ln.startswith((".decl", ".input", ".implicit", ".kernel_attr",
                                                                         ".kernel", ".global_function")))
            lines.insert(last + 1, '.kernel_attr Target="3d"')
        expected += lines
    assert dump_lines(dump) == expected
    again = parse_visaasm(split_attribute_lines(dump))
    assert [r.name for r in again.kernels + again.functions] == [r.name for r in obj.kernels + obj.functions]
    assert finalize_binary(write_isa(again), platform)[0] == asm
