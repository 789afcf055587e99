"""The runtime ABI tables as spec 000 prints them (read from ../shared/specs/000_*.txt), checked
row by row against what kernelkit writes: cb0 "Reserved Locations" for clEnqueueNDRangeKernel and
clEnqueueTask, and the 7XX/8XX "Image Metadata" layouts."""

from __future__ import annotations

import re
import struct

import pytest
from conftest import spec_text

from kernelkit.abi.amdil import ImageDesc, image_constants
from kernelkit.abi.amdil_cb0 import CB0_SIZE, CB0_TABLE, Dispatch, fill_cb0


def spec_000() -> str:
    return spec_text("000")


def cb0_rows() -> list[tuple[int, int, str, str, str | None]]:
    """(first byte, last byte, location, NDRange text, Task text or None) per table row."""
    rows = []
    for m in re.finditer(r"^(\d+)-(\d+)\t(cb0\[\d\]\.[xyzw])\t([^\t\n]*)(?:\t([^\t\n]*))?$",
                         spec_000(), re.M):
        task = m.group(5).strip() if m.group(5) and m.group(5).strip() else None
        rows.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4).strip(), task))
    assert len(rows) == 35, rows
    return rows


# A dispatch whose every quantity is distinct, and what each phrase of the spec's NDRange
# column means for it (the reading of the spec text, independent of kernelkit's table).
D = Dispatch.ndrange((96, 40, 12), (8, 4, 2), offset=(5, 7, 11), private_ring_offset=0x1100,
                     private_per_thread=48, local_ring_offset=0x2200, local_per_group=640,
                     math_table_pointer=0x3300, data_segment_offset=0x4400, printf_offset=0x5500,
                     printf_size=0x660, group_offset=(2, 3, 13))
MEANING = [
    (r"global_work_size\[(\d)\]/local_work_size\[\1\]",
     lambda m: (96, 40, 12)[int(m[1])] // (8, 4, 2)[int(m[1])]),
    (r"global_work_size\[(\d)\]", lambda m: (96, 40, 12)[int(m[1])]),
    (r"local_work_size\[(\d)\]", lambda m: (8, 4, 2)[int(m[1])]),
    (r"work_dim", lambda m: 3),
    (r"Offset to private memory ring", lambda m: 0x1100),
    (r"Private memory allocated per thread", lambda m: 48),
    (r"Offset to local memory ring", lambda m: 0x2200),
    (r"Local memory allocated per group", lambda m: 640),
    (r"pointer to location in global buffer that math library tables start", lambda m: 0x3300),
    (r"([0-9.]+) as IEEE-32bit float", lambda m: struct.unpack("<I", struct.pack("<f", float(m[1])))[0]),
    (r"Global Offset for the ([xyz]) dimension", lambda m: (5, 7, 11)["xyz".index(m[1])]),
    (r"Global single dimension flat offset, \$x \* y \* z\$", lambda m: 5 * 7 * 11),
    (r"Group Offset for the ([xyz]) dimension", lambda m: (2, 3, 13)["xyz".index(m[1])]),
    (r"Group single dimension flat offset, \$x \* y \* z\$", lambda m: 2 * 3 * 13),
    (r"Offset in the global buffer to where data segment exists", lambda m: 0x4400),
    (r"Offset into buffer for printf support", lambda m: 0x5500),
    (r"Size of the printf buffer", lambda m: 0x660),
    (r"0", lambda m: 0),
]


def expected(text: str) -> int:
    for pattern, value in MEANING:
        m = re.match(pattern + r"\Z" if pattern == "0" else pattern, text)
        if m:
            return value(m)
    raise AssertionError(f"no meaning for spec text {text!r}")


def word(cb0: bytes, offset: int) -> int:
    return struct.unpack_from("<I", cb0, offset)[0]


def test_cb0_table_has_every_row_of_the_spec_at_its_offset():
    rows = cb0_rows()
    assert [(first, loc) for first, _, loc, _, _ in rows] == [(o, loc) for o, loc, _, _ in CB0_TABLE]
    for first, last, loc, _, _ in rows:
        index, comp = int(loc[4]), "xyzw".index(loc[-1])
        assert first == index * 16 + comp * 4 and last == first + 3, loc
    assert CB0_SIZE >= rows[-1][1] + 1


def test_cb0_ndrange_bytes_match_every_spec_row():
    cb0 = fill_cb0(D)
    for first, _, loc, ndrange, _ in cb0_rows():
        assert word(cb0, first) == expected(ndrange), (loc, ndrange)


def test_cb0_task_bytes_match_every_spec_row():
    """clEnqueueTask: the spec's Task column where it gives a value, the NDRange meaning where
    it leaves the cell empty (private/local rings, math tables, offsets, printf)."""
    cb0 = fill_cb0(D, task=True)
    for first, _, loc, ndrange, task in cb0_rows():
        want = int(task) if task is not None else expected(ndrange)
        assert word(cb0, first) == want, (loc, task, ndrange)


def image_rows() -> list[tuple[int, str, str]]:
    rows = [(int(m[1]), m[3].strip(), m[4].strip()) for m in re.finditer(
        r"^(\d+)-(\d+)\t(\w+)\t([\w./]+)\t?[^\n]*$", spec_000(), re.M) if not m[3].startswith("cb")]
    assert len(rows) == 8, rows
    return rows


def test_image_constants_follow_the_spec_layouts():
    img = ImageDesc(width=64, height=16, depth=4, data_type=0x1A, channel_order=0x10B3,
                    row_pitch=256, slice_pitch=4096, offset=0x80)
    ints = {"width": 64, "height": 16, "depth": 4, "data_type": 0x1A, "channel_order": 0x10B3,
            "row_pitch": 256, "slice_pitch": 4096, "offset": 0x80}
    floats = {"1.0f/width": 1 / 64, "1.0f/height": 1 / 16, "1.0f/depth": 1 / 4}
    r7, r8 = image_constants(img, "7XX"), image_constants(img, "Evergreen")
    assert len(r7) == len(r8) == 32     # "two sequential slots or 32 bytes"
    for first, seven, eight in image_rows():
        assert word(r7, first) == ints[seven], seven
        if eight in floats:
            assert struct.unpack_from("<f", r8, first)[0] == pytest.approx(floats[eight]), eight
        else:
            assert word(r8, first) == ints[eight], eight
    assert image_constants(img, "Northern Islands") == r8
