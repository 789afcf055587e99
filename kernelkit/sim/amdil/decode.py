"""AMD IL program text -> instruction records for the simulator.

A linked program (``il_cs_2_0`` … ``endmain``, ``func N`` … ``endfunc``, ``end``) becomes a
``DecodedProgram``: the main body and every function as lists of ``Instr`` (opcode, parameters
such as ``_id(1)``, destination, sources, source line), the literal pool (``dcl_literal``), the
declarations the executor needs (constant buffer sizes, UAV ids, LDS, indexed temp arrays,
resources) and each control-flow instruction's partner (if/else/endif, whileloop/endloop).
Unlinked programs (still holding the multi-kernel token) are linked for the requested kernel
first (kernelkit.formats.amdil.link). Malformed text raises FormatError naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kernelkit.errors import FormatError
from kernelkit.formats.amdil import MULTI_KERNEL_TOKEN, link_program, parse_program
from kernelkit.formats.amdil.program import Function, Program

COMPONENTS = "xyzw"
# source swizzle selectors: the four components, then the constants 0 and 1.0
_SELECT = {"x": 0, "y": 1, "z": 2, "w": 3, "0": 4, "1": 5}

# register files read per work-item (thread ids) and their meaning
SPECIAL_REGISTERS = ("vTidInGrp", "vTidInGrpFlat", "vThreadGrpId", "vThreadGrpIdFlat", "vAbsTid",
                     "vAbsTidFlat")

_OPERAND = re.compile(
    r"(?P<neg>-)?(?P<file>[a-zA-Z]+?)(?P<num>\d+)?"
    r"(?:\[(?P<index>[^\]]+)\])?"
    r"(?:\.(?P<swz>[xyzw01_]{1,4}))?(?P<mod>(?:_[a-z]+)*)\Z")
_PARAM = re.compile(r"_?([a-z0-9]+)\(([^)]*)\)")


@dataclass(frozen=True)
class Operand:
    """One operand: ``file`` (r, l, cb, x, mem, or a thread-id register), register ``num``,
    an optional index (constant buffers, indexed temps: ``index_reg``/``index_comp`` +
    ``index_offset``), the component selection and a negate flag."""
    file: str
    num: int
    select: tuple[int, ...]        # sources: 4 selectors (0..5); destinations: written comps
    dst_consts: tuple[tuple[int, int], ...] = ()   # destinations: (component, 0|1) written as constants
    index_reg: int | None = None
    index_comp: int = 0
    index_offset: int = 0
    negate: bool = False
    text: str = ""


@dataclass
class Instr:
    op: str                          # base opcode: "iadd", "uav_raw_store", "if_logicalnz", …
    params: dict[str, str]           # "id" -> "1", "size" -> "byte", "resource" -> "0", …
    dst: Operand | None
    srcs: list[Operand]
    line: int                        # 1-based line in the program text
    text: str
    target: int = -1                 # control flow partner (else/endif/endloop/loop start)
    other: int = -1                  # if: its else (or -1); loops: the endloop


@dataclass
class Declarations:
    cb_sizes: dict[int, int] = field(default_factory=dict)       # cbN -> vec4 slots
    cb_lines: dict[int, int] = field(default_factory=dict)       # cbN -> line of its dcl_cb
    raw_uav: int | None = None
    arena_uav: int | None = None
    lds_size: int = 0                                              # bytes (dcl_lds_id)
    indexed_temps: dict[int, int] = field(default_factory=dict)   # xN -> vec4 elements
    resources: dict[int, dict[str, str]] = field(default_factory=dict)
    typed_uavs: dict[int, dict[str, str]] = field(default_factory=dict)
    max_threads: int | None = None
    num_threads: tuple[int, int, int] | None = None


@dataclass
class DecodedProgram:
    main: list[Instr]
    functions: dict[int, list[Instr]]
    function_names: dict[int, str]
    literals: dict[int, tuple[int, int, int, int]]
    decls: Declarations
    program: Program
    kernel_id: int | None = None

    def registers(self) -> list[int]:
        """Every general register number the program names (sorted)."""
        nums: set[int] = set()
        for body in [self.main, *self.functions.values()]:
            for ins in body:
                for o in ([ins.dst] if ins.dst else []) + ins.srcs:
                    if o.file == "r":
                        nums.add(o.num)
                    if o.index_reg is not None:
                        nums.add(o.index_reg)
        return sorted(nums)


def _fail(message: str, line: int) -> FormatError:
    return FormatError(message, line=line, field="instruction")


def _int(text: str, line: int) -> int:
    t = text.strip()
    try:
        value = int(t, 16) if t.lower().startswith(("0x", "-0x")) else int(t)
    except ValueError:
        raise _fail(f"{t!r} is not an integer", line) from None
    return value & 0xFFFFFFFF


def parse_operand(text: str, line: int, *, dst: bool = False) -> Operand:
    t = text.strip()
    m = _OPERAND.match(t)
    if not m:
        raise _fail(f"cannot read operand {t!r}", line)
    file, num, swz = m.group("file"), m.group("num"), m.group("swz")
    if file in SPECIAL_REGISTERS or file.startswith("v"):
        if file not in SPECIAL_REGISTERS:
            raise _fail(f"unknown register {file!r}", line)
        n = 0
    elif file in ("r", "l", "cb", "x", "mem"):
        if num is None:
            raise _fail(f"operand {t!r} has no register number", line)
        n = int(num)
    else:
        raise _fail(f"unknown register file in operand {t!r}", line)
    index_reg, index_comp, index_offset = None, 0, 0
    if m.group("index") is not None:
        if file not in ("cb", "x"):
            raise _fail(f"operand {t!r}: only cb and x registers take an index", line)
        idx = m.group("index").replace(" ", "")
        im = re.fullmatch(r"(?:r(\d+)\.([xyzw]))?(?:\+?(-?(?:0x)?[0-9a-fA-F]+))?", idx)
        if not im or not idx:
            raise _fail(f"operand {t!r}: cannot read index {idx!r}", line)
        if im.group(1):
            index_reg, index_comp = int(im.group(1)), COMPONENTS.index(im.group(2))
        if im.group(3):
            index_offset = _int(im.group(3), line)
    elif file == "cb":
        raise _fail(f"operand {t!r}: a constant buffer needs an index", line)
    if m.group("mod"):
        raise _fail(f"operand {t!r}: modifiers {m.group('mod')!r} are not supported", line)
    if dst:
        if m.group("neg"):
            raise _fail(f"destination {t!r} cannot be negated", line)
        written: list[int] = []
        consts: list[tuple[int, int]] = []
        mask = swz or "xyzw"
        if len(mask) == 4:          # positional: x|_|0|1 per component
            for c, ch in enumerate(mask):
                if ch in "01":
                    consts.append((c, int(ch)))
                elif ch == COMPONENTS[c]:
                    written.append(c)
                elif ch != "_":
                    raise _fail(f"destination mask {mask!r}: {ch!r} in component {c}", line)
        else:                       # names: .x, .xy, .xz, .w
            for ch in mask:
                if ch not in COMPONENTS or COMPONENTS.index(ch) in written:
                    raise _fail(f"destination mask {mask!r} is not a component list", line)
                written.append(COMPONENTS.index(ch))
            written.sort()
        return Operand(file, n, tuple(written), tuple(consts), index_reg, index_comp,
                       index_offset, False, t)
    sel = swz or "xyzw"
    if "_" in sel:
        raise _fail(f"source swizzle {sel!r} cannot hold '_'", line)
    sel = sel + sel[-1] * (4 - len(sel))     # a short swizzle repeats its last selector
    return Operand(file, n, tuple(_SELECT[c] for c in sel), (), index_reg, index_comp,
                   index_offset, bool(m.group("neg")), t)


def _split_opcode(token: str, line: int) -> tuple[str, dict[str, str]]:
    """``uav_raw_store_id(1)`` -> ("uav_raw_store", {"id": "1"});
    ``sample_resource(0)_sampler(0)_coordtype(unnormalized)`` -> ("sample", {...})."""
    at = token.find("(")
    if at < 0:
        return token, {}
    head = token[:at]
    cut = head.rfind("_")
    if cut <= 0:
        raise _fail(f"cannot read opcode {token!r}", line)
    base, rest = head[:cut], token[cut:]
    params: dict[str, str] = {}
    pos = 0
    for pm in _PARAM.finditer(rest):
        if pm.start() != pos:
            raise _fail(f"cannot read opcode parameters in {token!r}", line)
        params[pm.group(1)] = pm.group(2)
        pos = pm.end()
    if pos != len(rest):
        raise _fail(f"cannot read opcode parameters in {token!r}", line)
    return base, params


def _operands(text: str) -> list[str]:
    """Split on commas outside brackets."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return [o.strip() for o in out]


