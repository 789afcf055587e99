"""The scheduling attributes clang's AMDGPU target gives OpenCL kernels, so that the code
object metadata (``.max_flat_workgroup_size``...) and the kernel descriptor are clang's.

clang 22 (``AMDGPUTargetCodeGenInfo::setFunctionDeclAttributes``): every kernel gets
``"amdgpu-flat-work-group-size"``: ``"N,N"`` for ``reqd_work_group_size`` with N work-items,
else ``"1,256"`` (OpenCL's default maximum of 256), unless the source says
``amdgpu_flat_work_group_size(min, max)``; ``amdgpu_waves_per_eu``, ``amdgpu_num_sgpr`` and
``amdgpu_num_vgpr`` become ``"amdgpu-waves-per-eu"``, ``"amdgpu-num-sgpr"``, ``"amdgpu-num-vgpr"``.
Compiling for SPIR, clang drops those AMDGPU attributes silently; a source that uses them is
also compiled (``-O0``) for amdgcn, and its kernels' attributes are taken from clang's output.

Two more things clang's amdgcn compile decides from the source:

* ``"frame-pointer"``: clang's driver keeps frame pointers for amdgcn at ``-O0`` only, while the
  frontend's SPIR IR says ``"all"`` at every level; with ``"all"`` LLVM sets up a frame pointer
  (``s_mov_b32 s33, 0``) in every kernel. Above ``-O0`` the attribute goes.
* f32 denormals: clang flushes them (``"denormal-fp-math-f32"="preserve-sign,preserve-sign"``, the
  kernel descriptor's FLOAT_DENORM_MODE_32 = 0) with ``-cl-denorms-are-zero`` and, by default, on
  GFX6-GFX8, which have no fast f32 denormals (AMD's CL2 driver does the same on Bonaire:
  reference/amdcl2); GFX9 and later keep them (``flushes_f32_denormals``).
* hidden (implicit) arguments: clang's kernels call the OpenCL builtins as external functions
  (``-nogpulib``), so LLVM's AMDGPU attributor keeps every hidden argument of a kernel that reaches
  a call it cannot see into, and none (above ``-O0``) of a kernel that reaches no such call
  (``kernels_without_unknown_calls``).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from kernelkit.errors import CompileError
from kernelkit.mux.attributes import remove_attribute, set_attribute

FLAT_WORK_GROUP_SIZE = "amdgpu-flat-work-group-size"
# attributes an AMDGPU source attribute sets, copied from clang's amdgcn compile
SOURCE_ATTRIBUTES = (FLAT_WORK_GROUP_SIZE, "amdgpu-waves-per-eu", "amdgpu-num-sgpr", "amdgpu-num-vgpr")
OPENCL_DEFAULT_MAX_FLAT_WORK_GROUP_SIZE = 256
SOURCE_MARKER = "amdgpu_"       # every such source attribute's spelling starts with it
FRAME_POINTER = "frame-pointer"
F32_DENORMAL_MODE = "denormal-fp-math-f32"
FLUSHED = "preserve-sign,preserve-sign"
DENORMS_ARE_ZERO = "-cl-denorms-are-zero"
_WITHOUT_FAST_F32_DENORMALS = re.compile(r"gfx[678][0-9a-f]{2}")     # GFX6, GFX7, GFX8


def flushes_f32_denormals(processor: str, options) -> bool:
    """Whether clang's OpenCL compile for ``processor`` flushes f32 denormals."""
    return DENORMS_ARE_ZERO in options or bool(_WITHOUT_FAST_F32_DENORMALS.fullmatch(processor))


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


def set_kernel_attributes(module, program_info, source_attributes: dict[str, dict[str, str]],
                          opt_level: int = 2) -> None:
    """Give every kernel of the finalized module clang's scheduling attributes, and every function
    clang's frame-pointer choice for ``opt_level``."""
    if opt_level > 0:
        for fn in module.functions:
            remove_attribute(fn, FRAME_POINTER)
    for sig in program_info.kernels:
        fn = module.get_function(sig.name)
        if fn is None or fn.is_declaration:
            continue
        attrs = {FLAT_WORK_GROUP_SIZE: default_flat_work_group_size(sig.reqd_work_group_size),
                 **source_attributes.get(sig.name, {})}
        for key, value in attrs.items():
            set_attribute(fn, key, value)


def kernels_without_unknown_calls(module) -> frozenset[str]:
    """The kernels that reach (through the functions the module defines) no call of a function it
    only declares (but LLVM intrinsics) and no indirect call: the kernels of clang's ``-nogpulib``
    compile that keep none of their hidden arguments. Inline assembly is no unknown callee to LLVM."""
    from kernelkit.ir.instructions import CallInst
    from kernelkit.ir.values import InlineAsm

    callees: dict[str, set[str]] = {}
    unknown: set[str] = set()
    for fn in module.functions:
        if fn.is_declaration:
            continue
        callees[fn.name] = set()
        for inst in fn.instructions():
            if not isinstance(inst, CallInst) or isinstance(inst.callee, InlineAsm):
                continue
            target = inst.called_function
            if target is None:
                unknown.add(fn.name)
            elif not target.is_declaration:
                callees[fn.name].add(target.name)
            elif not target.name.startswith("llvm."):
                unknown.add(fn.name)
    changed = True
    while changed:
        changed = False
        for name, called in callees.items():
            if name not in unknown and called & unknown:
                unknown.add(name)
                changed = True
    return frozenset(fn.name for fn in module.kernels() if fn.name not in unknown)
