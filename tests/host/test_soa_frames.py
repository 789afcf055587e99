"""The frame re-layout (soa_frames): which frame accesses qualify, and the offsets it produces."""

from __future__ import annotations

from kernelkit.runtime.ndrange import MAX_WORK_GROUP_SIZE
from kernelkit.targets.host.irtext import Function
from kernelkit.targets.host.passes import soa_frames


def fn(*body: str) -> Function:
    return Function("k.resume", "define internal fastcc void @k.resume(ptr %kk.coro.hdl, i32 %kk.idx) {", list(body))


def test_offsets_are_columns_of_8_bytes():
    rows = soa_frames.ROW_ITEMS
    assert rows >= MAX_WORK_GROUP_SIZE and rows & (rows - 1)  # room for every work-item, not a power of two
    assert soa_frames.soa_offset(0) == 0 and soa_frames.soa_offset(4) == 4
    assert soa_frames.soa_offset(16) == 2 * 8 * rows and soa_frames.soa_offset(21) == 2 * 8 * rows + 5


def test_word_contained_field_accesses_are_converted():
    f = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16",
           "  %v = load i64, ptr %a, align 8",
           "  %b = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 28",
           "  store float 1.0, ptr %b, align 4",
           "  store ptr null, ptr %kk.coro.hdl, align 8")
    assert soa_frames.convertible(f, soa_frames.RESUME_FRAME)
    soa_frames.rewrite(f, soa_frames.RESUME_FRAME)
    assert f.body[0].endswith(f"i64 {soa_frames.soa_offset(16)}") and f.body[2].endswith(f"i64 {soa_frames.soa_offset(28)}")


def test_straddling_or_escaping_frame_uses_are_refused():
    wide = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16", "  %v = load <4 x float>, ptr %a")
    straddle = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 12", "  %v = load i64, ptr %a")
    indexed = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 16",
                 "  %e = getelementptr i32, ptr %a, i64 %i", "  %v = load i32, ptr %e")
    escapes = fn("  call void @g(ptr %kk.coro.hdl)")
    for f in (wide, straddle, indexed, escapes):
        assert not soa_frames.convertible(f, soa_frames.RESUME_FRAME)


def test_stores_of_exponent_form_constants_are_field_accesses():
    # LLVM prints float constants as 0.000000e+00 (the sgemm accumulator's first spill)
    f = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 116",
           "  store float 0.000000e+00, ptr %a, align 4",
           "  store double -1.500000e-03, ptr %a, align 4")
    assert soa_frames._access_size(f.body[1], "%a") == 4
    g = fn("  %a = getelementptr inbounds nuw i8, ptr %kk.coro.hdl, i64 112",
           "  store double -1.500000e-03, ptr %a, align 8")
    assert soa_frames.convertible(g, soa_frames.RESUME_FRAME)
