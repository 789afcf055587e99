"""LSC atomics on DG2. IGC 1.0.12504 (ocloc -device dg2-g10; tests/reference/visa/dg2-g10_atomics) emits
SIMD-wide atomics as lsc_atomic_* (.ugm flat a64 for __global, d32/d64; .slm a32 for __local) and
folds uniform ones into one-lane svm_atomic/dword_atomic. IGC's own DG2 objects run on the simulator
first and give numpy's results; then kernelkit's DG2 code for the same sources: lsc_atomic_* only,
the same results, finalized by GenX_IR -platform DG2.

Old values are checked without assuming an order of the conflicting lanes: for add/sub/inc/dec/xchg
the old values plus the final value are, as a multiset, the initial value plus each lane's
contribution applied to them."""

from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from kernelkit import LocalMemory, ir
from kernelkit.abi.signature import signatures_from_ir
from kernelkit.abi.visa import _compile, implicit_inputs, lay_out
from kernelkit.errors import CompileError
from kernelkit.formats.visa import parse_visaasm
from kernelkit.sim.visa import decode, launch
from kernelkit.targets.visa.module import compile_visa
from tests.conftest import CORPUS, reference_path, require_tool

OPENCL = Path(__file__).parent / "opencl"
SOURCES = {"atomics": CORPUS / "atomics.cl", "atomics_dg2": OPENCL / "atomics_dg2.cl",
           "float_atomics_dg2": OPENCL / "float_atomics_dg2.cl"}
STD = {"atomics": "CL1.2", "atomics_dg2": "CL1.2", "float_atomics_dg2": "CL3.0"}
KERNELS = {"histogram": "atomics", "atomic_mix": "atomics", "global64": "atomics_dg2", "local32": "atomics_dg2",
           "fadd": "float_atomics_dg2"}
RNG = np.random.default_rng(31)
N, LOCAL = 64, 32                           # two work-groups of one SIMD32 (IGC) thread


class Igc:
    """IGC's DG2 routine of a kernel with the payload kernelkit.abi.visa lays out for its source."""

    def __init__(self):
        self.modules = {stem: ir.parse(_compile(str(path), [f"-cl-std={STD[stem]}"]).ir_text)
                        for stem, path in SOURCES.items()}

    def __call__(self, kernel: str, args: list, global_size, local_size):
        module = self.modules[KERNELS[kernel]]
        sig = next(s for s in signatures_from_ir(module) if s.name == kernel)
        function = next(f for f in module.functions if f.name == kernel)
        routine = parse_visaasm(reference_path("visa", "dg2-g10_atomics", f"{kernel}.visaasm").read_text()).kernels[0]
        simd = next(a.as_int() for a in routine.attributes if a.name == "SimdSize")
        payload = lay_out(sig, simd, "dg2", implicit_inputs(function, None, "dg2"), ())
        assert [(i.offset, i.size) for i in payload.inputs] == [(i.offset, i.size) for i in routine.inputs]
        launch(decode(routine), payload, args, global_size, local_size, signature=sig,
               static_slm=sig.static_local_mem)
        return routine


class Kernelkit:
    """kernelkit's DG2 program of the same sources (built once)."""

    def __init__(self):
        self.binaries = {stem: compile_visa(path.read_text(), "dg2", [f"-cl-std={STD[stem]}"])
                         for stem, path in SOURCES.items()}

    def __call__(self, kernel: str, args: list, global_size, local_size):
        k = self.binaries[KERNELS[kernel]].kernel(kernel)
        routine = parse_visaasm(k.text).kernels[0]
        launch(decode(routine), k.payload, args, global_size, local_size, signature=k.signature,
               static_slm=k.signature.static_local_mem)
        return routine


@pytest.fixture(scope="module", params=["igc", "kernelkit"])
def producer(request):
    return Igc() if request.param == "igc" else Kernelkit()


def _messages(routine) -> Counter:
    from kernelkit.formats.visa.tables import LSC_OPS

    names = Counter()
    for inst in routine.instructions:
        names[LSC_OPS[inst.sub][0] if inst.name == "lsc_untyped" else inst.name] += 1
    return names


