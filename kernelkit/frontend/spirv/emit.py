"""OpenCL C -> SPIR-V through LLVM's SPIR-V backend (in llvmlite's LLVM 22): ``kernelkit build --emit spirv``.

``emit_spirv(ir_text)`` takes the frontend's SPIR IR (``spir``/``spir64``; address spaces 1 global,
2 constant, 3 local, 4 generic, as the SPIR-V backend numbers them too), moves it to the matching
``spirv32``/``spirv64`` triple and data layout (through kernelkit.ir) and returns the backend's
module. The backend recognises the OpenCL builtins by their mangled names (as with clang's
``-target spirv64``). It is an assertions build that can abort the process: call it in a worker
(``kernelkit.builder.build_spirv``).
"""

from __future__ import annotations

from kernelkit.errors import CompileError

# SPIR triple -> SPIR-V triple (LLVM's SPIRV target: spirv32/spirv64 are the OpenCL "Physical" models)
SPIRV_TRIPLES = {"spir-unknown-unknown": "spirv32-unknown-unknown", "spir64-unknown-unknown": "spirv64-unknown-unknown"}


def emit_spirv(ir_text: str, opt: int = 2) -> bytes:
    from kernelkit import ir
    from kernelkit.llvm_binding import llvm, parse_verified

    module = ir.parse(ir_text)
    triple = SPIRV_TRIPLES.get(module.triple or "")
    if triple is None:
        raise CompileError(f"SPIR-V: the IR's triple {module.triple!r} is not spir or spir64")
    b = llvm()
    machine = b.Target.from_triple(triple).create_target_machine(opt=opt)
    module.triple, module.data_layout = triple, str(machine.target_data)
    try:
        return machine.emit_object(parse_verified(str(module), "the OpenCL C frontend", "spirv"))
    except RuntimeError as exc:
        raise CompileError(f"SPIR-V backend: {str(exc).splitlines()[0]}", log=str(exc)) from exc
