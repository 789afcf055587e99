"""Functions made with IRBuilder verify in LLVM and compute what numpy/Python compute
when LLVM's JIT runs them."""

from __future__ import annotations

import ctypes

import numpy as np

from kernelkit.ir import Function, Module, parse
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.transforms import clone_function

from .jit import jit_function, jit_module
from .llvm_oracle import instruction_counts, verify


def saxpy_module() -> Module:
    """void saxpy(float a, ptr x, ptr y, i32 n): y[i] = a * x[i] + y[i] (a loop with a phi)."""
    m = Module()
    f = m.add_function(Function("saxpy", T.FunctionType(T.void, (T.float32, T.ptr, T.ptr, T.i32)),
                                arg_names=["a", "x", "y", "n"]))
    a, x, y, n = f.args
    entry, loop, done = f.append_block("entry"), f.append_block("loop"), f.append_block("done")
    b = IRBuilder(entry)
    b.cbr(b.icmp("sgt", n, const(T.i32, 0), "any"), loop, done)
    b.position_at_end(loop)
    i = b.phi(T.i32, "i")
    idx = b.zext(i, T.i64, "idx")
    px = b.gep(T.float32, x, [idx], "px", flags=["inbounds"])
    py = b.gep(T.float32, y, [idx], "py", flags=["inbounds"])
    value = b.fadd(b.fmul(a, b.load(T.float32, px, "xv", align=4)), b.load(T.float32, py, "yv", align=4))
    b.store(value, py, align=4)
    nxt = b.add(i, const(T.i32, 1), "next", flags=["nsw"])
    i.add_incoming(const(T.i32, 0), entry)
    i.add_incoming(nxt, loop)
    b.cbr(b.icmp("slt", nxt, n), loop, done)
    b.position_at_end(done)
    b.ret_void()
    return m


def test_builder_saxpy_runs_like_numpy():
    text = str(saxpy_module())
    saxpy = jit_function(text, "saxpy", None, ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_int32)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    expected = np.float32(2.5) * x + y
    saxpy(2.5, x.ctypes.data, y.ctypes.data, len(x))
    np.testing.assert_array_equal(y, expected)


def classify_module() -> Module:
    """i32 classify(i32 v): switch + select + integer ops."""
    m = Module()
    f = m.add_function(Function("classify", T.FunctionType(T.i32, (T.i32,)), arg_names=["v"]))
    (v,) = f.args
    entry, small, big, other, out = (f.append_block(n) for n in ("entry", "small", "big", "other", "out"))
    b = IRBuilder(entry)
    key = b.and_(v, const(T.i32, 3), "key")
    b.switch(key, other, [(const(T.i32, 0), small), (const(T.i32, 1), big)])
    b.position_at_end(small)
    r_small = b.mul(v, const(T.i32, 7), "r_small")
    b.br(out)
    b.position_at_end(big)
    neg = b.icmp("slt", v, const(T.i32, 0), "neg")
    r_big = b.select(neg, b.sub(const(T.i32, 0), v), b.ashr(v, const(T.i32, 1)), "r_big")
    b.br(out)
    b.position_at_end(other)
    r_other = b.xor(v, const(T.i32, 0x55), "r_other")
    b.br(out)
    b.position_at_end(out)
    phi = b.phi(T.i32, "r")
    for value, block in ((r_small, small), (r_big, big), (r_other, other)):
        phi.add_incoming(value, block)
    b.ret(phi)
    return m


def classify_oracle(v: int) -> int:
    key = v & 3
    if key == 0:
        r = v * 7
    elif key == 1:
        r = -v if v < 0 else v >> 1
    else:
        r = v ^ 0x55
    return ctypes.c_int32(r).value


def test_builder_switch_select_runs_like_python():
    fn = jit_function(str(classify_module()), "classify", ctypes.c_int32, ctypes.c_int32)
    for v in [*range(-40, 40), 2**31 - 1, -(2**31), 123456789]:
        assert fn(v) == classify_oracle(v), v


def test_moved_blocks_and_clone_keep_behaviour():
    m = classify_module()
    f = m.get_function("classify")
    f.blocks[1].move_after(f.blocks[-1])  # reorder: 'small' goes last
    copy = clone_function(f, "classify2")
    assert [b.name for b in copy.blocks] == [b.name for b in f.blocks]
    text = str(m)
    counts = instruction_counts(text)
    assert counts["classify2"] == counts["classify"]
    fn = jit_function(text, "classify2", ctypes.c_int32, ctypes.c_int32)
    for v in range(-20, 20):
        assert fn(v) == classify_oracle(v)


def test_builder_module_round_trips():
    text = str(saxpy_module())
    assert str(parse(text)) == text


def test_insert_before_and_position_at_start():
    m = saxpy_module()
    f = m.get_function("saxpy")
    loop = f.blocks[1]
    b = IRBuilder().position_at_start(loop)
    marker = b.add(loop.instructions[0], const(T.i32, 0), "marker")  # after the phi
    assert loop.instructions[1] is marker
    b.position_before(loop.terminator)
    b.fence("acquire", syncscope="singlethread")
    assert loop.instructions[-2].opcode == "fence"
    instruction_counts(str(m))  # verifies


def test_float_constants_print_exactly():
    """Constants of float/half/bfloat are rounded to their type and printed in a form LLVM
    accepts; the JIT returns exactly numpy's rounding."""
    m = Module()
    values = [0.1, 1 / 3, 2.5, 1e-40, -7.25e30]
    for k, v in enumerate(values):
        f = m.add_function(Function(f"c{k}", T.FunctionType(T.float32, ())))
        IRBuilder(f.append_block("entry")).ret(const(T.float32, v))
        h = m.add_function(Function(f"h{k}", T.FunctionType(T.float32, ())))
        b = IRBuilder(h.append_block("entry"))
        b.ret(b.fpext(const(T.half, v), T.float32))
    lookup = jit_module(str(m))
    for k, v in enumerate(values):
        assert np.float32(lookup(f"c{k}", ctypes.c_float)()) == np.float32(v)
        with np.errstate(over="ignore"):  # -7.25e30 is -inf as a half
            assert np.float32(lookup(f"h{k}", ctypes.c_float)()) == np.float32(np.float16(v))


def test_struct_types_made_by_a_pass_are_defined_when_printed():
    m = Module()
    pair = T.NamedStructType("pair", (T.i32, T.float32))  # not registered with add_struct
    f = m.add_function(Function("first", T.FunctionType(T.i32, (T.ptr,)), arg_names=["p"]))
    b = IRBuilder(f.append_block("entry"))
    slot = b.gep(pair, f.args[0], [const(T.i64, 0), const(T.i32, 0)], "slot")
    b.ret(b.load(T.i32, slot, "v"))
    text = str(m)
    assert "%pair = type { i32, float }" in text
    verify(text)
