"""The `kernelkit` command line: build | run | inspect | layout | link | convert | signature | targets | demo.

Each subcommand lives in ``kernelkit.commands.<name>`` and provides ``register(subparsers)``
(adding its parser, with ``set_defaults(func=run)``) and ``run(args) -> int``. Heavy imports
happen inside ``run`` so ``kernelkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from kernelkit.errors import CompileError, KernelkitError
from kernelkit.plugins import import_if_present

COMMANDS = ["build", "run", "inspect", "layout", "link", "convert", "signature", "targets", "demo"]


class _Parser(argparse.ArgumentParser):
    """argparse, but wrong usage prints one readable line and exits 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kernelkit", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = import_if_present(f"kernelkit.commands.{name}")
        if module is not None:
            module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CompileError as exc:
        sys.stderr.write(exc.log if exc.log else f"{exc}\n")
        if exc.log and not exc.log.endswith("\n"):
            sys.stderr.write("\n")
        return 1
    except (KernelkitError, OSError) as exc:
        sys.stderr.write(f"kernelkit {args.command}: error: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
