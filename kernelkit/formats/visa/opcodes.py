"""The vISA instruction table, as data: opcode -> mnemonic, text family and binary layout.

Opcode numbers and binary field order are those of the vISA 4.1 object format that IGC 1.0.12504
writes and its finalizer (GenX_IR) reads (IGC ``visa/IsaDescription.cpp`` / ``ByteCodeReaderNG``).
A layout is a tuple of ``(field, kind)``; kinds: exec (UB size|mask<<4), pred (UW), u8, u16, u32,
i32, vec (vector operand), raw (raw operand), labels (switchjmp: UB count then UW label ids).
Opcodes with a sub-opcode byte (svm, lsc_untyped) have one layout per sub-opcode.
"""

from __future__ import annotations

from dataclasses import dataclass

Layout = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class OpInfo:
    code: int
    name: str
    family: str
    layout: Layout


def _alu(nsrc: int, *, pred: bool = True, spec: bool = False, ndst: int = 1, extra: str | None = None
         ) -> Layout:
    fields: list[tuple[str, str]] = [("exec", "exec")]
    if pred:
        fields.append(("pred", "pred"))
    if spec:
        fields.append(("spec", "u8"))
    fields.append(("dst", "vec"))
    if ndst == 2:                      # addc/subb: the carry/borrow destination follows dst
        fields.append(("dst2", "vec"))
    fields += [(f"src{i}", "vec") for i in range(nsrc)]
    if extra:
        fields.append((extra, "u8"))
    return tuple(fields)


_E = (("exec", "exec"), ("pred", "pred"))

