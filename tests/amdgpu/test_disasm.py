"""`kernelkit build --emit asm` and `kernelkit inspect --disasm` (LLVM's C disassembler API of a
libLLVM on the machine), against llvm-objdump on the same files. llvm-objdump may be an older
LLVM than the library (Debian: 14/15 beside libllvm22), which spells some operands differently
(literals as ``lit(0xffffffff)`` or ``-1``): instructions are compared by address and mnemonic."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import require_tool

from kernelkit.formats.amdgpu.disasm import DisassemblerUnavailable, disassemble, find_library

SOURCE = """
kernel void saxpy(global const float *x, global float *y, float a, int n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
kernel void count(global int *c, local int *tmp) {
  tmp[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(c, tmp[get_local_size(0) - 1]);
}
"""


def _kk(*args, input_text=None):
    return subprocess.run([sys.executable, "-m", "kernelkit", *args], capture_output=True, text=True)


def _objdump(path, mcpu) -> dict[str, list[tuple[int, str]]]:
    tool = require_tool("llvm-objdump")
    out = subprocess.run([tool, "-d", f"--mcpu={mcpu}", str(path)], capture_output=True, text=True, check=True).stdout
    functions: dict[str, list[tuple[int, str]]] = {}
    current = None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            current = functions.setdefault(m.group(1), [])
        elif current is not None and line.startswith("\t") and "//" in line:
            text, _, comment = line.partition("//")
            current.append((int(comment.split(":")[0], 16), text.split()[0]))
    return functions


def _ours(path) -> dict[str, list[tuple[int, str]]]:
    run = _kk("inspect", str(path), "--disasm")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("disassembly for ") and " by " in lines[0]    # the library is named
    functions: dict[str, list[tuple[int, str]]] = {}
    for line in lines[1:]:
        if line.endswith(":") and not line.startswith(" "):
            current = functions.setdefault(line[:-1], [])
        else:
            address, _, text = line.strip().partition(": ")
            current.append((int(address, 16), text.split()[0]))
    return functions


@pytest.mark.parametrize("mcpu", ["gfx90a", "gfx1030"])
def test_disasm_matches_llvm_objdump(tmp_path, mcpu):
    find_library()
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    out = tmp_path / "k.hsaco"
    assert _kk("build", str(src), "-t", mcpu, "-o", str(out)).returncode == 0
    ours, theirs = _ours(out), _objdump(out, mcpu)
    assert {"saxpy", "count"} <= set(ours)
    for name, instructions in ours.items():
        assert instructions == theirs[name][:len(instructions)]
        if name in ("saxpy", "count"):
            assert len(instructions) > 5 and instructions[-1][1] == "s_endpgm"
    asm = tmp_path / "k.s"
    assert _kk("build", str(src), "-t", mcpu, "--emit", "asm", "-o", str(asm)).returncode == 0
    text = asm.read_text()
    start = text.index("\nsaxpy:")
    body = text[start:text.index(".Lfunc_end", start)]
    mnemonics = [ln.split()[0] for ln in body.splitlines()[2:]
                 if ln.startswith("\t") and not ln.split()[0].startswith((".", ";"))]
    assert mnemonics == [m for _, m in ours["saxpy"]]


def test_cl2_disasm_and_clear_refusals(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    for device, processor in (("tonga", "gfx802"), ("bonaire", "gfx704")):
        out = tmp_path / f"{device}.clo"
        assert _kk("build", str(src), "-t", f"amdcl2:{device}", "-o", str(out), "--cl-std", "CL2.0").returncode == 0
        run = _kk("inspect", str(out), "--disasm")
        if device == "tonga":
            assert run.returncode == 0 and run.stdout.startswith("disassembly for gfx802 by ")
            assert "saxpy:" in run.stdout and "s_endpgm" in run.stdout
        else:       # LLVM aborts on GFX7 subtargets: refused before the library is called
            assert run.returncode == 1 and run.stderr.strip().count("\n") == 0
            assert "cannot disassemble gfx704" in run.stderr and "Traceback" not in run.stderr
        asm = _kk("build", str(src), "-t", f"amdcl2:{device}", "--emit", "asm", "-o", "-", "--cl-std", "CL2.0")
        assert asm.returncode == 0 and f'"amdgcn-amd-amdhsa--{processor}' in asm.stdout
    with pytest.raises(DisassemblerUnavailable, match="GFX8"):
        disassemble(b"\0" * 8, "gfx601")


def test_missing_library_is_a_clear_message(tmp_path, monkeypatch):
    src = tmp_path / "k.cl"
    src.write_text(SOURCE)
    out = tmp_path / "k.hsaco"
    assert _kk("build", str(src), "-t", "gfx90a", "-o", str(out)).returncode == 0
    monkeypatch.setenv("KERNELKIT_LIBLLVM", str(tmp_path / "libLLVM-missing.so"))
    run = _kk("inspect", str(out), "--disasm")
    assert run.returncode == 1 and "libLLVM-missing.so: no such file" in run.stderr
    assert "Traceback" not in run.stderr
    host = _kk("build", str(src), "-t", "host", "--emit", "asm", "-o", str(tmp_path / "h.s"))
    assert host.returncode == 1 and "writes no assembly" in host.stderr
