"""#18 item 1: a cached ``kernelkit build`` is served before argparse, pathlib, threading or subprocess are
imported (kernelkit.commands.build_cached), and it is the full command's build: the same cache key, the
same output bytes, the same messages. The oracles: argparse with the full command's own option code,
the key the full command looks up, pathlib, importlib, and the interpreter's ``sys.modules``."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from kernelkit.builder import key as binary_cache
from kernelkit.cli import build_parser, main
from kernelkit.commands import build as build_command
from kernelkit.commands.build_cached import parse, serve
from kernelkit.commands.common import default_output, plain_path, run_reported, write_output

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "kernel void k(global int *o) { o[0] = 1; }\n"

# command lines (the words after `build`) the cached path serves, in the spellings `kernelkit build` takes
SERVED = [
    ["k.cl", "-t", "gfx90a", "-o", "k.hsaco"],
    ["k.cl", "-t", "gfx90a"],
    ["-t", "host", "k.cl"],
    ["k.cl", "--target=gfx1100", "-O3", "-DN=4", "-D", "M", "-Iinc", "-I", "inc2", "--cl-std=CL2.0", "-o", "x.bin"],
    ["k.cl", "-mcpu=gfx90a:xnack-", "-c", "-cl-std=CL3.0", "-O", "0", "--option=-cl-fast-relaxed-math"],
    ["k.cl", "--offload-arch", "gfx803", "-mcode-object-version=3", "--option", "X", "--output", "o.hsaco"],
    ["k.cl", "-t", "amdcl2:bonaire", "--driver-version", "0203603", "-O1", "-O2"],
    ["k.cl", "-t", "host", "--mcpu", "x86-64-v2", "-DA=1", "-DB"],
    ["k.cl", "-t", "visa:tgllp", "--simd=16", "--code-object-version", "5"],
    ["k.cl", "-t", "amdil:juniper", "-o", "a", "-o", "b"],
    ["k.cl", "-t", "host", "--no-cache", "-O2"],
]
# command lines it leaves to the full command: other spellings, several jobs, errors, other outputs
DECLINED = [
    ["k.cl"], ["k.cl", "-t", "host", "-t", "gfx90a"], ["a.cl", "k.cl", "-t", "host"], ["k.cl", "-t", "host", "--no-cach"],
    ["k.cl", "-t", "host", "--emit", "llvm"], ["k.cl", "-t", "host", "-S"], ["k.cl", "-t", "host", "-O4"],
    ["k.cl", "-t", "host", "-D=X"], ["k.cl", "-t", "host", "--targ", "x"], ["k.cl", "-t", "gfx90a", "--mcpu", "x"],
    ["k.cl", "-t", "host", "--simd", "16"], ["k.cl", "-t"], ["k.cl", "-t", "-o"], ["k.cl", "-t", "host", "--", "x"],
    ["k.cl", "-t", "host", "--option", "-cl-x"], ["k.cl", "-t", "host", "-j", "2"], ["k.cl", "-t", "host", "-h"],
    ["k.cl", "-t", "host", "--cl-std", "CL9"], ["k.cl", "--target=", "-O2"], ["-", "-t", "host"],
    ["k.cl", "-t", "gfx90a", "-mcode-object-version=7"], ["k.cl", "-t", "host", "-m", "32"],
]


def _full_command(words: list[str]):
    """The parsed arguments of the full command (argparse), as kernelkit.cli.main parses them."""
    return build_parser("build").parse_args(["build", *words])


@pytest.mark.parametrize("words", SERVED, ids=[" ".join(w) for w in SERVED])
def test_served_command_lines_give_the_full_commands_build(words):
    args = _full_command(words)
    targets = build_command.clang_target_pairs(args.targets)
    assert len(args.sources) == 1 and len(targets) == 1
    expected = (args.sources[0], targets[0], build_command.job_options(args, targets[0], build_command.build_options(args)),
                args.output, not args.no_cache)
    assert parse(words) == expected


@pytest.mark.parametrize("words", DECLINED, ids=[" ".join(w) for w in DECLINED])
def test_other_command_lines_are_left_to_the_full_command(words):
    assert parse(words) is None


@pytest.fixture
def project(tmp_path, monkeypatch, isolated_cache):
    monkeypatch.chdir(tmp_path)                          # (the cache: the test's own, turned on)
    (tmp_path / "k.cl").write_text(SOURCE)
    return tmp_path


def _entry_of_full_command(words: list[str], monkeypatch) -> str:
    """The whole-binary key the full command looks up for ``words`` (it stops there)."""
    asked = []

    class Looked(Exception):
        pass

    def record(key):
        asked.append(key)
        raise Looked

    with monkeypatch.context() as m:
        m.setattr(binary_cache, "lookup", record)
        args = _full_command(words)
        with pytest.raises(Looked):
            args.func(args)
    assert len(asked) == 1
    return asked[0]


def _full_command_output(words, capsys) -> tuple[int, str]:
    args = _full_command(words)
    code = args.func(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("words", [["k.cl", "-t", "gfx90a", "-o", "out.hsaco"], ["k.cl", "-t", "host", "-O0"],
                                   ["k.cl", "-mcpu=gfx1100", "-I", "inc", "-DN=2", "--cl-std=CL2.0"]])
def test_hit_writes_what_the_full_command_writes(project, monkeypatch, capsys, words):
    key = _entry_of_full_command(words, monkeypatch)
    binary = b"\x7fELF a binary of " + " ".join(words).encode()
    binary_cache.store(key, binary, "k.cl:1:1: warning: a warning of the compile", [], ["k"])
    source, target, options, output, _ = parse(words)
    out = project / (output or default_output(source, build_command.BINARY_SUFFIXES[build_command.target_kind(target)]))

    code, full_err = _full_command_output(words, capsys)         # the full command, served from the entry
    assert code == 0 and out.read_bytes() == binary
    out.unlink()
    monkeypatch.setattr("kernelkit.cli.build_parser", None)      # main must not reach argparse
    assert main(["build", *words]) == 0
    assert out.read_bytes() == binary and capsys.readouterr().err == full_err
    assert "warning: a warning of the compile" in full_err
    assert ("wrote" in full_err) == (output is None)


BROKEN = "kernel void k(global int *o) { o[0] = undeclared; }\n"


def test_miss_builds_as_the_full_command(project, monkeypatch, capsys):
    """A changed source is a miss, built (here refused by clang) with the full command's report."""
    monkeypatch.setenv("KERNELKIT_BUILD_IN_PROCESS", "1")     # clang refuses it: no worker needed
    words = ["k.cl", "-t", "host", "-o", "k.kkhost"]
    binary_cache.store(_entry_of_full_command(words, monkeypatch), b"host binary", "", [], ["k"])
    (project / "k.cl").write_text(BROKEN)
    args = _full_command(words)
    full_code = run_reported("build", lambda: args.func(args))
    full_err = capsys.readouterr().err
    monkeypatch.setattr("kernelkit.cli.build_parser", None)     # main must not reach argparse
    assert main(["build", *words]) == full_code == 1
    assert capsys.readouterr().err == full_err and "k.cl:1:" in full_err and "undeclared" in full_err
    assert not (project / "k.kkhost").exists()


