"""The host device's worker threads as native code: they wait for launches without Python's GIL.

A launch hands its threads' work to a pool of workers as *jobs*; a job is one call of a kernel's
work-item loop entry (``void run(ptr args, ptr tmpl, ptr next, i64 total)``, see
:mod:`kernelkit.targets.host.passes.wrapper`), which takes work-groups from the launch's shared
counter until none is left. Each worker runs ``kk.pool.worker`` for the life of the process (a
Python thread's single foreign call: ctypes released the GIL, so the worker never takes it again):

- idle, it watches the pool's word ``seq`` (which every submission bumps) for about 50 microseconds,
  yielding its CPU each time round, then sleeps on it as a futex; it takes the queued
  jobs in order from a linked list guarded by a futex mutex (three-state, after Drepper,
  "Futexes Are Tricky", mutex 2);
- after a job it decrements the launch's ``left``; the worker reaching 0 stores ``done = 1``
  and wakes the futex word ``done``, on which the caller waits (``kk.pool.wait``, with a
  timeout, so the caller's thread returns to Python regularly: Ctrl-C and launch timeouts).

Layouts (all fields 8 bytes; futex words are the low 32 bits of theirs). The launch's block keeps
its counter, cancel flag and ``done`` on cache lines of their own (the counter is written by every
worker, the cancel flag read at every loop back-edge): nothing else shares them.
Linux/x86-64 only (futex is syscall 202), as the host target is.
"""

from __future__ import annotations

import functools

from kernelkit import ir
from kernelkit.ir import types as T
from kernelkit.ir.builder import IRBuilder, const
from kernelkit.ir.module import BasicBlock, Function
from kernelkit.ir.values import Value, null
from kernelkit.targets.host.worker_layout import (
    FUTEX_WAIT_PRIVATE,
    FUTEX_WAKE_PRIVATE,
    SYS_FUTEX,
    Job,
    Pool,
    SubmitFn,
    Sync,
    WaitFn,
    WorkerFn,
)

i1, i32, i64, ptr = T.i1, T.i32, T.i64, T.ptr
SYS_SCHED_YIELD = 24      # Linux x86-64
# how long an idle worker watches for the next launch before it sleeps, in time-stamp counter ticks
# (about 50 microseconds at 2-3 GHz)
SPIN_CYCLES = 120_000


def _field(struct, name: str) -> int:
    return list(dict(struct._fields_)).index(name)   # every field is 8 bytes


class _Builder:
    """A function of the pool module being built, with helpers for fields, futexes and the mutex."""

    def __init__(self, module: ir.Module, name: str, ret: T.Type, params: tuple, arg_names: tuple) -> None:
        self.module = module
        self.fn = Function(name, T.FunctionType(ret, params), arg_names=arg_names)
        self.fn.attributes = ["nounwind"]
        module.add_function(self.fn)
        self.b = IRBuilder()
        self.start("entry")

    def start(self, name: str) -> BasicBlock:
        return self.at(BasicBlock(name))

    def at(self, block: BasicBlock) -> BasicBlock:
        """Append ``block`` and build there."""
        self.fn.add_block(block)
        self.b.position_at_end(block)
        return block

    def field(self, base: Value, struct, name: str) -> Value:
        return self.b.gep(i64, base, [const(i64, _field(struct, name))], f"{name}.p")

    def load(self, base: Value, struct, name: str, ty: T.Type = i64, ordering: str | None = None) -> Value:
        return self.b.load(ty, self.field(base, struct, name), name, align=8, ordering=ordering)

    def syscall(self, number: int, *args: Value) -> None:
        # (every integer argument 64 bits wide: libc's syscall() reads its arguments as longs)
        syscall = self.module.declare_function("syscall", T.FunctionType(i64, (i64,), vararg=True))
        self.b.call(syscall, [const(i64, number), *args])

    def futex(self, word: Value, op: int, value: Value, timeout: Value | None = None) -> None:
        if value.type != i64:
            value = self.b.zext(value, i64, "futex.val")
        self.syscall(SYS_FUTEX, word, const(i64, op), value, timeout or null(ptr), null(ptr), const(i64, 0))

    def futex_when(self, cond: Value, word: Value, op: int, value: Value, timeout: Value | None = None) -> None:
        """``if (cond) futex(word, op, value, timeout)``; the builder continues after it."""
        call, after = BasicBlock(f"futex.{op}"), BasicBlock(f"after.futex.{op}")
        self.b.cbr(cond, call, after)
        self.at(call)
        self.futex(word, op, value, timeout)
        self.b.br(after)
        self.at(after)

    def call(self, name: str, args: list[Value]) -> None:
        self.b.call(self.module.get_function(name), args)


