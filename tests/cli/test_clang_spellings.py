"""Issue 16 point 3: a CLI that speaks clang/LLVM — clang's spellings, one meaning per flag, --version,
layout's frontend options and binary targets, warnings for every target, a quiet closed pipe, `run` on
binaries, `targets` advertising only options that exist. Oracles: llvm-readelf, clang's own output,
LLVM's bitcode reader, numpy."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kernelkit.cli import build_parser, main

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


def _kk(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelkit", *map(str, argv)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, **kw)


def test_clang_target_and_code_object_spellings_match_llvm_readelf(tmp_path, capsys):
    from conftest import require_tool

    readelf = require_tool("llvm-readelf")
    for argv in (["-mcpu=gfx90a", "-mcode-object-version=4"], ["--offload-arch=gfx90a", "-mcode-object-version=5"],
                 ["-c", "-mcpu", "gfx90a", "-mcode-object-version", "4"]):
        out = tmp_path / "k.o"
        code, _, err = _run(["build", SAXPY, *argv, "-o", out], capsys)
        assert code == 0, err
        version = int(re.search(r"version[= ](\d)", " ".join(argv)).group(1))
        header = subprocess.run([readelf, "-h", str(out)], capture_output=True, text=True, check=True).stdout
        assert re.search(rf"ABI Version:\s+{version - 2}\b", header), header    # spec 001: V4 -> 2, V5 -> 3
        flags = int(re.search(r"Flags:\s+(0x[0-9a-fA-F]+)", header).group(1), 16)
        assert flags & 0xff == 0x3f                       # spec 001: EF_AMDGPU_MACH_AMDGCN_GFX90A


def test_emit_llvm_spellings_text_and_bitcode(tmp_path, capsys):
    import llvmlite.binding as llvm

    text_out, bc_out = tmp_path / "k.ll", tmp_path / "k.bc"
    assert _run(["build", SAXPY, "-S", "-emit-llvm", "-o", text_out], capsys)[0] == 0
    assert _run(["build", SAXPY, "-c", "-emit-llvm", "-o", bc_out], capsys)[0] == 0
    text = llvm.parse_assembly(text_out.read_text())
    bitcode = bc_out.read_bytes()
    assert bitcode[:4] == b"BC\xc0\xde"                      # LLVM's bitcode magic
    from_bc = llvm.parse_bitcode(bitcode)
    assert [f.name for f in from_bc.functions if not f.is_declaration] == \
        [f.name for f in text.functions if not f.is_declaration]
    assert "saxpy" in [f.name for f in text.functions]
    # -S alone: the target's assembly, as --emit asm writes it (ends each kernel with s_endpgm)
    assert _run(["build", SAXPY, "-S", "-t", "gfx90a", "-o", tmp_path / "k.s"], capsys)[0] == 0
    assert _run(["build", SAXPY, "--emit", "asm", "-t", "gfx90a", "-o", tmp_path / "k2.s"], capsys)[0] == 0
    assembly = (tmp_path / "k.s").read_text()
    assert assembly == (tmp_path / "k2.s").read_text() and "s_endpgm" in assembly
    code, _, err = _run(["build", SAXPY, "-S", "-t", "host", "-o", tmp_path / "h.s"], capsys)
    assert code == 1 and "no assembly" in err and len(err.strip().splitlines()) == 1


def test_O_means_optimisation_level_in_every_subcommand():
    for command in ("build", "run", "signature", "layout"):
        sub = build_parser()._subparsers._group_actions[0].choices[command]
        action = next(a for a in sub._actions if "-O" in a.option_strings)
        assert action.dest == "opt_level" and list(action.choices) == [0, 1, 2, 3], command
        assert "--cl-std" in sub._option_string_actions and "-D" in sub._option_string_actions, command


def test_run_with_O2_runs_and_matches_numpy(capsys):
    code, out, err = _run(["run", SAXPY, "-O2", "-k", "saxpy", "-g", "8", "--arg", "2.0", "--arg", "x:[8]=arange",
                           "--arg", "y:[8]=ones", "--print", "y"], capsys)
    assert code == 0, err
    values = [float(v) for v in re.findall(r"[-\d.]+", out.split("array(")[1].split("dtype")[0])]
    np.testing.assert_allclose(values, 2.0 * np.arange(8) + 1.0)


def test_version_names_kernelkit_and_clang():
    from kernelkit import __version__
    from kernelkit.frontend.clang import clang_command

    proc = _kk("--version")
    assert proc.returncode == 0, proc.stderr
    clang = subprocess.run([*clang_command(), "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    assert f"kernelkit {__version__}" in proc.stdout and clang.strip() in proc.stdout


def test_layout_takes_frontend_options(tmp_path, capsys):
    src = tmp_path / "k.cl"
    src.write_text("#ifndef T\n#define T int\n#endif\nkernel void k(global T *p, T v) { p[0] = v; }\n")
    code, out, err = _run(["layout", src, "-t", "host", "-k", "k", "-D", "T=double", "--json"], capsys)
    assert code == 0, err
    assert [a["type"] for a in json.loads(out)["args"]] == ["double*", "double"]
    code, out, err = _run(["layout", src, "-t", "gfx90a", "-k", "k", "-D", "T=short", "--cl-std", "CL2.0",
                           "--json"], capsys)
    assert code == 0, err
    assert [a["size"] for a in json.loads(out)["args"]][:2] == [8, 2]


def test_layout_of_a_binary_uses_its_target_and_refuses_another(tmp_path, capsys):
    from conftest import require_tool

    readelf = require_tool("llvm-readelf")
    binary = tmp_path / "saxpy.hsaco"
    assert _run(["build", SAXPY, "-t", "gfx90a", "-o", binary], capsys)[0] == 0
    code, out, err = _run(["layout", binary, "-k", "saxpy", "--json"], capsys)
    assert code == 0, err
    notes = subprocess.run([readelf, "--notes", str(binary)], capture_output=True, text=True, check=True).stdout
    assert f".kernarg_segment_size: {json.loads(out)['kernarg_segment_size']}" in notes
    for other in ("host", "gfx1030", "amdil:juniper"):
        code, _, err = _run(["layout", binary, "-k", "saxpy", "-t", other], capsys)
        assert code == 1 and "does not match" in err and len(err.strip().splitlines()) == 1, (other, err)


def test_warnings_are_printed_for_every_target(tmp_path, capsys):
    from kernelkit.frontend.clang import clang_command

    src = tmp_path / "warn.cl"
    src.write_text("#warning check this kernel\nkernel void k(global int *o) { o[0] = 1; }\n")
    clang = subprocess.run([*clang_command(), "-x", "cl", "-cl-no-stdinc", "-fsyntax-only", str(src)], capture_output=True, text=True)
    expected = re.search(r"warn\.cl:1:2: warning: check this kernel", clang.stderr).group(0)
    for target in ("host", "gfx90a", "amdil:juniper", "amdcl2:bonaire", "visa:tgllp"):
        code, _, err = _run(["build", src, "-t", target, "-o", tmp_path / f"k.{target.replace(':', '_')}"], capsys)
        assert code == 0 and expected in err, (target, err)


def test_closed_pipe_is_quiet():
    proc = subprocess.Popen([sys.executable, "-m", "kernelkit", "build", str(SAXPY), "--emit", "llvm", "-o", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()                                       # the reader went away, as `| head` does
    err = proc.stderr.read().decode()
    proc.wait(timeout=600)
    assert err == "" and proc.returncode == 141


def test_run_on_binaries(tmp_path, capsys):
    host = tmp_path / "saxpy.kkhost"
    gpu = tmp_path / "saxpy.hsaco"
    assert _run(["build", SAXPY, "-t", "host", "-t", "gfx90a", "-o", tmp_path], capsys)[0] == 0
    (tmp_path / "saxpy.host.kkhost").rename(host)
    (tmp_path / "saxpy.gfx90a.hsaco").rename(gpu)
    code, out, err = _run(["run", host, "-g", "4", "--arg", "3.0", "--arg", "x:[4]=arange", "--arg", "y:[4]=ones",
                           "--print", "y"], capsys)
    assert code == 0, err
    np.testing.assert_allclose([float(v) for v in re.findall(r"\d+\.", out)], 3.0 * np.arange(4) + 1.0)
    code, _, err = _run(["run", gpu, "-g", "4"], capsys)
    assert code == 1 and "binary for amdgpu" in err and len(err.strip().splitlines()) == 1
    code, _, err = _run(["run", host, "-g", "4", "-DX=1"], capsys)
    assert code == 1 and "already built" in err


def test_targets_advertises_only_options_that_exist(capsys):
    code, out, _ = _run(["targets", "--json"], capsys)
    assert code == 0
    commands = build_parser()._subparsers._group_actions[0].choices
    known = set(commands["build"]._option_string_actions) | set(commands["layout"]._option_string_actions)
    advertised = [o["name"] for t in json.loads(out)["targets"] for o in t["options"]]
    assert advertised, "no target advertises an option"
    for name in advertised:
        assert name in known, name