# (code, mnemonic, family, layout) -- spec 004 instruction set as the vISA 4.1 binary encodes it
_TABLE: tuple[tuple[int, str, str, Layout], ...] = (
    (0x01, "add", "alu", _alu(2)), (0x02, "avg", "alu", _alu(2)), (0x03, "div", "alu", _alu(2)),
    (0x04, "dp2", "alu", _alu(2)), (0x05, "dp3", "alu", _alu(2)), (0x06, "dp4", "alu", _alu(2)),
    (0x07, "dph", "alu", _alu(2)), (0x08, "exp", "alu", _alu(1)), (0x09, "frc", "alu", _alu(1)),
    (0x0A, "line", "alu", _alu(2)), (0x0B, "log", "alu", _alu(1)), (0x0C, "mad", "alu", _alu(3)),
    (0x0D, "mulh", "alu", _alu(2)), (0x0E, "lrp", "alu", _alu(3)), (0x0F, "mod", "alu", _alu(2)),
    (0x10, "mul", "alu", _alu(2)), (0x11, "pow", "alu", _alu(2)), (0x12, "rndd", "alu", _alu(1)),
    (0x13, "rndu", "alu", _alu(1)), (0x14, "rnde", "alu", _alu(1)), (0x15, "rndz", "alu", _alu(1)),
    (0x16, "sad2", "alu", _alu(2)), (0x17, "sin", "alu", _alu(1)), (0x18, "cos", "alu", _alu(1)),
    (0x19, "sqrt", "alu", _alu(1)), (0x1A, "rsqrt", "alu", _alu(1)), (0x1B, "inv", "alu", _alu(1)),
    (0x1D, "fcvt", "alu", _alu(1, pred=False)), (0x1E, "srnd", "alu", _alu(2, pred=False)),
    (0x1F, "lzd", "alu", _alu(1)),
    (0x20, "and", "alu", _alu(2)), (0x21, "or", "alu", _alu(2)), (0x22, "xor", "alu", _alu(2)),
    (0x23, "not", "alu", _alu(1)), (0x24, "shl", "alu", _alu(2)), (0x25, "shr", "alu", _alu(2)),
    (0x26, "asr", "alu", _alu(2)), (0x27, "cbit", "alu", _alu(1)),
    (0x28, "addr_add", "alu", _alu(2, pred=False)),
    (0x29, "mov", "alu", _alu(1)), (0x2A, "sel", "alu", _alu(2)),
    (0x2B, "setp", "alu", _alu(1, pred=False)), (0x2C, "cmp", "cmp", _alu(2, pred=False, spec=True)),
    (0x2D, "movs", "alu", _alu(1, pred=False)), (0x2E, "fbl", "alu", _alu(1)),
    (0x2F, "fbh", "alu", _alu(1)),
    (0x30, "func", "label", (("label", "u16"),)), (0x31, "label", "label", (("label", "u16"),)),
    (0x32, "jmp", "branch", _E + (("label", "u16"),)), (0x33, "call", "branch", _E + (("label", "u16"),)),
    (0x34, "ret", "branch", _E),
    (0x35, "oword_ld", "oword", (("size", "u8"), ("modifier", "u8"), ("surface", "u8"),
                                 ("offset", "vec"), ("data", "raw"))),
    (0x36, "oword_st", "oword", (("size", "u8"), ("surface", "u8"), ("offset", "vec"), ("data", "raw"))),
    (0x3C, "oword_ld_unaligned", "oword", (("size", "u8"), ("modifier", "u8"), ("surface", "u8"),
                                           ("offset", "vec"), ("data", "raw"))),
    (0x45, "fminmax", "minmax", _alu(2, pred=False, spec=True)),
    (0x46, "bfe", "alu", _alu(3)), (0x47, "bfi", "alu", _alu(4)), (0x48, "bfrev", "alu", _alu(1)),
    (0x49, "addc", "alu", _alu(2, ndst=2)), (0x4A, "subb", "alu", _alu(2, ndst=2)),
    (0x4E, "svm", "svm", ()),
    (0x4F, "ifcall", "ifcall", _E + (("target", "vec"), ("arg_size", "u8"), ("ret_size", "u8"))),
    (0x50, "faddr", "faddr", (("symbol", "u16"), ("dst", "vec"))),
    (0x51, "FILE", "debug", (("file", "u32"),)), (0x52, "LOC", "debug", (("line", "u32"),)),
    (0x59, "barrier", "sync", ()), (0x5A, "sampler_cache_flush", "sync", ()),
    (0x5B, "wait", "wait", (("mask", "vec"),)), (0x5C, "fence", "fence", (("mask", "u8"),)),
    (0x5D, "raw_send", "raw_send", (("modifier", "u8"),) + _E + (
        ("ex_desc", "u32"), ("num_src", "u8"), ("num_dst", "u8"), ("desc", "vec"), ("src", "raw"),
        ("dst", "raw"))),
    (0x5F, "yield", "sync", ()),
    (0x67, "fcall", "fcall", _E + (("function", "u16"), ("arg_size", "u8"), ("ret_size", "u8"))),
    (0x68, "fret", "branch", _E),
    (0x69, "switchjmp", "switchjmp", (("exec", "exec"), ("labels", "labels"))),
    (0x6A, "sad2add", "alu", _alu(3)), (0x6B, "plane", "alu", _alu(2)),
    (0x6C, "goto", "branch", _E + (("label", "u16"),)),
    (0x74, "gather4_scaled", "scaled4", _E + (("channels", "u8"), ("scale", "u16"), ("surface", "u8"),
                                               ("global_offset", "vec"), ("offsets", "raw"),
                                               ("data", "raw"))),
    (0x75, "scatter4_scaled", "scaled4", _E + (("channels", "u8"), ("scale", "u16"), ("surface", "u8"),
                                                ("global_offset", "vec"), ("offsets", "raw"),
                                                ("data", "raw"))),
    (0x78, "gather_scaled", "scaled", _E + (("block_size", "u8"), ("num_blocks", "u8"), ("scale", "u16"),
                                             ("surface", "u8"), ("global_offset", "vec"),
                                             ("offsets", "raw"), ("data", "raw"))),
    (0x79, "scatter_scaled", "scaled", _E + (("block_size", "u8"), ("num_blocks", "u8"),
                                              ("scale", "u16"), ("surface", "u8"),
                                              ("global_offset", "vec"), ("offsets", "raw"),
                                              ("data", "raw"))),
    (0x7A, "raw_sends", "raw_sends", (("modifier", "u8"),) + _E + (
        ("num_src0", "u8"), ("num_src1", "u8"), ("num_dst", "u8"), ("ffid", "u8"),
        ("ex_desc", "vec"), ("desc", "vec"), ("src0", "raw"), ("src1", "raw"), ("dst", "raw"))),
    (0x7B, "lifetime", "lifetime", (("properties", "u8"), ("var", "u32"))),
    (0x7C, "sbarrier", "sbarrier", (("mode", "u8"),)),
    (0x7D, "dword_atomic", "dword_atomic", (("op", "u8"),) + _E + (
        ("surface", "u8"), ("offsets", "raw"), ("src0", "raw"), ("src1", "raw"), ("dst", "raw"))),
    (0x7E, "sqrtm", "alu", _alu(1)), (0x7F, "divm", "alu", _alu(2)),
    (0x80, "rol", "alu", _alu(2)), (0x81, "ror", "alu", _alu(2)), (0x82, "dp4a", "alu", _alu(3)),
    (0x84, "add3", "alu", _alu(3)), (0x85, "bfn", "bfn", _alu(3, extra="func_ctrl")),
    (0x89, "lsc_untyped", "lsc", ()),
    (0x8B, "lsc_fence", "lsc_fence", _E + (("sfid", "u8"), ("fence_op", "u8"), ("scope", "u8"))),
    (0x91, "madw", "alu", _alu(3)),      # dst holds the low results, then (GRF-aligned) the high ones
)