def _mutex(module: ir.Module) -> None:
    """``kk.pool.lock(ptr)`` / ``kk.pool.unlock(ptr)`` on a 32-bit futex word."""
    f = _Builder(module, "kk.pool.lock", T.void, (ptr,), ("m",))
    b, m = f.b, f.fn.args[0]
    got = b.extract_value(b.cmpxchg(m, const(i32, 0), const(i32, 1), "acquire", "monotonic", name="fast"), [1], "got")
    done, slow = BasicBlock("done"), BasicBlock("slow")
    b.cbr(got, done, slow)
    f.at(slow)
    old = b.atomicrmw("xchg", m, const(i32, 2), "acquire", name="old")
    sleep = BasicBlock("sleep")
    b.cbr(b.icmp("eq", old, const(i32, 0), "free"), done, sleep)
    f.at(sleep)
    f.futex(m, FUTEX_WAIT_PRIVATE, const(i64, 2))
    b.br(slow)
    f.at(done)
    b.ret_void()

    f = _Builder(module, "kk.pool.unlock", T.void, (ptr,), ("m",))
    b, m = f.b, f.fn.args[0]
    old = b.atomicrmw("xchg", m, const(i32, 0), "release", name="old")
    f.futex_when(b.icmp("eq", old, const(i32, 2), "waiters"), m, FUTEX_WAKE_PRIVATE, const(i64, 1))
    b.ret_void()


def _submit(module: ir.Module) -> None:
    """``kk.pool.submit(pool, first, last, n)``: queue the linked jobs first..last, wake ``n`` workers
    (n = 0: only bump ``seq`` and wake all, for ``stop``)."""
    f = _Builder(module, "kk.pool.submit", T.void, (ptr, ptr, ptr, i32), ("pool", "first", "last", "n"))
    b, (pool, first, last, n) = f.b, f.fn.args
    lock = f.field(pool, Pool, "lock")
    queue, wake = BasicBlock("queue"), BasicBlock("wake")
    b.cbr(b.icmp("eq", first, null(ptr), "none"), wake, queue)
    f.at(queue)
    f.call("kk.pool.lock", [lock])
    tail_p = f.field(pool, Pool, "tail")
    tail = b.load(ptr, tail_p, "tail", align=8)
    empty = b.icmp("eq", tail, null(ptr), "empty")
    link = b.select(empty, f.field(pool, Pool, "head"), tail, "link")   # Job.next is field 0
    b.store(first, link, align=8)
    b.store(last, tail_p, align=8)
    f.call("kk.pool.unlock", [lock])
    b.br(wake)
    f.at(wake)
    b.atomicrmw("add", pool, const(i32, 1), "release")
    count = b.select(b.icmp("eq", n, const(i32, 0), "all"), const(i32, 0x7FFFFFFF), n, "count")
    f.futex(pool, FUTEX_WAKE_PRIVATE, count)
    b.ret_void()


