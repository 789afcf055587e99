"""The AMD IL simulator on hand-written programs: structured control flow, LDS, atomics, arena
and private memory against numpy/Python oracles; what it cannot run is refused with errors
naming the line, and every memory access is checked (LaunchError naming kernel, work-item and
address)."""

from __future__ import annotations

import numpy as np
import pytest

from kernelkit.errors import FormatError, LaunchError
from kernelkit.sim.amdil import launch

PROLOG = """il_cs_2_0
dcl_cb cb0[9] ; Constant buffer that holds ABI data
dcl_literal l0, 4, 1, 2, 3
mov r769, cb0[8].x
call 1024;$
endmain
func 1024 ; __OpenCL_k_kernel
dcl_max_thread_per_group 256
dcl_raw_uav_id(1)
dcl_arena_uav_id(8)
mov r1022.xyz0, vTidInGrp.xyz
mov r1023.xyz0, vThreadGrpId.xyz
umad24 r1021.xyz0, r1023.xyz0, cb0[1].xyz0, r1022.xyz0
iadd r1021.xyz0, r1021.xyz0, cb0[6].xyz0
dcl_cb cb1[{slots}]
mov r1, cb1[0]
mov r2, cb1[1]
call 1025 ; k
ret
endfunc ; __OpenCL_k_kernel
;ARGSTART:__OpenCL_k_kernel
;version:1:4:53
;device:juniper
;uniqueid:1024
;memory:hwprivate:0
;memory:hwlocal:0
;pointer:dst:i32:1:1:0:uav:1:4
;value:n:i32:1:1:16
;function:1:1025
;uavid:1
;ARGEND:__OpenCL_k_kernel
func 1025 ; k
{body}
ret_dyn
endfunc ; k
;ARGSTART:k
;uniqueid:1025
;ARGEND:k
end
"""

# dst[gid] = gid * n  (address = dst + gid * 4)
STORE = """ishl r10.x___, r1021.xxxx, l0.zzzz
iadd r10.x___, r10.xxxx, r1.xxxx
imul r11.x___, r1021.xxxx, r2.xxxx
uav_raw_store_id(1) mem0.x___, r10.x, r11.x"""


def program(body: str = STORE, slots: int = 2) -> str:
    return PROLOG.format(body=body, slots=slots)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_hand_written_program_runs():
    dst = np.zeros(128, np.int32)
    launch(program(), "k", [dst, 3], 128, 32)
    assert np.array_equal(dst, np.arange(128) * 3)


def test_out_of_bounds_store_names_kernel_work_item_and_address():
    dst = np.zeros(100, np.int32)
    with pytest.raises(LaunchError) as e:
        launch(program(), "k", [dst, 1], 128, 32)
    msg = str(e.value)
    assert "kernel k" in msg and "work-item (100, 0, 0)" in msg
    assert "address 0x" in msg and "raw UAV store" in msg


def test_out_of_bounds_under_a_false_branch_is_not_an_access():
    # only work-items below n store: the others would be out of bounds
    body = "ult r12.x___, r1021.xxxx, r2.xxxx\nif_logicalnz r12.x\n" + STORE.replace(
        "imul r11.x___, r1021.xxxx, r2.xxxx", "mov r11.x___, r1021.xxxx") + "\nendif"
    dst = np.zeros(100, np.int32)
    launch(program(body), "k", [dst, 100], 128, 32)
    assert np.array_equal(dst, np.arange(100))


def test_unknown_opcode_names_the_line():
    text = program(STORE + "\nfrobnicate r1.x, r2.x")
    with pytest.raises(LaunchError, match=f"line {line_of(text, 'frobnicate')}: .*unknown opcode"):
        launch(text, "k", [np.zeros(128, np.int32), 1], 128, 32)


@pytest.mark.parametrize("body, needle, message", [
    ("if_logicalnz r1.x\nmov r3, r4", "if_logicalnz", "never closed"),
    ("endif", "endif", "endif without if"),
    ("whileloop\nendif", "endif", "endif without if"),
    ("break_logicalnz r1.x", "break_logicalnz", "outside a loop"),
    ("mov r3.q, r4", "mov r3.q", "cannot read operand"),
    ("mov r3, l77", "l77", "literal l77 is not declared"),
])
def test_bad_il_names_the_line(body, needle, message):
    text = program(body)
    with pytest.raises((FormatError, LaunchError)) as e:
        launch(text, "k", [np.zeros(128, np.int32), 1], 128, 32)
    assert f"line {line_of(text, needle)}" in str(e.value)
    assert message in str(e.value)


def test_missing_cb1_slot_is_refused():
    text = program(slots=3)        # dcl_cb cb1[3], the metadata lays out 2 slots
    with pytest.raises(LaunchError, match=r"line \d+: .*cb1\[3\].*2 slot"):
        launch(text, "k", [np.zeros(128, np.int32), 1], 128, 32)
    text = program(STORE + "\nmov r5, cb1[4]")
    with pytest.raises(LaunchError, match=f"line {line_of(text, 'cb1[4]')}: .*missing slot 4"):
        launch(text, "k", [np.zeros(128, np.int32), 1], 128, 32)


