"""Print a vISA object as ``.visaasm`` text in the syntax IGC's finalizer parses (the form IGC's own
dumps use, one kernel or function per text)."""

from __future__ import annotations

from kernelkit.errors import FormatError
from kernelkit.formats.visa.instructions import Instruction
from kernelkit.formats.visa.model import Attribute, Routine, VisaObject, element_size
from kernelkit.formats.visa.opcodes import OPCODES, SVM_SUBOPS
from kernelkit.formats.visa.operands import (
    ADDRESS,
    GENERAL,
    IMMEDIATE,
    INDIRECT,
    PREDICATE,
    STATE,
    Predicate,
    RawOperand,
    VectorOperand,
)
from kernelkit.formats.visa.tables import (
    ALIGNMENTS,
    ATOMIC_OPS,
    ATOMIC_WIDTHS,
    ATTRIBUTE_KINDS,
    CHANNEL_MASKS,
    CMP_OPS,
    EMASKS,
    EXEC_SIZES,
    FENCE_FLAGS,
    GRF_BYTES,
    IMPLICIT_DIRECTIVES,
    LSC_ADDR_SIZES,
    LSC_ADDR_TYPES,
    LSC_CACHING,
    LSC_DATA_ELEMS,
    LSC_DATA_SIZES,
    LSC_FENCE_OPS,
    LSC_OPS,
    LSC_QUAD_CHANNELS,
    LSC_SCOPES,
    LSC_SFIDS,
    MODIFIERS,
    NUM_PREDEFINED_PREDICATES,
    NUM_PREDEFINED_SURFACES,
    OWORD_NUMS,
    PRED_CONTROLS,
    PREDEFINED_SURFACES,
    REGION_VALUES,
    SVM_BLOCK_NUMS,
    SVM_BLOCK_TYPES,
    TARGET_NAMES,
    TYPES,
)


def _quote(text: str) -> str:
    out = []
    for ch in text:
        if ch in "\"\\":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\x{ord(ch):02x}")
    return '"' + "".join(out) + '"'