def _worker(module: ir.Module) -> None:
    """``kk.pool.worker(pool)``: take jobs until ``stop``; sleep on ``seq`` while the queue is empty."""
    f = _Builder(module, "kk.pool.worker", T.void, (ptr,), ("pool",))
    b, pool = f.b, f.fn.args[0]
    lock = f.field(pool, Pool, "lock")
    head_p = f.field(pool, Pool, "head")
    blocks = {n: BasicBlock(n) for n in ("loop", "pop", "popped", "run", "finish", "idle", "sleep", "spin", "doze",
                                         "exit")}

    def at(name: str) -> None:
        f.at(blocks[name])
    b.br(blocks["loop"])
    at("loop")
    seq = b.load(i32, pool, "seq", align=8, ordering="acquire")
    f.call("kk.pool.lock", [lock])
    job = b.load(ptr, head_p, "job", align=8)
    b.cbr(b.icmp("eq", job, null(ptr), "empty"), blocks["popped"], blocks["pop"])
    at("pop")
    nxt = b.load(ptr, job, "job.next", align=8)
    b.store(nxt, head_p, align=8)
    tail_p = f.field(pool, Pool, "tail")
    b.store(b.select(b.icmp("eq", nxt, null(ptr), "last"), null(ptr), b.load(ptr, tail_p, "tail", align=8),
                     "tail.new"), tail_p, align=8)
    b.br(blocks["popped"])
    at("popped")
    f.call("kk.pool.unlock", [lock])
    b.cbr(b.icmp("eq", job, null(ptr), "idle"), blocks["idle"], blocks["run"])
    at("run")
    entry = f.load(job, Job, "entry", ptr)
    entry_ty = T.FunctionType(T.void, (ptr, ptr, ptr, i64))
    b.call(entry, [f.load(job, Job, "args", ptr), f.load(job, Job, "tmpl", ptr), f.load(job, Job, "counter", ptr),
                   f.load(job, Job, "total")], function_type=entry_ty)
    sync = f.load(job, Job, "sync", ptr)
    left = b.atomicrmw("sub", f.field(sync, Sync, "left"), const(i64, 1), "acq_rel", name="left")
    b.cbr(b.icmp("eq", left, const(i64, 1), "last.job"), blocks["finish"], blocks["loop"])
    at("finish")
    b.atomicrmw("xchg", sync, const(i32, 1), "release")   # done (the caller may free sync once it sees it)
    f.futex(sync, FUTEX_WAKE_PRIVATE, const(i64, 0x7FFFFFFF))
    b.br(blocks["loop"])
    at("idle")
    stop = f.load(pool, Pool, "stop", ordering="acquire")
    b.cbr(b.icmp("ne", stop, const(i64, 0), "stopped"), blocks["exit"], blocks["sleep"])
    at("sleep")
    # before sleeping, watch ``seq`` for SPIN_CYCLES (yielding the CPU each time round): a launch that
    # follows within that time finds the worker awake, without the wake-up a sleeping thread needs
    # (tens of microseconds when its virtual CPU has halted)
    clock = module.declare_function("llvm.readcyclecounter", T.FunctionType(i64, ()))
    deadline = b.add(b.call(clock, []), const(i64, SPIN_CYCLES), "spin.until")
    b.br(blocks["spin"])
    at("spin")
    f.syscall(SYS_SCHED_YIELD)
    now_seq = b.load(i32, pool, "seq.now", align=8, ordering="acquire")
    spin_on = BasicBlock("spin.on")
    b.cbr(b.icmp("ne", now_seq, seq, "submitted"), blocks["loop"], spin_on)
    f.at(spin_on)
    b.cbr(b.icmp("ult", b.call(clock, []), deadline, "spinning"), blocks["spin"], blocks["doze"])
    at("doze")
    f.futex(pool, FUTEX_WAIT_PRIVATE, seq)      # returns at once if a submission bumped seq since
    b.br(blocks["loop"])
    at("exit")
    b.ret_void()


def _wait(module: ir.Module) -> None:
    """``i32 kk.pool.wait(sync, ns)``: 1 once the launch is done; waits up to ``ns`` nanoseconds
    (less on a signal: Python then runs its handlers)."""
    f = _Builder(module, "kk.pool.wait", i32, (ptr, i64), ("sync", "ns"))
    b, (sync, ns) = f.b, f.fn.args
    ts = b.alloca(T.ArrayType(i64, 2), align=8, name="ts")
    second = const(i64, 1_000_000_000)
    b.store(b.udiv(ns, second, "sec"), ts, align=8)
    b.store(b.urem(ns, second, "nsec"), b.gep(i64, ts, [const(i64, 1)], "nsec.p"), align=8)
    d0 = b.load(i32, sync, "done0", align=8, ordering="acquire")
    f.futex_when(b.icmp("eq", d0, const(i32, 0), "running"), sync, FUTEX_WAIT_PRIVATE, const(i64, 0), ts)
    b.ret(b.load(i32, sync, "done", align=8, ordering="acquire"))


def pool_module() -> ir.Module:
    """The pool's functions as a kernelkit.ir module."""
    module = ir.Module("kk.pool")
    _mutex(module)
    _submit(module)
    _worker(module)
    _wait(module)
    return module


class PoolCode:
    """The pool's functions loaded into this process: ``worker``, ``submit``, ``wait``."""

    def __init__(self) -> None:
        from kernelkit.llvm_binding import llvm
        from kernelkit.targets.host.codegen import target_machine
        from kernelkit.targets.host.loader import LoadedObject

        parsed = llvm().parse_assembly(str(pool_module()))
        parsed.verify()
        self._load = LoadedObject(target_machine(opt=2).emit_object(parsed))
        self.worker = WorkerFn(self._load.global_address("kk.pool.worker"))
        self.submit = SubmitFn(self._load.global_address("kk.pool.submit"))
        self.wait = WaitFn(self._load.global_address("kk.pool.wait"))


@functools.cache
def pool_code() -> PoolCode:
    return PoolCode()
