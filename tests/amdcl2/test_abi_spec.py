"""The CL2 ABI tables and rules against spec 002's own text, and the user data rules against the
registers AMD's kernels in reference/amdcl2 really set up."""

from __future__ import annotations

import re
import struct

import pytest
from conftest import spec_text

from kernelkit.abi import cl2
from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.formats.amdgpu.kernel_code_t import AmdKernelCode


@pytest.fixture(scope="module")
def spec() -> str:
    return spec_text("002")


def _pairs(text: str) -> dict[int, str]:
    """``value name`` pairs of one of the spec's two-column tables."""
    return {int(v): n for v, n in re.findall(r"\b(\d+) (CL_\w+)", text)}


def test_channel_tables_and_masks_are_the_specs(spec):
    data_part = spec[spec.index("channel data type"):spec.index("(value&0xf)")]
    order_part = spec[spec.index("holds channel order"):spec.index("(value&0x1f)")]
    data_types, orders = _pairs(data_part), _pairs(order_part)
    assert sorted(data_types) == list(range(16)) and sorted(orders) == list(range(20))
    assert cl2.CHANNEL_DATA_TYPES == tuple(data_types[i] for i in range(16))
    assert cl2.CHANNEL_ORDERS == tuple(orders[i] for i in range(20))
    assert (cl2.CHANNEL_DATA_TYPE_MASK, cl2.CHANNEL_ORDER_MASK) == (0xF, 0x1F)
    for value, name in data_types.items():        # masked lookups: high bits are ignored
        assert cl2.channel_data_type(value | 0xF0) == name
    for value, name in orders.items():
        assert cl2.channel_order(value | 0xE0) == name
    resource_dwords = int(re.search(r"Image resources tooks (\d+) dwords", spec).group(1))
    type_dword = int(re.search(r"(\d+) dword hold information about channel data type", spec).group(1))
    order_dword = int(re.search(r"(\d+) dword holds channel order", spec).group(1))
    assert (cl2.IMAGE_RESOURCE_DWORDS, cl2.IMAGE_DATA_TYPE_DWORD, cl2.IMAGE_ORDER_DWORD) == (
        resource_dwords, type_dword, order_dword)
    info = cl2.image_info(bytes(4 * resource_dwords), "CL_HALF_FLOAT", "CL_sRGBA")
    assert struct.unpack_from("<I", info, 4 * type_dword)[0] == 14     # spec table values
    assert struct.unpack_from("<I", info, 4 * order_dword)[0] == 14


