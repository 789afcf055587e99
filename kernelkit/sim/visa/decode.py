"""vISA routine (kernelkit.formats.visa) -> instruction records the executor runs: operands resolved
to storage (the root variable behind every alias), byte offsets, numpy types and region element
offsets; labels resolved to instruction indices; execution size, channel offset and NoMask split out."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from kernelkit.errors import FormatError
from kernelkit.formats.visa.instructions import Instruction
from kernelkit.formats.visa.model import Routine
from kernelkit.formats.visa.operands import (
    ADDRESS,
    GENERAL,
    IMMEDIATE,
    INDIRECT,
    PREDICATE,
    STATE,
    RawOperand,
    VectorOperand,
)
from kernelkit.formats.visa.tables import (
    EXEC_SIZES,
    GRF_BYTES,
    NUM_PREDEFINED_VARIABLES,
    PREDEFINED_VARIABLES,
    REGION_VALUES,
    TYPES,
)
from kernelkit.formats.visa.text_print import print_visaasm

# vISA type name -> numpy dtype (spec 004 type table, reference/visa README codes)
DTYPES: dict[str, np.dtype] = {
    "ud": np.dtype("<u4"), "d": np.dtype("<i4"), "uw": np.dtype("<u2"), "w": np.dtype("<i2"),
    "ub": np.dtype("u1"), "b": np.dtype("i1"), "df": np.dtype("<f8"), "f": np.dtype("<f4"),
    "uq": np.dtype("<u8"), "q": np.dtype("<i8"), "hf": np.dtype("<f2"), "bool": np.dtype("u1"),
    "v": np.dtype("<i2"), "uv": np.dtype("<u2"), "vf": np.dtype("<f4"),
}
NULL_VARIABLE = 0
CHANNELS_PER_MASK = 4            # M1..M8 select channels from (n-1)*4 on
DONE = np.iinfo(np.int32).max    # lane program counter of a finished lane


@dataclass
class Operand:
    """A resolved operand. ``kind``: reg (general variable region), imm, pred (predicate variable),
    state (surface/sampler variable), null (%null destination), indirect (address-register based)."""
    kind: str
    vtype: str = "ud"
    root: int = -1
    byte: int = 0
    region: tuple[int, int, int] = (0, 1, 0)     # vstride, width, hstride (dst: (0, 0, hstride))
    mod: int = 0
    value: object = None
    index: int = 0
    addr: tuple[int, int, int] = (0, 0, 0)       # indirect: address variable, sub-register, imm offset
    # execution size -> element selection, resolved once (kernelkit.sim.visa.state.Machine)
    plans: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def dtype(self) -> np.dtype:
        return DTYPES[self.vtype]

    @property
    def scalar(self) -> bool:
        return self.kind == "imm" or (self.kind == "reg" and self.region[0] == 0 and self.region[2] == 0)

    def element_bytes(self, n: int) -> np.ndarray:
        """Byte offsets (from ``byte``) of the ``n`` elements the region selects."""
        v, w, h = self.region
        i = np.arange(n)
        steps = i * h if w == 0 else (i // w) * v + (i % w) * h
        return self.byte + steps * self.dtype.itemsize


@dataclass
class Raw:
    """A raw operand: a root variable and a byte offset (messages read/write it contiguously)."""
    root: int
    byte: int
    vtype: str
    null: bool = False


@dataclass
class Inst:
    index: int
    name: str                   # mnemonic as the text format spells it (svm_gather, cmp, ...)
    exec_size: int
    lane0: int
    nomask: bool
    pred: tuple[int, bool, int] | None       # predicate index, inverse, control (0, 1 any, 2 all)
    dst: Operand | None = None
    srcs: list[Operand] = field(default_factory=list)
    raws: dict[str, Raw] = field(default_factory=dict)
    fields: dict = field(default_factory=dict)
    target: int | None = None
    text: str = ""
    cache: dict = field(default_factory=dict, compare=False, repr=False)    # the executor's per-instruction plans

    @property
    def sat(self) -> bool:
        return self.dst is not None and self.dst.mod == 4


@dataclass
class Root:
    name: str
    nbytes: int


@dataclass
class Program:
    name: str
    routine: Routine
    insts: list[Inst]
    roots: list[Root]
    var_roots: dict[int, tuple[int, int]]        # variable id -> (root, byte offset)
    num_predicates: int
    num_surfaces: int
    num_addresses: int
    predefined_roots: dict[str, int]
    cache: dict = field(default_factory=dict, compare=False, repr=False)    # per-launch analyses (launch.py)

    @cached_property
    def input_roots(self) -> list[tuple[int, int, int, int]]:
        """(root, byte, offset, size) of every general input variable."""
        out = []
        for inp in self.routine.inputs:
            if inp.category == 0:
                root, byte = self.var_roots[inp.id]
                out.append((root, byte, inp.offset, inp.size))
        return out


def _vtype(routine: Routine, index: int) -> str:
    if index < NUM_PREDEFINED_VARIABLES:
        return PREDEFINED_VARIABLES[index][1] if index < len(PREDEFINED_VARIABLES) else "ud"
    return TYPES[routine.variables[index - NUM_PREDEFINED_VARIABLES].type][0]


def _roots(routine: Routine) -> tuple[list[Root], dict[int, tuple[int, int]], dict[str, int]]:
    roots: list[Root] = []
    var_roots: dict[int, tuple[int, int]] = {}
    predefined: dict[str, int] = {}
    for i, (name, ty, count) in enumerate(PREDEFINED_VARIABLES):
        if i == NULL_VARIABLE:
            continue
        size = TYPES[next(c for c, (n, _s) in TYPES.items() if n == ty)][1] * count
        var_roots[i] = (len(roots), 0)
        predefined[name] = len(roots)
        roots.append(Root(name, -(-size // 8) * 8))

    def resolve(vid: int, depth: int = 0) -> tuple[int, int]:
        if vid in var_roots:
            return var_roots[vid]
        if depth > 64 or vid < NUM_PREDEFINED_VARIABLES:
            raise FormatError(f"variable V{vid} cannot be resolved to storage", field="alias_index")
        var = routine.variables[vid - NUM_PREDEFINED_VARIABLES]
        if var.alias_index:
            root, byte = resolve(var.alias_index, depth + 1)
            var_roots[vid] = (root, byte + var.alias_offset)
        else:
            size = TYPES[var.type][1] * var.num_elements
            var_roots[vid] = (len(roots), 0)
            roots.append(Root(var.name, -(-max(size, 1) // GRF_BYTES) * GRF_BYTES))
        return var_roots[vid]

    for n in range(len(routine.variables)):
        resolve(NUM_PREDEFINED_VARIABLES + n)
    return roots, var_roots, predefined


def _region(code: int, dst: bool) -> tuple[int, int, int]:
    v, w, h = code & 0xF, (code >> 4) & 0xF, (code >> 8) & 0xF
    val = REGION_VALUES.get
    if dst or w == 0:
        return (0, 0, val(h, 1) or 1) if dst else (0, 1, 0)
    return (val(v, 0), val(w, 1) or 1, val(h, 0))


class Decoder:
    def __init__(self, routine: Routine):
        self.r = routine
        self.roots, self.var_roots, self.predefined = _roots(routine)

    def vector(self, op: VectorOperand, dst: bool) -> Operand:
        if op.cls == GENERAL:
            if op.index == NULL_VARIABLE:
                return Operand("null", "ud", mod=op.modifier)
            vtype = _vtype(self.r, op.index)
            root, byte = self.var_roots[op.index]
            size = TYPES[next(c for c, (n, _s) in TYPES.items() if n == vtype)][1]
            return Operand("reg", vtype, root, byte + op.row * GRF_BYTES + op.col * size,
                           _region(op.region, dst), op.modifier)
        if op.cls == IMMEDIATE:
            vtype = TYPES[op.type][0]
            return Operand("imm", vtype, mod=op.modifier, value=_immediate(vtype, op.value))
        if op.cls == PREDICATE:
            return Operand("pred", "bool", index=op.index & 0xFFF, mod=op.modifier)
        if op.cls == STATE:
            return Operand("state", "ud", index=op.index, value=op.state_class, byte=op.offset)
        if op.cls == INDIRECT:
            return Operand("indirect", TYPES[op.type & 0xF][0], region=_region(op.region, dst),
                           mod=op.modifier, addr=(op.index, op.offset, op.imm_offset))
        if op.cls == ADDRESS:
            return Operand("address", "uw", index=op.index, byte=op.offset,
                           value=EXEC_SIZES.get(op.width & 0xF, 1), mod=op.modifier)
        raise FormatError(f"operand class {op.cls} cannot be executed", field="operand")

    def raw(self, op: RawOperand) -> Raw:
        if op.index == NULL_VARIABLE:
            return Raw(-1, 0, "ud", null=True)
        root, byte = self.var_roots[op.index]
        return Raw(root, byte + op.offset, _vtype(self.r, op.index))


def _immediate(vtype: str, bits: int):
    if vtype in ("v", "uv"):
        nibbles = [(bits >> (4 * i)) & 0xF for i in range(8)]
        if vtype == "v":
            nibbles = [n - 16 if n & 8 else n for n in nibbles]
        return np.array(nibbles, DTYPES[vtype])
    if vtype == "vf":
        raise FormatError("packed float immediates (vf) are not executed", field="immediate")
    size = DTYPES[vtype].itemsize
    raw = (bits & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    return np.frombuffer(raw, DTYPES[vtype])[0]


def _mnemonic(text: str) -> str:
    head = text.split()[0] if text else ""
    if head.startswith("("):                       # predicated: "(!P1) goto ..."
        head = text.split()[1]
    return head


def decode(routine: Routine) -> Program:
    """The instruction records of ``routine`` (a kernel with its instruction stream)."""
    if routine.instructions is None:
        raise FormatError(f"kernel {routine.name}: its instruction stream could not be decoded", field="code")
    dec = Decoder(routine)
    lines = _instruction_lines(routine)
    label_at: dict[int, int] = {}
    for n, inst in enumerate(routine.instructions):
        if inst.name in ("label", "func"):
            label_at[inst.fields["label"]] = n
    insts: list[Inst] = []
    for n, inst in enumerate(routine.instructions):
        text = lines[n] if n < len(lines) else inst.name
        insts.append(_record(dec, n, inst, text, label_at))
    return Program(routine.name, routine, insts, dec.roots, dec.var_roots,
                   len(routine.predicates) + 1, 6 + len(routine.surfaces), len(routine.addresses),
                   dec.predefined)


def _instruction_lines(routine: Routine) -> list[str]:
    """The text of each instruction, for error messages (printed by kernelkit's visaasm writer)."""
    from kernelkit.formats.visa.model import VisaObject

    try:
        text = print_visaasm(VisaObject(kernels=[routine]))
    except (FormatError, KeyError, IndexError):
        return []
    out = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith((".", "//")):
            continue
        s = s.split("///")[0].strip()
        out.append(s)
    return out


def _record(dec: Decoder, n: int, inst: Instruction, text: str, label_at: dict[int, int]) -> Inst:
    f = inst.fields
    code = f.get("exec", 0)
    size, mask = EXEC_SIZES.get(code & 0xF, 1), code >> 4
    name = inst.name
    if name == "svm" and inst.sub is not None:
        from kernelkit.formats.visa.opcodes import SVM_SUBOPS
        name = f"svm_{SVM_SUBOPS[inst.sub][0]}"
    elif name == "lsc_untyped" and inst.sub is not None:
        from kernelkit.formats.visa.tables import LSC_OPS
        name = LSC_OPS[inst.sub][0]
    pred = f.get("pred")
    rec = Inst(n, name, size, (mask & 7) * CHANNELS_PER_MASK, bool(mask & 8),
               (pred.id, pred.inverse, pred.control) if pred is not None else None, text=text)
    other = {}
    for key, value in f.items():
        if isinstance(value, VectorOperand):
            op = dec.vector(value, key in ("dst", "dst2"))
            if key == "dst":
                rec.dst = op
            elif key.startswith("src"):
                rec.srcs.append(op)
            else:
                other[key] = op
        elif isinstance(value, RawOperand):
            rec.raws[key] = dec.raw(value)
        elif key not in ("exec", "pred"):
            other[key] = value
    rec.fields = other
    if "label" in f and name not in ("label", "func"):
        target = label_at.get(f["label"])
        if target is None:
            raise FormatError(f"instruction #{n} ({text}): label {f['label']} is never defined", field="label")
        rec.target = target
    return rec
