"""Progress on a terminal: a status line that appears once a step has taken about a second.

``Progress(stream)`` shows nothing unless ``stream`` is a terminal; ``update(name, text)`` sets
what one build is doing, ``done(name)`` removes it; ``line(text)`` prints a permanent line above
the status line. A background thread redraws every quarter second with the elapsed time.
"""

from __future__ import annotations

import sys
import time

DELAY = 1.0


class Progress:
    def __init__(self, stream=None, *, enabled: bool | None = None, delay: float = DELAY):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.delay = delay
        self._active: dict[str, tuple[str, float]] = {}
        import _thread  # (not threading: a build whose stream is no terminal shows nothing and need not load it)

        self._lock = _thread.allocate_lock()
        self._shown = 0
        self._stop = None
        self._thread = None

    def __enter__(self) -> Progress:
        if self.enabled:
            import threading

            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, name="kernelkit-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._clear()

    def update(self, name: str, text: str) -> None:
        with self._lock:
            started = self._active.get(name, ("", time.monotonic()))[1]
            self._active[name] = (text, started)

    def done(self, name: str) -> None:
        with self._lock:
            self._active.pop(name, None)
            if not self._active:
                self._clear()          # (the caller may print right after: no status line left under it)

    def line(self, text: str, stream=None) -> None:
        """A permanent line (on ``stream``, default the progress stream), above the status line."""
        with self._lock:
            self._clear()
            out = stream if stream is not None else self.stream
            out.write(text + "\n")
            out.flush()

    def _clear(self) -> None:
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0

    def status_text(self, now: float | None = None) -> str:
        """The status line: the builds running longer than the delay, with their elapsed time."""
        now = time.monotonic() if now is None else now
        items = [(text, now - started) for text, started in self._active.values() if now - started >= self.delay]
        if not items:
            return ""
        text, elapsed = max(items, key=lambda item: item[1])
        more = f" (+{len(items) - 1} more)" if len(items) > 1 else ""
        return f"kernelkit: {text} ... {elapsed:.0f} s{more}"

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            with self._lock:
                text = self.status_text()
                width = 100
                text = text[:width]
                if not text and not self._shown:
                    continue
                pad = max(0, self._shown - len(text))
                self.stream.write("\r" + text + " " * pad)
                self.stream.flush()
                self._shown = len(text)
