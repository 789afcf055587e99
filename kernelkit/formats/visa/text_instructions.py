"""Text syntax of each vISA instruction family: parse one instruction line into an Instruction
(the inverse of ``text_print.Printer``), following the finalizer's grammar (IGC visa/CISA.y)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kernelkit.formats.visa.opcodes import OPCODE_BY_NAME, OPCODES, SVM, SVM_SUB_BY_NAME
from kernelkit.formats.visa.operands import (
    GENERAL,
    IMMEDIATE,
    PREDICATE,
    Predicate,
    RawOperand,
    VectorOperand,
)
from kernelkit.formats.visa.tables import (
    ATOMIC_BY_NAME,
    ATOMIC_WIDTHS,
    CHANNEL_MASKS,
    CMP_OPS,
    FENCE_FLAGS,
    LSC_ADDR_SIZES,
    LSC_ADDR_TYPES,
    LSC_CACHING,
    LSC_DATA_ELEMS,
    LSC_DATA_SIZES,
    LSC_FENCE_OPS,
    LSC_OP_BY_NAME,
    LSC_OPS,
    LSC_QUAD_CHANNELS,
    LSC_SCOPES,
    LSC_SFIDS,
    OWORD_NUMS,
    SVM_BLOCK_NUMS,
    SVM_BLOCK_TYPES,
)

if TYPE_CHECKING:
    from kernelkit.formats.visa.text_parse import RoutineBuilder

_REV = {
    "oword": {v: k for k, v in OWORD_NUMS.items()},
    "block_num": {v: k for k, v in SVM_BLOCK_NUMS.items()},
    "block_type": {v: k for k, v in SVM_BLOCK_TYPES.items()},
    "elems": {v: k for k, v in LSC_DATA_ELEMS.items()},
    "dsize": {v: k for k, v in LSC_DATA_SIZES.items()},
    "asize": {v: k for k, v in LSC_ADDR_SIZES.items()},
    "atype": {v: k for k, v in LSC_ADDR_TYPES.items()},
}
_ALU_FAMILIES = ("alu",)


def _channels(b: RoutineBuilder, text: str) -> int:
    norm = "".join(c for c in "RGBA" if c in text.upper())
    if norm not in CHANNEL_MASKS or not norm:
        raise b.err(f"bad channel mask {text!r}")
    return CHANNEL_MASKS.index(norm)


def _atomic(b: RoutineBuilder, parts: list[str]) -> int:
    if not parts or parts[0] not in ATOMIC_BY_NAME:
        raise b.err(f"unknown atomic operation {'.'.join(parts)!r}")
    op = ATOMIC_BY_NAME[parts[0]]
    if len(parts) > 1:
        op |= ATOMIC_WIDTHS[parts[1]]
    return op


def _oword_count(b: RoutineBuilder, text: str) -> tuple[int, str]:
    m = re.match(r"\(\s*(\d+)\s*\)\s*", text)
    if not m or int(m.group(1)) not in _REV["oword"]:
        raise b.err(f"expected an oword count (1,2,4,8,16) at {text!r}")
    return _REV["oword"][int(m.group(1))], text[m.end():]


def parse_instruction(b: RoutineBuilder, mnemonic: str, rest: str, pred: Predicate | None) -> None:
    parts = mnemonic.split(".")
    base, mods = parts[0], parts[1:]
    sat = "sat" in mods
    if base in ("min", "max"):
        exec_byte, rest = b.exec(rest)
        dst, src0, src1 = _vecs(b, rest, 3)
        if sat:
            dst.modifier = 4
        b.emit(OPCODE_BY_NAME["fminmax"], exec=exec_byte, spec=1 if base == "max" else 0, dst=dst,
               src0=src0, src1=src1)
        return
    if base in ("cmp", "cmpn"):
        if not mods or mods[0] not in CMP_OPS:
            raise b.err(f"cmp needs a relation ({', '.join(CMP_OPS)})")
        exec_byte, rest = b.exec(rest)
        dst, src0, src1 = _vecs(b, rest, 3)
        if sat:
            dst.modifier = 4
        spec = CMP_OPS.index(mods[0]) | (0x80 if base == "cmpn" else 0)
        b.emit(OPCODE_BY_NAME["cmp"], exec=exec_byte, spec=spec, dst=dst, src0=src0, src1=src1)
        return
    if base == "bfn":
        exec_byte, rest = b.exec(rest)
        dst, *srcs = _vecs(b, rest, 4)
        if sat:
            dst.modifier = 4
        b.emit(OPCODE_BY_NAME["bfn"], exec=exec_byte, pred=pred, dst=dst, src0=srcs[0], src1=srcs[1],
               src2=srcs[2], func_ctrl=int(mods[0][1:], 16))
        return
    code = OPCODE_BY_NAME.get(base)
    family = OPCODES[code].family if code is not None else None
    if family == "alu":
        layout = OPCODES[code].layout
        exec_byte, rest = b.exec(rest)
        names = [n for n, k in layout if k == "vec"]
        ops = _vecs(b, rest, len(names))
        fields = dict(zip(names, ops, strict=True))
        if base == "mov" and ops[1].cls == PREDICATE:
            exec_byte = 0x80          # the finalizer moves a predicate with (M1_NM, 1) whatever the text says
        if sat:
            fields["dst"].modifier = 4
        fields["exec"] = exec_byte
        if ("pred", "pred") in layout:
            fields["pred"] = pred
        b.emit(code, **fields)
        return
    handler = _HANDLERS.get(base)
    if handler is None:
        if base.startswith("lsc_") and base != "lsc_fence":
            _lsc(b, base, mods, rest, pred)
            return
        raise b.err(f"unknown instruction {mnemonic!r}")
    handler(b, base, mods, rest, pred)


def _tokens(rest: str) -> list[str]:
    return rest.split()


def _vecs(b: RoutineBuilder, rest: str, count: int) -> list[VectorOperand]:
    toks = _tokens(rest)
    if len(toks) != count:
        raise b.err(f"expected {count} operands, found {len(toks)}: {rest!r}")
    return [b.vec(t, dst=(i == 0)) for i, t in enumerate(toks)]


def _branch(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    fields = {"exec": exec_byte, "pred": pred}
    if base in ("jmp", "goto", "call"):
        name = rest.strip().strip('"')
        fields["label"] = b.label(name, 1 if base == "call" else 0)
    b.emit(OPCODE_BY_NAME[base], **fields)


def _fcall(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    name, arg, ret = _tokens(rest)
    b.emit(OPCODE_BY_NAME["fcall"], exec=exec_byte, pred=pred, function=b.string(name), arg_size=int(arg),
           ret_size=int(ret))


def _ifcall(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    target, arg, ret = _tokens(rest)
    b.emit(OPCODE_BY_NAME["ifcall"], exec=exec_byte, pred=pred, target=b.vec(target), arg_size=int(arg),
           ret_size=int(ret))


def _faddr(b, base, mods, rest, pred):
    sym, dst = _tokens(rest)
    b.emit(OPCODE_BY_NAME["faddr"], symbol=b.string(sym.strip('"')), dst=b.vec(dst, dst=True))


def _debug(b, base, mods, rest, pred):
    """``FILE "name"`` / ``LOC line``: the source file (a string-pool index) and line of what follows."""
    if base == "FILE":
        b.emit(OPCODE_BY_NAME["FILE"], file=b.string(rest.strip().strip('"')))
    else:
        b.emit(OPCODE_BY_NAME["LOC"], line=int(rest.strip(), 0))


def _switchjmp(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    m = re.match(r"(\S+)\s*\((.*)\)\s*$", rest)
    if not m:
        raise b.err("switchjmp needs an index and a (label, ...) list")
    labels = [b.label(n.strip(), 0) for n in m.group(2).split(",") if n.strip()]
    b.emit(OPCODE_BY_NAME["switchjmp"], exec=exec_byte, index=b.vec(m.group(1)), labels=labels)


def _sync(b, base, mods, rest, pred):
    if base == "sbarrier":
        b.emit(OPCODE_BY_NAME["sbarrier"], mode=1 if mods == ["signal"] else 0)
    elif base == "wait":
        b.emit(OPCODE_BY_NAME["wait"], mask=b.vec(rest.strip()))
    else:
        b.emit(OPCODE_BY_NAME[base])


def _fence(b, base, mods, rest, pred):
    mask = {"fence_global": 0, "fence_local": 0x20, "fence_sw": 0x80}[base]
    flags = mods[0] if mods else ""
    for bit, name in reversed(FENCE_FLAGS):
        if name in flags:
            mask |= bit
            flags = flags.replace(name, "", 1)
    if flags:
        raise b.err(f"unknown fence option(s) {flags!r}")
    b.emit(OPCODE_BY_NAME["fence"], mask=mask)


def _lifetime(b, base, mods, rest, pred):
    kind, index = b.lookup(rest.strip(), "GAP")
    cls = {"G": GENERAL, "A": 1, "P": PREDICATE}[kind]
    props = (0 if mods == ["start"] else 1) | (cls << 4)
    b.emit(OPCODE_BY_NAME["lifetime"], properties=props, var=index)


def _raw_send(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    ex_desc, nsrc, ndst, desc, src, dst = _tokens(rest)
    b.emit(OPCODE_BY_NAME["raw_send"], modifier=1 if base == "raw_sendc" else 0, exec=exec_byte, pred=pred,
           ex_desc=int(ex_desc, 0), num_src=int(nsrc), num_dst=int(ndst), desc=b.vec(desc), src=b.raw(src),
           dst=b.raw(dst))


def _raw_sends(b, base, mods, rest, pred):
    conditional = base.startswith("raw_sendsc")
    eot = base.endswith("_eot")
    nums = [int(x) for x in mods]
    if len(nums) != (3 if conditional else 4):
        raise b.err(f"{base} needs {'3' if conditional else '4'} .N counts")
    ffid = 0 if conditional else nums.pop(0)
    exec_byte, rest = b.exec(rest)
    ex_desc, desc, src0, src1, dst = _tokens(rest)
    b.emit(OPCODE_BY_NAME["raw_sends"], modifier=(1 if conditional else 0) | (2 if eot else 0), exec=exec_byte,
           pred=pred, num_src0=nums[0], num_src1=nums[1], num_dst=nums[2], ffid=ffid, ex_desc=b.vec(ex_desc),
           desc=b.vec(desc), src0=b.raw(src0), src1=b.raw(src1), dst=b.raw(dst))


def _oword(b, base, mods, rest, pred):
    size, rest = _oword_count(b, rest)
    surf, offset, data = _tokens(rest)
    fields = {"size": size, "surface": b.surface(surf), "offset": b.vec(offset), "data": b.raw(data)}
    if base != "oword_st":
        fields["modifier"] = 1 if "mod" in mods else 0
    b.emit(OPCODE_BY_NAME[base], **fields)


def _scaled(b, base, mods, rest, pred):
    exec_byte, rest = b.exec(rest)
    surf, goff, offsets, data = _tokens(rest)
    fields = {"exec": exec_byte, "pred": pred, "scale": 0, "surface": b.surface(surf), "global_offset": b.vec(goff),
              "offsets": b.raw(offsets), "data": b.raw(data)}
    if base.endswith("4_scaled"):
        fields["channels"] = _channels(b, mods[0] if mods else "")
    else:
        fields["block_size"] = 0
        fields["num_blocks"] = _REV["block_num"][int(mods[0])]
    b.emit(OPCODE_BY_NAME[base], **fields)


def _dword_atomic(b, base, mods, rest, pred):
    op = _atomic(b, mods)
    exec_byte, rest = b.exec(rest)
    surf, offsets, src0, src1, dst = _tokens(rest)
    b.emit(OPCODE_BY_NAME["dword_atomic"], op=op, exec=exec_byte, pred=pred, surface=b.surface(surf),
           offsets=b.raw(offsets), src0=b.raw(src0), src1=b.raw(src1), dst=b.raw(dst))


def _svm(b, base, mods, rest, pred):
    name = base[len("svm_"):]
    sub = SVM_SUB_BY_NAME.get(name)
    if sub is None:
        raise b.err(f"unknown svm operation {base!r}")
    if name in ("block_ld", "block_st"):
        size, rest = _oword_count(b, rest)
        address, data = _tokens(rest)
        b.emit(SVM, sub, size=size, address=b.vec(address), data=b.raw(data))
        return
    exec_byte, rest = b.exec(rest)
    toks = _tokens(rest)
    if name in ("gather", "scatter"):
        b.emit(SVM, sub, exec=exec_byte, pred=pred, block_size=_REV["block_type"][int(mods[0])],
               num_blocks=_REV["block_num"][int(mods[1])], addresses=b.raw(toks[0]), data=b.raw(toks[1]))
    elif name == "atomic":
        addresses, dst, src0, src1 = (b.raw(t) for t in toks)
        b.emit(SVM, sub, exec=exec_byte, pred=pred, op=_atomic(b, mods), addresses=addresses, src0=src0,
               src1=src1, dst=dst)
    else:
        b.emit(SVM, sub, exec=exec_byte, pred=pred, channels=_channels(b, mods[0] if mods else ""), scale=0,
               address=b.vec(toks[0]), offsets=b.raw(toks[1]), data=b.raw(toks[2]))


def _payload(b: RoutineBuilder, text: str) -> RawOperand:
    return b.raw(text)


_DATA_RE = re.compile(r"([%\w]+(?:\.\d+)?):(d\d+(?:c32h?)?)(?:x(\d+))?(t)?(?:\.([xyzw]+))?$")
_ADDR_RE = re.compile(r"(flat|bss|ss|bti|arg)?(?:\(([^)]*)\))?\[(?:(0x[0-9a-fA-F]+|\d+)\*)?([%\w]+(?:\.\d+)?)"
                      r"(?:([+-])(0x[0-9a-fA-F]+|\d+))?(?:,\s*([^\]]+))?\]:(a\d+)$")


def _lsc(b, base, mods, rest, pred):
    sub = LSC_OP_BY_NAME.get(base)
    if sub is None or not mods or mods[0] not in LSC_SFIDS:
        raise b.err(f"unknown LSC operation {base}.{'.'.join(mods)}")
    kind = LSC_OPS[sub][1]
    caching = [LSC_CACHING.index(c) for c in mods[1:]] + [0, 0]
    exec_byte, rest = b.exec(rest)
    toks = re.sub(r",\s+", ",", rest).split()
    if kind.startswith("store"):
        addr_t, data_t, extra = toks[0], toks[1], toks[2:]
    else:
        data_t, addr_t, extra = toks[0], toks[1], toks[2:]
    dm = _DATA_RE.match(data_t)
    am = _ADDR_RE.match(addr_t)
    if not dm or not am:
        raise b.err(f"cannot parse LSC operands {rest!r}")
    atype, surf_text, scale, src0, sign, off, pitch, asize = am.groups()
    atype = atype or "flat"
    if surf_text is None:
        surface = VectorOperand(IMMEDIATE, type=0, value=0)
    else:
        imm = b.imm(surf_text)
        if imm is not None:
            imm.type = 0
            surface = imm
        else:
            sm = re.fullmatch(r"([%\w]+)(?:\.(\d+)|\((\d+),(\d+)\))?", surf_text)
            if not sm:
                raise b.err(f"bad LSC surface {surf_text!r}")
            surface = VectorOperand(GENERAL, b.lookup(sm.group(1), "G")[1], 0, int(sm.group(3) or 0),
                                    int(sm.group(2) or sm.group(4) or 0), region=0x121)
    data = _payload(b, dm.group(1))
    null = RawOperand(0, 0)
    fields = {"exec": exec_byte, "pred": pred, "sfid": LSC_SFIDS.index(mods[0]), "l1": caching[0], "l3": caching[1],
              "addr_type": _REV["atype"][atype], "scale": int(scale, 0) if scale else 1,
              "imm_offset": (-1 if sign == "-" else 1) * int(off, 0) if off else 0,
              "addr_size": _REV["asize"][asize], "data_size": _REV["dsize"][dm.group(2)],
              "data_order": 2 if dm.group(4) else 1, "data_elems": _REV["elems"][int(dm.group(3) or 1)],
              "chmask": sum(bit for bit, c in LSC_QUAD_CHANNELS if c in (dm.group(5) or "")),
              "surface": surface, "src0": _payload(b, src0)}
    if "quad" in kind:
        fields["data_elems"] = 0
    if kind.startswith("store"):
        fields.update(dst=null, src1=data)
    else:
        fields.update(dst=data, src1=_payload(b, extra[0]) if kind == "atomic" else null)
    if "strided" in kind:
        if pitch:
            imm = b.imm(pitch.strip())
            fields["pitch"] = imm if imm is not None else b.vec(pitch.strip())
        else:
            fields["pitch"] = VectorOperand(GENERAL, 0, region=0x121)
    else:
        fields["src2"] = _payload(b, extra[1]) if kind == "atomic" else null
    b.emit(0x89, sub, **fields)


def _lsc_fence(b, base, mods, rest, pred):
    if len(mods) != 3:
        raise b.err("lsc_fence needs .sfid.op.scope")
    b.emit(OPCODE_BY_NAME["lsc_fence"], exec=0, pred=None, sfid=LSC_SFIDS.index(mods[0]),
           fence_op=LSC_FENCE_OPS.index(mods[1]), scope=LSC_SCOPES.index(mods[2]))


_HANDLERS = {
    "jmp": _branch, "goto": _branch, "call": _branch, "ret": _branch, "fret": _branch,
    "fcall": _fcall, "ifcall": _ifcall, "faddr": _faddr, "switchjmp": _switchjmp, "FILE": _debug, "LOC": _debug,
    "barrier": _sync, "sampler_cache_flush": _sync, "yield": _sync, "wait": _sync, "sbarrier": _sync,
    "fence_global": _fence, "fence_local": _fence, "fence_sw": _fence, "lifetime": _lifetime,
    "raw_send": _raw_send, "raw_sendc": _raw_send, "raw_sends": _raw_sends, "raw_sends_eot": _raw_sends,
    "raw_sendsc": _raw_sends, "raw_sendsc_eot": _raw_sends,
    "oword_ld": _oword, "oword_st": _oword, "oword_ld_unaligned": _oword,
    "gather4_scaled": _scaled, "scatter4_scaled": _scaled, "gather_scaled": _scaled, "scatter_scaled": _scaled,
    "dword_atomic": _dword_atomic, "lsc_fence": _lsc_fence,
    **{f"svm_{n}": _svm for n in SVM_SUB_BY_NAME},
}
