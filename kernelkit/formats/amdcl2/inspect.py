"""``kernelkit inspect`` for AMD CL2 binaries (``detect/inspect/render``)."""

from __future__ import annotations

from kernelkit.formats.amdcl2.binary import Cl2Binary, Cl2Kernel, is_cl2, read_cl2
from kernelkit.formats.kernel_info import arg, render_kernel, render_register_fields, resources

# spec 002 argument kinds -> the shared ones (structs are passed by value)
_KINDS = {"struct": "value"}


def detect(data: bytes, path: str) -> bool:
    return is_cl2(data)


def kernel_features(kernel: Cl2Kernel, *, gfx9: bool = False) -> list[str]:
    """spec 002 features as the kernel's amd_kernel_code_t enables them (``gfx9``: a GFX9
    device's, whose kernels all set up FLAT_SCRATCH_INIT); without a kernel header, the
    metadata's enqueue flag."""
    from kernelkit.abi.cl2 import features_of_code

    code = kernel.kernel_code
    if code is None:
        return ["useenqueue"] if kernel.metadata.enqueues_kernel else []
    return features_of_code(code.properties(), gfx9=gfx9)


def is_gfx9(binary: Cl2Binary) -> bool:
    from kernelkit.formats.amdcl2.devices import gfx_level

    return gfx_level(binary.device.lower()) >= 9


def kernel_info(binary: Cl2Binary, kernel: Cl2Kernel) -> dict:
    from kernelkit.abi.cl2 import args_from_metadata, argument_buffer_size, lay_out

    laid_out = lay_out(args_from_metadata(kernel.metadata), binary.bits, with_setup=False)
    args = [arg(a.name, a.type_name, a.offset, a.size, "hidden" if a.setup else _KINDS.get(a.kind, a.kind),
                cl2_kind=a.kind, address_space=a.address_space, access=a.access) for a in laid_out]
    md = kernel.metadata
    code = kernel.kernel_code
    res = resources(kernarg_size=argument_buffer_size(laid_out), code_size=len(kernel.code))
    if code is not None:
        res.update(kernarg_size=code.kernarg_segment_byte_size, sgprs=code.wavefront_sgpr_count, vgprs=code.workitem_vgpr_count,
                   local_memory_size=code.workgroup_group_segment_byte_size,
                   private_memory_size=code.workitem_private_segment_byte_size)
    info: dict = {"name": kernel.name, "args": args, "resources": res,
                  "features": kernel_features(kernel, gfx9=is_gfx9(binary)),
                  "reqd_work_group_size": list(md.reqd_work_group_size),
                  "work_group_size_hint": list(md.work_group_size_hint),
                  "vec_type_hint": md.vec_type_hint,
                  "kernel_index": md.tail_field("kernel_index"),
                  "enqueue_kernel": md.enqueues_kernel}
    if code is not None:
        info["amd_kernel_code_t"] = code.fields()
    return info


def inspect(data: bytes, path: str) -> dict:
    binary = read_cl2(data)
    return {
        "format": "amdcl2", "target": f"amdcl2:{binary.device.lower()}" if binary.device else None,
        "kernels": [kernel_info(binary, k) for k in binary.kernels], "device": binary.device, "bits": binary.bits,
        "driver_version": binary.driver_version, "compile_options": binary.compile_options,
        "acl_version": binary.acl_version, "layout": "old" if binary.old_layout else "new",
        "inner_sections": binary.data_sections(),
    }


def render(info: dict) -> str:
    out = [f"AMD CL2 binary ({info['bits']}-bit), device {info['device']}, driver "
           f"{info['driver_version']}, {info['acl_version']}",
           f"compile options: {info['compile_options']}"]
    for k in info["kernels"]:
        details = [f"features: {', '.join(k['features']) or 'none'}"]
        if "amd_kernel_code_t" in k:
            details += render_register_fields("amd_kernel_code_t", k["amd_kernel_code_t"])
        out += render_kernel(k, details, arg_detail=lambda a: f"{a['address_space']} {a['access']}")
    return "\n".join(out) + "\n"


def disassembly(data: bytes, path: str) -> dict:
    """``inspect --disasm``: each kernel's code (after its amd_kernel_code_t) for the device's
    processor, through LLVM's C disassembler."""
    from kernelkit.formats.amdcl2.devices import device_processor
    from kernelkit.formats.amdgpu.disasm import function_listing

    binary = read_cl2(data)
    device = binary.device.lower()
    try:
        processor = device_processor(device).split(":")[0]
    except KeyError:
        return {"processor": device, "functions": [], "error": f"no processor known for CL2 device {device}"}
    return function_listing([(k.name, 0, k.code) for k in binary.kernels], processor)


def render_disassembly(listing: dict) -> str:
    from kernelkit.formats.amdgpu.disasm import render_listing

    return render_listing(listing)
