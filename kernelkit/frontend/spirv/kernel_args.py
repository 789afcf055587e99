"""Kernel argument info for SPIR-V kernels: the kernel_arg_* metadata the OpenCL C frontend writes.

Names come from OpName on the parameters (``arg<i>`` without one: AMD IL's metadata needs a name); type names and qualifiers from ``OpString "kernel_arg_type.
<kernel>.<type>,<type>,..."`` and ``"kernel_arg_type_qual.<kernel>.<quals>,..."`` when the producer wrote
them (Khronos' SPIRV-LLVM-Translator does; LLVM's SPIR-V backend does not), else from the SPIR-V
types (SPIR-V integers carry no signedness, so they are spelled signed). Qualifiers: ``const`` for
__constant pointers and FuncParamAttr NoWrite, ``restrict`` for NoAlias, ``volatile`` for Volatile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelkit.errors import FormatError
from kernelkit.formats.spirv import tables as S
from kernelkit.ir import types as T
from kernelkit.ir.metadata import MDString, ValueAsMetadata, md_tuple
from kernelkit.ir.values import const_int, poison

if TYPE_CHECKING:
    from kernelkit.frontend.spirv.translate import SpirvTranslator
    from kernelkit.ir import Function

_SPACE_OF_STORAGE = {5: 1, 0: 2, 4: 3, 8: 4}


def _written(m: SpirvTranslator, key: str, kernel: str) -> list[str] | None:
    """The comma-separated list of ``OpString "<key>.<kernel>.<a>,<b>,"``, if the producer wrote one."""
    prefix = f"{key}.{kernel}."
    for s in m.strings:
        if s.startswith(prefix):
            return s[len(prefix):].split(",")[:-1] if s.endswith(",") else s[len(prefix):].split(",")
    return None


def add_kernel_metadata(m: SpirvTranslator, fid: int, fn: Function) -> None:
    written = _written(m, "kernel_arg_type", fn.name)
    written_quals = _written(m, "kernel_arg_type_qual", fn.name)
    addr, access, types, quals, names = [], [], [], [], []
    for i, (pid, tid) in enumerate(_params(m, fn)):
        inst = m.types.defs[tid]
        space = 0
        words = []
        if inst.name == "TypePointer" and not _is_byval(m, pid):
            space = _SPACE_OF_STORAGE.get(inst.operands[1], 0)
            if space == 2:
                words.append("const")
            for dec, args, _ in m.decorations.get(pid, ()):
                if dec == S.DEC_FUNC_PARAM_ATTR and args[0] == S.PARAM_NOWRITE and "const" not in words:
                    words.append("const")
                if dec == S.DEC_FUNC_PARAM_ATTR and args[0] == S.PARAM_NOALIAS:
                    words.append("restrict")
                if dec == S.DEC_VOLATILE:
                    words.append("volatile")
        name = written[i] if written and i < len(written) else _type_name(m, pid, tid)
        if inst.name == "TypeImage":   # images are global memory objects (OpenCL C frontend: space 1)
            from kernelkit.frontend.spirv.images import access_qualifier

            space = 1
            access.append(access_qualifier(inst.operands))
        elif inst.name == "TypePipe":  # a global memory object too; its type is the packet's, qualifier "pipe"
            from kernelkit.frontend.spirv.pipes import PIPE_ACCESS, packet_type

            space = 1
            access.append(PIPE_ACCESS[inst.operands[1]])
            if not written:
                name = packet_type(m, pid)
            words = ["pipe"]
        else:
            access.append("none")
        addr.append(space)
        types.append(name)
        quals.append(written_quals[i] if written_quals and i < len(written_quals) else " ".join(words))
        names.append(m.names.get(pid) or f"arg{i}")
    fn.metadata["kernel_arg_addr_space"] = md_tuple([ValueAsMetadata(const_int(T.i32, a)) for a in addr])
    for key, vals in (("access_qual", access), ("type", types), ("base_type", types),
                      ("type_qual", quals), ("name", names)):
        fn.metadata[f"kernel_arg_{key}"] = md_tuple([MDString(v) for v in vals])
    for mode, args in m.exec_modes.get(fid, ()):
        if mode in (S.EXEC_LOCAL_SIZE, S.EXEC_LOCAL_SIZE_HINT):
            key = "reqd_work_group_size" if mode == S.EXEC_LOCAL_SIZE else "work_group_size_hint"
            fn.metadata[key] = md_tuple([ValueAsMetadata(const_int(T.i32, a)) for a in args[:3]])
        elif mode == S.EXEC_SUBGROUP_SIZE:
            fn.metadata["intel_reqd_sub_group_size"] = md_tuple([ValueAsMetadata(const_int(T.i32, args[0]))])
        elif mode == S.EXEC_VEC_TYPE_HINT:
            fn.metadata["vec_type_hint"] = _vec_type_hint(args[0])


def _vec_type_hint(code: int):
    """OpExecutionMode VecTypeHint operand (§3.6: low 16 bits data type, high 16 bits width)."""
    kinds = {0: T.i8, 1: T.i16, 2: T.i32, 3: T.i64, 4: T.half, 5: T.float32, 6: T.float64}
    ty, width = kinds.get(code & 0xFFFF, T.i32), code >> 16
    vt = ty if width <= 1 else T.VectorType(ty, width)
    return md_tuple([ValueAsMetadata(poison(vt)), ValueAsMetadata(const_int(T.i32, 1))])


def _type_name(m: SpirvTranslator, pid: int, tid: int) -> str:
    """The OpenCL C type of parameter ``pid`` read from the SPIR-V types; a pointer to bytes by the
    type the kernel accesses through it (``pointee.accessed_pointee``)."""
    if _is_byval(m, pid):
        return m.types.opencl_name(m.types.pointee(tid))
    inst = m.types.defs[tid]
    if inst.name == "TypePointer" and m.types.defs[inst.operands[2]].name == "TypeInt" \
            and m.types.defs[inst.operands[2]].operands[1] == 8:
        from kernelkit.frontend.spirv.pointee import accessed_pointee

        element = accessed_pointee(m, pid)
        if element is not None:
            return m.types.opencl_name(element) + "*"
    return m.types.opencl_name(tid)


def _is_byval(m: SpirvTranslator, pid: int) -> bool:
    return any(dec == S.DEC_FUNC_PARAM_ATTR and args[0] == S.PARAM_BYVAL
               for dec, args, _ in m.decorations.get(pid, ()))


def _params(m: SpirvTranslator, fn: Function) -> list[tuple[int, int]]:
    out = []
    for arg in fn.args:
        pid = next((k for k, v in m.values.items() if v is arg), None)
        if pid is None:   # its result id was defined again by a later instruction
            raise FormatError(f"kernel {fn.name}: parameter {arg.index} has no result id of its own",
                              field="OpFunctionParameter")
        out.append((pid, m.value_types[pid]))
    return out