def test_endless_loop_is_stopped():
    text = program("whileloop\nendloop")
    with pytest.raises(LaunchError, match=f"line {line_of(text, 'endloop')}.*endless loop"):
        launch(text, "k", [np.zeros(128, np.int32), 1], 128, 32, max_steps=1000)


def test_bad_launches():
    with pytest.raises(LaunchError, match="takes 2 argument"):
        launch(program(), "k", [np.zeros(4, np.int32)], 4, 4)
    with pytest.raises(LaunchError, match="not a multiple"):
        launch(program(), "k", [np.zeros(128, np.int32), 1], 100, 32)
    with pytest.raises(LaunchError, match="numpy array"):
        launch(program(), "k", [5, 1], 4, 4)
    with pytest.raises(FormatError, match="no kernel 'nope'"):
        launch(program(), "nope", [], 4, 4)


def run(body: str, n: int = 64, local: int = 32, value: int = 0, *, extra_decl: str = "") -> np.ndarray:
    dst = np.zeros(n, np.int32)
    launch(program(extra_decl + body), "k", [dst, value], n, local)
    return dst


STORE_R20 = """ishl r10.x___, r1021.xxxx, l0.zzzz
iadd r10.x___, r10.xxxx, r1.xxxx
uav_raw_store_id(1) mem0.x___, r10.x, r20.x"""


def test_loop_with_break_and_continue():
    # s = 0; for (i = 0; ; i++) { if (i >= gid) break; if (i % 3 == 0) continue; s += i;
    #                              if (s > n) break; }
    body = """dcl_literal l5, 0, 1, 3, 0
mov r20.x, l5.x
mov r21.x, l5.x
whileloop
ige r22.x, r21.x, r1021.x
break_logicalnz r22.x
umod r23.x, r21.x, l5.z
mov r24.x, r21.x
iadd r21.x, r21.x, l5.y
ieq r23.x, r23.x, l5.x
continue_logicalnz r23.x
iadd r20.x, r20.x, r24.x
ilt r25.x, r2.x, r20.x
if_logicalnz r25.x
break
endif
endloop
""" + STORE_R20
    got = run(body, 64, 32, 100)
    want = []
    for gid in range(64):
        s = 0
        for i in range(gid):
            if i % 3 == 0:
                continue
            s += i
            if s > 100:
                break
        want.append(s)
    assert np.array_equal(got, want)


def test_nested_if_else_and_return():
    # if (gid & 1) { if (gid & 2) r = 1; else return; } else r = 3; dst[gid] = r (+ 10)
    body = """dcl_literal l6, 1, 2, 3, 10
mov r20.x, l6.w
iand r21.x, r1021.x, l6.x
if_logicalnz r21.x
iand r22.x, r1021.x, l6.y
if_logicalnz r22.x
mov r20.x, l6.x
else
ret_dyn
endif
else
mov r20.x, l6.z
endif
iadd r20.x, r20.x, l6.w
""" + STORE_R20
    got = run(body, 32, 16)
    want = [(11 if g & 2 else 0) if g & 1 else 13 for g in range(32)]
    assert np.array_equal(got, want)


def test_lds_with_barrier_reverses_each_group():
    # lds[lid] = gid; barrier; dst[gid] = lds[31 - lid]
    body = """dcl_literal l7, 31, 4, 0, 0
ishl r30.x, vTidInGrp.x, l0.z
lds_store_id(1) r30.x, r1021.x
fence_threads_lds
inegate r31.x, vTidInGrp.x
iadd r31.x, r31.x, l7.x
ishl r31.x, r31.x, l0.z
lds_load_id(1) r20.x, r31.x
""" + STORE_R20
    got = run(body, 128, 32, extra_decl="dcl_lds_id(1) 128\n")
    want = np.arange(128).reshape(4, 32)[:, ::-1].reshape(-1)
    assert np.array_equal(got, want)


def test_atomic_add_returns_distinct_old_values():
    # every work-item adds 1 to dst[0] and stores the old value to dst[1 + gid]
    body = """dcl_literal l8, 1, 4, 0, 0
uav_read_add_id(1) r20.x, r1.x, l8.x
ishl r10.x, r1021.x, l0.z
iadd r10.x, r10.x, l8.y
iadd r10.x, r10.x, r1.x
uav_raw_store_id(1) mem0.x___, r10.x, r20.x"""
    dst = np.zeros(65, np.int32)
    launch(program(body), "k", [dst, 0], 64, 16)
    assert dst[0] == 64
    assert sorted(dst[1:]) == list(range(64))


def test_arena_bytes_and_private_array():
    # private int a[4]; a[gid & 3] = gid; byte store of a[gid & 3] + 1 at ((char*)dst)[gid]
    body = """dcl_indexed_temp_array x1[4]
dcl_literal l9, 3, 1, 0, 0
iand r30.x, r1021.x, l9.x
mov x1[r30.x].x, r1021.x
mov r20, x1[r30.x]
iadd r20.x, r20.x, l9.y
iadd r31.x, r1.x, r1021.x
uav_arena_store_id(8)_size(byte) r31.x, r20.x
uav_arena_load_id(8)_size(ubyte) r21.x, r31.x"""
    dst = np.zeros(64, np.int32)
    launch(program(body), "k", [dst, 0], 256, 64)
    assert np.array_equal(dst.view(np.uint8), (np.arange(256) + 1).astype(np.uint8))
