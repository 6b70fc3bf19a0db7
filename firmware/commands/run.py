"""`unotable run`: the table daemon (what systemd starts)."""

from __future__ import annotations

import argparse
import logging


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the table daemon",
        description="Run the daemon: open the journal (continuing the match in it), drive "
        "the hardware of the config, serve the API until SIGTERM. Without --config: "
        "$UNOTABLE_CONFIG, /etc/unotable/config.toml, else the built-in default, which "
        "runs on the simulated table.",
    )
    parser.add_argument("--config", metavar="PATH", help="config file (default: $UNOTABLE_CONFIG, "
                        "/etc/unotable/config.toml, else the built-in default)")
    parser.add_argument("--log-level", default="INFO",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="least important log messages shown")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware.commands.config_cmd import load_or_refuse
    from firmware.daemon import Daemon
    from firmware.errors import FileRefused, JournalError, UsageError
    from firmware.journal.store import refusal

    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    config = load_or_refuse(args.config)
    check_files = None
    if config.sim.enabled:
        from firmware.sim.twin import twin_factory as factory
        from firmware.sim.twin import twin_files

        check_files = twin_files(config)
    else:
        from firmware.commands.config_cmd import use_configured_pins
        from firmware.controller import table_factory as factory

        use_configured_pins(config)
    try:
        return Daemon(config, factory(config), check_files=check_files).run()
    except JournalError as exc:  # refused before anything started: exit 2, one line
        raise UsageError(refusal(exc)) from None
    except FileRefused as exc:  # another of the table's files: the same
        raise UsageError(" ".join(str(exc).split())) from None
