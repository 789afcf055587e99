"""Issue 19 point 2 (no command overwrites its input) and issue 16 point 3 (`build` without -o says
where it wrote, with the format's usual suffix); issue 18 point 3 (many sources x targets at once)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kernelkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAXPY = ROOT / "examples" / "saxpy.cl"


@pytest.fixture(autouse=True)
def _isolated(isolated_cache):
    pass   # a cache of the test's own (conftest)


def _run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_default_output_has_the_formats_suffix_and_is_named(tmp_path, capsys):
    src = tmp_path / "saxpy.cl"
    shutil.copy(SAXPY, src)
    code, _, err = _run(["build", src, "-t", "gfx90a"], capsys)
    assert code == 0, err
    out = tmp_path / "saxpy.hsaco"
    assert out.read_bytes()[:4] == b"\x7fELF" and out.read_bytes()[18:20] == (224).to_bytes(2, "little")  # EM_AMDGPU
    assert f"wrote {out}" in err
    code, _, err = _run(["build", src, "--emit", "llvm"], capsys)
    assert code == 0 and (tmp_path / "saxpy.ll").read_text().startswith("; ModuleID") and "saxpy.ll" in err
    (tmp_path / "out").mkdir()
    code, _, err = _run(["build", src, "-t", "gfx90a", "-o", tmp_path / "out"], capsys)    # -o DIR
    assert code == 0 and (tmp_path / "out" / "saxpy.hsaco").read_bytes() == out.read_bytes()


def test_build_never_overwrites_its_input(tmp_path, capsys):
    src = tmp_path / "x.cl"
    shutil.copy(SAXPY, src)
    binary = tmp_path / "x.bin"
    assert _run(["build", src, "-t", "host", "-o", binary], capsys)[0] == 0
    ll = tmp_path / "x.ll"
    assert _run(["build", src, "--emit", "llvm", "-o", ll], capsys)[0] == 0
    before = {p: p.read_bytes() for p in (src, binary, ll)}
    for argv in (["build", binary, "-t", "host", "-o", binary],       # the reported cases, spelled out
                 ["build", ll, "--emit", "llvm", "-o", ll],
                 ["build", ll, "--emit", "llvm"],                    # default output = the input
                 ["build", src, "-t", "host", "-o", src],
                 ["build", src, "-t", "host", "-o", tmp_path / "." / "x.cl"]):
        code, _, err = _run(argv, capsys)
        assert code == 1 and "overwrite" in err and len(err.strip().splitlines()) == 1, (argv, err)
    link = tmp_path / "link.cl"
    link.symlink_to(src)
    code, _, err = _run(["build", src, "-t", "host", "-o", link], capsys)
    assert code == 1 and "overwrite" in err
    assert {p: p.read_bytes() for p in (src, binary, ll)} == before


def test_convert_and_link_refuse_their_input_as_output(tmp_path, capsys):
    il = tmp_path / "p.il"
    il.write_text("il_cs_2_0\nend\n")
    code, _, err = _run(["link", il, "-k", "k", "-o", il], capsys)
    assert code == 1 and "overwrite" in err and il.read_text() == "il_cs_2_0\nend\n"
    isa = tmp_path / "k.visaasm"
    isa.write_text("x")
    code, _, err = _run(["convert", isa, "-o", isa], capsys)
    assert code == 1 and "overwrite" in err and isa.read_text() == "x"


def test_many_sources_and_targets_in_parallel(tmp_path, capsys):
    good = [tmp_path / "a.cl", tmp_path / "b.cl"]
    for i, path in enumerate(good):
        path.write_text(f"kernel void k{i}(global int *o) {{ o[get_global_id(0)] = {i}; }}\n")
    bad = tmp_path / "bad.cl"
    bad.write_text("kernel void k(global int *o) {\n  o[0] = missing;\n}\n")
    out_dir = tmp_path / "out"
    code, out, err = _run(["build", *good, bad, "-t", "host", "-t", "gfx90a", "-j", "2", "-o", out_dir], capsys)
    assert code == 1
    produced = sorted(p.name for p in out_dir.iterdir())
    assert produced == ["a.gfx90a.hsaco", "a.host.kkhost", "b.gfx90a.hsaco", "b.host.kkhost"]
    assert len(out.strip().splitlines()) == 4                       # one line per output
    for name in produced:
        assert any(line.split()[1].endswith(name) for line in out.splitlines()), name
    assert "2 of 6 builds failed" in err
    for target in ("host", "gfx90a"):
        assert f"{bad} -> {target}: " in err
    assert f"{bad}:2:10: error: use of undeclared identifier 'missing'" in err
    from kernelkit.targets.host.binary import read_host_binary

    assert [k.name for k in read_host_binary((out_dir / "b.host.kkhost").read_bytes()).kernels] == ["k1"]


def test_run_save_refuses_an_input(tmp_path, capsys):
    import numpy as np

    data = tmp_path / "x.npz"
    np.savez(data, x=np.ones(4, np.float32))
    before = data.read_bytes()
    code, _, err = _run(["run", SAXPY, "-k", "saxpy", "-g", "4", "--arg", "2.0", "--arg", f"x:@{data}",
                         "--arg", "y:[4]=ones", "--save", data], capsys)
    assert code == 1 and "overwrite" in err and data.read_bytes() == before
