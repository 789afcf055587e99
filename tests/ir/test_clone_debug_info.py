"""A function cloned by kernelkit.ir (``transforms.clone_function``: the host's vectorised copy of a
kernel, its copy without loop barriers) gets its own distinct DISubprogram, as LLVM's own
CloneFunctionInto gives one. The oracles are LLVM 22's verifier (``opt-22 -passes=verify``: a
subprogram shared by two functions is "attached to more than one function", and LLVM then drops
the module's whole debug info) and ``llvm-dwarfdump-22 --verify`` on a -g host build of a
vectorised kernel with a barrier."""

from __future__ import annotations

import subprocess
from pathlib import Path

import kernelkit
from kernelkit import ir
from kernelkit.frontend.opencl import compile_opencl
from kernelkit.ir.transforms import clone_function
from kernelkit.targets.host.binary import read_host_binary
from tests.conftest import require_tool

ROOT = Path(__file__).resolve().parents[2]

SOURCE = """
static float twice(float x) { return 2.0f * x; }

kernel void scaled(global float *g, local float *l)
{
    size_t lid = get_local_id(0);
    l[lid] = twice(g[get_global_id(0)]);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    g[get_global_id(0)] = l[(lid + 1) % get_local_size(0)] + 1.0f;
}
"""


def test_a_clone_has_its_own_subprogram_for_llvms_verifier():
    module = ir.parse(compile_opencl(SOURCE, ["-g", "-cl-std=CL2.0"], llvm_passes=False).ir_text)
    kernel = module.get_function("scaled")
    copy = clone_function(kernel, "scaled_copy")
    assert copy.metadata["dbg"] is not kernel.metadata["dbg"]
    assert copy.metadata["dbg"].distinct
    out = subprocess.run([require_tool("opt-22"), "-passes=verify", "-S", "-", "-o", "-"], input=str(module),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "more than one function" not in out.stderr and "invalid debug info" not in out.stderr, out.stderr
    # LLVM kept the debug info: both functions have a subprogram, each its own, named like the kernel
    heads = {line.split("@")[1].split("(")[0]: line.rsplit("!dbg ", 1)[1].split()[0]
             for line in out.stdout.splitlines() if line.startswith("define ") and "!dbg " in line}
    assert heads.keys() >= {"scaled", "scaled_copy"} and heads["scaled"] != heads["scaled_copy"]
    nodes = {line.split(" = ", 1)[0]: line for line in out.stdout.splitlines() if line.startswith("!")}
    assert all('DISubprogram(name: "scaled"' in nodes[heads[f]] for f in ("scaled", "scaled_copy"))
    # the copy's locations are in the copy's subprogram (through lexical blocks), none in the original's
    copy_body = out.stdout.split("@scaled_copy(", 1)[1].split("\n}\n", 1)[0]
    locations = {line.rsplit("!dbg ", 1)[1].split(",")[0].strip() for line in copy_body.splitlines()[1:]
                 if "!dbg !" in line}

    def subprogram_of(node: str) -> str:
        while "DISubprogram(" not in nodes[node]:
            node = nodes[node].split("scope: ", 1)[1].split(",")[0].split(")")[0]
        return node

    assert locations and {subprogram_of(loc) for loc in locations} == {heads["scaled_copy"]}


def test_a_vectorised_barrier_kernel_keeps_valid_dwarf(tmp_path):
    """generic_cl30.cl's barrier kernel is vectorised and keeps its work-item copy (the program has
    mutable program-scope variables): with one subprogram for both, LLVM dropped the object's whole
    debug info (no DW_TAG_subprogram at all)."""
    program = kernelkit.Program(ROOT / "tests/corpus/generic_cl30.cl", ["-g", "-cl-std=CL3.0"]).build()
    obj = tmp_path / "generic_cl30.o"
    obj.write_bytes(read_host_binary(program.binary).object_code)
    dwarfdump = require_tool("llvm-dwarfdump-22")
    verify = subprocess.run([dwarfdump, "--verify", str(obj)], capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and "No errors." in verify.stdout, verify.stdout + verify.stderr
    info = subprocess.run([dwarfdump, "--debug-info", str(obj)], capture_output=True, text=True, timeout=120).stdout
    subprograms = [entry for entry in info.split("\n\n") if "DW_TAG_subprogram" in entry]
    assert any('DW_AT_name\t("generic_pointers")' in entry for entry in subprograms), info[:3000]
