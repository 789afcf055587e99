"""The simulator runs work-groups in batches on one reused register file; a new batch must see the
state a fresh launch sees: variables zeroed unless the kernel writes every byte of them before reading
(kernelkit.sim.visa.entry_defs), inputs and r0 (group ids) reloaded. A kernel that writes half of a
variable (an execution size of 8, a predicated write), reads all of it and finally overwrites an input
gives the same results — numpy's, from the zeroed start — in every batch, with batches of one group
and of the whole launch."""

from __future__ import annotations

import numpy as np
import pytest

from kernelkit.abi.visa import Payload, PayloadInput
from kernelkit.formats.visa import parse_visaasm
from kernelkit.sim.visa import decode, launch

HALF_WRITES = """.version 4.1
.kernel "half_writes"
.decl LID v_type=G type=uw num_elts=16 align=GRF
.decl OUT v_type=G type=uq num_elts=1 align=qword
.decl SCALE v_type=G type=d num_elts=1 align=dword
.decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>
.decl HALF v_type=G type=ud num_elts=16 align=GRF
.decl SOME v_type=G type=ud num_elts=16 align=GRF
.decl WHOLE v_type=G type=ud num_elts=16 align=GRF
.decl GID v_type=G type=ud num_elts=16 align=GRF
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.input LID offset=32 size=32
.input OUT offset=64 size=8
.input SCALE offset=72 size=4
.function "_main_0"
_main_0:
    mov (M1, 8) HALF(0,0)<1> LID(0,0)<1;1,0>
    mul (M1, 16) WHOLE(0,0)<1> R0(0,1)<0;1,0> SCALE(0,0)<0;1,0>
    cmp.lt (M1, 16) P1 LID(0,0)<1;1,0> 0x4:uw
    (P1) mov (M1, 16) SOME(0,0)<1> WHOLE(0,0)<1;1,0>
    add (M1, 16) HALF(0,0)<1> HALF(0,0)<1;1,0> SOME(0,0)<1;1,0>
    add (M1, 16) HALF(0,0)<1> HALF(0,0)<1;1,0> WHOLE(0,0)<1;1,0>
    mul (M1, 16) GID(0,0)<1> R0(0,1)<0;1,0> 0x10:ud
    add (M1, 16) GID(0,0)<1> GID(0,0)<1;1,0> LID(0,0)<1;1,0>
    shl (M1, 16) GID(0,0)<1> GID(0,0)<1;1,0> 0x2:ud
    add (M1, 16) ADDR(0,0)<1> OUT(0,0)<0;1,0> GID(0,0)<1;1,0>
    lsc_store.ugm (M1, 16) flat[ADDR]:a64 HALF:d32
    add (M1, 16) LID(0,0)<1> LID(0,0)<1;1,0> 0x3:uw
    ret (M1, 1)
"""
GROUPS = 6


@pytest.mark.parametrize("batch_lanes", [16, 1 << 16])
def test_every_batch_starts_from_zeroed_variables(batch_lanes, monkeypatch):
    import importlib

    monkeypatch.setattr(importlib.import_module("kernelkit.sim.visa.launch"), "MAX_BATCH_LANES", batch_lanes)
    payload = Payload("half_writes", "dg2", 16, [
        PayloadInput("LID", "local_id", "uw", 16, 32, 32, dim=0),
        PayloadInput("OUT", "argument", "uq", 1, 64, 8, arg_index=0),
        PayloadInput("SCALE", "argument", "d", 1, 72, 4, arg_index=1)])
    out = np.full(16 * GROUPS, 7, np.uint32)
    stats = launch(decode(parse_visaasm(HALF_WRITES).kernels[0]), payload, [out, np.int32(1000)], [16 * GROUPS], [16])
    group, lid = np.divmod(np.arange(16 * GROUPS), 16)
    half = np.where(lid < 8, lid, 0)                      # lanes 8..15 of HALF were never written: zero
    some = np.where(lid < 4, group * 1000, 0)             # SOME only where the predicate held
    np.testing.assert_array_equal(out, half + some + group * 1000)
    assert stats.work_groups == GROUPS
