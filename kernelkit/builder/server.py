"""The build server: one warm process per user and kernelkit installation that outlives a CLI call.

A fresh build worker pays for Python's start, for importing the compile chain and for reading
kernelkit's own libraries into LLVM before it compiles anything — most of a cold ``kernelkit
build``. The server pays that once: it imports everything, then forks workers
(``server_worker``) before any request arrives: a worker starts warm, inherits every library LLVM
already holds, and serves one request after another (the fork, and the copy-on-write faults of a
build in a fresh child, are paid once per worker, not per build). One idle worker is kept ready;
more are forked while all are busy; those past ``_MAX_WORKERS`` end after their request. A worker
that LLVM kills is reported to the client as ``{"died": status}``: the server itself runs no
compile, so it outlives every abort.

- Socket: ``<runtime dir>/build-<digest>.sock``, the runtime directory being ``$XDG_RUNTIME_DIR``
  (when it is the user's own) or ``<tmp>/kernelkit-<uid>`` made with mode 0700; a directory that is
  not the user's own or that others may enter is not used (no server). The digest covers the Python
  executable, its version and kernelkit's files (``key.toolchain_fingerprint``): a changed kernelkit
  never talks to an old server.
- Start: on first use, in the background (``spawn``); that first build still uses a plain worker.
  One server per socket (an exclusive lock on ``<socket>.lock``); a stale socket is replaced.
- Stop: after ``$KERNELKIT_SERVER_IDLE`` seconds without a client (default 900), when kernelkit's
  files change (checked every 30 s) or its socket is removed, or on ``stop(path)``;
  ``KERNELKIT_NO_SERVER=1`` turns it off (plain worker processes, as before).
- A connection starts with the client's log file descriptor (SCM_RIGHTS): the workers write
  their standard error there, where the client reads LLVM's message when one dies. Every request
  carries the client's whole environment and working directory.
- Device libraries: after the first request of a kind (target and options but -D/-I,
  ``replay_options``), the server replays it itself (``_warm``) and indexes, in a forked process at the
  lowest priority, each AMDGPU device library the replay had to link whole (``_build_indexes``); once
  the index is back, every worker forked from then on links only the pieces a module needs. Whenever
  the server holds more (a replay, an index), idle workers forked before are replaced by new ones.
"""

from __future__ import annotations

import _socket
import os
import stat
import struct
import sys
import time

TYPE_CHECKING = False         # (typing.TYPE_CHECKING without importing typing)
if TYPE_CHECKING:
    import socket
    from pathlib import Path

# The client's part (socket_file, connect, send_fd, spawn, stop) uses os.path and the C socket type: a
# build through the server imports no pathlib, socket, selectors or tempfile. The server's part imports
# them where it runs (the server has imported everything before it listens).

IDLE_SECONDS = 900.0
_CHECK_SECONDS = 30.0
_MAX_SOCKET_PATH = 104        # sun_path holds 104 (BSD) to 108 (Linux) bytes with the terminating NUL
_MAX_WORKERS = max(2, os.cpu_count() or 1)   # kept after their request (more are forked while all are busy)


def _fingerprint() -> str:
    """kernelkit's files as they are now (not the value cached at start)."""
    from kernelkit.builder.key import toolchain_fingerprint

    toolchain_fingerprint.cache_clear()
    return toolchain_fingerprint()


def enabled() -> bool:
    return os.environ.get("KERNELKIT_NO_SERVER", "") in ("", "0")


def temp_dir() -> str:
    """The system's folder for temporary files, as tempfile.gettempdir chooses it ($TMPDIR, $TEMP, $TMP,
    then /tmp, /var/tmp, /usr/tmp, then the working directory: the first that is a folder we may write
    in), without importing tempfile (which a build through the build server need not load); when tempfile
    is loaded and its ``tempdir`` is set (by the program, or remembered by gettempdir), that folder."""
    loaded = sys.modules.get("tempfile")
    if loaded is not None and getattr(loaded, "tempdir", None):
        return os.fsdecode(loaded.tempdir)
    candidates = [os.environ[name] for name in ("TMPDIR", "TEMP", "TMP") if os.environ.get(name)]
    for folder in (*candidates, "/tmp", "/var/tmp", "/usr/tmp"):
        folder = os.path.abspath(folder)
        if os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return os.getcwd()


