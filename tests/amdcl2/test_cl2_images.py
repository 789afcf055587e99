"""Image arguments of CL2 kernels (spec 002 "Image arguments"): a pointer-sized handle in the
argument buffer pointing at the image resource (8 dwords), dword 8 the channel data type and
dword 9 the channel order.

Oracle: reference/amdcl2/samplers4 (a driver's binaries, 64- and 32-bit): its kernels
imageTransform/imageTransform2, reconstructed here from what the binary says of them, get the
driver's metadata blobs byte for byte; the driver's code reads each image handle from the
argument buffer and the 8-dword resource at offset 0 through it, and so does ours (GFX7 code,
walked with tests/amdcl2/gcn_loads), ours also reading dwords 8-9 for the channel queries."""

from __future__ import annotations

from amdcl2.gcn_loads import scalar_load_records

from kernelkit.abi import cl2
from kernelkit.formats.amdcl2.binary import read_cl2
from kernelkit.mux.registry import build_binary

SAMPLERS4 = """
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void imageTransform(uint value1, read_only image2d_t inimg, write_only image2d_t outimg) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(outimg, c, read_imageui(inimg, smp, c) * value1);
}
kernel void imageTransform2(uint value1, read_only image2d_t inimg, write_only image2d_t outimg) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(outimg, c, read_imageui(inimg, c) + value1 + get_image_channel_order(inimg)
                + get_image_channel_data_type(inimg));
}
"""


def _reads_through_images(binary, kernel) -> dict[str, set[tuple[int, int]]]:
    """Image argument -> (offset, bytes) of the scalar loads made through its handle: the SGPRs a
    load from the argument buffer put the handle in are followed to the loads based on them."""
    pointer = cl2.user_data_of_code(kernel.kernel_code.properties()).argument_pointer[0]
    records = scalar_load_records(kernel.code)
    out = {}
    for a in cl2.lay_out(cl2.args_from_metadata(kernel.metadata), binary.bits, with_setup=False):
        if a.kind != "image":
            continue
        handles = {dst + (a.offset - off) // 4 for dst, base, off, size in records
                   if base == pointer and off <= a.offset < off + size}
        out[a.name] = {(off, size) for dst, base, off, size in records if base in handles}
    return out


def test_image_kernels_match_the_drivers(reference):
    ours = read_cl2(build_binary(SAMPLERS4, "amdcl2:bonaire", ["-cl-std=CL2.0", "-mamdcl2-driver-version=191205"]))
    driver = read_cl2((reference / "amdcl2" / "samplers4.clo.reconf").read_bytes())
    for k in ours.kernels:
        theirs = driver.kernel(k.name)
        assert k.metadata.to_bytes() == theirs.metadata.to_bytes(), k.name
        resource = (0, 4 * cl2.IMAGE_RESOURCE_DWORDS)
        for name, reads in _reads_through_images(driver, theirs).items():
            assert reads == {resource}, (k.name, name)
        mine = _reads_through_images(ours, k)
        assert all(resource in reads for reads in mine.values()), (k.name, mine)
    # the channel queries read spec 002's dwords 8 (data type) and 9 (order), one 8-byte load
    queried = _reads_through_images(ours, ours.kernel("imageTransform2"))["inimg"]
    assert (4 * cl2.IMAGE_DATA_TYPE_DWORD, 8) in queried and cl2.IMAGE_ORDER_DWORD == cl2.IMAGE_DATA_TYPE_DWORD + 1