# opcodes without a destination operand (every operand is a source)
NO_DST = {"if_logicalnz", "if_logicalz", "break_logicalnz", "break_logicalz", "continue_logicalnz",
          "continue_logicalz", "uav_add", "uav_sub", "uav_and", "uav_or", "uav_xor", "uav_min",
          "uav_max", "uav_umin", "uav_umax", "uav_xchg", "uav_cmp_xchg", "uav_inc", "uav_dec",
          "lds_store", "lds_store_byte", "lds_store_short", "lds_add", "lds_sub", "lds_and", "lds_or", "lds_xor", "lds_min", "lds_max",
          "lds_umin", "lds_umax", "lds_store_vec", "uav_arena_store"}
# opcodes whose first operand is a memory write mask (mem0.x___) rather than a register
MEM_DST = {"uav_raw_store"}
NO_OPERANDS = {"else", "endif", "whileloop", "endloop", "break", "continue", "ret", "ret_dyn",
               "endmain", "nop"}


def _decode_line(text: str, line: int) -> Instr | None:
    code = text.split(";", 1)[0].strip()
    if not code:
        return None
    token, _, rest = code.partition(" ")
    token = token.strip()
    op, params = _split_opcode(token, line)
    ops = _operands(rest) if rest.strip() else []
    if op in NO_OPERANDS:
        if ops:
            raise _fail(f"{op} takes no operands", line)
        return Instr(op, params, None, [], line, text)
    if op == "call":
        if len(ops) != 1 or not ops[0].isdigit():
            raise _fail("call needs a function id", line)
        params = {"function": ops[0]}
        return Instr(op, params, None, [], line, text)
    if op.startswith("dcl_") or op.startswith("fence"):
        return Instr(op, params, None, [], line, text) if not op.startswith("dcl_") else \
            Instr(op, params | {"args": rest.strip()}, None, [], line, text)
    if op in NO_DST or op.startswith("uav_store") or (op == "uav" and "store" in params):
        return Instr(op, params, None, [parse_operand(o, line) for o in ops], line, text)
    if not ops:
        raise _fail(f"{op} needs operands", line)
    dst = parse_operand(ops[0], line, dst=True)
    if op in MEM_DST:
        if dst.file != "mem":
            raise _fail(f"{op} writes to a mem operand, not {ops[0]!r}", line)
    return Instr(op, params, dst, [parse_operand(o, line) for o in ops[1:]], line, text)


