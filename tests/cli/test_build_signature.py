"""`kernelkit build` and `kernelkit signature` (issue 2 point 7), checked against the corpus manifest."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from conftest import corpus_manifest

from kernelkit.cli import main
from kernelkit.frontend import clang

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MANIFEST = corpus_manifest()["files"]
USER_CACHE_DIR = os.environ.get("KERNELKIT_CACHE_DIR")
JSON_ARG_KEYS = ("name", "type_name", "base_type", "address_space", "access_qualifier", "type_qualifiers",
                 "size", "align")


@pytest.fixture(autouse=True)
def _isolated(isolated_cache):
    pass   # a cache of the test's own (conftest), the cache on: restored after tests that pass --no-cache


def _run(argv, capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["attributes.cl", "struct_args.cl", "images.cl", "qualifiers.cl",
                                  "atomics_c11.cl", "vector_types.cl"])
def test_signature_json_matches_manifest(name, capsys):
    entry = MANIFEST[name]
    code, out, err = _run(["signature", str(CORPUS / name), "--json", "--cl-std", entry["cl_std"]], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert [k["name"] for k in doc["kernels"]] == [k["name"] for k in entry["kernels"]]
    for got, want in zip(doc["kernels"], entry["kernels"], strict=True):
        for attr in ("reqd_work_group_size", "work_group_size_hint", "vec_type_hint"):
            assert got[attr] == want.get(attr)
        for a, w in zip(got["args"], want["args"], strict=True):
            expected = {"name": w["name"], "type_name": w["type"], "base_type": w.get("base", w["type"]),
                        "address_space": w.get("space", "private"), "access_qualifier": w.get("access", "none"),
                        "type_qualifiers": w.get("quals", []), "size": w["size"], "align": w["align"]}
            assert {k: a[k] for k in JSON_ARG_KEYS} == expected


def test_signature_32bit_pointers(capsys):
    code, out, _ = _run(["signature", str(CORPUS / "address_spaces.cl"), "--json", "-m32"], capsys)
    assert code == 0
    sizes = {a["size"] for k in json.loads(out)["kernels"] for a in k["args"] if a["type_name"].endswith("*")}
    assert sizes == {4}


def test_signature_text_listing(capsys):
    code, out, _ = _run(["signature", str(CORPUS / "reductions.cl")], capsys)
    assert code == 0
    for k in MANIFEST["reductions.cl"]["kernels"]:
        assert f"kernel {k['name']}" in out
    assert "reqd_work_group_size(16,16,1)" in out and "1088 bytes" in out


def test_build_emit_llvm(tmp_path, capsys):
    out_file = tmp_path / "k.ll"
    code, _, err = _run(["build", str(CORPUS / "workgroup_cl20.cl"), "--emit", "llvm", "--cl-std", "CL2.0",
                         "-O3", "-o", str(out_file)], capsys)
    assert code == 0, err
    module = llvm.parse_assembly(out_file.read_text())
    module.verify()
    defined = {f.name for f in module.functions if not f.is_declaration}
    assert {k["name"] for k in MANIFEST["workgroup_cl20.cl"]["kernels"]} <= defined
    assert "alloca" not in out_file.read_text()


def test_build_emit_llvm_to_stdout_32bit(capsys):
    code, out, _ = _run(["build", str(CORPUS / "printf.cl"), "--emit", "llvm", "-o", "-", "-m32"], capsys)
    assert code == 0 and 'target triple = "spir-unknown-unknown"' in out


def test_build_defines_and_includes(tmp_path, capsys):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "w.h").write_text("#define WIDTH_FROM_HEADER 8\n")
    src = tmp_path / "k.cl"
    src.write_text('#include "w.h"\n#if WIDTH != WIDTH_FROM_HEADER\n#error WIDTH must be 8\n#endif\n'
                   "kernel void k(global int *o) { o[0] = WIDTH; }\n")
    args = ["build", str(src), "--emit", "llvm", "-o", "-", "-I", str(tmp_path / "inc")]
    code, out, err = _run([*args, "-D", "WIDTH=8"], capsys)
    assert code == 0 and "store i32 8" in out
    code, out, err = _run([*args, "-D", "WIDTH=4"], capsys)
    assert code == 1 and f"{src}:3:2: error: WIDTH must be 8" in err


def test_compile_error_exits_1_with_diagnostics(tmp_path, capsys):
    src = tmp_path / "bad.cl"
    src.write_text("kernel void k(global int *o) {\n  o[0] = missing;\n}\n")
    for argv in (["build", str(src), "--emit", "llvm"], ["signature", str(src)], ["build", str(src), "-t", "host"]):
        code, _, err = _run(argv, capsys)
        assert code == 1
        assert f"{src}:2:10: error: use of undeclared identifier 'missing'" in err


@pytest.mark.parametrize("argv", [
    ["build", "k.cl", "--bogus"],
    ["build", "k.cl", "-O7", "--emit", "llvm"],
    ["build", "k.cl", "--cl-std", "CL9.9", "--emit", "llvm"],
    ["build", "k.cl", "--emit", "ptx"],
    ["build", "k.cl"],                       # no target and no --emit llvm
    ["signature"],
    ["signature", "k.cl", "-m16"],
])
def test_wrong_usage_exits_2_with_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cl").write_text("kernel void k(global int *o) { o[0] = 1; }\n")
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "error" in err


def test_bad_build_option_exits_1(capsys):
    code, _, err = _run(["build", str(CORPUS / "printf.cl"), "--emit", "llvm", "-o", "-",
                         "--option=-cl-fast-math"], capsys)
    assert code == 1 and "unknown build option '-cl-fast-math'" in err
    code, out, _ = _run(["build", str(CORPUS / "math.cl"), "--emit", "llvm", "-o", "-",
                         "--option=-cl-fast-relaxed-math"], capsys)
    assert code == 0 and "nnan ninf" in out


def test_unknown_target_exits_1_naming_it(capsys):
    code, _, err = _run(["build", str(CORPUS / "printf.cl"), "-t", "no-such-target"], capsys)
    assert code == 1 and "no-such-target" in err and len(err.strip().splitlines()) == 1


def test_build_for_host_target(tmp_path, capsys, monkeypatch):
    # the user's cache: the host target's builtin library is built once there, not per test
    if USER_CACHE_DIR is None:
        monkeypatch.delenv("KERNELKIT_CACHE_DIR")
    else:
        monkeypatch.setenv("KERNELKIT_CACHE_DIR", USER_CACHE_DIR)
    out_file = tmp_path / "k.bin"
    code, _, err = _run(["build", str(CORPUS / "reductions.cl"), "-t", "host", "-o", str(out_file)], capsys)
    assert code == 0, err
    assert out_file.stat().st_size > 0


def test_cache_and_no_cache(capsys):
    argv = ["build", str(CORPUS / "control_flow.cl"), "--emit", "llvm", "-o", "-"]
    before = clang.INVOCATIONS
    assert _run(argv, capsys)[0] == 0
    assert _run(argv, capsys)[0] == 0
    assert clang.INVOCATIONS - before == 1          # the second build came from the cache
    assert _run([*argv, "--no-cache"], capsys)[0] == 0
    assert _run([*argv, "--no-cache"], capsys)[0] == 0
    assert clang.INVOCATIONS - before == 3


def test_console_script():
    exe = shutil.which("kernelkit") or pytest.fail("the kernelkit console script is not installed")
    r = subprocess.run([exe, "signature", str(CORPUS / "qualifiers.cl"), "--json"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    names = [k["name"] for k in json.loads(r.stdout)["kernels"]]
    assert names == [k["name"] for k in MANIFEST["qualifiers.cl"]["kernels"]]


def test_emit_llvm_for_a_target_uses_its_pointer_size(capsys):
    from kernelkit.mux.registry import get_compilers

    infos = get_compilers()
    assert infos, "no targets registered"
    for info in infos:
        device = info.devices()[0]
        name = next(n for n in (info.name, f"{info.name}:{device}", device) if info.parse_target(n) is not None)
        code, out, err = _run(["build", str(CORPUS / "printf.cl"), "--emit", "llvm", "-o", "-", "-t", name],
                              capsys)
        assert code == 0, err
        bits = "64" if info.device_info.pointer_size == 8 else ""
        assert f'target triple = "spir{bits}-unknown-unknown"' in out, info.name


def test_cli_cl_std_choices_are_the_frontends():
    from kernelkit.commands.build import CL_STDS
    from kernelkit.frontend.options import CL_STD_VERSIONS

    assert CL_STDS == tuple(CL_STD_VERSIONS)


def test_import_and_cli_start_up_stay_light():
    """Issue 2 point 1: `import kernelkit` (and building the CLI parser) starts neither clang nor
    LLVM: no llvmlite, ziglang or numpy import, no frontend module loaded."""
    code = ("import sys, kernelkit, kernelkit.cli; kernelkit.cli.build_parser(); "
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('llvmlite', 'ziglang', 'numpy') or m.startswith(('kernelkit.frontend', 'kernelkit.ir')))))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""


def test_code_object_version_flag_sets_the_version_llvm_readelf_reads(tmp_path):
    """`--code-object-version N` on the command line: the ELF's ABI version is N-2 (spec 001, ELF header)."""
    from conftest import ROOT, require_tool

    readelf = require_tool("llvm-readelf")
    for version in (4, 5):
        out = tmp_path / f"saxpy.v{version}.hsaco"
        proc = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(ROOT / "examples" / "saxpy.cl"),
                               "-t", "gfx90a:xnack-", "--code-object-version", str(version), "-o", str(out)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        header = subprocess.run([readelf, "-h", str(out)], capture_output=True, text=True, check=True).stdout
        assert re.search(rf"ABI Version:\s+{version - 2}\b", header), header
