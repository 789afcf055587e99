"""The `kernelkit` command line: build | run | inspect | layout | link | convert | signature | targets | cache | demo.

Each subcommand lives in ``kernelkit.commands.<name>`` and provides ``register(subparsers)``
(adding its parser, with ``set_defaults(func=run)``) and ``run(args) -> int``. Heavy imports
happen inside ``run`` so ``kernelkit --help`` stays fast. A ``build`` of one source for one target
whose binary is in the cache is served before argparse is even imported
(``kernelkit.commands.build_cached``).
"""

from __future__ import annotations

import sys

from kernelkit.errors import CompileError, KernelkitError

COMMANDS = ["build", "run", "inspect", "layout", "link", "convert", "signature", "targets", "cache", "server", "demo"]


def version_text() -> str:
    """kernelkit's version, and the clang and LLVM it compiles with."""
    from kernelkit import __version__

    lines = [f"kernelkit {__version__}"]
    try:
        from kernelkit.frontend.clang import clang_version

        lines.append(f"OpenCL C frontend: {clang_version()} (ziglang)")
    except CompileError as exc:
        lines.append(f"OpenCL C frontend: unavailable ({exc})")
    try:
        from importlib.metadata import version

        lines.append(f"LLVM: llvmlite {version('llvmlite')}")
    except ImportError:
        lines.append("LLVM: llvmlite is not installed")
    return "\n".join(lines)


def _quiet_closed_pipe() -> int:
    """Standard output was closed by the reader (``| head``): stop quietly, as Unix tools do."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141  # 128 + SIGPIPE, what a shell reports for a tool ended by a closed pipe


def build_parser(only: str | None = None):
    """The parser (argparse) of every subcommand, or of ``only`` that one (what a command line naming it
    needs: the other commands' modules are not imported)."""
    import argparse

    from kernelkit.plugins import import_if_present

    class _Parser(argparse.ArgumentParser):
        """argparse, but wrong usage prints one readable line and exits 2."""

        def error(self, message: str):  # noqa: D401 - argparse API
            self.exit(2, f"{self.prog}: error: {message}\n")

    class _Version(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            sys.stdout.write(version_text() + "\n")
            parser.exit(0)

    parser = _Parser(prog="kernelkit", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_Version, nargs=0, help="print kernelkit's version and its tools'")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if only is None else [only]:
        module = import_if_present(f"kernelkit.commands.{name}")
        if module is not None:
            module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if words[:1] == ["build"]:
        try:
            from kernelkit.commands.build_cached import serve

            code = serve(words[1:])
        except BrokenPipeError:
            return _quiet_closed_pipe()
        except KeyboardInterrupt:
            return 130
        if code is not None:
            return code
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except CompileError as exc:
        sys.stderr.write(exc.log if exc.log else f"{exc}\n")
        if exc.log and not exc.log.endswith("\n"):
            sys.stderr.write("\n")
        return 1
    except BrokenPipeError:
        return _quiet_closed_pipe()
    except (KernelkitError, OSError) as exc:
        sys.stderr.write(f"kernelkit {args.command}: error: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
