"""#18 item 2, the cold build's client: `kernelkit build k.cl -t gfx90a --no-cache` through the build server
loads none of pathlib, tempfile, threading, socket, selectors, typing, subprocess, argparse, msgpack or hashlib (each a few
million instructions of a client whose whole work is one request). The oracles: the interpreter's own
``sys.modules`` in a fresh ``python -S`` process, and the request a listening socket receives in this
test (it plays the server: the descriptor of the client's log file, then one protocol message)."""

from __future__ import annotations

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from kernelkit.builder import server
from kernelkit.builder.protocol import read_message, write_message

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "kernel void k(global int *o) { o[0] = 1; }\n"


def test_a_build_through_the_server_loads_no_heavy_module(tmp_path, monkeypatch):
    runtime = Path(tempfile.mkdtemp(prefix="kk-"))     # short: a socket's path has at most 104 bytes
    try:
        _build_through(runtime, tmp_path, monkeypatch)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


def _build_through(runtime: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    path = server.socket_file()
    assert path is not None and path.startswith(str(runtime / "kernelkit") + os.sep)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    received: dict = {}

    def serve_one() -> None:
        conn, _ = listener.accept()
        with conn:
            _msg, fds, _flags, _addr = socket.recv_fds(conn, 1, 1)
            received["log_fd"] = bool(fds)
            stream = conn.makefile("rwb", buffering=0)
            received["request"] = read_message(stream)
            os.write(fds[0], b"a line of the compiler's standard error\n")    # as a child of the server does
            os.close(fds[0])
            write_message(stream, {"ok": True, "binary": b"\x7fELF served", "log": "", "deps": [], "kernels": ["k"]})

    thread = threading.Thread(target=serve_one, daemon=True)
    thread.start()
    project = tmp_path / "p"
    project.mkdir()
    (project / "k.cl").write_text(SOURCE)
    probe = ("import sys, json\nbefore = set(sys.modules)\nfrom kernelkit.cli import main\n"
             "code = main(['build', 'k.cl', '-t', 'gfx90a', '-o', 'k.hsaco', '--no-cache'])\n"
             "print(json.dumps([code, sorted(set(sys.modules) - before)]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *site.getsitepackages()]),
           "XDG_RUNTIME_DIR": str(runtime), "KERNELKIT_NO_SERVER": ""}
    env.pop("KERNELKIT_BUILD_IN_PROCESS", None)
    proc = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, cwd=project, env=env,
                          timeout=120)
    thread.join(10)
    listener.close()
    assert proc.returncode == 0, proc.stderr
    code, loaded = json.loads(proc.stdout.splitlines()[-1])
    assert code == 0 and (project / "k.hsaco").read_bytes() == b"\x7fELF served"
    assert "a line of the compiler's standard error" in proc.stderr     # the log file came back through the fd
    request = received["request"]
    assert received["log_fd"] and request["kind"] == "build" and request["target"] == "gfx90a"
    assert request["source"] == SOURCE and request["filename"] == "k.cl" and request["env"]["KERNELKIT_NO_CACHE"] == "1"
    assert "kernelkit.builder.server" in loaded and "kernelkit.builder.pool" in loaded
    heavy = {"pathlib", "tempfile", "threading", "socket", "selectors", "typing", "subprocess", "argparse",
             "importlib.util", "platformdirs", "msgpack", "datetime", "hashlib", "_hashlib"}
    assert sorted(heavy & set(loaded)) == []
    assert [m for m in loaded if m.split(".")[0] in ("llvmlite", "numpy") or m.startswith(
        ("kernelkit.ir", "kernelkit.mux", "kernelkit.frontend", "kernelkit.targets"))] == []