def test_setup_arguments_and_setup_buffer_are_the_specs(spec):
    names = re.findall(r"(?:size_t|void\*) (\w+) - 32-bit or 64-bit", spec)
    assert cl2.SETUP_ARGUMENTS == tuple(names)
    for bits in (32, 64):          # "For 64-bit ... all setup arguments and pointers are 64-bit"
        args = cl2.lay_out([], bits)
        assert [a.name for a in args] == [f"_.{n}" for n in names]
        assert [(a.offset, a.size) for a in args] == [(i * bits // 8, bits // 8) for i in range(6)]
    # "0 dword - general setup. Bit 16-31 - dimensions number", "1 dword ... Bit 0-15 - local
    # size X, bit 16-31 - local size Y", "2 dword ... Bit 0-15 - local size Z", "3-5 dword -
    # global size for each dimension"
    assert "3-5 dword - global size" in spec and "Bit 16-31 - dimensions number" in spec
    words = struct.unpack("<6I", cl2.setup_buffer(3, (64, 2, 3), (1024, 20, 30)))
    assert words[0] >> 16 == 3 and words[0] & 0xFFFF == 0
    assert (words[1] & 0xFFFF, words[1] >> 16, words[2] & 0xFFFF) == (64, 2, 3)
    assert words[3:] == (1024, 20, 30)


def test_flat_and_scratch_registers_are_the_specs(spec):
    flat = spec[spec.index("Flat access"):]
    lds = int(re.search(r"(\d+) dword of that buffer holds 32-63 bits of LDS", flat).group(1))
    scratch = int(re.search(r"(\d+) dword of that buffer holds 32-63 bits of scratch", flat).group(1))
    assert (cl2.FLAT_LDS_BASE_HI_DWORD, cl2.FLAT_SCRATCH_BASE_HI_DWORD) == (lds, scratch)
    assert struct.unpack_from("<2I", cl2.flat_buffer(0xAB, 0xCD), 4 * lds) == (0xAB, 0xCD)
    lo, hi = map(int, re.search(r"Registers S\[(\d+)-(\d+)\] holds special buffer", flat).groups())
    assert cl2.FLAT_BUFFER_SGPRS == (lo, hi)
    offset_sgpr = int(re.search(r"Register S(\d+) holds base scratch buffer offset", flat).group(1))
    size_sgpr = int(re.search(r"Register S(\d+) holds size of scratch per thread", flat).group(1))
    assert (cl2.FLAT_SCRATCH_OFFSET_SGPR, cl2.FLAT_SCRATCH_SIZE_SGPR) == (offset_sgpr, size_sgpr)
    assert "First four scalar registers holds scratch buffer descriptor" in spec
    assert cl2.SCRATCH_DESCRIPTOR_SGPRS == (0, 1, 2, 3)


def _spec_user_data_rules(spec: str) -> dict[str, tuple[int, tuple | None, tuple | None]]:
    rules = {}
    for line in spec.splitlines():
        m = re.search(r"if (no feature|\w+) enabled,? (?:then |only )?(\d+) user data registers"
                      r"|for VEGA \(GFX9\) architecture, then (\d+) user data registers", line)
        if not m:
            continue
        key = "gfx9" if m.group(3) else ("" if m.group(1) == "no feature" else m.group(1))
        setup = re.search(r"(\d+)-(\d+) user data (?:regs )?are kernel setup pointer", line)
        args = re.search(r"(\d+)-(\d+) user data (?:regs )?are argument's pointer", line)
        rules[key] = (int(m.group(2) or m.group(3)),
                      tuple(map(int, setup.groups())) if setup else None,
                      tuple(map(int, args.groups())) if args else None)
    return rules


def test_user_data_rules_are_the_specs(spec):
    rules = _spec_user_data_rules(spec)
    assert set(rules) == {"", "useargs", "usesetup", "useenqueue", "usegeneric", "gfx9"}
    for feature, (count, setup, args) in rules.items():
        if feature == "gfx9":       # the spec's GFX9 line describes a kernel with setup and args
            got = cl2.user_data({"usesetup", "useargs"}, gfx9=True)
        else:
            got = cl2.user_data({feature} if feature else set())
        assert (got.count, got.setup_pointer, got.argument_pointer) == (count, setup, args), feature
    # GFX9 adds FLAT_SCRATCH_INIT where a feature set lacks it (CLRX AmdCL2BinGen: 6/8/10/10/12),
    # never moving the pointers
    assert [cl2.user_data(f, gfx9=True).count for f in
            (set(), {"useargs"}, {"usesetup"}, {"useenqueue"}, {"usegeneric"})] == [6, 8, 10, 10, 12]
    assert cl2.user_data({"usegeneric"}, gfx9=True).argument_pointer == (8, 9)
    with pytest.raises(Exception, match="unknown CL2 feature"):
        cl2.user_data({"usesetupp"})


def test_generic_addressing_registers_agree_with_the_flat_section():
    """No reference kernel uses generic addressing; its rule (12 user data, arguments in 8-9)
    must agree with the spec's FLAT section through the HSA user SGPR order: with a queue
    pointer (the FLAT buffer) the kernarg pointer moves to s[8:9] and FLAT_SCRATCH_INIT lands in
    s10/s11 (CLRX writes code_properties 0x2f for usegeneric)."""
    props = AmdKernelCode(code_properties=0x2F).properties()
    assert cl2.features_of_code(props) == ["useargs", "usesetup", "usegeneric"]
    places = cl2.user_sgprs_of_code(props)
    assert places["ENABLE_SGPR_QUEUE_PTR"] == (cl2.FLAT_BUFFER_SGPRS[0], 2)
    assert places["ENABLE_SGPR_FLAT_SCRATCH_INIT"] == (cl2.FLAT_SCRATCH_OFFSET_SGPR, 2)
    assert cl2.FLAT_SCRATCH_SIZE_SGPR == cl2.FLAT_SCRATCH_OFFSET_SGPR + 1
    assert cl2.user_data_of_code(props) == cl2.user_data({"usegeneric", "usesetup", "useargs"})


def test_user_data_rules_match_every_reference_kernel(reference):
    """For each of AMD's kernels: the spec's rule for the features its code enables gives the
    registers its amd_kernel_code_t really sets up (count in COMPUTE_PGM_RSRC2.USER_SGPR_COUNT,
    setup = dispatch pointer and argument = kernarg pointer places in the HSA order), and the
    metadata's enqueue flag agrees with the code."""
    seen: set[tuple[str, ...]] = set()
    checked = 0
    for path in sorted((reference / "amdcl2").glob("*.clo.re*")):
        binary = read_cl2(path.read_bytes())
        for k in binary.kernels:
            code = k.kernel_code
            props = code.properties()
            features = cl2.features_of_code(props)
            spec_rule = cl2.user_data(features)
            assert spec_rule == cl2.user_data_of_code(props), (path.name, k.name)
            assert spec_rule.count == code.rsrc2()["USER_SGPR_COUNT"], (path.name, k.name)
            assert ("useenqueue" in features) == k.metadata.enqueues_kernel, (path.name, k.name)
            seen.add(tuple(features))
            checked += 1
    assert checked == 88
    assert seen == {(), ("useargs",), ("useargs", "usesetup"), ("useargs", "usesetup", "useenqueue")}


def _kernarg_misses(reference) -> int:
    bad = 0
    for path in sorted((reference / "amdcl2").glob("*.clo.regen")):
        binary = read_cl2(path.read_bytes())
        for k in binary.kernels:
            args = cl2.lay_out(cl2.args_from_metadata(k.metadata), binary.bits, with_setup=False)
            used = cl2.argument_buffer_size(args)
            bad += (used + 15) // 16 * 16 != k.kernel_code.kernarg_segment_byte_size
    return bad


def test_kernarg_check_tells_the_spec_rules_apart(reference, monkeypatch):
    """The argument buffer check against kernarg_segment_byte_size (rounded to 16) can fail: a
    layout without each of spec 002's size/alignment rules misses at least one AMD kernel."""
    assert _kernarg_misses(reference) == 0
    spec_rule = cl2.size_align

    def without_vec3_rule(arg, bits):
        size, align = spec_rule(arg, bits)
        return (3 * align, align) if arg.kind == "value" and arg.width == 3 else (size, align)

    def vectors_aligned_to_size(arg, bits):
        size, align = spec_rule(arg, bits)
        return (size, size) if arg.kind == "value" and not arg.setup else (size, align)

    def handles_always_8_bytes(arg, bits):
        return (8, 8) if arg.kind in cl2.POINTER_SIZED or arg.setup else spec_rule(arg, bits)

    for variant in (without_vec3_rule, vectors_aligned_to_size, handles_always_8_bytes):
        monkeypatch.setattr(cl2, "size_align", variant)
        assert _kernarg_misses(reference) > 0, variant.__name__


def _loads_outside_arguments(reference) -> tuple[int, list]:
    """Scalar loads through each AMD kernel's argument pointer that do not start at one of our
    arguments (GFX7 code, so the immediate offsets are in dwords)."""
    from tests.amdcl2.gcn_loads import scalar_loads

    loads, bad = 0, []
    for path in sorted((reference / "amdcl2").glob("*.clo.regen")):
        binary = read_cl2(path.read_bytes())
        for k in binary.kernels:
            pointer = cl2.user_data_of_code(k.kernel_code.properties()).argument_pointer
            if pointer is None:
                continue
            args = cl2.lay_out(cl2.args_from_metadata(k.metadata), binary.bits, with_setup=False)
            starts = {a.offset for a in args}
            for offset, size in scalar_loads(k.code, pointer[0]):
                loads += 1
                if offset not in starts:
                    bad.append((path.name, k.name, offset, size))
    return loads, bad


def test_kernarg_loads_hit_our_arguments(reference, monkeypatch):
    """AMD's kernels read their arguments with s_load_dword* through the argument pointer: every
    such load starts exactly at one of our argument offsets (setup arguments included), in 32-
    and 64-bit binaries. With spec 002's literal 4-byte images in 32-bit binaries, the loads of
    samplers4.32's images would fall between our arguments."""
    loads, bad = _loads_outside_arguments(reference)
    assert loads >= 100 and not bad, bad
    monkeypatch.setattr(cl2, "HANDLE64", ())
    _, bad = _loads_outside_arguments(reference)
    assert {(name, kernel) for name, kernel, *_ in bad} == {
        ("samplers4.32.clo.regen", "imageTransform"), ("samplers4.32.clo.regen", "imageTransform2")}


def test_setup_pointer_loads_stay_in_the_setup_buffer(reference):
    """What AMD's kernels read through the setup pointer lies inside spec 002's six setup dwords,
    and the local size dword (1) is what they read most."""
    from tests.amdcl2.gcn_loads import scalar_loads

    reads = []
    for path in sorted((reference / "amdcl2").glob("*.clo.regen")):
        binary = read_cl2(path.read_bytes())
        for k in binary.kernels:
            pointer = cl2.user_data_of_code(k.kernel_code.properties()).setup_pointer
            if pointer is not None:
                reads += scalar_loads(k.code, pointer[0])
    assert len(reads) >= 30
    assert all(offset + size <= 4 * len(cl2.SETUP_BUFFER_DWORDS) for offset, size in reads)
    assert max(set(reads), key=reads.count) == (4 * cl2.SETUP_BUFFER_DWORDS[1][0], 4)
