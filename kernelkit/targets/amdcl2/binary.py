"""A finalized CL2 module -> AMD CL2 binary (spec 002).

The kernels take the CL2 argument ABI (``setup_args.py``); LLVM's AMDGPU backend compiles them
for the device's processor as code object V4, whose kernel descriptors kernelkit's code object
V2 writer turns into amd_kernel_code_t in front of each kernel's code (the HSA code object V2
user-SGPR ABI CL2 kernels use). Each amd_kernel_code_t is then written as AMD's drivers write it
(reference/amdcl2: amd_kernel_code_version 1.1, machine version 0.0.0, kernarg size including
the 48 setup bytes rounded to 16, 16-byte alignments). The inner HSA ELF (``.hsatext``,
``&__OpenCL_<k>_kernel``) goes in the outer CL2 ELF with each kernel's metadata blob built from
its signature for the driver version asked for, pointer usage from LLVM's access analysis.

GFX9 kernels always set up FLAT_SCRATCH_INIT (spec 002: 10 user data registers with the setup
pointer; CLRX's AmdCL2 generator: 6/8/10/10/12 and code_properties bit 5 on GCN 1.4): LLVM's
AMDGPU attributor proves kernels that never reach scratch through FLAT need none
("amdgpu-no-flat-scratch-init"), so that attribute is taken off GFX9 kernels before code
generation and LLVM then enables the registers.

Refused with a clear error: device-side enqueue, program-scope data (the inner binary's data
sections and relocations are not written yet), user-SGPR sets outside spec 002's canonical ones.
"""

from __future__ import annotations

from dataclasses import replace

from kernelkit.abi.cl2 import args_from_signature, argument_buffer_size, features_of_code, lay_out, user_data
from kernelkit.errors import CompileError, FormatError
from kernelkit.formats import elf as E
from kernelkit.formats.amdcl2.binary import STT_AMDGPU_HSA_KERNEL, Cl2Binary, Cl2Kernel, device_code
from kernelkit.formats.amdcl2.metadata_build import (
    MetadataArg,
    MetadataKernel,
    build_kernel_metadata,
    setup_metadata_args,
)
from kernelkit.formats.amdgpu.kernel_code_t import AMD_KERNEL_CODE_T_SIZE, AmdKernelCode
from kernelkit.llvm_binding import in_worker
from kernelkit.targets.amdcl2.info import DEVICE_ISA, gfx_level

ACL_VERSION = "AMD-COMP-LIB-v0.8 (0.0.SC_BUILD_NUMBER)"   # every binary of reference/amdcl2
SETUP_BYTES = 48
# amd_kernel_code_t fields as AMD's CL2 drivers write them (reference/amdcl2)
DRIVER_KERNEL_CODE = {"amd_kernel_code_version_major": 1, "amd_kernel_code_version_minor": 1,
                      "amd_machine_version_major": 0, "amd_machine_version_minor": 0,
                      "amd_machine_version_stepping": 0, "kernarg_segment_alignment": 4,
                      "group_segment_alignment": 4, "private_segment_alignment": 4, "call_convention": 0}
# CL2 usage of a pointer argument (bit 0 read or unused, bit 1 written) from the access LLVM's
# optimiser proves (parameter attributes of the optimised kernel)
USAGE_OF_ATTRIBUTE = {"readnone": 1, "readonly": 1, "writeonly": 2}
READ_WRITE = 3


def pointer_usage(amdgpu_ir_text: str) -> dict[str, list[int]]:
    """Kernel name -> usage of each explicit parameter (setup arguments first)."""
    from kernelkit.ir import parse

    out = {}
    for fn in parse(amdgpu_ir_text).kernels():
        usage = []
        for arg in fn.args:
            found = [USAGE_OF_ATTRIBUTE[a] for a in arg.attributes if isinstance(a, str) and a in USAGE_OF_ATTRIBUTE]
            usage.append(min(found) if found else (1 if not arg.uses else READ_WRITE))
        out[fn.name] = usage
    return out


