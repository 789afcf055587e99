"""amdhsa.printf equals clang's, all of it, when printf sits in helper functions. clang runs LLVM's
AMDGPU printf binding before the inliner: one entry per printf call of the source, numbered in the
order of printf's use list as clang's code generation left it (neither source order nor its
reverse once a function is emitted late or printf is declared after its first use). Oracle:
clang 22 (ziglang) compiling the same source for amdgcn at -O2 (and -O0): the whole metadata
documents are compared, printf records included."""

from __future__ import annotations

import pytest

from amdgpu.clang_oracle import _run_clang, source_metadata
from amdgpu.printf_sources import LATE
from kernelkit.formats.amdgpu.codeobject import CodeObject
from kernelkit.mux.registry import build_binary

# printf in the kernel before and after a helper that prints; a second kernel calls the helper
HELPER = """
void helper(int x) { printf("helper %d\\n", x); }
kernel void k1(global int *a) { printf("first %d\\n", a[0]); helper(a[1]); printf("last %f\\n", (float)a[2]); }
kernel void k2(global int *a) { helper(a[3]); }
"""


def _documents(tmp_path, source: str, version: int, opt: str, mcpu: str = "gfx90a") -> tuple[dict, dict]:
    src = tmp_path / "p.cl"
    src.write_text(source)
    ours = CodeObject.parse(build_binary(source, mcpu, ["-cl-std=CL2.0", f"-mcode-object-version={version}", opt],
                                         filename=str(src)))
    _run_clang(str(src), mcpu, version, "CL2.0", opt, tmp_path / "theirs.o")
    return source_metadata(ours), source_metadata(CodeObject.parse((tmp_path / "theirs.o").read_bytes()))


@pytest.mark.parametrize("version", [4, 5, 6])
def test_printf_in_helpers_is_clangs(tmp_path, version):
    """One entry per printf call of the source (3: the helper's once, not once per inlined copy),
    numbered as clang numbers them."""
    ours, theirs = _documents(tmp_path, HELPER, version, "-O2")
    assert ours == theirs
    assert [entry.split(":")[0] for entry in ours["amdhsa.printf"]] == ["1", "2", "3"]


@pytest.mark.parametrize("opt", ["-O2", "-O0"])
def test_printf_order_of_late_functions_is_clangs(tmp_path, opt):
    ours, theirs = _documents(tmp_path, LATE, 5, opt, "gfx1030")
    assert ours == theirs
    assert len(ours["amdhsa.printf"]) == 5
