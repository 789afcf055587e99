"""Events: a launch running on the host device, waited for like a PyOpenCL event.

``Kernel.launch(...)`` returns an :class:`Event` at once; ``event.wait()`` blocks until the
kernel has finished, raises its error (checked-mode violation, timeout) and returns its printf
output. Ctrl-C during ``wait`` stops the kernel (it polls a cancel flag at every loop back-edge)
and raises KeyboardInterrupt once the threads have stopped; a launch ``timeout`` stops it the
same way and raises a LaunchError. Either way the process stays usable.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kernelkit.errors import LaunchError
from kernelkit.runtime.launch import NativeLaunch

# how often a waiting thread wakes up to check its deadline
_POLL_SECONDS = 0.05


class Event:
    """One launch; ``wait()`` returns its printf output (and raises its error, if any). ``recycle``, if
    given, is called once the launch has finished and been waited for (its launch plan may then give
    its native memory to a later launch)."""

    def __init__(self, kernel: str, native: NativeLaunch, finish: Callable[[], str], timeout: float | None,
                 recycle: Callable[[], None] | None = None):
        self.kernel = kernel
        self._recycle = recycle
        self._native = native
        self._finish = finish
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._timeout = timeout
        self._lock = threading.Lock()
        self._result: str | None = None
        self._error: BaseException | None = None

    def rearm(self, native: NativeLaunch, finish: Callable[[], str], timeout: float | None,
              recycle: Callable[[], None] | None = None) -> Event:
        """This Event for another launch (a launch plan's own Event, which no caller holds any more)."""
        self._native = native
        self._finish = finish
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._timeout = timeout
        self._recycle = recycle
        self._result = None
        self._error = None
        return self

    @property
    def done(self) -> bool:
        """Has the kernel finished (or stopped)?"""
        return self._native.done()

    def cancel(self) -> None:
        """Ask a running kernel to stop; ``wait`` then raises a LaunchError (no effect once it finished)."""
        if not self._native.done():
            self._native.cancel()

    def _wait_native(self) -> None:
        try:
            while True:
                left = None if self._deadline is None else self._deadline - time.monotonic()
                if left is not None and left <= 0:
                    self._native.cancel()
                    self._native.wait_uninterrupted()
                    raise LaunchError(f"{self.kernel}: stopped after the launch timeout of {self._timeout:g} s "
                                      "(the kernel was still running; its buffers hold partial results)")
                step = _POLL_SECONDS if left is None else min(left, _POLL_SECONDS)
                if self._native.wait(step):
                    break
        except KeyboardInterrupt:
            self._native.cancel()
            self._native.wait_uninterrupted()
            raise
        if self._native.state.cancel.value:
            raise LaunchError(f"{self.kernel}: the launch was cancelled (its buffers hold partial results)")

    def wait(self) -> str:
        """Block until the kernel has finished; returns its printf output."""
        with self._lock:
            if self._error is not None:
                raise self._error
            if self._result is not None:
                return self._result
            try:
                self._wait_native()
                self._result = self._finish()
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                self._error = exc
                raise
            finally:
                if self._recycle is not None and self._native.done():
                    recycle, self._recycle = self._recycle, None
                    recycle()
            return self._result

    def __repr__(self) -> str:
        return f"<kernelkit.Event {self.kernel} {'done' if self.done else 'running'}>"
