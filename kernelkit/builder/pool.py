"""Worker processes that compile (``kernelkit.builder.worker``), reused across builds.

A worker that dies while compiling (LLVM aborting on an assertion or ``report_fatal_error``)
becomes a CompileError naming the file, the kernels being compiled, the target and LLVM's own
message (read from the worker's standard error); the next build starts a fresh worker.
``KERNELKIT_BUILD_IN_PROCESS=1`` compiles in the calling process instead (for debugging).
"""

from __future__ import annotations

import _thread
import atexit
import os
import sys
from collections.abc import Callable

from kernelkit.builder.protocol import read_message, write_message
from kernelkit.errors import CompileError, KernelkitError

# (os.path, _thread: a build through the build server imports no pathlib, threading or tempfile)
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
_STDERR_KEEP = 1 << 20

Stage = Callable[[dict], None]


def in_process() -> bool:
    return os.environ.get("KERNELKIT_BUILD_IN_PROCESS", "") not in ("", "0")


def runs_here() -> bool:
    """Whether compiling runs in this process: inside a worker, or when asked to (debugging)."""
    return in_process() or bool(os.environ.get("KERNELKIT_BUILD_WORKER"))


def worker_environment() -> dict[str, str]:
    """The environment of a worker process: ours, with this kernelkit first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    env["KERNELKIT_BUILD_WORKER"] = "1"
    return env


def _anonymous_file() -> int:
    """A descriptor of a new file no other process can open: in memory where the system has
    memfd_create, else an unlinked temporary file."""
    if hasattr(os, "memfd_create"):
        try:
            return os.memfd_create("kernelkit-worker-log")
        except OSError:
            pass
    import tempfile

    fd, path = tempfile.mkstemp(prefix="kernelkit-worker-", suffix=".log")
    os.unlink(path)
    return fd


class _LogFile:
    """The file a worker's standard error goes to (O_APPEND: its writes always go to the end; read
    with pread, which moves no offset)."""

    def __init__(self) -> None:
        import fcntl

        self._err_fd = _anonymous_file()
        fcntl.fcntl(self._err_fd, fcntl.F_SETFL, fcntl.fcntl(self._err_fd, fcntl.F_GETFL) | os.O_APPEND)

    def _stderr_size(self) -> int:
        return os.fstat(self._err_fd).st_size

    def _stderr_since(self, offset: int) -> str:
        chunks = []
        while True:
            chunk = os.pread(self._err_fd, 1 << 16, offset)
            if not chunk:
                return b"".join(chunks).decode("utf-8", "replace")
            chunks.append(chunk)
            offset += len(chunk)

    def _stderr_start(self) -> int:
        if self._stderr_size() > _STDERR_KEEP:
            os.ftruncate(self._err_fd, 0)
        return self._stderr_size()

    def _close_log(self) -> None:
        if self._err_fd >= 0:
            try:
                os.close(self._err_fd)
            except OSError:
                pass
            self._err_fd = -1

    def _exchange(self, stdin, stdout, message: dict, on_stage: Stage | None, start: int,
                  stage: dict) -> tuple[dict | None, dict]:
        """Send ``message``, pass stage reports on; (the reply or None if the other side went, stage)."""
        try:
            write_message(stdin, message)
            while True:
                reply = read_message(stdout)
                if reply is None:
                    return None, stage
                if "stage" in reply:
                    stage = {**stage, **reply}
                    if on_stage is not None:
                        on_stage(stage)
                    continue
                if "died" in reply:
                    return reply, stage
                extra = self._stderr_since(start).strip()
                if extra and reply.get("ok"):
                    reply["log"] = (reply.get("log") or "") + extra + "\n"
                return reply, stage
        except (BrokenPipeError, OSError, ValueError):
            return None, stage


class Worker(_LogFile):
    """One worker process and the file its standard error goes to."""

    def __init__(self) -> None:
        import subprocess  # (here: a client of the build server never starts a worker)

        super().__init__()
        # -P: this kernelkit (first on PYTHONPATH), not one in the caller's working directory
        self.proc = subprocess.Popen([sys.executable, "-P", "-m", "kernelkit.builder.worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._err_fd, env=worker_environment(),
                                     start_new_session=True)   # Ctrl-C goes to the caller, not to us

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        self.proc.kill()

    def request(self, message: dict, on_stage: Stage | None = None) -> dict:
        """Send one build request; the reply, or a CompileError if the worker died."""
        start = self._stderr_start()
        reply, stage = self._exchange(self.proc.stdin, self.proc.stdout, message, on_stage, start,
                                      {"stage": "starting"})
        if reply is not None:
            return reply
        self.proc.wait()
        raise _death(message, stage, self.proc.returncode, self._stderr_since(start))

    def close(self) -> None:
        import subprocess

        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        try:
            if self.proc.stdout:
                self.proc.stdout.close()
        except OSError:
            pass
        self._close_log()


class ServerGone(Exception):
    """The build server closed the connection before working on the request."""


class ServerWorker(_LogFile):
    """A connection to the build server (``builder.server``): each request runs in a child the
    server forks, warm; a child that dies comes back as ``{"died": status}``."""

    def __init__(self, sock) -> None:
        from kernelkit.builder.server import send_fd

        super().__init__()
        self.sock = sock
        send_fd(sock, self._err_fd)
        self._in = open(sock.fileno(), "wb", closefd=False)   # (a socket's makefile needs the socket module)
        self._out = open(sock.fileno(), "rb", closefd=False)
        self.alive = True

    def kill(self) -> None:
        self.close()

    def request(self, message: dict, on_stage: Stage | None = None) -> dict:
        start = self._stderr_start()
        reply, stage = self._exchange(self._in, self._out, {**message, "environ": dict(os.environ)}, on_stage,
                                      start, {"stage": "starting"})
        if reply is not None and "died" not in reply:
            return reply
        self.alive = False
        if reply is None and stage.get("stage") == "starting":
            raise ServerGone          # before any work: the caller runs the request in a plain worker
        if reply is None:
            raise _death(message, stage, None, self._stderr_since(start))
        raise _death(message, stage, int(reply["died"]), self._stderr_since(start))

    def close(self) -> None:
        self.alive = False
        for stream in (self._in, self._out, self.sock):
            try:
                stream.close()
            except OSError:
                pass
        self._close_log()


def llvm_message(stderr: str) -> str:
    """LLVM's own words from what a dying process wrote: the failed assertion or the fatal error."""
    import re

    for line in stderr.splitlines():
        m = re.search(r"LLVM ERROR: (.*)", line)
        if m:
            return m.group(1).strip()
        m = re.search(r"Assertion `(.*)' failed", line)
        if m:
            where = line.split(": ", 2)[1] if line.count(": ") >= 2 else ""
            return f"assertion `{m.group(1)}' failed" + (f" ({where})" if where else "")
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip() and not ln.startswith((" #", "#", "Stack dump"))]
    return lines[-1] if lines else "no message"


