"""The atomic instructions of a kernel, compared with clang's: in the optimised LLVM IR (operation,
address space, syncscope, orderings) and in llvm-objdump's disassembly (the atomic and cache
maintenance instructions, in order)."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import require_tool

from amdgpu.clang_oracle import HEADER

# an LLVM atomic instruction: its operation and pointer address space; then its syncscope and orderings
_ATOMIC = re.compile(r"= (cmpxchg|atomicrmw)( weak)?( volatile)?( \w+)? ptr(?: addrspace\((\d+)\))?|"
                     r"(load|store) atomic( volatile)? [^,]*, ptr(?: addrspace\((\d+)\))?")
_SCOPE = re.compile(r'syncscope\("([\w-]+)"\)')
_ORDERS = re.compile(r"\b(unordered|monotonic|acquire|release|acq_rel|seq_cst)\b")


def ir_atomics(ir_text: str, kernel: str = "k") -> list[tuple]:
    """(operation, address space, syncscope, orderings) of the atomic instructions of ``kernel``, in order."""
    start = ir_text.index(f"@{kernel}(")
    body = ir_text[start:ir_text.index("\n}", start)]
    out = []
    for line in body.splitlines():
        m = _ATOMIC.search(line)
        if m is None:
            continue
        if m.group(1):
            op, space = m.group(1) + (m.group(3) or "") + (m.group(4) or ""), m.group(5)
        else:
            op, space = m.group(6) + (m.group(7) or ""), m.group(8)
        scope = _SCOPE.search(line)
        out.append((op, space or "0", scope.group(1) if scope else "system", tuple(_ORDERS.findall(line[m.end():]))))
    return out


# the memory instructions the scopes and address spaces decide: atomics (global_/flat_/ds_) and
# the cache maintenance LLVM's memory model puts around them (AMDGPUUsage, memory model GFX90A)
_MEMORY_MODEL = re.compile(r"^(global_atomic\w*|flat_atomic\w*|ds_(?:cmpst|add|sub|max|min|and|or|xor|inc|dec|"
                           r"wrxchg|write)\w*|buffer_wbl2|buffer_invl2|buffer_wbinvl1\w*)$")


def objdump_memory_model(path, kernel: str = "k", mcpu: str = "gfx90a") -> list[str]:
    """The atomic and cache maintenance instructions of ``kernel`` in llvm-objdump's disassembly."""
    tool = require_tool("llvm-objdump")
    out = subprocess.run([tool, "-d", f"--mcpu={mcpu}", str(path)], capture_output=True, text=True, check=True).stdout
    start = out.index(f"<{kernel}>:")
    end = out.find("\n\n", start)
    words = [line.split()[0] for line in out[start:end if end > 0 else None].splitlines()[1:] if line.strip()]
    return [w for w in words if _MEMORY_MODEL.match(w)]


def clang_compile(source_path, out_path, *, emit_llvm: bool = False, mcpu: str = "gfx90a") -> str:
    """clang -x cl -cl-std=CL2.0 for amdgcn at -O2 (-nogpulib): an object, or with ``emit_llvm``
    the optimised IR text (returned)."""
    cmd = [sys.executable, "-m", "ziglang", "clang", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "-nostdinc",
           "-Xclang", "-fdeclare-opencl-builtins", "-Xclang", "-cl-ext=+all", "-include", str(HEADER), "-target",
           "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-nogpulib", "-O2",
           *(["-S", "-emit-llvm"] if emit_llvm else ["-c"]), str(source_path), "-o", str(out_path)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out_path.read_text() if emit_llvm else ""
