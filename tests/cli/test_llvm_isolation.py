"""Issue 17 point 3 for the low-level entry points: the ComputeMux API (``Module.create_binary``,
``create_assembly``, ``mux.registry.build_binary``) and ``build --emit visaasm`` compile where LLVM
aborting cannot end the caller (``kernelkit.llvm_binding.in_worker``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import msgpack
import pytest

from kernelkit.errors import CompileError
from kernelkit.mux.context import Context
from kernelkit.mux.module import SERIAL_MAGIC, SERIAL_VERSION
from kernelkit.mux.registry import build_binary, resolve_target

ROOT = Path(__file__).resolve().parents[2]
# gfx600 (Southern Islands) has no flat atomics: LLVM 22 reports "Cannot select: ... AtomicLoadAdd" and
# aborts (tests/cli/test_builder.py shows the in-process abort)
# (an atomic on an object that is global or local by a run-time choice: its address space stays generic)
ATOMIC_ADD = ("kernel void bump(global atomic_int *counter, local atomic_int *slot, int where) {\n"
              "  atomic_fetch_add(where ? (generic atomic_int *)counter : (generic atomic_int *)slot, 1);\n}\n")
# s_memrealtime exists from GFX8 on: x86 and GFX7 instruction selection cannot select the intrinsic
STAMP_IR = """\
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

define spir_kernel void @stamp(ptr addrspace(1) %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 !kernel_arg_name !5 {
  %t = call i64 @llvm.amdgcn.s.memrealtime()
  store i64 %t, ptr addrspace(1) %out, align 8
  ret void
}

declare i64 @llvm.amdgcn.s.memrealtime()

!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1}
!2 = !{!"none"}
!3 = !{!"ulong*"}
!4 = !{!""}
!5 = !{!"out"}
"""


@pytest.fixture(autouse=True)
def _no_cache_writes(monkeypatch):
    # kernelkit's own prebuilt libraries are still read from the user's cache; nothing is written
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "1")
    monkeypatch.delenv("KERNELKIT_BUILD_IN_PROCESS", raising=False)


def mux_module(target_name: str, ir_text: str):
    info, device = resolve_target(target_name)
    target = info.create_target(Context(), device)
    target.init_with_builtins(None)
    module = target.create_module()
    module.deserialize(msgpack.packb({"magic": SERIAL_MAGIC, "version": SERIAL_VERSION, "compiler": info.name,
                                      "device": device, "state": "compiled", "options": [], "ir": ir_text}))
    module.finalize()
    return module


def test_build_binary_survives_llvm_aborting():
    with pytest.raises(CompileError) as exc:
        build_binary(ATOMIC_ADD, "gfx600", ["-cl-std=CL2.0"], filename="bump.cl")
    message = str(exc.value)
    assert "LLVM aborted while compiling kernel bump for" in message and "gfx600" in message
    assert "Cannot select" in message and "AtomicLoadAdd" in message and "SIGABRT" in message
    # the caller goes on: the same API builds the next program (a fresh worker), for a device that has them
    assert build_binary("kernel void k(global int *o) { *o = 1; }", "gfx803")[:4] == b"\x7fELF"


@pytest.mark.parametrize("target_name, method", [("host", "create_binary"), ("gfx700", "create_binary"),
                                                 ("gfx700", "create_assembly"),
                                                 ("amdcl2:bonaire", "create_binary"),
                                                 ("amdcl2:bonaire", "create_assembly")])
def test_mux_module_survives_llvm_aborting(target_name, method):
    module = mux_module(target_name, STAMP_IR)
    with pytest.raises(CompileError) as exc:
        getattr(module, method)()
    message = str(exc.value)
    assert "LLVM aborted while compiling kernel stamp for" in message
    assert "Cannot select: intrinsic %llvm.amdgcn.s.memrealtime" in message and "SIGABRT" in message


def test_mux_module_errors_keep_their_type_across_the_worker():
    # an error raised in the worker (not an abort) reaches the caller as the same exception
    module = mux_module("gfx700", STAMP_IR.replace("llvm.amdgcn.s.memrealtime", "undefined_helper"))
    with pytest.raises(CompileError, match="undefined_helper"):
        module.create_binary()


def test_emit_visaasm_compiles_outside_the_caller(tmp_path):
    src = tmp_path / "scale.cl"
    src.write_text("kernel void scale(global float *x, float a) { x[get_global_id(0)] *= a; }\n")
    out = tmp_path / "scale.visaasm"
    code = textwrap.dedent(f"""
        import sys
        from kernelkit.cli import main
        assert main(["build", {str(src)!r}, "-t", "visa:tgllp", "--emit", "visaasm", "-o", {str(out)!r}]) == 0
        print(sorted(m for m in sys.modules if m.startswith(("kernelkit.targets", "kernelkit.frontend"))))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"          # no compiler module ran in the CLI's process
    from kernelkit.formats.visa import parse_visaasm

    assert [k.name for k in parse_visaasm(out.read_text()).kernels] == ["scale"]