def metadata_args(sig, usage: list[int]) -> list[MetadataArg]:
    """The signature's arguments as CL2 metadata describes them (images and samplers numbered
    apart, read-only and written images apart)."""
    out = []
    counters = {"read": 0, "write": 0, "sampler": 0}
    for a, used in zip(sig.args, usage, strict=True):
        quals = set(a.type_qualifiers)
        m = MetadataArg(a.name, a.type_name, "value", a.element, a.vector_width, is_const="const" in quals,
                        is_restrict="restrict" in quals, is_volatile="volatile" in quals)
        if a.kind in ("struct", "union"):
            m.kind, m.element, m.struct_size = "struct", None, a.size
        elif a.kind == "pointer":
            m.kind, m.address_space, m.usage = "pointer", a.address_space, used
            if a.element is None:
                m.element, m.struct_size = ("void", 0) if a.pointee in (None, "void") else (None, a.pointee_size or 0)
        elif a.kind == "image":
            key = "read" if a.access_qualifier == "read_only" else "write"
            m = MetadataArg(a.name, a.type_name, "image", access=a.access_qualifier, resource_id=counters[key])
            counters[key] += 1
        elif a.kind == "sampler":
            m = MetadataArg(a.name, a.type_name, "sampler", resource_id=counters["sampler"])
            counters["sampler"] += 1
        elif a.kind == "pipe":
            m = MetadataArg(a.name, a.type_name, "pipe", usage=used)
        elif a.kind in ("queue", "event"):
            m = MetadataArg(a.name, a.type_name, a.kind)
        out.append(m)
    return out


