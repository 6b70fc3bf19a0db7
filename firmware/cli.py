"""The `unotable` command.

Every module in `firmware.commands` that defines ``register(subparsers)`` adds its
subcommand(s); a subcommand stores its handler with ``parser.set_defaults(func=...)``.
Handlers import what they need lazily so that `unotable run` starts fast.
A handler returns the process exit status (0 ok, 2 bad input / illegal action).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType

from firmware import commands
from firmware.errors import UsageError

CLOSED_PIPE_STATUS = 141  # 128 + SIGPIPE: what `yes | head` leaves behind


class DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default, unless the help already names it
    (an option without a value, like --json, has none to show)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        no_value = any(action.default is no for no in (None, False, argparse.SUPPRESS))
        if "default" in text or no_value:
            return text
        return super()._get_help_string(action)


class CommandParser(argparse.ArgumentParser):
    """The parser of `unotable` and of each subcommand: help shows the defaults."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def package_version() -> str:
    try:
        return version("unotable")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


@functools.cache
def command_modules() -> tuple[ModuleType, ...]:
    """Every module of `firmware.commands`, by name, found and imported once a process."""
    found = sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name)
    return tuple(importlib.import_module(f"{commands.__name__}.{m.name}") for m in found)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="unotable",
        description="UNO card table: referee, launcher, tower tray and seat panel.",
    )
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return 2
        try:
            status = int(func(args) or 0)
        except UsageError as exc:
            print(f"unotable {args.command}: error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130
        sys.stdout.flush()  # here, so that a reader gone away (`| head`) is seen below
        return status
    except BrokenPipeError:
        # The Python docs' "Note on SIGPIPE": Python flushes stdout again at exit;
        # point it at devnull so that flush has nowhere to fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE_STATUS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
