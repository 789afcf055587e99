"""Issue 18 point 2: the build server's workers (kernelkit.builder.server_worker) are forked before a request
arrives and serve one request after another; what a request brings (its environment, its working directory)
stays its own. The oracles are the operating system's: the process table (/proc), the environment and
working directory the served call sees, and clang's option syntax for the replay's kinds."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from kernelkit.builder import build, pool, server
from kernelkit.llvm_binding import in_worker

KERNEL = "kernel void twice(global int *o) { o[get_global_id(0)] *= 2; }\n"


@pytest.fixture
def served(monkeypatch):
    """A build server of its own (private runtime directory), up and warmed by a first call; its pid."""
    folder = Path(tempfile.mkdtemp(prefix="kk-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("KERNELKIT_NO_SERVER", "")
    monkeypatch.setenv("KERNELKIT_SERVER_IDLE", "120")
    monkeypatch.setenv("KERNELKIT_NO_CACHE", "1")
    monkeypatch.delenv("KERNELKIT_BUILD_IN_PROCESS", raising=False)
    monkeypatch.setattr(server, "_SPAWNED", set())
    pool.shutdown()
    path = server.socket_path()
    build(KERNEL, "gfx90a", filename="twice.cl", use_cache=False)      # no server yet: starts one
    deadline = time.monotonic() + 90
    while server.connect(path) is None:
        assert time.monotonic() < deadline, (path.parent / (path.name + ".log")).read_text()
        time.sleep(0.2)
    pool.shutdown()
    in_worker(os.getpid, target="host")          # the first call of its kind: the server replays it
    pool.shutdown()
    in_worker(os.getpid, target="host")          # (served by a worker forked after the replay)
    yield _server_pid(path)
    pool.shutdown()
    server.stop(path)
    shutil.rmtree(folder, ignore_errors=True)


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()


def _cmdline(pid: int) -> list[bytes]:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().split(b"\0")


def _server_pid(path) -> int:
    """The server listening on ``path``: the process running kernelkit.builder.server for it whose parent
    does not (its workers are its children)."""
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if _cmdline(int(entry))[-3:-1] == [b"kernelkit.builder.server", os.fsencode(str(path))] and \
                    b"kernelkit.builder.server" not in _cmdline(int(_stat(int(entry))[1])):
                return int(entry)
        except OSError:
            continue
    raise AssertionError("no build server process")


def _served_pid() -> int:
    pool.shutdown()                               # a new connection per call
    pid = in_worker(os.getpid, target="host")
    assert any(isinstance(w, pool.ServerWorker) for w in pool._ALL)
    return pid


def test_one_worker_serves_request_after_request(served):
    first = _served_pid()
    assert first not in (os.getpid(), served)
    assert int(_stat(first)[1]) == served          # the server's child
    assert [_served_pid() for _ in range(3)] == [first] * 3
    assert _stat(first)[0] in ("R", "S", "D")       # alive between requests (not a zombie)


def test_a_request_environment_and_folder_stay_its_own(served, monkeypatch, tmp_path):
    monkeypatch.setenv("KK_WORKER_MARK", "first")
    monkeypatch.chdir(tmp_path)
    pool.shutdown()
    pid = in_worker(os.getpid, target="host")
    assert in_worker(os.getenv, "KK_WORKER_MARK", target="host") == "first"
    assert in_worker(os.getcwd, target="host") == str(tmp_path)
    monkeypatch.delenv("KK_WORKER_MARK")
    monkeypatch.chdir("/")
    pool.shutdown()
    assert in_worker(os.getpid, target="host") == pid        # the same worker ...
    assert in_worker(os.getenv, "KK_WORKER_MARK", target="host") is None   # ... without the last one's
    assert in_worker(os.getcwd, target="host") == "/"


def test_replay_kinds_leave_out_macros_and_include_folders():
    # clang's spellings: -D NAME, -DNAME=V, -I DIR, -IDIR (the value separate or attached)
    options = ["-D", "N=1", "-DM=2", "-I", "inc", "-Iinc2", "-O3", "-cl-fast-relaxed-math", "-cl-std=CL2.0"]
    assert server.replay_options(options) == ("-O3", "-cl-fast-relaxed-math", "-cl-std=CL2.0")
    assert server.replay_options(["-DN=1", "-O1"]) == server.replay_options(["-D", "N=7", "-O1"])
    assert server.replay_options(["-O1"]) != server.replay_options(["-O2"])
