"""OpenCL sub-groups (OpenCL 2.1 / cl_khr_subgroups, cl_khr_subgroup_shuffle[_relative], and Intel's
intel_sub_group_shuffle*) in the vISA code generator. A sub-group is one hardware thread: its lanes
are the SIMD lanes, the work-items of consecutive local linear ids ``sub-group id x SIMD ..``.

Everything is a cross-lane register operation, as IGC 1.0.12504 emits it (read from its ``.visaasm``
for the same source, ``ocloc compile`` with IGC_ShaderDumpEnable=1): the operand is copied under
NoMask into a SIMD-wide temporary filled with the operation's identity, then under the execution
mask (so lanes masked off by divergence or by a partial last sub-group do not contribute); a
reduction halves that register region by region (NoMask), an inclusive scan adds the register to
itself shifted by 1, 2, 4, ... lanes (the shifted-in lanes read the identity), an exclusive scan is
the inclusive one shifted by one lane. Broadcasts read one element; shuffles are a predicated move
per source lane."""

from __future__ import annotations

from kernelkit.abi.visa import GRF_BYTES
from kernelkit.errors import CompileError
from kernelkit.ir import types as T
from kernelkit.targets.visa.collectives import IDENTITY, TYPE_CODES
from kernelkit.targets.visa.vtypes import SIZES, vtype_of

OPERATIONS = ("add", "min", "max")
RAW = {2: "uw", 4: "ud", 8: "uq"}
# work-item functions of sub-groups that need the local linear id / the lane index (set up in the prologue)
NEEDS_LINEAR = frozenset({"get_sub_group_id", "get_num_sub_groups", "get_sub_group_size"})
SHUFFLES = frozenset({"sub_group_shuffle", "sub_group_shuffle_xor", "sub_group_shuffle_up", "sub_group_shuffle_down",
                      "intel_sub_group_shuffle", "intel_sub_group_shuffle_xor", "intel_sub_group_shuffle_up",
                      "intel_sub_group_shuffle_down"})
NEEDS_LANE = SHUFFLES | {"get_sub_group_local_id", "sub_group_broadcast"}
WORK_ITEM_FUNCTIONS = NEEDS_LINEAR | {"get_sub_group_local_id", "get_max_sub_group_size",
                                      "get_enqueued_num_sub_groups"}


def sub_group_kind(base: str) -> tuple[str, str] | None:
    """(kind, operation) of a sub-group collective: reduce/scan_inclusive/scan_exclusive with
    add/min/max, any/all (reduce with or/and), broadcast, the shuffles; None for other names."""
    if base in ("sub_group_any", "sub_group_all"):
        return "reduce", "or" if base.endswith("any") else "and"
    if base == "sub_group_broadcast" or base in SHUFFLES:
        return base, ""
    for kind in ("reduce", "scan_inclusive", "scan_exclusive"):
        prefix = f"sub_group_{kind}_"
        if base.startswith(prefix) and base[len(prefix):] in OPERATIONS:
            return kind, base[len(prefix):]
    return None


def is_sub_group_builtin(base: str) -> bool:
    return base in WORK_ITEM_FUNCTIONS or base == "sub_group_barrier" or sub_group_kind(base) is not None


