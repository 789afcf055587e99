"""OpenCL C -> SPIR-V through LLVM's SPIR-V backend (in llvmlite's LLVM 22): ``kernelkit build --emit spirv``.

``emit_spirv(ir_text)`` takes the frontend's SPIR IR (``spir``/``spir64``; address spaces 1 global,
2 constant, 3 local, 4 generic, as the SPIR-V backend numbers them too), moves it to the matching
``spirv32``/``spirv64`` triple and data layout (through kernelkit.ir) and returns the backend's
module. The backend recognises the OpenCL builtins by their mangled names (as with clang's
``-target spirv64``).

The backend keeps state between modules in one process (a second module can come out with ids
defined twice, which spirv-val rejects) and, being an assertions build, can abort the process:
``emit_spirv_isolated`` runs each emission in a process of its own (``python -m
kernelkit.frontend.spirv.emit``: IR text on standard input, the module on standard output).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def emit_spirv_isolated(ir_text: str, filename: str = "<source>") -> bytes:
    """``emit_spirv`` in a fresh process; LLVM aborting there is a CompileError naming LLVM's message."""
    from kernelkit.builder.pool import llvm_message

    root = str(Path(__file__).resolve().parents[3])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, "-m", "kernelkit.frontend.spirv.emit"], input=ir_text.encode(),
                          capture_output=True, env=env)
    if done.returncode != 0:
        stderr = done.stderr.decode(errors="replace")
        error = CompileError(f"{filename}: LLVM aborted while making SPIR-V (SPIR-V backend): "
                             f"{llvm_message(stderr)} (the process exited with status {done.returncode})")
        error.llvm_output = stderr
        raise error
    return done.stdout


def _main() -> int:
    try:
        data = emit_spirv(sys.stdin.read())
    except CompileError as exc:
        sys.stderr.write(f"LLVM ERROR: {exc}\n")
        return 1
    sys.stdout.buffer.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