def runtime_dir() -> str | None:
    """The user's private directory for the socket, or None when there is no safe one."""
    uid = os.getuid()
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    candidates = ([os.path.join(xdg, "kernelkit")] if xdg else []) + [os.path.join(temp_dir(), f"kernelkit-{uid}")]
    for folder in candidates:
        try:
            try:
                os.mkdir(folder, 0o700)
            except FileExistsError:
                pass
            st = os.lstat(folder)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid and not st.st_mode & 0o077:
            return folder
    return None


def socket_file() -> str | None:
    """The build server's socket (``socket_path``) as a string."""
    from kernelkit.builder.key import toolchain_fingerprint
    from kernelkit.cache import sha256

    folder = runtime_dir()
    if folder is None:
        return None
    digest = sha256(f"{sys.executable}\0{sys.version}\0{toolchain_fingerprint()}".encode()).hexdigest()
    path = os.path.join(folder, f"build-{digest[:20]}.sock")
    return path if len(os.fsencode(path)) < _MAX_SOCKET_PATH else None


def socket_path() -> Path | None:
    from pathlib import Path

    path = socket_file()
    return None if path is None else Path(path)


def connect(path: str | os.PathLike) -> _socket.socket | None:
    """A connection to the socket ``path`` (the C socket type: a client need not load the socket module),
    or None when nothing listens there."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(os.fspath(path))
    except OSError:
        sock.close()
        return None
    return sock


def send_fd(sock, fd: int) -> None:
    """Send one byte and the descriptor ``fd`` (SCM_RIGHTS) on the connected socket ``sock``: what a
    connection to the server starts with (socket.send_fds, for the C socket type)."""
    sock.sendmsg([b"L"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack("i", fd))])


_SPAWNED: set[str] = set()
_STARTED: list = []      # the servers this process started (kept: it outlives us, without a warning)


def spawn(path: str | os.PathLike) -> None:
    """Start a server for ``path`` in the background (once per process; a second server exits)."""
    import subprocess

    if str(path) in _SPAWNED:
        return
    _SPAWNED.add(str(path))
    from kernelkit.builder.pool import worker_environment

    env = worker_environment()
    env.pop("KERNELKIT_BUILD_WORKER", None)
    with open(os.devnull, "rb") as null_in, open(str(path) + ".log", "ab") as log:
        _STARTED.append(subprocess.Popen([sys.executable, "-m", "kernelkit.builder.server", str(path)],
                                         stdin=null_in, stdout=log, stderr=log, env=env, cwd="/",
                                         start_new_session=True, close_fds=True))


def replay_options(options) -> tuple[str, ...]:
    """A request's options as the server's replay of a new kind of request (``_Server._warm``) tells kinds
    apart: without -D and -I (macros and include folders change the source the frontend reads, not the
    device libraries and LLVM state a replay readies)."""
    kept: list[str] = []
    words = iter(options)
    for word in words:
        word = str(word)
        if word in ("-D", "-I"):
            next(words, None)
        elif not word.startswith(("-D", "-I")):
            kept.append(word)
    return tuple(kept)


# ------------------------------------------------------------------------------------ the server
class _Worker:
    """The server's side of one worker (kernelkit.builder.server_worker)."""

    def __init__(self, pid: int, control: socket.socket, generation: int):
        self.pid, self.control, self.generation = pid, control, generation
        self.job: tuple | None = None    # (the client's connection, the request) while it serves it
        self.served = 0