def _serial(old: np.ndarray, final, init, step: np.ndarray) -> None:
    """Some order of the lanes turns ``init`` into ``final``, lane j seeing ``old[j]`` and leaving
    ``old[j] + step[j]`` (wrapping in the values' type)."""
    after = (old + step).astype(old.dtype)
    assert Counter(old.tolist()) + Counter([final.item()]) == Counter(after.tolist()) + Counter([init.item()])


def test_corpus_atomics_give_numpys_results(producer):
    data = RNG.integers(0, 256, 4 * N).astype(np.uint8)
    bins = np.zeros(16, np.uint32)
    routine = producer("histogram", [data, bins, LocalMemory(16 * 4)], [4 * N], [N])
    np.testing.assert_array_equal(bins, np.bincount(data & 15, minlength=16))
    assert {"lsc_atomic_iinc", "lsc_atomic_iadd"} <= set(_messages(routine))
    values = RNG.integers(-100, 100, N).astype(np.int32)
    counters = np.array([0, 0, -1 << 31, (1 << 31) - 1, 0, -1, 0, 0], np.int32)
    slots = np.where(np.arange(N) % 2 == 0, 0, 9).astype(np.int32)
    start = slots.copy()
    routine = producer("atomic_mix", [counters, values, slots], [N], [LOCAL])
    bits = np.bitwise_or.reduce(np.left_shift(1, values & 31).astype(np.int64)) & 0xFFFFFFFF
    clear = np.bitwise_or.reduce(np.left_shift(1, values & 7))
    assert counters.tolist() == [values.sum(), -N, values.max(), values.min(), np.int32(np.uint32(bits)),
                                 ~clear, np.bitwise_xor.reduce(values), 2 * N]
    np.testing.assert_array_equal(slots, np.where(start == 0, values, 2 * start))
    assert {"lsc_atomic_icas", "lsc_atomic_store"} <= set(_messages(routine))


def test_64bit_global_atomics(producer):
    v = RNG.integers(-2**40, 2**40, N).astype(np.int64)
    c = np.zeros(7 + N, np.int64)
    c[:7] = [1, 2, 3, 4, -2**50, -1, 77]                 # c[5] as ulong: the largest value
    c[7:] = np.where(np.arange(N) & 1, 0, 5)             # cmpxchg compares lane i's c[7 + i] with 0 or 5
    c[7 + 3] = 11                                        # ... which fails for this one
    init = c.copy()
    old = np.zeros(5 * N, np.int64)
    routine = producer("global64", [c, v, old], [N], [LOCAL])
    lane = np.arange(N)
    for k in range(4):
        mine = lane & 3 == k
        assert c[k] == init[k] + v[mine].sum()
        _serial(old[:N][mine], c[k], init[k], v[mine])
    assert c[4] == max(init[4], v.max())
    assert c[5] == min(init[5].astype(np.uint64), v.astype(np.uint64).min()).astype(np.int64)
    assert c[6] in v.tolist()
    np.testing.assert_array_equal(np.sort(np.append(old[3 * N: 4 * N], c[6])), np.sort(np.append(v, init[6])))
    expect = np.where(lane == 3, 11, v)
    np.testing.assert_array_equal(c[7:], expect)
    np.testing.assert_array_equal(old[4 * N:], init[7:])
    assert all(max(o, init[4]) <= c[4] for o in old[N: 2 * N])
    seen = _messages(routine)
    assert {"lsc_atomic_iadd", "lsc_atomic_smax", "lsc_atomic_umin", "lsc_atomic_store", "lsc_atomic_icas"} <= set(seen)
    assert seen["svm_atomic"] == 0


