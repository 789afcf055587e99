"""ComputeMux compiler result codes and the exceptions that carry them (spec 003).

The spec's methods return ``compiler::Result`` (or ``cargo::expected<T, Result>``); in Python a
method returns its value and a failure is raised as :class:`MuxError` carrying the ``Result``.
"""

from __future__ import annotations

import enum

from kernelkit.errors import CompileError, KernelkitError

# spec 003 "Return Value" sections (SUCCESS, INVALID_VALUE, OUT_OF_MEMORY, FINALIZE_PROGRAM_FAILURE,
# FEATURE_UNSUPPORTED) within the full compiler::Result enumeration, in its declaration order.
RESULT_CODES: tuple[tuple[str, int, str], ...] = (
    ("SUCCESS", 0, "no error occurred"),
    ("FAILURE", 1, "an unknown error occurred"),
    ("INVALID_VALUE", 2, "an invalid value was passed to a method"),
    ("OUT_OF_MEMORY", 3, "a memory allocation failed"),
    ("INVALID_BUILD_OPTIONS", 4, "invalid build options were passed to the frontend"),
    ("INVALID_COMPILER_OPTIONS", 5, "invalid compile options were passed to the frontend"),
    ("INVALID_LINKER_OPTIONS", 6, "invalid link options were passed to the frontend"),
    ("BUILD_PROGRAM_FAILURE", 7, "failed to compile the program in BUILD mode"),
    ("COMPILE_PROGRAM_FAILURE", 8, "failed to compile the program in COMPILE mode"),
    ("LINK_PROGRAM_FAILURE", 9, "failed to link the program"),
    ("FINALIZE_PROGRAM_FAILURE", 10, "failed to finalize the program (IR to binary)"),
    ("FEATURE_UNSUPPORTED", 11, "a feature is not supported"),
)

Result = enum.IntEnum("Result", [(name, value) for name, value, _ in RESULT_CODES])
Result.__doc__ = "compiler::Result (spec 003)."

RESULT_DESCRIPTIONS: dict[int, str] = {value: text for _, value, text in RESULT_CODES}


class MuxError(KernelkitError):
    """A ComputeMux call failed; ``result`` is the spec's ``Result`` code."""

    def __init__(self, result: Result, message: str = ""):
        self.result = Result(result)
        self.message = message or RESULT_DESCRIPTIONS[int(self.result)]
        super().__init__(f"{self.result.name}: {self.message}")


class MuxCompileError(MuxError, CompileError):
    """The front end rejected a program: a ``MuxError`` that is also a ``CompileError``.

    It keeps clang's ``log`` and ``diagnostics`` so the CLI prints file:line:column messages.
    """

    def __init__(self, result: Result, error: CompileError):
        MuxError.__init__(self, result, error.message)  # (runs CompileError.__init__ through the MRO)
        self.log = error.log
        self.diagnostics = error.diagnostics


def unsupported(what: str) -> MuxError:
    """The error a method raises when its target cannot do ``what``."""
    return MuxError(Result.FEATURE_UNSUPPORTED, f"{what} is not supported by this target")