def _link_control_flow(body: list[Instr], where: str) -> None:
    """Pair if/else/endif and whileloop/endloop; break/continue know their loop."""
    stack: list[int] = []
    loops: list[int] = []
    for i, ins in enumerate(body):
        if ins.op in ("if_logicalnz", "if_logicalz"):
            stack.append(i)
        elif ins.op == "else":
            if not stack or body[stack[-1]].op not in ("if_logicalnz", "if_logicalz") or \
                    body[stack[-1]].other >= 0:
                raise _fail(f"else without if in {where}", ins.line)
            body[stack[-1]].other = i
        elif ins.op == "endif":
            if not stack or body[stack[-1]].op not in ("if_logicalnz", "if_logicalz"):
                raise _fail(f"endif without if in {where}", ins.line)
            start = stack.pop()
            body[start].target = i
            if body[start].other >= 0:
                body[body[start].other].target = i
        elif ins.op == "whileloop":
            stack.append(i)
            loops.append(i)
        elif ins.op == "endloop":
            if not stack or body[stack[-1]].op != "whileloop":
                raise _fail(f"endloop without whileloop in {where}", ins.line)
            start = stack.pop()
            loops.pop()
            body[start].other = i
            ins.target = start
        elif ins.op.startswith(("break", "continue")):
            if not loops:
                raise _fail(f"{ins.op} outside a loop in {where}", ins.line)
            ins.target = loops[-1]
    if stack:
        ins = body[stack[-1]]
        raise _fail(f"{ins.op} is never closed in {where}", ins.line)


def _line_numbers(program: Program) -> dict[int, int]:
    """id(function) -> line number of its ``func`` header."""
    out: dict[int, int] = {}
    line = 1
    from kernelkit.formats.amdil.program import item_lines
    for item in program.items:
        if isinstance(item, Function):
            out[id(item)] = line
        line += len(item_lines(item))
    return out


