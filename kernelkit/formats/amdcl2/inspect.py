"""``kernelkit inspect`` for AMD CL2 binaries (``detect/inspect/render``)."""

from __future__ import annotations

from kernelkit.formats.amdcl2.binary import Cl2Binary, Cl2Kernel, is_cl2, read_cl2


def detect(data: bytes, path: str) -> bool:
    return is_cl2(data)


def kernel_features(kernel: Cl2Kernel) -> list[str]:
    """spec 002 features as the kernel's amd_kernel_code_t enables them (CL2 devices are GFX7/8);
    without a kernel header, the metadata's enqueue flag."""
    from kernelkit.abi.cl2 import features_of_code

    code = kernel.kernel_code
    if code is None:
        return ["useenqueue"] if kernel.metadata.enqueues_kernel else []
    return features_of_code(code.properties())


def kernel_info(binary: Cl2Binary, kernel: Cl2Kernel) -> dict:
    from kernelkit.abi.cl2 import args_from_metadata, lay_out

    args = lay_out(args_from_metadata(kernel.metadata), binary.bits, with_setup=False)
    md = kernel.metadata
    info: dict = {"name": kernel.name, "args": [a.to_json() for a in args],
                  "features": kernel_features(kernel),
                  "reqd_work_group_size": list(md.reqd_work_group_size),
                  "work_group_size_hint": list(md.work_group_size_hint),
                  "vec_type_hint": md.vec_type_hint,
                  "kernel_index": md.tail_field("kernel_index"),
                  "enqueue_kernel": md.enqueues_kernel,
                  "code_size": len(kernel.code)}
    code = kernel.kernel_code
    if code is not None:
        rsrc1 = code.rsrc1()
        info.update(pgmrsrc1=code.compute_pgm_rsrc1, pgmrsrc2=code.compute_pgm_rsrc2,
                    sgprs=code.wavefront_sgpr_count, vgprs=code.workitem_vgpr_count,
                    setup={k: v for k, v in code.fields().items()
                           if k not in ("compute_pgm_rsrc1", "compute_pgm_rsrc2")},
                    user_sgprs=code.rsrc2().get("USER_SGPR_COUNT"),
                    rsrc1_fields=rsrc1)
    return info


def inspect(data: bytes, path: str) -> dict:
    binary = read_cl2(data)
    return {
        "format": "amdcl2", "device": binary.device, "bits": binary.bits,
        "driver_version": binary.driver_version, "compile_options": binary.compile_options,
        "acl_version": binary.acl_version, "layout": "old" if binary.old_layout else "new",
        "kernels": [kernel_info(binary, k) for k in binary.kernels],
        "inner_sections": binary.data_sections(),
    }


def render(info: dict) -> str:
    out = [f"AMD CL2 binary ({info['bits']}-bit), device {info['device']}, driver "
           f"{info['driver_version']}, {info['acl_version']}",
           f"compile options: {info['compile_options']}"]
    for k in info["kernels"]:
        out.append(f"kernel {k['name']}: {', '.join(k['features']) or 'no features'}; "
                   f"sgprs {k.get('sgprs')}, vgprs {k.get('vgprs')}, pgmrsrc1 {k.get('pgmrsrc1', 0):#x}, "
                   f"pgmrsrc2 {k.get('pgmrsrc2', 0):#x}")
        for a in k["args"]:
            out.append(f"  +{a['offset']:4} {a['size']:2} B {a['kind']:8} {a['name']:22} "
                       f"{a['type_name']} ({a['address_space']}, {a['access']})")
    return "\n".join(out) + "\n"
