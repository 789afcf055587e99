"""OpenCL 2.0 work-group collectives in the vISA code generator, through SLM: every work-item stores
its value at ``scratch + size x local linear id`` (between two barriers), then each lane walks the
group's values in a uniform loop (reduce: all of them; inclusive/exclusive scan: those before it;
broadcast: the chosen one; any/all: the or/and of ``value != 0``). The scratch area (8 bytes per
work-item of the largest group) follows the kernel's static SLM. 32- and 64-bit values (int, uint,
float, long, ulong, double); a 64-bit value moves as its two dwords (dword SLM messages)."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.targets.visa.vtypes import SIZES, vtype_of

MAX_GROUP_ITEMS = 1024
SCRATCH_BYTES = 8 * MAX_GROUP_ITEMS
OPERATIONS = {"add": "add", "max": "max", "min": "min"}
TYPE_CODES = {"i": "d", "j": "ud", "f": "f", "l": "q", "m": "uq", "d": "df"}
IDENTITY = {("add", "d"): 0, ("add", "ud"): 0, ("add", "f"): 0, ("max", "d"): 0x80000000, ("max", "ud"): 0,
            ("max", "f"): 0xFF800000, ("min", "d"): 0x7FFFFFFF, ("min", "ud"): 0xFFFFFFFF, ("min", "f"): 0x7F800000,
            ("or", "ud"): 0, ("and", "ud"): 1, ("add", "q"): 0, ("add", "uq"): 0, ("add", "df"): 0,
            ("max", "q"): 1 << 63, ("max", "uq"): 0, ("max", "df"): 0xFFF0000000000000,
            ("min", "q"): (1 << 63) - 1, ("min", "uq"): (1 << 64) - 1, ("min", "df"): 0x7FF0000000000000}


def collective_kind(base: str) -> tuple[str, str] | None:
    """(kind, operation) of a work-group builtin's base name: reduce/scan_inclusive/scan_exclusive
    with add/min/max, broadcast, any, all."""
    if base in ("work_group_any", "work_group_all"):
        return "reduce", "or" if base.endswith("any") else "and"
    if base == "work_group_broadcast":
        return "broadcast", ""
    for kind in ("reduce", "scan_inclusive", "scan_exclusive"):
        prefix = f"work_group_{kind}_"
        if base.startswith(prefix) and base[len(prefix):] in OPERATIONS:
            return kind, base[len(prefix):]
    return None


class CollectiveCodegen:
    """Mixin of KernelCodegen."""

    def _collective(self, inst, base: str, code: str, args) -> bool:
        found = collective_kind(base)
        if found is None:
            return False
        kind, op = found
        vt = "ud" if op in ("or", "and") else TYPE_CODES.get(code)
        if vt is None or SIZES[vtype_of(args[0].type)] not in (4, 8):
            raise CompileError(f"vISA code generation: {base} on {args[0].type} is not supported (32- and 64-bit "
                               f"values only)")
        words = SIZES[vt] // 4
        self.uses_collectives = True
        simd = self.simd
        linear, count = self._local_linear()
        value = self._new(vt, simd)
        if op in ("or", "and"):                                  # any / all: value != 0 as 0 or 1
            flag = self._pred()
            self.emit(f"cmp.ne (M1_NM, {simd}) {flag} {self.src(args[0], 'd')} 0x0:d")
            self.emit(f"({flag}) sel (M1_NM, {simd}) {value}(0,0)<1> 0x1:ud 0x0:ud")
        else:
            self.emit(f"mov (M1_NM, {simd}) {value}(0,0)<1> {self.src(args[0], vt)}")
        offsets = self._new("ud", simd)
        self.emit(f"mul (M1_NM, {simd}) {offsets}(0,0)<1> {linear}(0,0)<1;1,0> 0x{4 * words:x}:ud")
        self.emit(f"add (M1_NM, {simd}) {offsets}(0,0)<1> {offsets}(0,0)<1;1,0> 0x{self.collective_slm:x}:ud")
        self.emit("fence_local.E")
        self.emit("barrier")
        for word, raw in enumerate(self._words(value, vt, words)):
            for lane, n, m in self._halves():
                self._slm_message(True, f"({m}, {n})", self._piece(offsets, "ud", lane, n),
                                  self._piece(raw, "ud", lane, n), offset=4 * word)
        self.emit("fence_local.E")
        self.emit("barrier")
        acc = self._new(vt, simd)
        if kind == "broadcast":
            self._broadcast_read(acc, args[1:], vt, words)
        else:
            self._walk(acc, kind, op, vt, linear, count, words)
        self.emit("fence_local.E")
        self.emit("barrier")                  # the scratch is free again for the next collective
        region = "<0;1,0>" if self.uniform(inst) else "<1;1,0>"
        want = vtype_of(inst.type)
        source = acc if want == vt else self._alias(acc, want)
        self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {source}(0,0){region}")
        return True

    def _words(self, value: str, vt: str, words: int) -> list[str]:
        """SIMD-wide ud variables holding the dwords of ``value`` (low first)."""
        raw = self._alias(value, "ud") if vt != "ud" else value
        if words == 1:
            return [raw]
        parts = []
        for word in range(words):
            part = self._new("ud", self.simd)
            self.emit(f"mov (M1_NM, {self.simd}) {part}(0,0)<1> {raw}(0,{word})<2;1,0>")
            parts.append(part)
        return parts

    def _slm_read_uniform(self, dst: str, offset: str, vt: str = "ud", words: int = 1) -> None:
        """Every lane of ``dst`` (of type vt) gets the value at the scalar SLM byte offset ``offset``."""
        offsets = self._new("ud", self.simd)
        self.emit(f"mov (M1_NM, {self.simd}) {offsets}(0,0)<1> {offset}")
        raw = self._alias(dst, "ud") if vt != "ud" else dst
        for word in range(words):
            part = raw if words == 1 else self._new("ud", self.simd)
            for lane, n, m in self._halves():
                self._slm_message(False, f"({m}_NM, {n})", self._piece(offsets, "ud", lane, n),
                                  self._piece(part, "ud", lane, n), offset=4 * word)
            if words > 1:
                self.emit(f"mov (M1_NM, {self.simd}) {raw}(0,{word})<2> {part}(0,0)<1;1,0>")

    def _walk(self, acc: str, kind: str, op: str, vt: str, linear: str, count: str, words: int) -> None:
        simd = self.simd
        raw = "ud" if words == 1 else "uq"
        self.emit(f"mov (M1_NM, {simd}) {self._alias(acc, raw)}(0,0)<1> 0x{IDENTITY[(op, vt)]:x}:{raw}")
        j = self._new("ud", 1)
        self.emit(f"mov (M1_NM, 1) {j}(0,0)<1> 0x0:ud")
        self.count += 1
        loop = f"WG_LOOP_{self.count}"
        self.body.append(f"{loop}:")
        offset = self._new("ud", 1)
        self.emit(f"mul (M1_NM, 1) {offset}(0,0)<1> {j}(0,0)<0;1,0> 0x{4 * words:x}:ud")
        self.emit(f"add (M1_NM, 1) {offset}(0,0)<1> {offset}(0,0)<0;1,0> 0x{self.collective_slm:x}:ud")
        item = self._new(vt, simd)
        self._slm_read_uniform(item, f"{offset}(0,0)<0;1,0>", vt, words)
        prefix = ""
        if kind != "reduce":
            take = self._pred()
            test = "lt" if kind == "scan_exclusive" else "le"
            self.emit(f"cmp.{test} (M1_NM, {simd}) {take} {j}(0,0)<0;1,0> {linear}(0,0)<1;1,0>")
            prefix = f"({take}) "
        if prefix and op in ("min", "max"):      # vISA's min/max take no predicate: a predicated copy
            step = self._new(vt, simd)
            self.emit(f"{op} (M1_NM, {simd}) {step}(0,0)<1> {acc}(0,0)<1;1,0> {item}(0,0)<1;1,0>")
            self.emit(f"{prefix}mov (M1_NM, {simd}) {acc}(0,0)<1> {step}(0,0)<1;1,0>")
        else:
            self.emit(f"{prefix}{OPERATIONS.get(op, op)} (M1_NM, {simd}) {acc}(0,0)<1> {acc}(0,0)<1;1,0> "
                      f"{item}(0,0)<1;1,0>")
        self.emit(f"add (M1_NM, 1) {j}(0,0)<1> {j}(0,0)<0;1,0> 0x1:ud")
        more = self._pred()
        self.emit(f"cmp.lt (M1_NM, 1) {more} {j}(0,0)<0;1,0> {count}(0,0)<0;1,0>")
        self.emit(f"({more}) goto (M1, 1) {loop}")

    def _broadcast_read(self, acc: str, ids, vt: str, words: int) -> None:
        """work_group_broadcast(x, lx[, ly[, lz]]): the value of the work-item with those local ids."""
        size = self.implicit("local_size")
        linear = self._new("ud", 1)
        self.emit(f"mov (M1_NM, 1) {linear}(0,0)<1> {self.src(ids[-1], 'ud')}")
        for dim in range(len(ids) - 2, -1, -1):             # ((lz x ly + y) x lx + x)
            self.emit(f"mul (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> {size}(0,{dim})<0;1,0>")
            self.emit(f"add (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> {self.src(ids[dim], 'ud')}")
        self.emit(f"mul (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> 0x{4 * words:x}:ud")
        self.emit(f"add (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> 0x{self.collective_slm:x}:ud")
        self._slm_read_uniform(acc, f"{linear}(0,0)<0;1,0>", vt, words)

    def _local_linear(self) -> tuple[str, str]:
        """(SIMD-wide local linear id, scalar work-items in the group), computed once."""
        if getattr(self, "_linear", None) is None:
            size = self.implicit("local_size")
            if len(self.local_ids) < 3:
                raise CompileError("vISA code generation: work-group collectives need the three local ids")
            linear = self._new("ud", self.simd)
            x, y, z = (self._alias(v, "ud") for v in self.local_ids)
            self.emit(f"mul (M1_NM, {self.simd}) {linear}(0,0)<1> {z}(0,0)<1;1,0> {size}(0,1)<0;1,0>")
            self.emit(f"add (M1_NM, {self.simd}) {linear}(0,0)<1> {linear}(0,0)<1;1,0> {y}(0,0)<1;1,0>")
            self.emit(f"mul (M1_NM, {self.simd}) {linear}(0,0)<1> {linear}(0,0)<1;1,0> {size}(0,0)<0;1,0>")
            self.emit(f"add (M1_NM, {self.simd}) {linear}(0,0)<1> {linear}(0,0)<1;1,0> {x}(0,0)<1;1,0>")
            count = self._new("ud", 1)
            self.emit(f"mul (M1_NM, 1) {count}(0,0)<1> {size}(0,0)<0;1,0> {size}(0,1)<0;1,0>")
            self.emit(f"mul (M1_NM, 1) {count}(0,0)<1> {count}(0,0)<0;1,0> {size}(0,2)<0;1,0>")
            self._linear = (linear, count)
        return self._linear
