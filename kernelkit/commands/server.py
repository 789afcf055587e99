"""`kernelkit server status|start|stop`: the build server that keeps a warm compiler between builds
(kernelkit.builder.server: started by the first build that needs a compiler, stops when idle)."""

from __future__ import annotations

import time


def register(sub) -> None:
    p = sub.add_parser("server", help="the build server kept between builds: `server status`, `start` or `stop`")
    p.add_argument("action", choices=("status", "start", "stop"))
    p.set_defaults(func=run)


def _answers(path) -> bool:
    from kernelkit.builder import server

    sock = server.connect(path)
    if sock is None:
        return False
    sock.close()
    return True


def run(args) -> int:
    from kernelkit.builder import server
    from kernelkit.errors import KernelkitError

    path = server.socket_path()
    if path is None:
        raise KernelkitError("no build server here: no private runtime directory for its socket "
                             "($XDG_RUNTIME_DIR or <tmp>/kernelkit-<uid>, mode 0700), or its path is too long")
    if args.action == "status":
        state = "running" if _answers(path) else "not running"
        off = " (turned off: KERNELKIT_NO_SERVER)" if not server.enabled() else ""
        print(f"build server {state}{off}: {path}")
        return 0
    if args.action == "stop":
        print(f"stopped the build server at {path}" if server.stop(path) else f"no build server at {path}")
        return 0
    if _answers(path):
        print(f"build server running: {path}")
        return 0
    server.spawn(path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if _answers(path):
            print(f"build server running: {path}")
            return 0
        time.sleep(0.2)
    raise KernelkitError(f"the build server did not start; see {path}.log")