def test_no_cache_never_reads_the_cache(project, monkeypatch):
    words = ["k.cl", "-t", "host", "-o", "k.kkhost", "--no-cache"]
    binary_cache.store(_entry_of_full_command(words[:-1], monkeypatch), b"host binary", "", [], ["k"])
    built = []
    monkeypatch.setattr(binary_cache, "lookup", None)
    monkeypatch.setattr(build_command, "build_one", lambda *a, **k: built.append((a, k)) or 0)
    assert serve(words) == 0 and not (project / "k.kkhost").exists()
    assert built[0][1]["use_cache"] is False and os.environ["KERNELKIT_NO_CACHE"] == "1"


def test_unreadable_inputs_go_to_the_full_command(project, monkeypatch):
    words = ["k.cl", "-t", "host", "-o", "k.kkhost"]
    (project / "k.cl").write_bytes(b"\xff\xfe not UTF-8")
    assert serve(words) is None
    assert serve(["missing.cl", "-t", "host"]) is None
    assert serve(["k.cl", "-t", "host", "-o", str(project)]) is None       # a folder: the full command's


def test_cached_build_imports_only_the_lookup(project, monkeypatch):
    """A fresh interpreter's cached `kernelkit build` loads none of argparse, pathlib, threading,
    subprocess, importlib.util, tempfile, and nothing of the compiler."""
    words = ["k.cl", "-t", "gfx90a", "-o", "k.hsaco"]
    binary_cache.store(_entry_of_full_command(words, monkeypatch), b"\x7fELF cached", "", [], ["k"])
    probe = ("import sys, json\nbefore = set(sys.modules)\nfrom kernelkit.cli import main\n"
             f"code = main(['build', *{words!r}])\n"
             "print(json.dumps([code, sorted(set(sys.modules) - before)]))")
    # -S: no site start-up (whose .pth files may import what is looked for here); the same folders on the path
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *site.getsitepackages()])}
    proc = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, cwd=project, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    code, loaded = json.loads(proc.stdout.splitlines()[-1])
    assert code == 0 and (project / "k.hsaco").read_bytes() == b"\x7fELF cached"
    assert "kernelkit.commands.build_cached" in loaded
    heavy = {"argparse", "pathlib", "threading", "subprocess", "importlib.util", "tempfile", "platformdirs",
             "kernelkit.builder.pool", "kernelkit.commands.build"}
    assert sorted(heavy & set(loaded)) == []
    assert [m for m in loaded if m.split(".")[0] in ("llvmlite", "numpy") or m.startswith(
        ("kernelkit.ir", "kernelkit.mux", "kernelkit.frontend", "kernelkit.targets"))] == []
    # a miss builds without argparse too (here in this process, refused by clang)
    (project / "k.cl").write_text(BROKEN)
    proc = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, cwd=project,
                          env={**env, "KERNELKIT_BUILD_IN_PROCESS": "1"}, timeout=300)
    code, loaded = json.loads(proc.stdout.splitlines()[-1])
    assert code == 1 and "undeclared" in proc.stderr
    assert "kernelkit.commands.build" in loaded and "argparse" not in loaded


