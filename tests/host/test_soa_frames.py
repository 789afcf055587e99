"""The frame re-layout (soa_frames): which frame accesses qualify, and the offsets it produces."""

from __future__ import annotations

from kernelkit import ir
from kernelkit.ir import instructions as I
from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE
from kernelkit.targets.host.passes import soa_frames


def frame(*body: str):
    """The frame parameter of a resume function with ``body`` (parsed by kernelkit.ir)."""
    text = ("declare void @g(ptr)\n\ndefine internal fastcc void @k.resume(ptr %kk.coro.hdl, i32 %kk.idx, i64 %i) {\n"
            "entry:\n" + "\n".join(body) + "\n  ret void\n}\n")
    f = ir.parse(text).get_function("k.resume")
    return f, soa_frames.frame_value(f, soa_frames.RESUME_FRAME)


def geps(f) -> list[int]:
    return [i.operands[1].value for i in f.instructions() if isinstance(i, I.GetElementPtrInst)]


def test_offsets_are_columns_of_8_bytes():
    rows = soa_frames.ROW_ITEMS
    assert rows >= MAX_WORK_GROUP_SIZE and rows & (rows - 1)  # room for every work-item, not a power of two
    assert soa_frames.soa_offset(0) == 0 and soa_frames.soa_offset(4) == 4
    assert soa_frames.soa_offset(16) == 2 * 8 * rows and soa_frames.soa_offset(21) == 2 * 8 * rows + 5


def test_word_contained_field_accesses_are_converted():
    f, hdl = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16",
                   "  %v = load i64, ptr %a, align 8",
                   "  %b = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 28",
                   "  store float 1.0, ptr %b, align 4",
                   "  store ptr null, ptr %kk.coro.hdl, align 8")
    assert soa_frames.convertible(hdl)
    soa_frames.rewrite(hdl)
    assert geps(f) == [soa_frames.soa_offset(16), soa_frames.soa_offset(28)]
    assert f"i64 {soa_frames.soa_offset(28)}" in str(f)


def test_straddling_or_escaping_frame_uses_are_refused():
    wide = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16", "  %v = load <4 x float>, ptr %a")
    straddle = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 12", "  %v = load i64, ptr %a")
    indexed = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16",
                    "  %e = getelementptr i32, ptr %a, i64 %i", "  %v = load i32, ptr %e")
    escapes = frame("  call void @g(ptr %kk.coro.hdl)")
    stored = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 8",
                   "  store ptr %kk.coro.hdl, ptr %a, align 8")
    for _, hdl in (wide, straddle, indexed, escapes, stored):
        assert not soa_frames.convertible(hdl)


def test_stores_of_constants_are_field_accesses():
    # LLVM prints float constants as 0.000000e+00 (the sgemm accumulator's first spill)
    f, hdl = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 116",
                   "  store float 0.000000e+00, ptr %a, align 4")
    assert soa_frames.convertible(hdl)
    _, hdl = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 116",
                   "  store double -1.500000e-03, ptr %a, align 4")
    assert not soa_frames.convertible(hdl)   # 4 + 8 bytes straddle a word
    _, hdl = frame("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 112",
                   "  store double -1.500000e-03, ptr %a, align 8")
    assert soa_frames.convertible(hdl)
