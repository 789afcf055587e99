"""The 3.x metadata dialect, ``-mattr=+metadata30`` (the feature of that name of AMD's later
AMDIL compiler, HSAFoundation/HSAIL-HLC-Stable ``AMDILBase.td``; its blocks are those of the
Catalyst binaries in reference/amdil/catalyst-clo, ``;version:3:1:111``).

Against the 1.x blocks kernelkit writes by default (the 1:4:53 juniper dumps) it changes:
value types spelled u8/i8…, 64-bit vectors laid out ``total bits >> 7`` slots, pointer records
with ``RO|RW:volatile:restrict``, ``;memory:hwregion:0`` on Evergreen/NI (GDS), a
``;constarg:N:name`` after each pointer argument whose pointee is const, and at the end of the
wrapper block ``;privateid:N`` (the indexed temp holding private memory) and one
``;reflection:N:type`` per argument (its OpenCL C type as written, typedef names kept).

Deviation from AMD's front end, forced by clang: clang marks every ``__constant`` pointer const
(OpenCL 2.0's rule for CL_KERNEL_ARG_TYPE_CONST), so ``constant void* p`` gets a ``;constarg``
that AMD's 3.x compiler writes only for ``const constant void* p``."""

from __future__ import annotations

from kernelkit.abi.amdil_slots import value_slots
from kernelkit.errors import CompileError
from kernelkit.formats.amdil import records as r
from kernelkit.targets.amdil.info import FAMILY_7XX

VERSION = (3, 1, 111)
VERSION_MAJOR = VERSION[0]
PRIVATE_ID = 1        # AMD's DEFAULT_SCRATCH_ID on Evergreen/NI: private memory is x1
# clang names the opaque struct of these handles, AMD's front end the typedef
_HANDLE_TYPES = {"struct _counter32_t*": "counter32_t", "struct _counter64_t*": "counter64_t",
                 "struct _sema_t*": "sema_t"}


def memory_records(device) -> list[r.Record]:
    """What follows ``;memory:hwlocal``: region (GDS) memory on Evergreen and later."""
    return [] if device.family == FAMILY_7XX else [r.Memory("hwregion", 0)]


def argument_records(sig, layout) -> list[r.Record]:
    """The argument records, each const-pointee pointer followed by its ``;constarg``."""
    out: list[r.Record] = []
    for arg, rec in zip(sig.args, layout.metadata_records(), strict=True):
        out.append(rec)
        if arg.kind == "pointer" and "const" in arg.type_qualifiers and \
                arg.type_name not in _HANDLE_TYPES:
            out.append(r.ConstArg(arg.index, arg.name))
    return out


def closing_records(sig) -> list[r.Record]:
    out: list[r.Record] = [r.ResourceId("privateid", PRIVATE_ID)]
    return out + [r.Reflection(a.index, _HANDLE_TYPES.get(a.type_name, a.type_name))
                  for a in sig.args]


def check_arguments(fn, layout) -> None:
    """A 64-bit 3-vector gets one 16-byte slot in this layout (as AMD's compiler lays it out),
    so its third component never reaches the kernel: a kernel that reads it is refused."""
    for arg, slot in zip(fn.args, layout.args, strict=True):
        if slot.kind == "value" and slot.element_bits == 64 and slot.width == 3 and \
                slot.slots < value_slots(64, 3, whole=True) and arg.users:
            raise CompileError(
                f"amdil: -mattr=+metadata30: argument {slot.name} of kernel {fn.name} is a "
                f"3-component 64-bit vector; the 3.x layout gives it one 16-byte slot, so its "
                f"third component cannot reach the kernel (use the default metadata or a "
                f"4-component vector)")