PATHS = ["k.cl", "dir/k.cl", "/abs/dir/k.cl", "k", "k.", "a.b.cl", ".hidden", "dir/.hidden.cl", "..", "../k.cl",
         "./k.cl", "dir//k.cl", "dir/./k.cl", "dir/k.cl/", "//k.cl", "///k.cl", "dir/..", "a b/c d.cl", "k.tar.gz"]


@pytest.mark.parametrize("path", PATHS)
def test_output_names_are_pathlibs(tmp_path, path):
    assert not plain_path(path) or str(Path(path)) == path
    assert default_output(path, ".hsaco") == str(Path(path).with_suffix(".hsaco"))


def test_output_written_where_pathlib_would(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir").mkdir()
    for name in ("dir/a.bin", "dir//b.bin", "./c.bin", "dir/./d.bin", str(tmp_path / "e.bin"), "f.bin/"):
        write_output(name, name.encode())
        assert Path(name).read_bytes() == name.encode()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.bin", "b.bin", "c.bin", "d.bin", "dir", "e.bin", "f.bin"]


@pytest.mark.parametrize("package", ["ziglang", "llvmlite", "numpy"])
def test_tool_folders_are_the_ones_import_finds(package):
    import importlib.util

    spec = importlib.util.find_spec(package)
    assert binary_cache._package_folder(package) == next(iter(spec.submodule_search_locations))