class SubGroupCodegen:
    """Mixin of KernelCodegen."""

    def _sub_group(self, inst, base: str, code: str, args) -> bool:
        if base in WORK_ITEM_FUNCTIONS:
            self._sub_group_work_item(inst, base)
            return True
        if base == "sub_group_barrier":      # one thread, its messages in program order: IGC 1.0.12504
            return True                      # emits nothing for it (ocloc, local and global fences)
        found = sub_group_kind(base)
        if found is None:
            return False
        kind, op = found
        if kind in ("reduce", "scan_inclusive", "scan_exclusive"):
            self._sub_group_scan(inst, kind, op, code, args[0])
        elif kind == "sub_group_broadcast":
            self._sub_group_broadcast(inst, args[0], args[1])
        else:
            self._sub_group_shuffle(inst, kind, args)
        return True

    # ---- work-item functions
    def _sub_group_work_item(self, inst, base: str) -> None:
        simd, exe, dst = self.simd, self.exe(inst), self.dst(inst, "ud")
        shift = simd.bit_length() - 1
        if base == "get_sub_group_local_id":
            self.emit(f"mov {exe} {dst} {self._lane_index()}(0,0)<1;1,0>")
        elif base == "get_max_sub_group_size":
            self.emit(f"mov {exe} {dst} 0x{simd:x}:ud")
        elif base == "get_enqueued_num_sub_groups":
            size = self.implicit("enqueued_local_size")
            count = self._new("ud", 1)
            self.emit(f"mul (M1_NM, 1) {count}(0,0)<1> {size}(0,0)<0;1,0> {size}(0,1)<0;1,0>")
            self.emit(f"mul (M1_NM, 1) {count}(0,0)<1> {count}(0,0)<0;1,0> {size}(0,2)<0;1,0>")
            self.emit(f"add (M1_NM, 1) {count}(0,0)<1> {count}(0,0)<0;1,0> 0x{simd - 1:x}:ud")
            self.emit(f"shr {exe} {dst} {count}(0,0)<0;1,0> 0x{shift:x}:ud")
        else:
            linear, count = self._local_linear()
            if base == "get_num_sub_groups":
                rounded = self._new("ud", 1)
                self.emit(f"add (M1_NM, 1) {rounded}(0,0)<1> {count}(0,0)<0;1,0> 0x{simd - 1:x}:ud")
                self.emit(f"shr {exe} {dst} {rounded}(0,0)<0;1,0> 0x{shift:x}:ud")
            elif base == "get_sub_group_id":
                self.emit(f"shr {exe} {dst} {linear}(0,0)<0;1,0> 0x{shift:x}:ud")
            else:                             # get_sub_group_size: min(SIMD, items from lane 0's id on)
                left = self._new("d", 1)
                self.emit(f"add (M1_NM, 1) {left}(0,0)<1> {self._alias(count, 'd')}(0,0)<0;1,0> "
                          f"(-){self._alias(linear, 'd')}(0,0)<0;1,0>")
                self.emit(f"min {exe} {dst} {left}(0,0)<0;1,0> 0x{simd:x}:ud")

    def _lane_index(self) -> str:
        """A SIMD-wide ud variable holding 0, 1, .. SIMD-1 (computed once, in the prologue)."""
        if getattr(self, "_lanes_var", None) is None:
            lanes = self._new("ud", self.simd)
            self.emit(f"mov (M1_NM, 1) {lanes}(0,0)<1> 0x0:ud")
            width = 1
            while width < self.simd:
                self._lanes("add", lanes, width, [(lanes, 0), f"0x{width:x}:ud"], width, "ud")
                width *= 2
            self._lanes_var = lanes
        return self._lanes_var

    # ---- register regions
    @staticmethod
    def _at(name: str, element: int, vt: str) -> str:
        byte = element * SIZES[vt]
        return f"{name}({byte // GRF_BYTES},{byte % GRF_BYTES // SIZES[vt]})"

    def _lanes(self, op: str, dst: str, first: int, sources, count: int, vt: str) -> None:
        """NoMask ``op`` on ``count`` consecutive elements of ``dst`` from ``first`` on; sources are
        (variable, first element) pairs or immediates. Split into pieces of at most one GRF so that
        no operand spans more than two registers."""
        step = min(count, max(1, GRF_BYTES // SIZES[vt]))
        region = "<1;1,0>" if step > 1 else "<0;1,0>"
        for k in range(0, count, step):
            operands = [s if isinstance(s, str) else f"{self._at(s[0], s[1] + k, vt)}{region}" for s in sources]
            self.emit(f"{op} (M1_NM, {step}) {self._at(dst, first + k, vt)}<1> {' '.join(operands)}")

    def _filled(self, value, vt: str, identity: int, offset: int = 0) -> str:
        """A SIMD-wide (``offset`` + SIMD elements) temporary: the identity everywhere, then
        ``value`` at elements offset.. in the lanes the execution mask enables."""
        raw = RAW[SIZES[vt]]
        total = offset + self.simd
        tmp = self._new(vt, total)
        self._lanes("mov", self._alias(tmp, raw) if raw != vt else tmp, 0, [f"0x{identity:x}:{raw}"], total, raw)
        self.emit(f"mov (M1, {self.simd}) {self._at(tmp, offset, vt)}<1> {self.src(value, vt)}")
        return tmp

    # ---- collectives
    def _sub_group_scan(self, inst, kind: str, op: str, code: str, value) -> None:
        simd = self.simd
        if op in ("or", "and"):                              # any / all: value != 0 as 0 or 1
            vt = "ud"
            flag = self._pred()
            tmp = self._new(vt, simd)
            self._lanes("mov", tmp, 0, [f"0x{IDENTITY[(op, vt)]:x}:ud"], simd, vt)
            self.emit(f"cmp.ne (M1, {simd}) {flag} {self.src(value, 'd')} 0x0:d")
            self.emit(f"({flag}) sel (M1, {simd}) {tmp}(0,0)<1> 0x1:ud 0x0:ud")
        else:
            vt = TYPE_CODES.get(code)
            if vt is None or isinstance(value.type, T.VectorType) or SIZES[vtype_of(value.type)] != SIZES[vt]:
                raise CompileError(f"vISA code generation: sub-group {kind}_{op} on {value.type} is not supported "
                                   f"(int, uint, long, ulong, float, double)")
            tmp = self._filled(value, vt, IDENTITY[(op, vt)], simd if kind != "reduce" else 0)
        if kind == "reduce":
            width = simd // 2
            while width:
                self._lanes(op, tmp, 0, [(tmp, 0), (tmp, width)], width, vt)
                width //= 2
            self.emit(f"mov {self.exe(inst)} {self.dst(inst, vt)} {self._at(tmp, 0, vt)}<0;1,0>")
            return
        other = self._new(vt, 2 * simd)              # elements 0..SIMD-1: the identity, read by shifts
        raw = RAW[SIZES[vt]]
        self._lanes("mov", self._alias(other, raw) if raw != vt else other, 0,
                    [f"0x{IDENTITY[(op, vt)]:x}:{raw}"], simd, raw)
        shift = 1
        while shift < simd:
            self._lanes(op, other, simd, [(tmp, simd), (tmp, simd - shift)], simd, vt)
            tmp, other = other, tmp
            shift *= 2
        start = simd - 1 if kind == "scan_exclusive" else simd
        self.emit(f"mov {self.exe(inst)} {self.dst(inst, vt)} {self._at(tmp, start, vt)}<1;1,0>")

    def _raw_type(self, value) -> str:
        size = SIZES[vtype_of(value.type)]
        if isinstance(value.type, T.VectorType) or size not in RAW:
            raise CompileError(f"vISA code generation: sub-group broadcast/shuffle of {value.type} is not supported")
        return RAW[size]

    def _element(self, value, lane: int, raw: str) -> str:
        """Lane ``lane``'s ``value`` as a scalar source operand of type ``raw``."""
        if self.uniform(value):
            return self.src(value, raw)
        name = self.var(value)
        if vtype_of(value.type) != raw:
            name = self._alias(name, raw)
        return f"{self._at(name, lane, raw)}<0;1,0>"

    def _sub_group_broadcast(self, inst, value, lane) -> None:
        raw = self._raw_type(value)
        exe, dst = self.exe(inst), self.dst(inst, raw)
        if self.uniform(value):
            self.emit(f"mov {exe} {dst} {self.src(value, raw)}")
        elif hasattr(lane, "value"):
            self.emit(f"mov {exe} {dst} {self._element(value, lane.value % self.simd, raw)}")
        else:                                               # a uniform lane number known at run time
            for j in range(self.simd):
                flag = self._pred()
                self.emit(f"cmp.eq (M1_NM, 1) {flag} {self.src(lane, 'ud')} 0x{j:x}:ud")
                self.emit(f"({flag}) mov {exe} {dst} {self._element(value, j, raw)}")

    def _sub_group_shuffle(self, inst, kind: str, args) -> None:
        """Lane i reads lane index(i) of the operand (of the concatenation prev|cur or cur|next for
        Intel's two-operand shuffle_up/down): one predicated move per source lane."""
        simd = self.simd
        lanes = f"{self._lane_index()}(0,0)<1;1,0>"
        relative = kind.replace("intel_", "")
        if kind.startswith("intel_") and relative in ("sub_group_shuffle_up", "sub_group_shuffle_down"):
            first, second, delta = args
            sources = [first, second]
        else:
            first, delta = args
            sources = [first]
        raw = self._raw_type(first)
        index = self._new("ud", simd)
        amount, minus = self.src(delta, "ud"), self.modified("-", delta, "d")
        signed = f"{self._alias(index, 'd')}(0,0)<1>"
        if relative == "sub_group_shuffle":
            self.emit(f"mov (M1, {simd}) {index}(0,0)<1> {amount}")
        elif relative == "sub_group_shuffle_xor":
            self.emit(f"xor (M1, {simd}) {index}(0,0)<1> {lanes} {amount}")
        elif relative == "sub_group_shuffle_down":              # lane + delta (into ``next`` past the end)
            self.emit(f"add (M1, {simd}) {index}(0,0)<1> {lanes} {amount}")
        elif len(sources) == 2:                                  # Intel up: prev|cur, lane + SIMD - delta
            self.emit(f"add (M1, {simd}) {index}(0,0)<1> {lanes} 0x{simd:x}:ud")
            self.emit(f"add (M1, {simd}) {signed} {self._alias(index, 'd')}(0,0)<1;1,0> {minus}")
        else:                                                    # lane - delta (wraps: no lane matches)
            self.emit(f"add (M1, {simd}) {signed} {self._alias(self._lane_index(), 'd')}(0,0)<1;1,0> {minus}")
        exe, dst = self.exe(inst), self.dst(inst, raw)
        for s, source in enumerate(sources):
            for j in range(simd):
                flag = self._pred()
                self.emit(f"cmp.eq (M1, {simd}) {flag} {index}(0,0)<1;1,0> 0x{s * simd + j:x}:ud")
                self.emit(f"({flag}) mov {exe} {dst} {self._element(source, j, raw)}")