class _Server:
    def __init__(self, path: Path, idle: float):
        import selectors

        self.path, self.idle = path, idle
        self.selector = selectors.DefaultSelector()
        self.workers: dict[int, _Worker] = {}     # control fd -> worker
        self.exited: dict[int, int] = {}          # pid -> wait status, reaped before it was asked for
        self.generation = 0                       # + 1 whenever the server holds more (replay, index)
        self.warmed: set[tuple] = set()
        self.log_fds: dict[socket.socket, int] = {}
        self.indexing: dict[int, tuple] = {}   # pipe fd -> (library ident, its builder's pid, the bytes read)
        self.last_active = self.checked = time.monotonic()
        self.fingerprint = _fingerprint()

    def listen(self) -> None:
        import selectors
        import socket

        try:
            self.path.unlink()      # stale (we hold the lock: no other server uses it)
        except FileNotFoundError:
            pass
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            self.listener.bind(str(self.path))
        finally:
            os.umask(old)
        self.inode = self.path.stat().st_ino
        self.listener.listen(64)
        self.selector.register(self.listener, selectors.EVENT_READ)
        self._keep_spare()

    def run(self) -> None:
        while True:
            # a worker's DONE first: a request that came with it finds the worker idle
            for key, _ in sorted(self.selector.select(timeout=0.05), key=lambda event: event[0].data != "worker"):
                if key.fileobj is self.listener:
                    self._accept()
                elif key.data == "worker":
                    self._worker_event(key.fileobj)
                elif isinstance(key.fileobj, int):
                    self._index_data(key.fileobj)
                else:
                    self._request(key.fileobj)
            self._reap()
            self._keep_spare()
            now = time.monotonic()
            busy = any(w.job for w in self.workers.values())
            if self.log_fds or busy:
                self.last_active = now
            elif now - self.last_active > self.idle or not self._still_ours():
                return
            if now - self.checked > _CHECK_SECONDS:
                self.checked = now
                if not busy and _fingerprint() != self.fingerprint:
                    return             # kernelkit's files changed: clients now look for another server

    def _still_ours(self) -> bool:
        try:
            return self.path.stat().st_ino == self.inode
        except OSError:
            return False     # socket removed or replaced (the directory cleaned)

    def _accept(self) -> None:
        import selectors
        import socket

        conn, _ = self.listener.accept()
        if not _same_user(conn):
            conn.close()
            return
        conn.settimeout(10)
        try:
            _msg, fds, _flags, _addr = socket.recv_fds(conn, 1, 1)   # one byte: the request follows
        except OSError:
            conn.close()
            return
        if not fds:
            conn.close()
            return
        conn.settimeout(None)
        self.log_fds[conn] = fds[0]
        self.selector.register(conn, selectors.EVENT_READ)

    def _close(self, conn: socket.socket) -> None:
        try:
            self.selector.unregister(conn)
        except (KeyError, ValueError):
            pass
        fd = self.log_fds.pop(conn, None)
        if fd is not None:
            os.close(fd)
        conn.close()

    def _request(self, conn: socket.socket) -> None:
        from kernelkit.builder.protocol import read_message

        stream = conn.makefile("rb", buffering=0)   # unbuffered: nothing of a later message is read
        try:
            message = read_message(stream)
        except (OSError, ValueError):
            message = None
        finally:
            stream.close()
        if message is None:
            self._close(conn)
            return
        if message.get("kind") == "stop":
            self._close(conn)
            raise SystemExit(0)
        self.selector.unregister(conn)          # the worker owns the connection until it is done
        self._dispatch(conn, message)

    # ------------------------------------------------------------------------------- the workers
    def _spawn_worker(self) -> _Worker:
        """A worker forked now (warm: after every import, replay and index the server holds)."""
        import selectors
        import socket

        from kernelkit.builder import server_worker

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            ours.close()
            self._drop_connections()
            server_worker.run(theirs)
        theirs.close()
        worker = _Worker(pid, ours, self.generation)
        self.workers[ours.fileno()] = worker
        self.selector.register(ours, selectors.EVENT_READ, "worker")
        return worker

    def _keep_spare(self) -> None:
        """One idle worker of the current generation ready for the next request (forked off any request's
        path); idle workers of an older generation retired."""
        idle = [w for w in self.workers.values() if w.job is None]
        for worker in idle:
            if worker.generation != self.generation:
                self._retire(worker)
        if not any(w.job is None for w in self.workers.values()):
            self._spawn_worker()

    def _dispatch(self, conn: socket.socket, message: dict) -> None:
        from kernelkit.builder.server_worker import send_request

        while True:
            idle = [w for w in self.workers.values() if w.job is None and w.generation == self.generation]
            worker = max(idle, key=lambda w: w.served) if idle else self._spawn_worker()   # a warm one first
            worker.job = (conn, message)
            try:
                send_request(worker.control, conn.fileno(), self.log_fds[conn], message)
                return
            except OSError:           # it has just gone: its end is read as a death with no job
                worker.job = None
                self._retire(worker)

    def _worker_event(self, control: socket.socket) -> None:
        from kernelkit.builder.server_worker import DONE

        worker = self.workers[control.fileno()]
        try:
            said = control.recv(1)
        except OSError:
            said = b""
        job, worker.job = worker.job, None
        if said == DONE:
            worker.served += 1
            if worker.generation != self.generation:
                self._retire(worker)
            elif len(self.workers) > _MAX_WORKERS:
                # more workers than kept (forked while all were busy): the idle one that has served least
                # goes, not this one, which is warm (a client's next request often comes before the DONE)
                self._retire(min((w for w in self.workers.values() if w.job is None), key=lambda w: w.served))
            if job is not None:
                self._done(job[0])
                self._warm(job[1])
            return
        self._retire(worker)                  # ended: its request (if any) died with it
        if job is not None:
            status = self._wait_for(worker.pid)
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            self._died(job[0], code or 1)

    def _done(self, conn: socket.socket) -> None:
        import selectors

        self.selector.register(conn, selectors.EVENT_READ)   # its next request

    def _died(self, conn: socket.socket, code: int) -> None:
        from kernelkit.builder.protocol import write_message

        try:
            stream = conn.makefile("wb")
            write_message(stream, {"died": code})
            stream.close()
        except OSError:
            self._close(conn)
            return
        self._done(conn)

    def _retire(self, worker: _Worker) -> None:
        """The worker's control socket closed: an idle worker exits at once (reaped by ``_reap``)."""
        if self.workers.pop(worker.control.fileno(), None) is None:
            return
        try:
            self.selector.unregister(worker.control)
        except (KeyError, ValueError):
            pass
        worker.control.close()

    def _wait_for(self, pid: int) -> int:
        status = self.exited.pop(pid, None)
        if status is not None:
            return status
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return self.exited.pop(pid, 1 << 8)

    def _reap(self) -> None:
        """Every ended child waited for; the status kept of those still tracked (workers, index builders)."""
        tracked = {w.pid for w in self.workers.values()} | {pid for _, pid, _ in self.indexing.values()}
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid in tracked:
                self.exited[pid] = status

    def _warm(self, message: dict) -> None:
        """After a child answered a request of a kind not seen before (target, options), the server
        compiles the same request itself, so that what it reads once (kernelkit's libraries, as text
        and parsed by LLVM) is ready in every later child. The child got through it, so LLVM does not
        abort on it (compiling is deterministic); the reply is dropped. It writes nothing to the
        client's cache (nor refreshes an entry's time): the client may be looking at it."""
        if message.get("kind", "build") not in ("build", "call"):
            return
        what = (message.get("kind"), message.get("target"), replay_options(message.get("options") or ()),
                message.get("stage"))
        if what in self.warmed:
            return
        self.warmed.add(what)
        from kernelkit.builder.worker import apply_environment, handle

        saved = dict(os.environ)
        try:
            environ = message.get("environ")
            if isinstance(environ, dict):
                os.environ.update({str(k): str(v) for k, v in environ.items()})
            os.environ["KERNELKIT_BUILD_WORKER"] = "1"
            apply_environment({**(message.get("env") or {}), "KERNELKIT_NO_CACHE": "1"}, message.get("cwd"))
            handle(message, lambda m: None)   # the cache off: the client's cache is its own (read only)
        except Exception:  # noqa: BLE001 - warming is an optimisation; the child reported the outcome
            pass
        finally:
            os.environ.clear()
            os.environ.update(saved)
            os.chdir("/")
        _freeze()
        self.generation += 1
        self._build_indexes()

    def _build_indexes(self) -> None:
        """Index, each in a forked process at the lowest priority, the device libraries the replay linked
        whole (kernelkit.targets.amdhsa.library_index): seconds of kernelkit.ir, while the server goes on
        serving; the index comes back through a pipe and every later child links only what it needs."""
        import selectors

        from kernelkit.targets.amdhsa import library_index

        building = {ident for ident, _, _ in self.indexing.values()}
        for ident in sorted(library_index.unindexed - building):
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    os.close(read_end)
                    self._drop_connections()
                    os.nice(19)         # background work: the builds under way come first
                    data = library_index.index_bytes(ident)
                    with open(write_end, "wb") as out:
                        out.write(data)
                    code = 0
                finally:
                    os._exit(code)
            os.close(write_end)
            self.indexing[read_end] = (ident, pid, [])
            self.selector.register(read_end, selectors.EVENT_READ)

    def _index_data(self, fd: int) -> None:
        ident, pid, chunks = self.indexing[fd]
        chunk = os.read(fd, 1 << 20)
        if chunk:
            chunks.append(chunk)
            return
        self.selector.unregister(fd)
        os.close(fd)
        del self.indexing[fd]
        self._wait_for(pid)
        from kernelkit.targets.amdhsa import library_index

        if library_index.adopt(ident, b"".join(chunks)):
            print(f"indexed {' '.join(map(str, ident))}", flush=True)
            _freeze()
            self.generation += 1

    def _drop_connections(self) -> None:
        """In a forked process: the listener, every client's connection and log file, every worker's control
        socket and every index builder's pipe closed (they are the server's)."""
        self.listener.close()
        for conn, fd in self.log_fds.items():
            conn.close()
            os.close(fd)
        for worker in self.workers.values():
            worker.control.close()
        for fd in self.indexing:
            os.close(fd)
        self.selector.close()


