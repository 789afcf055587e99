"""Issue 19 point 4: compile_opencl_c(input_headers=...) confines header names and leaves nothing behind."""

from __future__ import annotations

import tempfile

import pytest

from kernelkit.mux import Context, MuxError, Result
from kernelkit.mux.module import InputHeader
from kernelkit.mux.registry import resolve_target

SRC = '#include "sub/helper.h"\nkernel void k(global int *o) { o[0] = HELPER_VALUE; }\n'


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Temporary files go to tmp/scratch, so every file the compile creates can be seen."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("KERNELKIT_CACHE_DIR", str(tmp_path / "cache"))
    return scratch


def _module():
    info, device = resolve_target("host")
    target = info.create_target(Context(), device)
    target.init_with_builtins(None)
    return target.create_module()


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("name", ["../x.h", "../../escaped.h", "sub/../../x.h", "/tmp/kk-abs-header.h", "",
                                  "./x.h", "a//b.h", "sub\\..\\..\\x.h"])
def test_escaping_header_names_are_errors(name, sandbox, tmp_path):
    before = _files(tmp_path)
    with pytest.raises(MuxError) as exc:
        _module().compile_opencl_c(SRC, input_headers=[InputHeader(name, "#define HELPER_VALUE 1\n")])
    assert exc.value.result is Result.INVALID_VALUE and repr(name) in str(exc.value)
    assert _files(tmp_path) == before
    assert not (tmp_path.parent / "x.h").exists() and not (tmp_path.parent / "escaped.h").exists()


def test_nested_header_names_work_and_leave_nothing_behind(sandbox):
    module = _module()
    module.compile_opencl_c(SRC, input_headers=[InputHeader("sub/helper.h", "#define HELPER_VALUE 7\n")])
    assert "store i32 7" in str(module.llvm_module)
    assert _files(sandbox) == []                     # the headers' folder is gone
    assert not any(o.startswith("-I" + str(sandbox)) for o in module.options)
