"""Exceptions shared by every layer of kernelkit."""

from __future__ import annotations


class KernelkitError(Exception):
    """Base class of every kernelkit error."""


class FormatError(KernelkitError, ValueError):
    """A binary or text input does not follow its format.

    ``offset`` is the byte offset (or line number for text formats, ``line``) and ``field``
    names what was being read when the problem was found.
    """

    def __init__(self, message: str, *, offset: int | None = None, field: str | None = None,
                 line: int | None = None):
        self.message = message
        self.offset = offset
        self.field = field
        self.line = line
        where = []
        if line is not None:
            where.append(f"line {line}")
        if offset is not None:
            where.append(f"offset {offset:#x}")
        if field:
            where.append(f"field {field}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class CompileError(KernelkitError):
    """A kernel source did not compile.

    ``diagnostics`` lists ``(file, line, column, severity, message)`` tuples parsed from the
    compiler's output; ``log`` is the compiler's complete output.
    """

    def __init__(self, message: str, *, log: str = "",
                 diagnostics: list[tuple[str, int, int, str, str]] | None = None):
        self.message = message
        self.log = log
        self.diagnostics = diagnostics or []
        super().__init__(message)

    @property
    def location(self) -> str | None:
        """``file:line:column`` of the first error, if the compiler named one."""
        for file, line, col, severity, _msg in self.diagnostics:
            if severity in ("error", "fatal error"):
                return f"{file}:{line}:{col}"
        return None


class LaunchError(KernelkitError, ValueError):
    """A kernel launch was refused (bad NDRange, arguments, sizes)."""