OPCODES: dict[int, OpInfo] = {code: OpInfo(code, name, fam, lay) for code, name, fam, lay in _TABLE}
OPCODE_BY_NAME: dict[str, int] = {info.name: code for code, info in OPCODES.items()}
SVM, LSC_UNTYPED = 0x4E, 0x89

# svm sub-opcodes (IGC SVMSubOpcode): sub -> (text name, layout after the sub-opcode byte)
SVM_SUBOPS: dict[int, tuple[str, Layout]] = {
    1: ("block_ld", (("size", "u8"), ("address", "vec"), ("data", "raw"))),
    2: ("block_st", (("size", "u8"), ("address", "vec"), ("data", "raw"))),
    3: ("gather", _E + (("block_size", "u8"), ("num_blocks", "u8"), ("addresses", "raw"),
                        ("data", "raw"))),
    4: ("scatter", _E + (("block_size", "u8"), ("num_blocks", "u8"), ("addresses", "raw"),
                         ("data", "raw"))),
    5: ("atomic", _E + (("op", "u8"), ("addresses", "raw"), ("src0", "raw"), ("src1", "raw"),
                        ("dst", "raw"))),
    6: ("gather4scaled", _E + (("channels", "u8"), ("scale", "u16"), ("address", "vec"),
                               ("offsets", "raw"), ("data", "raw"))),
    7: ("scatter4scaled", _E + (("channels", "u8"), ("scale", "u16"), ("address", "vec"),
                                ("offsets", "raw"), ("data", "raw"))),
}
SVM_SUB_BY_NAME: dict[str, int] = {name: sub for sub, (name, _l) in SVM_SUBOPS.items()}

_LSC_HEAD: Layout = _E + (("sfid", "u8"), ("l1", "u8"), ("l3", "u8"), ("addr_type", "u8"),
                          ("scale", "u16"), ("imm_offset", "i32"), ("addr_size", "u8"),
                          ("data_size", "u8"), ("data_order", "u8"), ("data_elems", "u8"),
                          ("chmask", "u8"), ("surface", "vec"), ("dst", "raw"), ("src0", "raw"))
# lsc_untyped layouts: regular ops carry src1 and src2; strided ops a pitch and src1
LSC_LAYOUT_REGULAR: Layout = _LSC_HEAD + (("src1", "raw"), ("src2", "raw"))
LSC_LAYOUT_STRIDED: Layout = _LSC_HEAD + (("pitch", "vec"), ("src1", "raw"))


def sub_layout(opcode: int, sub: int) -> Layout | None:
    """Layout after the sub-opcode byte, or None when the sub-opcode is unknown."""
    if opcode == SVM:
        entry = SVM_SUBOPS.get(sub)
        return entry[1] if entry else None
    if opcode == LSC_UNTYPED:
        from kernelkit.formats.visa.tables import LSC_OPS
        if sub not in LSC_OPS:
            return None
        return LSC_LAYOUT_STRIDED if "strided" in LSC_OPS[sub][1] else LSC_LAYOUT_REGULAR
    return None
