"""`unotable demo`: the daemon on the simulated table, bots playing at it."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the table daemon on the simulated table with bots playing",
        description="Start the daemon, unchanged, on the simulated twin (launcher with "
        "real card tokens, seat buttons, NFC tower tray) and seat bots at it: they "
        "look at their cards, declare plays, press the buttons and move the towers. "
        "Prints what the card codes mean, a live log and a summary. By default the "
        "bots play one round of a match (--rounds N for more) with a temporary journal "
        "(--journal PATH keeps it).",
    )
    parser.add_argument("--variant", default="classic",
                        help="classic, power, attack, attack-1999 or extreme")
    parser.add_argument("--players", type=int, default=4, help="seats")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--rounds", type=int, default=None,
                        help="stop after this many rounds (default: 1; not with --serve, which "
                        "plays the match to its target score: --option target_score=N)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule of the match (repeatable), e.g. stack_draws=cross, "
                        "seven_zero=true, turn_timer_s=2 (docs/rules.md)")
    parser.add_argument("--fast", action="store_true",
                        help="no human-speed delays: virtual time for the launcher")
    parser.add_argument("--json", action="store_true",
                        help="print only the summary, as one JSON object")
    parser.add_argument("--pad", action="store_true",
                        help="a table with a card pad: the bots tap every card they play "
                        "on the twin's pad (docs/pad.md); the summary's declared counts "
                        "the plays by the way they came in; with --serve you declare on "
                        "the screen while the bots tap")
    parser.add_argument("--journal", metavar="PATH",
                        help="keep the journal here (and the world beside it); running "
                        "again with the same path continues the match (default: a "
                        "temporary journal, deleted at the end)")
    parser.add_argument("--serve", action="store_true",
                        help="take a seat yourself: serve the table's screen and play in the "
                        "browser next to the bots (your cards are shown on the screen)")
    parser.add_argument("--seat", type=int, default=None,
                        help="with --serve: your seat, numbered from 1 as on the screen "
                        "(default: 1)")
    parser.add_argument("--port", type=int, default=None,
                        help="with --serve: the port of the screen on 127.0.0.1, with --lan on every "
                        "address (default: 8080)")
    parser.add_argument("--lan", action="store_true",
                        help="with --serve: serve the local network too, so phones can join "
                        "(prints each seat's QR code; the owner's link carries a fresh token)")
    parser.add_argument("--mqtt", metavar="URL", default=None,
                        help="also publish the table to this MQTT broker (mqtt://HOST[:PORT]): "
                        "Home Assistant finds it, the results go to `unotable results` "
                        "(docs/homeassistant.md); $UNOTABLE_MQTT_USERNAME and "
                        "$UNOTABLE_MQTT_PASSWORD log in (default: no MQTT)")
    parser.set_defaults(func=run)


def mqtt_settings(url: str | None, env: Mapping[str, str]) -> Any:
    """The `[mqtt]` section `--mqtt URL` stands for (None without it); UsageError naming
    what is wrong with it."""
    from firmware.errors import UsageError
    from firmware.mqtt.settings import parse_config

    if url is None:
        return None
    section: dict[str, Any] = {"url": url}
    for key in ("username", "password"):
        if env.get(f"UNOTABLE_MQTT_{key.upper()}"):
            section[key] = env[f"UNOTABLE_MQTT_{key.upper()}"]
    errors: list[Any] = []
    settings = parse_config(section, path="--mqtt", errors=errors)
    if settings is None:
        raise UsageError("; ".join(str(e) for e in errors))
    return settings


def run(args: argparse.Namespace) -> int:
    from firmware.errors import UsageError

    if args.serve:
        return serve(args)
    if args.lan:
        raise UsageError("--lan: only with --serve (unotable demo --serve --lan)")
    for flag in ("seat", "port"):  # they choose the person's seat and screen: --serve only
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} {getattr(args, flag)}: only with --serve (take a seat "
                             f"yourself: unotable demo --serve --{flag} ...)")
    args.rounds = 1 if args.rounds is None else args.rounds
    from firmware.errors import FileRefused, JournalError
    from firmware.journal.store import Journal, refusal
    from firmware.sim.demo import (
        DemoError,
        card_legend,
        check_arguments,
        kill_after_from,
        parse_options,
        run_demo,
        summary_json,
        summary_text,
    )
    from firmware.sim.world import WorldError

    try:  # bad arguments are refused before anything is written
        check_arguments(args.variant, args.players, args.rounds)
        options = parse_options(args.variant, args.option)
        kill_after_from(os.environ)
        mqtt = mqtt_settings(args.mqtt, os.environ)
    except DemoError as exc:
        raise UsageError(str(exc)) from None
    if args.journal:  # refused before the simulated table writes its file beside it
        try:
            Journal.open(args.journal, edition=args.variant).close()
        except JournalError as exc:
            raise UsageError(refusal(exc)) from None
    if not args.json:
        print(card_legend(args.variant), flush=True)
    try:
        result = run_demo(args.variant, args.players, args.seed, args.rounds, fast=args.fast,
                          journal=args.journal, out=None if args.json else sys.stdout,
                          options=options, mqtt=mqtt, pad=args.pad)
    except (DemoError, WorldError, FileRefused) as exc:  # FileRefused: the seats' keys
        raise UsageError(str(exc)) from None
    except JournalError as exc:  # refused before the table started: exit 2, one line
        raise UsageError(refusal(exc)) from None
    if result.output_closed:  # `| head`: the entry point ends quietly
        raise BrokenPipeError
    summary = result.summary
    if args.json:
        print(summary_json(summary))
    else:
        print(summary_text(summary))
    if result.status != 0:
        print(f"unotable demo: error: {summary.get('error')}", file=sys.stderr)
        return 1
    return 0 if summary["world_agrees"] else 1


def _refuse_taken_port(port: int, host: str = "127.0.0.1") -> None:
    """One line naming the port and --port, before anything starts, when another program
    (often an earlier `unotable demo --serve`) listens there."""
    import socket

    from firmware.errors import UsageError

    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UsageError(f"port {port} on {host} is taken ({exc.strerror}): another "
                             "`unotable demo --serve`? choose another with --port") from None


def serve(args: argparse.Namespace) -> int:
    from firmware.errors import UsageError
    from firmware.screen_demo import ScreenDemo, check_person
    from firmware.sim.demo import DemoError, PipeOut, check_arguments, parse_options

    if args.json or args.journal:
        raise UsageError("--serve shows the match in the browser: no --json or --journal")
    if args.rounds is not None:
        raise UsageError(f"--rounds {args.rounds}: --serve plays the match to its target "
                         "score; choose it with --option target_score=N")
    args.seat = 1 if args.seat is None else args.seat
    args.port = 8080 if args.port is None else args.port
    try:
        check_arguments(args.variant, args.players, 1)
        check_person(args.seat - 1, args.players)  # before the port: a bad seat is the first fault
        options = parse_options(args.variant, args.option)
    except DemoError as exc:
        raise UsageError(str(exc)) from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port}: a TCP port 1-65535")
    _refuse_taken_port(args.port, "0.0.0.0" if args.lan else "127.0.0.1")
    log = PipeOut(sys.stdout, lambda: demo.stop())  # `| head`: stop, end quietly
    try:
        demo = ScreenDemo(args.variant, args.players, args.seed, person=args.seat - 1,
                          port=args.port, fast=args.fast, out=log,  # type: ignore[arg-type]
                          options=options, lan=args.lan, pad=args.pad)
    except DemoError as exc:
        raise UsageError(str(exc)) from None
    status = demo.run()
    if log.closed:
        raise BrokenPipeError
    return status
