"""The scheduling attributes clang's AMDGPU target gives OpenCL kernels, so that the code
object metadata (``.max_flat_workgroup_size``...) and the kernel descriptor are clang's.

clang 22 (``AMDGPUTargetCodeGenInfo::setFunctionDeclAttributes``): every kernel gets
``"amdgpu-flat-work-group-size"``: ``"N,N"`` for ``reqd_work_group_size`` with N work-items,
else ``"1,256"`` (OpenCL's default maximum of 256), unless the source says
``amdgpu_flat_work_group_size(min, max)``; ``amdgpu_waves_per_eu``, ``amdgpu_num_sgpr`` and
``amdgpu_num_vgpr`` become ``"amdgpu-waves-per-eu"``, ``"amdgpu-num-sgpr"``, ``"amdgpu-num-vgpr"``.
Compiling for SPIR, clang drops those AMDGPU attributes silently; a source that uses them is
also compiled (``-O0``) for amdgcn, and its kernels' attributes are taken from clang's output.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from kernelkit.errors import CompileError
from kernelkit.mux.attributes import set_attribute

FLAT_WORK_GROUP_SIZE = "amdgpu-flat-work-group-size"
# attributes an AMDGPU source attribute sets, copied from clang's amdgcn compile
SOURCE_ATTRIBUTES = (FLAT_WORK_GROUP_SIZE, "amdgpu-waves-per-eu", "amdgpu-num-sgpr", "amdgpu-num-vgpr")
OPENCL_DEFAULT_MAX_FLAT_WORK_GROUP_SIZE = 256
SOURCE_MARKER = "amdgpu_"       # every such source attribute's spelling starts with it


def default_flat_work_group_size(reqd: tuple[int, int, int] | None) -> str:
    if reqd:
        n = reqd[0] * reqd[1] * reqd[2]
        return f"{n},{n}"
    return f"1,{OPENCL_DEFAULT_MAX_FLAT_WORK_GROUP_SIZE}"


def amdgpu_source_attributes(source: str, options, tid, filename: str = "<source>") -> dict[str, dict[str, str]]:
    """Kernel name -> AMDGPU attributes of the source (empty when it uses none)."""
    if SOURCE_MARKER not in source:
        return {}
    from kernelkit.frontend import clang
    from kernelkit.frontend.opencl import BASE_HEADER
    from kernelkit.frontend.options import parse_options
    from kernelkit.ir import parse
    from kernelkit.mux.attributes import get_attribute

    opts = parse_options(options)
    opts.opt_level = 0
    with tempfile.TemporaryDirectory(prefix="kernelkit-amdgpu-attrs-") as tmp:
        src = Path(tmp) / "source.cl"
        src.write_text(source, encoding="utf-8")
        args = [*opts.clang_args(), "-x", "cl", "-cl-no-stdinc", "-nostdinc", "-Xclang", "-fdeclare-opencl-builtins",
                "-target", "amdgcn-amd-amdhsa", f"-mcpu={tid.processor.name}", "-nogpulib", "-include",
                str(BASE_HEADER), "-S", "-emit-llvm", "-o", "out.ll", "source.cl"]
        if filename != "<source>":
            args[:0] = ["-iquote", str(Path(filename).resolve().parent)]
        result = clang.run_clang(args, cwd=tmp)
        out = Path(tmp) / "out.ll"
        if result.returncode != 0 or not out.exists():
            raise CompileError("amdhsa: clang could not read the source's AMDGPU attributes",
                               log=result.stderr)
        module = parse(out.read_text("utf-8"))
    found: dict[str, dict[str, str]] = {}
    for fn in module.functions:
        if fn.is_declaration or fn.calling_conv != "amdgpu_kernel":
            continue
        attrs = {k: v for k in SOURCE_ATTRIBUTES if (v := get_attribute(fn, k)) is not None}
        found[fn.name] = attrs
    return found


def set_kernel_attributes(module, program_info, source_attributes: dict[str, dict[str, str]]) -> None:
    """Give every kernel of the finalized module clang's scheduling attributes."""
    for sig in program_info.kernels:
        fn = module.get_function(sig.name)
        if fn is None or fn.is_declaration:
            continue
        attrs = {FLAT_WORK_GROUP_SIZE: default_flat_work_group_size(sig.reqd_work_group_size),
                 **source_attributes.get(sig.name, {})}
        for key, value in attrs.items():
            set_attribute(fn, key, value)
