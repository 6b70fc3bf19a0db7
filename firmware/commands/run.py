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
    parser.add_argument("--config", metavar="PATH", help="config file")
    parser.add_argument("--log-level", default="INFO",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware.commands.config_cmd import load_or_refuse
    from firmware.controller import table_factory
    from firmware.daemon import Daemon

    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    config = load_or_refuse(args.config)
    return Daemon(config, table_factory(config)).run()