def test_every_32bit_local_atomic(producer):
    init = np.array([5, 7, 9, 0, 1000, -1000, 0xFFFF, 3, -1, 0x100, 0x5A5A, 42, 9999], np.int32)   # 9999: no lane's value
    v = RNG.integers(-500, 500, N).astype(np.int32)
    old, final = np.zeros(13 * N, np.int32), np.zeros(2 * 13, np.int32)
    routine = producer("local32", [init, v, old, final, LocalMemory(13 * 4)], [N], [LOCAL])
    u = v.view(np.uint32)
    for group in range(2):
        mine = slice(group * LOCAL, group * LOCAL + LOCAL)
        x, ux, got = v[mine], u[mine], final[group * 13: group * 13 + 13]
        want = [init[0] + x.sum(), init[1] - x.sum(), init[2] + LOCAL, init[3] - LOCAL, min(init[4], x.min()),
                max(init[5], x.max()), min(np.uint32(init[6]), ux.min()), max(np.uint32(init[7]), ux.max()),
                np.bitwise_and.reduce(np.append(x, init[8])), np.bitwise_or.reduce(np.append(x, init[9])),
                np.bitwise_xor.reduce(np.append(x, init[10]))]
        assert got[:11].tolist() == np.array(want).astype(np.int64).astype(np.int32).tolist()
        lanes = [old[k * N: (k + 1) * N][mine] for k in range(13)]
        ones = np.ones(LOCAL, np.int32)
        for k, step in ((0, x), (1, -x), (2, ones), (3, -ones)):
            _serial(lanes[k], got[k], init[k], step)
        assert np.all(lanes[4] >= got[4]) and np.all(lanes[5] <= got[5])
        assert np.all(lanes[6].view(np.uint32) >= got[6].view(np.uint32))
        np.testing.assert_array_equal(np.sort(np.append(lanes[11], got[11])), np.sort(np.append(x, init[11])))
        winner = lanes[12] == init[12]                    # cmpxchg: exactly one lane swaps
        assert winner.sum() == 1 and got[12] == x[winner][0] and np.all(lanes[12][~winner] == got[12])
    seen = _messages(routine)
    for op in ("smin", "smax", "umin", "umax", "and", "or", "xor", "store", "icas"):
        assert seen[f"lsc_atomic_{op}"], op


def test_float_atomic_add(producer):
    """atomic_fetch_add on atomic_float: lsc_atomic_fadd.ugm (values in quarters: every order of the
    lanes sums exactly, so the final sums are numpy's and the old values a serial order's)."""
    v = RNG.integers(-400, 400, N).astype(np.float32) / 4
    total = np.array([1.5, -2.25, 100, 0], np.float32)
    init = total.copy()
    old = np.zeros(N, np.float32)
    routine = producer("fadd", [total, v, old], [N], [LOCAL])
    lane = np.arange(N)
    for k in range(4):
        mine = lane & 3 == k
        assert total[k] == init[k] + v[mine].sum(dtype=np.float64)
        _serial(old[mine], total[k], init[k], v[mine])
    assert _messages(routine)["lsc_atomic_fadd"] == 2


def test_float_atomic_add_is_refused_without_lsc_and_on_local():
    with pytest.raises(CompileError, match="atomic_fetch_add_explicit on float needs LSC float atomics"):
        compile_visa(SOURCES["float_atomics_dg2"].read_text(), "tgllp", ["-cl-std=CL3.0"]).kernel("fadd")
    local = """kernel void k(global float *o, local float *l) {
  o[0] = atomic_fetch_add_explicit((volatile local atomic_float *)l, 1.0f, memory_order_relaxed,
                                   memory_scope_work_group); }"""
    with pytest.raises(CompileError, match="on __local float is not supported"):
        compile_visa(local, "dg2", ["-cl-std=CL3.0"]).kernel("k")


def test_kernelkit_emits_only_lsc_atomics_on_dg2_and_genx_ir_finalizes_them():
    """kernelkit's DG2 objects and IGC's pass kernelkit's validator (LSC rules included); GenX_IR
    finalizes kernelkit's."""
    from kernelkit.formats.visa.validate import validate

    for kernel in KERNELS:
        assert validate(parse_visaasm(reference_path("visa", "dg2-g10_atomics", f"{kernel}.visaasm")
                                      .read_text())) == []
    genx = require_tool("GenX_IR")
    for stem, path in SOURCES.items():
        binary = compile_visa(path.read_text(), "dg2", [f"-cl-std={STD[stem]}"])
        assert validate(binary.object()) == []
        text = "\n".join(binary.kernel(k).text for k, s in KERNELS.items() if s == stem)
        assert "lsc_atomic_" in text and "svm_atomic" not in text and "dword_atomic" not in text
        if stem != "float_atomics_dg2":
            assert "svm_atomic" in compile_visa(path.read_text(), "tgllp").kernel(
                next(k for k, s in KERNELS.items() if s == stem)).text
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "k.isa").write_bytes(binary.isa())
            proc = subprocess.run([genx, "k.isa", "-platform", "DG2", "-output"], cwd=tmp, capture_output=True,
                                  text=True, timeout=300)
            assert proc.returncode == 0, proc.stdout + proc.stderr
