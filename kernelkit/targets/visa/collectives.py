"""OpenCL 2.0 work-group collectives in the vISA code generator, through SLM: every work-item stores
its value at ``scratch + 4 x local linear id`` (between two barriers), then each lane walks the
group's values in a uniform loop (reduce: all of them; inclusive/exclusive scan: those before it;
broadcast: the chosen one; any/all: the or/and of ``value != 0``). The scratch area (4 bytes per
work-item of the largest group) follows the kernel's static SLM. 32-bit values only."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.targets.visa.vtypes import SIZES, vtype_of

MAX_GROUP_ITEMS = 1024
SCRATCH_BYTES = 4 * MAX_GROUP_ITEMS
OPERATIONS = {"add": "add", "max": "max", "min": "min"}
TYPE_CODES = {"i": "d", "j": "ud", "f": "f"}
IDENTITY = {("add", "d"): 0, ("add", "ud"): 0, ("add", "f"): 0, ("max", "d"): 0x80000000, ("max", "ud"): 0,
            ("max", "f"): 0xFF800000, ("min", "d"): 0x7FFFFFFF, ("min", "ud"): 0xFFFFFFFF, ("min", "f"): 0x7F800000,
            ("or", "ud"): 0, ("and", "ud"): 1}


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
        if vt is None or SIZES[vtype_of(args[0].type)] != 4:
            raise CompileError(f"vISA code generation: {base} on {args[0].type} is not supported (32-bit values only)")
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
        self.emit(f"mul (M1_NM, {simd}) {offsets}(0,0)<1> {linear}(0,0)<1;1,0> 0x4:ud")
        self.emit(f"add (M1_NM, {simd}) {offsets}(0,0)<1> {offsets}(0,0)<1;1,0> 0x{self.collective_slm:x}:ud")
        self.emit("fence_local.E")
        self.emit("barrier")
        raw = self._alias(value, "ud") if vt != "ud" else value
        for lane, n, m in self._halves():
            self.emit(f"scatter4_scaled.R ({m}, {n}) %slm 0x0:ud {self._piece(offsets, 'ud', lane, n)}.0 "
                      f"{self._piece(raw, 'ud', lane, n)}.0")
        self.emit("fence_local.E")
        self.emit("barrier")
        acc = self._new(vt, simd)
        if kind == "broadcast":
            self._broadcast_read(acc, args[1:], vt)
        else:
            self._walk(acc, kind, op, vt, linear, count)
        self.emit("fence_local.E")
        self.emit("barrier")                  # the scratch is free again for the next collective
        region = "<0;1,0>" if self.uniform(inst) else "<1;1,0>"
        want = vtype_of(inst.type)
        source = acc if want == vt else self._alias(acc, want)
        self.emit(f"mov {self.exe(inst)} {self.dst(inst)} {source}(0,0){region}")
        return True

    def _slm_read_uniform(self, dst: str, offset: str) -> None:
        """Every lane of ``dst`` (ud) gets the dword at the scalar SLM byte offset ``offset``."""
        offsets = self._new("ud", self.simd)
        self.emit(f"mov (M1_NM, {self.simd}) {offsets}(0,0)<1> {offset}")
        for lane, n, m in self._halves():
            self.emit(f"gather4_scaled.R ({m}_NM, {n}) %slm 0x0:ud {self._piece(offsets, 'ud', lane, n)}.0 "
                      f"{self._piece(dst, 'ud', lane, n)}.0")

    def _walk(self, acc: str, kind: str, op: str, vt: str, linear: str, count: str) -> None:
        simd = self.simd
        self.emit(f"mov (M1_NM, {simd}) {self._alias(acc, 'ud')}(0,0)<1> 0x{IDENTITY[(op, vt)]:x}:ud")
        j = self._new("ud", 1)
        self.emit(f"mov (M1_NM, 1) {j}(0,0)<1> 0x0:ud")
        self.count += 1
        loop = f"WG_LOOP_{self.count}"
        self.body.append(f"{loop}:")
        offset = self._new("ud", 1)
        self.emit(f"mul (M1_NM, 1) {offset}(0,0)<1> {j}(0,0)<0;1,0> 0x4:ud")
        self.emit(f"add (M1_NM, 1) {offset}(0,0)<1> {offset}(0,0)<0;1,0> 0x{self.collective_slm:x}:ud")
        data = self._new("ud", simd)
        self._slm_read_uniform(data, f"{offset}(0,0)<0;1,0>")
        item = self._alias(data, vt) if vt != "ud" else data
        prefix = ""
        if kind != "reduce":
            take = self._pred()
            test = "lt" if kind == "scan_exclusive" else "le"
            self.emit(f"cmp.{test} (M1_NM, {simd}) {take} {j}(0,0)<0;1,0> {linear}(0,0)<1;1,0>")
            prefix = f"({take}) "
        self.emit(f"{prefix}{OPERATIONS.get(op, op)} (M1_NM, {simd}) {acc}(0,0)<1> {acc}(0,0)<1;1,0> "
                  f"{item}(0,0)<1;1,0>")
        self.emit(f"add (M1_NM, 1) {j}(0,0)<1> {j}(0,0)<0;1,0> 0x1:ud")
        more = self._pred()
        self.emit(f"cmp.lt (M1_NM, 1) {more} {j}(0,0)<0;1,0> {count}(0,0)<0;1,0>")
        self.emit(f"({more}) goto (M1, 1) {loop}")

    def _broadcast_read(self, acc: str, ids, vt: str) -> None:
        """work_group_broadcast(x, lx[, ly[, lz]]): the value of the work-item with those local ids."""
        size = self.implicit("local_size")
        linear = self._new("ud", 1)
        self.emit(f"mov (M1_NM, 1) {linear}(0,0)<1> {self.src(ids[-1], 'ud')}")
        for dim in range(len(ids) - 2, -1, -1):             # ((lz x ly + y) x lx + x)
            self.emit(f"mul (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> {size}(0,{dim})<0;1,0>")
            self.emit(f"add (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> {self.src(ids[dim], 'ud')}")
        self.emit(f"mul (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> 0x4:ud")
        self.emit(f"add (M1_NM, 1) {linear}(0,0)<1> {linear}(0,0)<0;1,0> 0x{self.collective_slm:x}:ud")
        self._slm_read_uniform(self._alias(acc, "ud") if vt != "ud" else acc, f"{linear}(0,0)<0;1,0>")

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
