"""Rules on LSC untyped messages (IGC documentation/visa/instructions/LSC_UNTYPED.md at
igc-1.0.12504.6), checked on a routine: every enumerated field holds a defined value, transposed
data order is SIMD1 and not used by atomics, only the quad operations carry a channel mask (a
non-empty one), and unused operands are %null. Not checked: the documentation's "caching must be
default (.df) for SLM" — IGC 1.0.12504 itself writes .ca/.wb on SLM messages for DG2 and GenX_IR
accepts them. Each problem is ``(object, rule, detail)`` as in ``validate``."""

from __future__ import annotations

from kernelkit.formats.visa.model import Routine
from kernelkit.formats.visa.tables import (
    EXEC_SIZES,
    LSC_ADDR_SIZES,
    LSC_ADDR_TYPES,
    LSC_CACHING,
    LSC_DATA_ELEMS,
    LSC_DATA_SIZES,
    LSC_OPS,
    LSC_SFIDS,
)
from kernelkit.formats.visa.validate_rules import Check

DATA_ORDERS = {1: "non-transposed", 2: "transposed"}
TRANSPOSED = 2
# LSC_UNTYPED.md "Extra atomic arguments": atomics without, with one and with two data operands
ATOMIC_SOURCES: dict[str, int] = {"iinc": 0, "idec": 0, "load": 0, "icas": 2, "fcas": 2}


def check_lsc(check: Check, owner: str, r: Routine) -> None:
    for n, inst in enumerate(r.instructions or []):
        if inst.name != "lsc_untyped" or inst.sub not in LSC_OPS:
            continue
        name, kind = LSC_OPS[inst.sub]
        f = inst.fields
        where = f"{owner} instruction #{n} ({name})"
        for field, table in (("sfid", dict(enumerate(LSC_SFIDS))), ("l1", dict(enumerate(LSC_CACHING))),
                             ("l3", dict(enumerate(LSC_CACHING))), ("addr_type", LSC_ADDR_TYPES),
                             ("addr_size", LSC_ADDR_SIZES), ("data_size", LSC_DATA_SIZES),
                             ("data_order", DATA_ORDERS)):
            check(f[field] in table, where, f"LSC {field} is one of the defined values", f"{field} = {f[field]}")
        quad = "quad" in kind
        if quad:
            check(0 < f["chmask"] < 16, where, "lsc_load_quad/lsc_store_quad enable some of the X, Y, Z, W "
                  "channels", f"chmask = {f['chmask']:#x}")
        else:
            check(f["chmask"] == 0, where, "only the quad operations carry a channel mask", f"chmask = {f['chmask']:#x}")
            check(f["data_elems"] in LSC_DATA_ELEMS, where, "LSC vector size is 1, 2, 3, 4, 8, 16, 32 or 64",
                  f"data_elems = {f['data_elems']}")
        if f["data_order"] == TRANSPOSED:
            size = EXEC_SIZES.get(f["exec"] & 0xF, 0)
            check(size == 1, where, "transposed LSC messages are SIMD1", f"exec size {size}")
            check(kind != "atomic", where, "transpose is not permitted for atomic operations", name)
        if kind == "atomic":
            sources = ATOMIC_SOURCES.get(name.removeprefix("lsc_atomic_"), 1)
            for k, key in enumerate(("src1", "src2")):
                if key in f:
                    used = f[key].index != 0
                    check(used == (k < sources), where,
                          f"{name} takes {sources} data operand{'s' if sources != 1 else ''} (the others %null)",
                          f"{key} is {'a variable' if used else '%null'}")
        elif kind.startswith("load"):
            check("src1" not in f or f["src1"].index == 0, where, "a load's Src1Data is %null", "src1")
