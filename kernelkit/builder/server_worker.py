"""A build server's worker: a process the server forks warm, before any request arrives, that then
serves one request after another (kernelkit.builder.server).

Forking per request made every build pay for the fork and, in the child, for copying the thousands of
pages its build writes (copy-on-write faults: ~4300 minor faults, 10-25 ms of system time for a small
gfx90a build) and for unmapping them at exit. A worker pays that once, on its first request.

Hand-over (the server's ``control`` socket, one per worker): one byte with the client's connection and
log file descriptors (SCM_RIGHTS), then the request (kernelkit.builder.protocol). The worker writes its
reply on the connection, closes its copies of both descriptors, puts back its environment, working
directory and standard error, and sends one byte (``DONE``): the server gives the connection its next
request and the worker another. The
end of ``control`` (the server retired it or exited) ends the worker. A worker that LLVM aborts is
reported to the client by the server.
"""

from __future__ import annotations

import os
import socket

DONE = b"D"


def send_request(control: socket.socket, conn_fd: int, log_fd: int, message: dict) -> None:
    """Hand ``message`` and the client's descriptors to the worker on the other end of ``control``."""
    from kernelkit.builder.protocol import write_message

    socket.send_fds(control, [b"R"], [conn_fd, log_fd])
    with control.makefile("wb") as stream:
        write_message(stream, message)


def _receive(control: socket.socket) -> tuple[int, int, dict] | None:
    from kernelkit.builder.protocol import read_message

    try:
        data, fds, _flags, _addr = socket.recv_fds(control, 1, 2)
    except OSError:
        return None
    if not data or len(fds) != 2:
        for fd in fds:
            os.close(fd)
        return None
    with control.makefile("rb", buffering=0) as stream:
        message = read_message(stream)
    if message is None:
        for fd in fds:
            os.close(fd)
        return None
    return fds[0], fds[1], message


def _serve_one(conn_fd: int, log_fd: int, message: dict) -> None:
    from kernelkit.builder.protocol import write_message
    from kernelkit.builder.worker import apply_environment, error_reply, handle

    os.dup2(log_fd, 2)
    environ = message.get("environ")
    if isinstance(environ, dict):
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in environ.items()})
    os.environ["KERNELKIT_BUILD_WORKER"] = "1"
    apply_environment(message.get("env") or {}, message.get("cwd"))
    with open(conn_fd, "wb", closefd=False) as stream:
        try:
            reply = handle(message, lambda m: write_message(stream, m))
        except Exception as exc:  # every failure goes back as a reply; only LLVM aborting ends us
            reply = error_reply(exc)
        write_message(stream, reply)


def run(control: socket.socket) -> None:
    """The worker's life (in the forked process; the server closed what is not ours): requests until
    ``control`` ends, then ``os._exit``."""
    code = 1
    try:
        import kernelkit.llvm_binding as binding

        binding.parse_memo_policy = binding.KEEP     # kept modules are copied out: the next build needs them
        environment = dict(os.environ)
        stderr = os.dup(2)
        while True:
            received = _receive(control)
            if received is None:
                break
            conn_fd, log_fd, message = received
            try:
                _serve_one(conn_fd, log_fd, message)
            except OSError:
                pass                                  # the client went away: the next one is served all the same
            finally:
                os.dup2(stderr, 2)
                os.close(conn_fd)
                os.close(log_fd)
                os.environ.clear()
                os.environ.update(environment)
                os.chdir("/")
            try:
                control.sendall(DONE)
            except OSError:
                break                                 # the server has gone
        code = 0
    finally:
        os._exit(code)