def driver_kernel_code(code: AmdKernelCode, kernarg_bytes: int) -> AmdKernelCode:
    return replace(code, **DRIVER_KERNEL_CODE, kernarg_segment_byte_size=(kernarg_bytes + 15) // 16 * 16)


def _check_user_sgprs(name: str, code: AmdKernelCode, gfx9: bool) -> list[str]:
    """The kernel's spec 002 features; its user SGPRs must be the canonical set of those."""
    props = code.properties()
    features = features_of_code(props, gfx9=gfx9)
    expected = user_data(features, gfx9=gfx9).count
    got = code.rsrc2().get("USER_SGPR_COUNT")
    if got != expected:
        raise CompileError(f"amdcl2: kernel {name}: LLVM set up {got} user SGPRs, spec 002's set for "
                           f"{', '.join(features) or 'no features'} is {expected}")
    return features


def _kernels_of(v2_object: bytes) -> dict[str, tuple[AmdKernelCode, bytes]]:
    elf = E.ElfFile.parse(v2_object)
    text_index = elf.section_index(".text")
    for sec in elf.sections:
        if sec.type in (E.SHT_RELA, E.SHT_REL) and sec.info == text_index and elf.relocations(sec):
            raise CompileError("amdcl2: kernels that use program-scope data (constant tables, global "
                               "variables) are not supported yet")
    out = {}
    for sym in elf.symbols(elf.sections_of_type(E.SHT_SYMTAB)[0]):
        if sym.type == STT_AMDGPU_HSA_KERNEL:
            blob = elf.symbol_data(sym)
            out[sym.name] = (AmdKernelCode.parse(blob), blob[AMD_KERNEL_CODE_T_SIZE:])
    return out


def _compiling(module) -> dict:
    """What an LLVM abort names (LLVM runs in a worker process: kernelkit.llvm_binding.in_worker)."""
    return {"target": f"amdcl2:{module.target.device}", "kernels": [k.name for k in module.program_info.kernels]}


def _cl2_ir(module) -> tuple[str, tuple[str, ...], int]:
    """The optimised amdgcn IR of a CL2 module (setup arguments in), its features, e_flags."""
    from kernelkit.abi.hsa import uses_device_queue
    from kernelkit.targets.amdcl2.printf_records import reached_formats
    from kernelkit.targets.amdcl2.setup_args import add_setup_arguments, without_unread_parameters
    from kernelkit.targets.amdhsa import codegen
    from kernelkit.targets.amdhsa.kernel_attributes import set_kernel_attributes

    device, driver = module.target.device, module.driver_version
    tid = module.target.target_id
    try:
        e_flags = device_code(device, driver)
    except FormatError as exc:
        raise CompileError(f"amdcl2: {exc.message}") from None
    if module.target.pointer_size != 8:
        raise CompileError("amdcl2: only 64-bit CL2 binaries are written")
    ir = module.finalized_llvm_module
    if uses_device_queue(str(ir)):
        raise CompileError("amdcl2: device-side enqueue is not supported")
    set_kernel_attributes(ir, module.program_info, module.source_attributes, codegen.opt_level(module.options))
    module.printf_reached = reached_formats(ir)
    add_setup_arguments(ir, module.program_info.kernels)
    module.finalized_llvm_module = None          # rewritten in place: not a mux module any more
    features = module.backend_options.features(tid.processor)
    text = without_unread_parameters(in_worker(codegen.amdgpu_ir, str(ir), tid, 2, module.options, features,
                                               cl2=True, **_compiling(module), stage="passes"))
    if gfx_level(device) >= 9:
        text = with_flat_scratch_init(text)
    return text, features, e_flags


NO_FLAT_SCRATCH_INIT = "amdgpu-no-flat-scratch-init"


def with_flat_scratch_init(amdgpu_ir_text: str) -> str:
    """The kernels without LLVM's "amdgpu-no-flat-scratch-init": their code sets up the
    FLAT_SCRATCH_INIT user SGPRs, as every GFX9 CL2 kernel of AMD's driver does."""
    from kernelkit.ir import parse
    from kernelkit.mux.attributes import has_attribute, remove_attribute

    module = parse(amdgpu_ir_text)
    changed = False
    for fn in module.kernels():
        if has_attribute(fn, NO_FLAT_SCRATCH_INIT):
            remove_attribute(fn, NO_FLAT_SCRATCH_INIT)
            changed = True
    return str(module) if changed else amdgpu_ir_text


def cl2_assembly(module) -> str:
    """``kernelkit build --emit asm -t amdcl2:<device>``: LLVM's assembly of the CL2 kernels."""
    from kernelkit.targets.amdhsa import codegen

    text, features, _ = _cl2_ir(module)
    return in_worker(codegen.emit_assembly, text, module.target.target_id, module.options, features,
                       **_compiling(module))


def build_cl2_binary(module) -> bytes:
    from kernelkit.targets.amdhsa import codegen, legacy

    device, driver = module.target.device, module.driver_version
    tid = module.target.target_id
    signatures = module.program_info.kernels
    from kernelkit.targets.amdcl2.printf_records import kernel_printf_formats

    text, features, e_flags = _cl2_ir(module)
    obj = in_worker(codegen.emit_object, text, tid, module.options, features, **_compiling(module))
    usages = pointer_usage(text)
    printf = kernel_printf_formats(module.printf_reached, text)
    compiled = _kernels_of(legacy.downgrade(obj, tid, 2))
    gfx = gfx_level(device)
    kernels = []
    for index, sig in enumerate(signatures):
        if sig.name not in compiled:
            raise CompileError(f"amdcl2: LLVM produced no code for kernel {sig.name}")
        code, machine_code = compiled[sig.name]
        usage = usages.get(sig.name, [])[SETUP_BYTES // 8:] or [1] * len(sig.args)
        args = metadata_args(sig, usage)
        layout = lay_out(args_from_signature(sig), 64)
        code = driver_kernel_code(code, argument_buffer_size(layout))
        _check_user_sgprs(sig.name, code, gfx >= 9)
        described = MetadataKernel(
            setup_metadata_args(64) + args, kernel_id=1024 + index, kernel_index=index,
            reqd_work_group_size=tuple(sig.reqd_work_group_size or (0, 0, 0)),
            work_group_size_hint=tuple(sig.work_group_size_hint or (0, 0, 0)),
            vec_type_hint=sig.vec_type_hint or "", uses_pipes=any(a.kind == "pipe" for a in args),
            printf=printf.get(sig.name, []), scratch_size=code.workitem_private_segment_byte_size,
            uses_locals=bool(sig.static_local_mem) or any(a.kind == "pointer" and a.address_space == "local"
                                                           for a in args))
        metadata = build_kernel_metadata(described, bits=64, driver_version=driver, gfx_level=gfx)
        kernels.append(Cl2Kernel(sig.name, metadata, code.to_bytes(), machine_code))
    binary = Cl2Binary(64, e_flags, driver, " ".join(module.options), ACL_VERSION, kernels,
                       extra={"isa": DEVICE_ISA[device]})
    return binary.to_bytes()
