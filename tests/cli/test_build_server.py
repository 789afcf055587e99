"""Issue 18 point 2 (cold builds without paying for a fresh process) with issue 17 point 3: the build
server (kernelkit.builder.server) compiles in warm forked children, gives the bytes a plain worker
gives, reports a child LLVM killed as a CompileError and goes on, and stops when asked or idle."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from kernelkit.builder import build, pool, server
from kernelkit.errors import CompileError

KERNEL = "kernel void fill(global int *o) { o[get_global_id(0)] = (int)get_global_id(0) * 3; }\n"


@pytest.fixture
def runtime(monkeypatch):
    """A private runtime directory for this test's server (short: a socket's path has at most 104
    bytes); plain workers of earlier tests dropped."""
    folder = Path(tempfile.mkdtemp(prefix="kk-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("KERNELKIT_NO_SERVER", "")
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "1")       # kernelkit's own libraries are still read
    monkeypatch.delenv("KERNELKIT_BUILD_IN_PROCESS", raising=False)
    monkeypatch.setattr(server, "_SPAWNED", set())
    pool.shutdown()
    yield folder
    pool.shutdown()
    path = server.socket_path()
    if path is not None:
        server.stop(path)
    shutil.rmtree(folder, ignore_errors=True)


def _wait(condition, seconds: float = 90.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def _up(path) -> bool:
    sock = server.connect(path)
    if sock is None:
        return False
    sock.close()
    return True


def test_server_builds_the_same_bytes_and_survives_llvm_aborting(runtime, monkeypatch):
    monkeypatch.setenv("KERNELKIT_SERVER_IDLE", "120")
    path = server.socket_path()
    assert path.parent == runtime / "kernelkit" and oct(path.parent.stat().st_mode & 0o777) == "0o700"
    plain = build(KERNEL, "gfx90a", filename="fill.cl", use_cache=False)   # no server yet: starts one
    assert _wait(lambda: _up(path)), (path.parent / (path.name + ".log")).read_text()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    for _ in range(2):   # the first request of a kind is replayed by the server, the second finds it warm
        pool.shutdown()
        served = build(KERNEL, "gfx90a", filename="fill.cl", use_cache=False)
        assert any(isinstance(w, pool.ServerWorker) for w in pool._ALL)
        assert served.binary == plain.binary and served.kernels == ["fill"]
    # a child that LLVM kills: a CompileError in the caller, the server still answers
    from test_llvm_isolation import STAMP_IR, mux_module

    with pytest.raises(CompileError, match=r"Cannot select: intrinsic %llvm\.amdgcn\.s\.memrealtime.*SIGABRT"):
        mux_module("host", STAMP_IR).create_binary()
    assert _up(path)
    assert build(KERNEL, "gfx90a", filename="fill.cl", use_cache=False).binary == plain.binary
    assert server.stop(path)
    assert _wait(lambda: not path.exists())


def test_idle_server_exits_and_removes_its_socket(runtime, monkeypatch):
    monkeypatch.setenv("KERNELKIT_SERVER_IDLE", "1")
    path = server.socket_path()
    server.spawn(path)
    assert _wait(lambda: path.exists())
    assert _wait(lambda: not path.exists())
    assert not _up(path)


def test_socket_path_too_long_means_no_server(tmp_path, monkeypatch):
    folder = tmp_path / ("x" * 120)
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    assert server.runtime_dir() is not None and server.socket_path() is None


def test_directory_others_may_enter_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "xdg"
    (shared / "kernelkit").mkdir(parents=True)
    os.chmod(shared / "kernelkit", 0o777)
    tmp = tmp_path / "tmp"
    (tmp / f"kernelkit-{os.getuid()}").mkdir(parents=True)
    os.chmod(tmp / f"kernelkit-{os.getuid()}", 0o755)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    monkeypatch.setattr("tempfile.tempdir", str(tmp))
    assert server.runtime_dir() is None and server.socket_path() is None


def test_server_command_starts_reports_and_stops(runtime, capsys, monkeypatch):
    from kernelkit.cli import main

    monkeypatch.setenv("KERNELKIT_SERVER_IDLE", "120")
    path = server.socket_path()
    assert main(["server", "status"]) == 0 and capsys.readouterr().out == f"build server not running: {path}\n"
    assert main(["server", "start"]) == 0 and capsys.readouterr().out == f"build server running: {path}\n"
    assert _up(path)
    assert main(["server", "status"]) == 0 and capsys.readouterr().out == f"build server running: {path}\n"
    assert main(["server", "stop"]) == 0 and capsys.readouterr().out == f"stopped the build server at {path}\n"
    assert _wait(lambda: not path.exists()) and not _up(path)