def decode(text: str, kernel: str | None = None) -> DecodedProgram:
    """Decode a program; an unlinked one is linked for ``kernel`` first."""
    program = parse_program(text)
    kernel_id = None
    if kernel is not None:
        block = program.find_kernel(kernel)
        kernel_id = block.uniqueid
    if MULTI_KERNEL_TOKEN in text:
        if kernel is None:
            raise FormatError("an unlinked program needs a kernel name to link", field="token")
        program = parse_program(link_program(program, kernel).text)
    starts = _line_numbers(program)
    main: list[Instr] = []
    functions: dict[int, list[Instr]] = {}
    names: dict[int, str] = {}
    literals: dict[int, tuple[int, int, int, int]] = {}
    decls = Declarations()
    line = 1
    from kernelkit.formats.amdil.program import item_lines

    in_main = True
    seen_header = False
    for item in program.items:
        if isinstance(item, Function):
            first = starts[id(item)]
            body: list[Instr] = []
            n = first + 1
            for raw in item.lines(with_debug=True)[1:-1]:
                ins = _decode_line(raw, n) if not raw.startswith(";") else None
                n += 1
                if ins is not None:
                    _declare(ins, decls, literals)
                    body.append(ins)
            if item.id in functions:
                raise _fail(f"function {item.id} defined twice", first)
            _link_control_flow(body, f"func {item.id}")
            functions[item.id] = body
            names[item.id] = item.name
            line += len(item_lines(item))
            continue
        if isinstance(item, str):
            stripped = item.strip()
            if not seen_header and stripped:
                if not stripped.startswith("il_cs_"):
                    raise _fail(f"a compute program starts with il_cs_<major>_<minor>, not "
                                f"{stripped[:30]!r}", line)
                seen_header = True
            elif stripped == "end":
                in_main = False
            elif in_main and stripped and not stripped.startswith(";"):
                ins = _decode_line(item, line)
                if ins is not None:
                    _declare(ins, decls, literals)
                    main.append(ins)
                    if ins.op == "endmain":
                        in_main = False
        line += len(item_lines(item))
    if not seen_header:
        raise _fail("no il_cs_ header", 1)
    _link_control_flow(main, "main")
    for body in [main, *functions.values()]:
        for ins in body:
            if ins.op == "call" and int(ins.params["function"]) not in functions:
                raise _fail(f"call to function {ins.params['function']}, which the program does "
                            f"not define", ins.line)
    return DecodedProgram(main, functions, names, literals, decls, program, kernel_id)


def _param_id(ins: Instr) -> int:
    value = ins.params.get("id", "")
    if not value.isdigit():
        raise _fail(f"{ins.op} needs _id(N)", ins.line)
    return int(value)


def _declare(ins: Instr, decls: Declarations, literals: dict) -> None:
    if not ins.op.startswith("dcl_"):
        return
    args = ins.params.get("args", "")
    op = ins.op
    if op == "dcl_literal":
        parts = _operands(args)
        if len(parts) != 5 or not re.fullmatch(r"l\d+", parts[0]):
            raise _fail("dcl_literal needs lN and four values", ins.line)
        num = int(parts[0][1:])
        values = tuple(_int(p, ins.line) for p in parts[1:])
        if literals.get(num, values) != values:
            raise _fail(f"literal l{num} declared twice with different values", ins.line)
        literals[num] = values    # type: ignore[assignment]
    elif op == "dcl_cb":
        m = re.fullmatch(r"cb(\d+)\[(\d+)\]", args.replace(" ", ""))
        if not m:
            raise _fail(f"cannot read dcl_cb {args!r}", ins.line)
        decls.cb_sizes[int(m.group(1))] = int(m.group(2))
        decls.cb_lines[int(m.group(1))] = ins.line
    elif op == "dcl_raw_uav":
        decls.raw_uav = _param_id(ins)
    elif op == "dcl_arena_uav":
        decls.arena_uav = _param_id(ins)
    elif op == "dcl_lds":
        if not args.strip().isdigit():
            raise _fail(f"dcl_lds needs a byte size, not {args!r}", ins.line)
        decls.lds_size = max(decls.lds_size, int(args))
    elif op == "dcl_indexed_temp_array":
        m = re.fullmatch(r"x(\d+)\[(\d+)\]", args.replace(" ", ""))
        if not m:
            raise _fail(f"cannot read dcl_indexed_temp_array {args!r}", ins.line)
        decls.indexed_temps[int(m.group(1))] = int(m.group(2))
    elif op == "dcl_resource":
        decls.resources[_param_id(ins)] = ins.params
    elif op == "dcl_uav":
        decls.typed_uavs[_param_id(ins)] = ins.params
    elif op == "dcl_max_thread_per_group":
        decls.max_threads = _int(args, ins.line)
    elif op == "dcl_num_thread_per_group":
        vals = [_int(v, ins.line) for v in _operands(args)]
        decls.num_threads = tuple(vals + [1] * (3 - len(vals)))   # type: ignore[assignment]