def _same_user(conn: socket.socket) -> bool:
    """Whether the peer runs as our user (SO_PEERCRED where the system has it; the socket's mode
    and its folder's already keep other users out)."""
    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(_socket.SOL_SOCKET, option, struct.calcsize("3i")))
    except OSError:
        return False
    return uid == os.getuid()


def _freeze() -> None:
    """Every object so far out of the collector's sight: a child's garbage collections then do not
    touch (and so copy) the pages it shares with the server."""
    import gc

    gc.collect()
    gc.freeze()


def serve(path: Path, idle: float = IDLE_SECONDS) -> int:
    import fcntl

    lock = open(str(path) + ".lock", "a")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0                                  # another server has this socket
    os.environ["KERNELKIT_BUILD_WORKER"] = "1"
    import kernelkit.llvm_binding as binding
    from kernelkit.builder.worker import warm_all

    binding.parse_memo_policy = binding.KEEP

    warm_all()
    _freeze()
    server = _Server(path, idle)
    server.listen()
    try:
        server.run()
    finally:
        try:
            if path.stat().st_ino == server.inode:
                path.unlink()
        except OSError:
            pass
    return 0


def stop(path: str | os.PathLike) -> bool:
    """Ask the server on ``path`` to exit; whether one was there."""
    from kernelkit.builder.protocol import write_message

    sock = connect(path)
    if sock is None:
        return False
    try:
        with open(os.devnull, "wb") as null:
            send_fd(sock, null.fileno())
        with open(sock.fileno(), "wb", closefd=False) as stream:
            write_message(stream, {"kind": "stop"})
    finally:
        sock.close()
    return True


def main(argv: list[str]) -> int:
    from pathlib import Path

    idle = float(os.environ.get("KERNELKIT_SERVER_IDLE") or IDLE_SECONDS)
    return serve(Path(argv[0]), idle)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