def _is_ident(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and all(
        c.isalnum() or c == "_" for c in text)


class Printer:
    """Names symbols of one routine the way the text format refers to them."""

    def __init__(self, routine: Routine):
        self.r = routine

    # ---- symbols
    def var(self, index: int) -> str:
        return self.r.variable_name(index)

    @staticmethod
    def surface(index: int) -> str:
        """Surfaces print as T<index> (T0-T5 by their predefined names), as IGC prints them."""
        return PREDEFINED_SURFACES[index] if index < NUM_PREDEFINED_SURFACES else f"T{index}"

    @staticmethod
    def sampler(index: int) -> str:
        return f"S{index}"

    def pred_name(self, index: int) -> str:
        return self.r.predicates[index - NUM_PREDEFINED_PREDICATES].name

    def label(self, index: int) -> str:
        return self.r.labels[index].name

    # ---- operands
    @staticmethod
    def region(code: int) -> str:
        v, w, h = code & 0xF, (code >> 4) & 0xF, (code >> 8) & 0xF
        val = REGION_VALUES.get
        if w == 0:
            return f"<{val(h, 0)}>"
        if v == 0:
            return f"<{val(w, 0)},{val(h, 0)}>"
        return f"<{val(v, 0)};{val(w, 0)},{val(h, 0)}>"

    def vec(self, op: VectorOperand) -> str:
        mod = MODIFIERS.get(op.modifier, "") if op.modifier != 4 else ""
        if op.cls == GENERAL:
            return f"{mod}{self.var(op.index)}({op.row},{op.col}){self.region(op.region)}"
        if op.cls == ADDRESS:
            return f"{mod}{self.r.addresses[op.index].name}({op.offset})<{EXEC_SIZES.get(op.width & 0xF, 1)}>"
        if op.cls == PREDICATE:
            return self.pred_name(op.index & 0xFFF)
        if op.cls == INDIRECT:
            return (f"{mod}r[{self.r.addresses[op.index].name}({op.offset}),{op.imm_offset}]"
                    f"{self.region(op.region)}:{TYPES[op.type & 0xF][0]}")
        if op.cls == IMMEDIATE:
            return f"0x{op.value:x}:{TYPES[op.type][0]}"
        if op.cls == STATE:
            name = self.surface(op.index) if op.state_class == 0 else self.sampler(op.index)
            return f"{name}({op.offset})"
        raise FormatError(f"operand class {op.cls} has no text form", field="operand")

    def raw(self, op: RawOperand) -> str:
        return f"{self.var(op.index)}.{op.offset}"

    @staticmethod
    def exec(byte: int) -> str:
        return f"({EMASKS[byte >> 4]}, {EXEC_SIZES[byte & 0xF]})"

    def pred(self, pred: Predicate | None) -> str:
        if pred is None:
            return ""
        return f"({'!' if pred.inverse else ''}{self.pred_name(pred.id)}{PRED_CONTROLS[pred.control]}) "

    # ---- instructions
    def instruction(self, inst: Instruction) -> str:
        if inst.missing:
            return self.partial(inst)
        fam = OPCODES[inst.opcode].family
        method = getattr(self, f"_i_{fam}", None)
        if method is None:
            raise FormatError(f"{inst.name}: no text form", field="opcode")
        return method(inst)

    def partial(self, inst: Instruction) -> str:
        """An instruction decoded with fields missing (lenient reading): not valid vISA text."""
        name = LSC_OPS[inst.sub][0] if inst.opcode == 0x89 and inst.sub in LSC_OPS else (
            f"svm_{SVM_SUBOPS[inst.sub][0]}" if inst.sub is not None and inst.sub in SVM_SUBOPS else inst.name)
        parts = [self.pred(inst.get("pred")).strip(), name]
        for key, value in inst.fields.items():
            if key == "exec":
                parts.append(self.exec(value))
            elif isinstance(value, VectorOperand):
                parts.append(self.vec(value))
            elif isinstance(value, RawOperand):
                parts.append(self.raw(value))
            elif key != "pred":
                parts.append(f"{key}={value}")
        parts.append(f"<missing: {', '.join(inst.missing)}>")
        return " ".join(p for p in parts if p)

    def _i_alu(self, inst: Instruction) -> str:
        f = inst.fields
        srcs = [f[k] for k in ("src0", "src1", "src2", "src3") if k in f]
        sat = ".sat" if f["dst"].modifier == 4 else ""
        ops = [f["dst"]] + ([f["dst2"]] if "dst2" in f else []) + srcs
        texts = [self.vec(o) for o in ops]
        if inst.name == "addr_add" and srcs[0].cls in (GENERAL, STATE):
            texts[1] = self.address_of(srcs[0])
        return f"{self.pred(f.get('pred'))}{inst.name}{sat} {self.exec(f['exec'])} " + " ".join(texts)

    def address_of(self, op: VectorOperand) -> str:
        if op.cls == STATE:
            return f"&{self.surface(op.index)}[{op.offset * 4}]"
        offset = op.row * GRF_BYTES + op.col * element_size(self.r, op.index)
        return f"&{self.var(op.index)}[{offset}]"

    def _i_minmax(self, inst: Instruction) -> str:
        f = inst.fields
        name = "max" if f["spec"] else "min"
        sat = ".sat" if f["dst"].modifier == 4 else ""
        return f"{name}{sat} {self.exec(f['exec'])} " + " ".join(self.vec(f[k]) for k in ("dst", "src0", "src1"))

    def _i_bfn(self, inst: Instruction) -> str:
        f = inst.fields
        sat = ".sat" if f["dst"].modifier == 4 else ""
        return (f"{self.pred(f.get('pred'))}bfn.x{f['func_ctrl']:x}{sat} {self.exec(f['exec'])} "
                + " ".join(self.vec(f[k]) for k in ("dst", "src0", "src1", "src2")))

    def _i_cmp(self, inst: Instruction) -> str:
        f = inst.fields
        spec = f["spec"]
        sat = ".sat" if f["dst"].modifier == 4 and f["dst"].cls == GENERAL else ""
        return (f"cmp{'n' if spec & 0x80 else ''}.{CMP_OPS[spec & 7]}{sat} {self.exec(f['exec'])} "
                + " ".join(self.vec(f[k]) for k in ("dst", "src0", "src1")))

    def _i_label(self, inst: Instruction) -> str:
        name = self.label(inst["label"])
        if inst.name == "func":
            return f".function {_quote(name)}\n\n{name}:"
        return f"{name}:"

    def _i_branch(self, inst: Instruction) -> str:
        f = inst.fields
        text = f"{self.pred(f.get('pred'))}{inst.name} {self.exec(f['exec'])}"
        if "label" in f:
            text += " " + self.label(f["label"])
        return text

    def _i_fcall(self, inst: Instruction) -> str:
        f = inst.fields
        return (f"{self.pred(f.get('pred'))}fcall {self.exec(f['exec'])} {self.r.strings[f['function']]} "
                f"{f['arg_size']} {f['ret_size']}")

    def _i_ifcall(self, inst: Instruction) -> str:
        f = inst.fields
        return (f"{self.pred(f.get('pred'))}ifcall {self.exec(f['exec'])} {self.vec(f['target'])} "
                f"{f['arg_size']} {f['ret_size']}")

    def _i_debug(self, inst: Instruction) -> str:
        if inst.name == "FILE":
            return f"FILE {_quote(self.r.strings[inst['file']])}"
        return f"LOC {inst['line']}"

    def _i_faddr(self, inst: Instruction) -> str:
        sym = self.r.strings[inst["symbol"]]
        return f"faddr {sym if _is_ident(sym) else _quote(sym)} {self.vec(inst['dst'])}"

    def _i_switchjmp(self, inst: Instruction) -> str:
        labels = ", ".join(self.label(i) for i in inst["labels"])
        return f"switchjmp {self.exec(inst['exec'])} {self.vec(inst['index'])} ({labels})"

    def _i_sync(self, inst: Instruction) -> str:
        return inst.name

    def _i_wait(self, inst: Instruction) -> str:
        return f"wait {self.vec(inst['mask'])}"

    def _i_sbarrier(self, inst: Instruction) -> str:
        return "sbarrier.signal" if inst["mode"] else "sbarrier.wait"

    def _i_fence(self, inst: Instruction) -> str:
        mask = inst["mask"]
        if mask & 0x80:
            return "fence_sw"
        text = "fence_local" if mask & 0x20 else "fence_global"
        flags = "".join(name for bit, name in FENCE_FLAGS if mask & bit)
        return f"{text}.{flags}" if flags else text

    def _i_lifetime(self, inst: Instruction) -> str:
        props, var = inst["properties"], inst["var"]
        kind = "end" if props & 1 else "start"
        cls = (props >> 4) & 3
        name = self.var(var) if cls == GENERAL else (
            self.r.addresses[var].name if cls == ADDRESS else self.pred_name(var))
        return f"lifetime.{kind} {name}"

    def _i_raw_send(self, inst: Instruction) -> str:
        f = inst.fields
        op = "raw_sendc" if f["modifier"] & 1 else "raw_send"
        return (f"{self.pred(f.get('pred'))}{op} {self.exec(f['exec'])} 0x{f['ex_desc']:x} {f['num_src']} "
                f"{f['num_dst']} {self.vec(f['desc'])} {self.raw(f['src'])} {self.raw(f['dst'])}")

    def _i_raw_sends(self, inst: Instruction) -> str:
        f = inst.fields
        mod = f["modifier"]
        op = "raw_sendsc" if mod & 1 else "raw_sends"
        if mod & 2:
            op += "_eot"
        counts = f".{f['num_src0']}.{f['num_src1']}.{f['num_dst']}"
        if not mod & 1:
            counts = f".{f['ffid']}" + counts
        return (f"{self.pred(f.get('pred'))}{op}{counts} {self.exec(f['exec'])} {self.vec(f['ex_desc'])} "
                f"{self.vec(f['desc'])} {self.raw(f['src0'])} {self.raw(f['src1'])} {self.raw(f['dst'])}")

    def _i_oword(self, inst: Instruction) -> str:
        f = inst.fields
        mod = ".mod" if f.get("modifier") else ""
        return (f"{inst.name}{mod} ({OWORD_NUMS[f['size'] & 7]}) {self.surface(f['surface'])} "
                f"{self.vec(f['offset'])} {self.raw(f['data'])}")

    def _i_scaled4(self, inst: Instruction) -> str:
        f = inst.fields
        return (f"{self.pred(f.get('pred'))}{inst.name}.{CHANNEL_MASKS[f['channels'] & 0xF]} "
                f"{self.exec(f['exec'])} {self.surface(f['surface'])} {self.vec(f['global_offset'])} "
                f"{self.raw(f['offsets'])} {self.raw(f['data'])}")

    def _i_scaled(self, inst: Instruction) -> str:
        f = inst.fields
        return (f"{self.pred(f.get('pred'))}{inst.name}.{SVM_BLOCK_NUMS[f['num_blocks']]} "
                f"{self.exec(f['exec'])} {self.surface(f['surface'])} {self.vec(f['global_offset'])} "
                f"{self.raw(f['offsets'])} {self.raw(f['data'])}")

    @staticmethod
    def _atomic(op: int) -> str:
        width = next((f".{w}" for w, bits in ATOMIC_WIDTHS.items() if bits and op & 0x60 == bits), "")
        return f".{ATOMIC_OPS[op & 0x1F]}{width}"

    def _i_dword_atomic(self, inst: Instruction) -> str:
        f = inst.fields
        return (f"{self.pred(f.get('pred'))}dword_atomic{self._atomic(f['op'])} {self.exec(f['exec'])} "
                f"{self.surface(f['surface'])} " + " ".join(self.raw(f[k]) for k in ("offsets", "src0", "src1",
                                                                                     "dst")))

    def _i_svm(self, inst: Instruction) -> str:
        f = inst.fields
        name = SVM_SUBOPS[inst.sub][0]
        pred = self.pred(f.get("pred"))
        if name in ("block_ld", "block_st"):
            unaligned = ".unaligned" if f["size"] & 8 else ""
            return (f"svm_{name}{unaligned} ({OWORD_NUMS[f['size'] & 7]}) {self.vec(f['address'])} "
                    f"{self.raw(f['data'])}")
        if name in ("gather", "scatter"):
            return (f"{pred}svm_{name}.{SVM_BLOCK_TYPES[f['block_size'] & 3]}."
                    f"{SVM_BLOCK_NUMS[f['num_blocks'] & 3]} {self.exec(f['exec'])} "
                    f"{self.raw(f['addresses'])} {self.raw(f['data'])}")
        if name == "atomic":
            return (f"{pred}svm_atomic{self._atomic(f['op'])} {self.exec(f['exec'])} "
                    + " ".join(self.raw(f[k]) for k in ("addresses", "dst", "src0", "src1")))
        return (f"{pred}svm_{name}.{CHANNEL_MASKS[f['channels'] & 0xF]} {self.exec(f['exec'])} "
                f"{self.vec(f['address'])} {self.raw(f['offsets'])} {self.raw(f['data'])}")

    def _lsc_payload(self, op: RawOperand) -> str:
        return self.var(op.index) + (f".{op.offset}" if op.offset else "")

    def _i_lsc(self, inst: Instruction) -> str:
        f = inst.fields
        mnemonic, kind = LSC_OPS[inst.sub]
        text = f"{self.pred(f.get('pred'))}{mnemonic}.{LSC_SFIDS[f['sfid']]}"
        if f["l1"] or f["l3"]:
            text += f".{LSC_CACHING[f['l1']]}.{LSC_CACHING[f['l3']]}"
        text += f" {self.exec(f['exec'])}"
        shape = ":" + LSC_DATA_SIZES[f["data_size"]]
        if "quad" in kind:
            shape += "." + "".join(c for bit, c in LSC_QUAD_CHANNELS if f["chmask"] & bit)
        else:
            elems = LSC_DATA_ELEMS[f["data_elems"]]
            shape += (f"x{elems}" if elems != 1 else "") + ("t" if f["data_order"] == 2 else "")
        atype = LSC_ADDR_TYPES[f["addr_type"]]
        if atype in ("bss", "ss", "bti"):
            surf = f["surface"]
            inner = f"0x{surf.value:x}" if surf.cls == IMMEDIATE else self.var(surf.index) + (
                f"({surf.row},{surf.col})" if surf.row or surf.col else "")
            atype += f"({inner})"
        addr = f"{atype}["
        if f["scale"] > 1:
            addr += f"0x{f['scale']:x}*"
        addr += self._lsc_payload(f["src0"])
        off = f["imm_offset"]
        if off:
            addr += f"-0x{-off:x}" if off < 0 else f"+0x{off:x}"
        if "pitch" in f and not (f["pitch"].cls == GENERAL and f["pitch"].index == 0):
            p = f["pitch"]
            addr += ", " + (f"0x{p.value:x}" if p.cls == IMMEDIATE else self.var(p.index))
        addr += f"]:{LSC_ADDR_SIZES[f['addr_size']]}"
        if kind.startswith("load"):
            return f"{text}  {self._lsc_payload(f['dst'])}{shape}  {addr}"
        if kind.startswith("store"):
            return f"{text}  {addr}  {self._lsc_payload(f['src1'])}{shape}"
        return (f"{text}  {self._lsc_payload(f['dst'])}{shape}  {addr}  {self._lsc_payload(f['src1'])}  "
                f"{self._lsc_payload(f['src2'])}")

    def _i_lsc_fence(self, inst: Instruction) -> str:
        f = inst.fields
        return f"lsc_fence.{LSC_SFIDS[f['sfid']]}.{LSC_FENCE_OPS[f['fence_op']]}.{LSC_SCOPES[f['scope']]}"

    # ---- declarations
    def attribute(self, a: Attribute) -> str:
        kind = ATTRIBUTE_KINDS.get(a.name, "str" if a.size > 4 else "int")
        if kind == "str":
            return f"{a.name}={_quote(a.as_str())}" if a.size else a.name
        if kind == "bool" or a.size == 0:
            return a.name
        if a.name == "Target" and a.as_int() in TARGET_NAMES:
            return f'{a.name}="{TARGET_NAMES[a.as_int()]}"'
        return f"{a.name}={a.as_int()}"

    @staticmethod
    def _vname(name: str) -> str:
        return f" v_name={name}" if _is_ident(name) else ""

    def attrs(self, attrs: list[Attribute]) -> str:
        return f" attrs={{{', '.join(self.attribute(a) for a in attrs)}}}" if attrs else ""

    def routine(self) -> str:
        r = self.r
        out = [f'{".kernel" if r.is_kernel else ".global_function"} {_quote(r.name)}', ""]
        for v in r.variables:
            line = (f".decl {v.name} v_type=G type={TYPES[v.type][0]} num_elts={v.num_elements} "
                    f"align={ALIGNMENTS[v.align][0]}")
            if v.alias_index:
                line += f" alias=<{self.var(v.alias_index)}, {v.alias_offset}>"
            out.append(line + self.attrs(v.attributes))
        for a in r.addresses:
            out.append(f".decl {a.name} v_type=A num_elts={a.num_elements}{self.attrs(a.attributes)}")
        for p in r.predicates:
            out.append(f".decl {p.name} v_type=P num_elts={p.num_elements}{self.attrs(p.attributes)}")
        for i, s in enumerate(r.samplers):
            out.append(f".decl {self.sampler(i)} v_type=S num_elts={s.num_elements}{self._vname(s.name)}"
                       f"{self.attrs(s.attributes)}")
        for i, t in enumerate(r.surfaces, NUM_PREDEFINED_SURFACES):
            out.append(f".decl {self.surface(i)} v_type=T num_elts={t.num_elements}{self._vname(t.name)}"
                       f"{self.attrs(t.attributes)}")
        for inp in r.inputs:
            name = (self.var(inp.id) if inp.category == 0 else
                    self.sampler(inp.id) if inp.category == 1 else self.surface(inp.id))
            directive = ".input" if inp.provenance == 0 else IMPLICIT_DIRECTIVES.get(
                inp.provenance, f".implicit_UNDEFINED_{inp.provenance}")
            out.append(f"{directive} {name} offset={inp.offset} size={inp.size}")
        for a in r.attributes:
            if a.name in ("OutputAsmPath", "AsmName"):
                # a dump path of the producing compiler: the finalizer would write its output there
                out.append(f"// .kernel_attr {self.attribute(a)}")
                continue
            out.append(f".kernel_attr {self.attribute(a)}")
        if r.instructions is None or r.decode_error:
            raise FormatError(f"{r.name}: instruction stream not decoded ({r.decode_error})",
                              field="instructions")
        for inst in r.instructions:
            text = self.instruction(inst)
            out.append(text if OPCODES[inst.opcode].family == "label" else "    " + text)
        return "\n".join(out) + "\n"


def print_routine(routine: Routine) -> str:
    """Text of one kernel or function; a symbol or code the text cannot spell is a FormatError."""
    try:
        return Printer(routine).routine()
    except (KeyError, IndexError) as exc:
        raise FormatError(f"{routine.name}: value without a text form ({exc!r})", field="text") from None


def print_visaasm(obj: VisaObject) -> str:
    """Text of the whole object: the .version line, then every kernel and function."""
    return f".version {obj.version}\n" + "".join(print_routine(r) for r in obj.kernels + obj.functions)
