"""`unotable config check [PATH]`: report every problem of a config file."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.config import Config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("config", help="inspect the table's configuration")
    actions = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="validate a config file and list every problem",
        description="Validate PATH (default: $UNOTABLE_CONFIG, /etc/unotable/config.toml, "
        "else the built-in default) and print every problem, one per line: missing "
        "sections, bad values, pins used twice or taken by the UART a reader uses, a weak "
        "token, and (with real pins) a machine where gpiozero finds no pin library. "
        "Exit status 0 only when `unotable run` can start from it, 1 otherwise. A file "
        "that passes is followed by notes (on stderr; not under systemd) of what phones "
        "on the LAN would lack, one line each: a loopback host, no token, a unit whose "
        "IPAddressAllow has no LAN, and what is known of the firewall.",
    )
    check.add_argument("path", nargs="?", metavar="PATH", help="config file to check (default: "
                       "$UNOTABLE_CONFIG, /etc/unotable/config.toml, else the built-in default)")
    # the same option `run`, `seats` and `enroll` take, so one habit serves every command
    check.add_argument("--config", dest="config_path", metavar="PATH",
                       help="the same as PATH (default: as for PATH)")
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from firmware.config import check_config, default_path
    from firmware.errors import UsageError

    if args.path and args.config_path not in (None, args.path):
        raise UsageError(f"two config files given: {args.path} and --config {args.config_path}")
    path = args.path or args.config_path or str(default_path())
    errors = check_config(path)
    for error in errors:
        print(f"{path}: {error.key}: {error.message}")
    if errors:
        print(f"{len(errors)} problem{'s' if len(errors) > 1 else ''} in {path}", file=sys.stderr)
        return 1
    print(f"{path}: ok")
    for line in phones_lack(path):
        print(f"{path}: note: {line}", file=sys.stderr)
    return 0


def phones_lack(path: str) -> list[str]:
    """What phones on the LAN would lack with the config at `path` (firmware.commands.lan);
    the config has passed the check. Nothing under systemd (the unit's ExecStartPre): its
    sandbox cannot see the interfaces, and the journal would repeat it at every start."""
    import os

    from firmware.commands.lan import phone_problems
    from firmware.config import load_config
    from firmware.errors import ConfigError

    if os.environ.get("INVOCATION_ID"):
        return []
    try:
        api = load_config(path).api
    except (ConfigError, OSError):
        return []
    return phone_problems(api.host, api.port, api.token)


def load_or_refuse(arg: str | None) -> Config:
    """The config for a command that drives the table (run, selftest): its first problem
    becomes one `UsageError` line (exit status 2) naming the file, never a traceback."""
    from firmware.config import default_path, load_config
    from firmware.errors import ConfigError, UsageError

    path = arg or str(default_path())
    try:
        return load_config(path)
    except ConfigError as exc:
        raise UsageError(f"{path}: {exc.key}: {exc.message} "
                         f"(`unotable config check {path}` lists every problem)") from None


def use_configured_pins(config: Config) -> None:
    """Before the real devices are built: gpiozero drives their pins with the library
    `[gpio] pin_factory` names; a missing one is one `UsageError` line."""
    from firmware.errors import UsageError
    from hal.pins import PinLibraryError, use_pin_factory

    try:
        use_pin_factory(config.gpio.pin_factory)
    except PinLibraryError as exc:
        raise UsageError(f"{config.path}: gpio.pin_factory: {exc}") from None