def _death(message: dict, stage: dict, returncode: int | None, stderr: str) -> CompileError:
    import signal

    kernels = stage.get("kernels") or []
    what = f"kernel{'s' if len(kernels) > 1 else ''} {', '.join(kernels)}" if kernels else "the program"
    if returncode is None:
        how = "was lost (the build server stopped)"
    elif returncode < 0:
        try:
            how = f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"was killed by signal {-returncode}"
    else:
        how = f"exited with status {returncode}"
    text = (f"{message.get('filename') or '<source>'}: LLVM aborted while compiling {what} for "
            f"{message.get('target')} ({stage.get('stage')}): {llvm_message(stderr)} "
            f"(the compiler process {how})")
    error = CompileError(text)
    error.llvm_output = stderr  # everything the process wrote (LLVM's stack dump)
    return error


_IDLE: list[Worker] = []
_ALL: list[Worker] = []
_LOCK = _thread.allocate_lock()


def _server_worker() -> ServerWorker | None:
    """A connection to the build server, starting one in the background when there is none."""
    from kernelkit.builder import server

    if not server.enabled():
        return None
    path = server.socket_file()
    if path is None:
        return None
    sock = server.connect(path)
    if sock is None:
        server.spawn(path)
        return None
    try:
        return ServerWorker(sock)
    except OSError:
        sock.close()
        return None


def _acquire() -> Worker | ServerWorker:
    with _LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.alive:
                return worker
            worker.close()
            _ALL.remove(worker)
    worker = _server_worker() or Worker()
    with _LOCK:
        _ALL.append(worker)
    return worker


def _release(worker: Worker | ServerWorker) -> None:
    with _LOCK:
        if worker.alive:
            _IDLE.append(worker)
        else:
            worker.close()
            if worker in _ALL:
                _ALL.remove(worker)


@atexit.register
def shutdown() -> None:
    """Stop every worker (they also stop by themselves when their standard input closes)."""
    with _LOCK:
        workers = list(_ALL)
        _ALL.clear()
        _IDLE.clear()
    for worker in workers:
        worker.close()


def run_request(message: dict, on_stage: Stage | None = None) -> dict:
    """Compile one request in a worker (or in this process when asked to); the worker's reply."""
    if runs_here():
        from kernelkit.builder.worker import error_reply, handle

        try:
            return handle(message, on_stage or (lambda m: None))
        except Exception as exc:  # the same reply a worker would send
            return error_reply(exc)
    worker = _acquire()
    try:
        try:
            return worker.request(message, on_stage)
        except ServerGone:
            _release(worker)
            worker = Worker()
            with _LOCK:
                _ALL.append(worker)
            return worker.request(message, on_stage)
    except KeyboardInterrupt:
        worker.kill()
        raise
    finally:
        _release(worker)


def raise_reply(reply: dict) -> None:
    """The exception a failed reply stands for, raised in the caller's terms."""
    from kernelkit.mux.result import MuxCompileError, MuxError, Result

    kind, message = reply.get("error"), reply.get("message") or "build failed"
    result = Result[reply["result"]] if reply.get("result") in Result.__members__ else None
    if result is not None and message.startswith(f"{result.name}: "):
        message = message[len(result.name) + 2:]   # MuxError puts it back
    if kind == "compile":
        error = CompileError(message, log=reply.get("log") or "",
                             diagnostics=[tuple(d) for d in reply.get("diagnostics") or []])
        if result is not None:
            raise MuxCompileError(result, error)
        raise error
    if kind == "mux" and result is not None:
        raise MuxError(result, message)
    if kind == "kernelkit":
        from kernelkit import errors

        cls = getattr(errors, reply.get("type") or "", KernelkitError)
        raise (cls if isinstance(cls, type) and issubclass(cls, KernelkitError) else KernelkitError)(message)
    raise CompileError(f"internal compiler error: {reply.get('type')}: {message}", log=reply.get("log") or "")
