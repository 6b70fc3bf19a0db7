"""`unotable results`: one place for many tables' results.

``unotable results --mqtt URL --db PATH`` keeps every table's results once in a SQLite
file (firmware.mqtt.collector) and serves the standings page for a TV
(firmware.mqtt.standings). ``unotable results show --db PATH`` prints the standings;
with ``--json`` every stored result and the standings. A broker's password comes from
$UNOTABLE_MQTT_PASSWORD, never from the command line (where `ps` would show it).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware.mqtt.settings import MqttConfig

PASSWORD_ENV = "UNOTABLE_MQTT_PASSWORD"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "results", help="collect many tables' results from MQTT and show the standings",
        description="Subscribe to every table's results on the broker (a persistent session: "
        "nothing is lost while this is stopped), keep each once in the SQLite file --db, and "
        "serve the standings page on --listen. The broker's password, if any, comes from "
        f"${PASSWORD_ENV}.")
    parser.add_argument("--mqtt", metavar="URL", help="the broker: mqtt://HOST[:PORT] or "
                        "mqtts://HOST[:PORT] (no default: needed unless `show`)")
    parser.add_argument("--db", metavar="PATH", help="the results file, made if missing "
                        "(no default: needed unless `show`)")
    parser.add_argument("--ca-file", metavar="PATH", help="the CA certificate of an mqtts:// "
                        "broker (default: the system's)")
    parser.add_argument("--username", help="the broker's user name (default: none, anonymous)")
    parser.add_argument("--topic-root", default="unotable", help="the tables' [mqtt] topic_root")
    parser.add_argument("--client-id", help="the collector's MQTT client id (default: made "
                        "from the --db path, the same at every start)")
    parser.add_argument("--host", default="127.0.0.1", help="address the standings page "
                        "listens on (0.0.0.0: every network)")
    parser.add_argument("--port", type=int, default=8090, help="port of the standings page")
    parser.set_defaults(func=run_collector)
    actions = parser.add_subparsers(dest="results_command", metavar="ACTION")
    show = actions.add_parser("show", help="print the standings (--json: every result too)")
    show.add_argument("--db", metavar="PATH", required=True, dest="show_db",
                      help="the results file")
    show.add_argument("--json", action="store_true", help="every stored result (id, table, "
                      "match, round, scores) and the standings, as JSON")
    show.set_defaults(func=run_show)


def settings(args: argparse.Namespace) -> MqttConfig:
    import os

    from firmware.errors import UsageError
    from firmware.mqtt.settings import parse_config

    if not args.mqtt or not args.db:
        raise UsageError("--mqtt URL and --db PATH are both needed (or `results show`)")
    section: dict[str, Any] = {"url": args.mqtt, "topic_root": args.topic_root}
    for key, value in (("ca_file", args.ca_file), ("username", args.username),
                       ("password", os.environ.get(PASSWORD_ENV) or None)):
        if value is not None:
            section[key] = value
    errors: list[Any] = []
    config = parse_config(section, path="", errors=errors)
    if config is None:
        names = {"url": "--mqtt", "ca_file": "--ca-file", "password": f"${PASSWORD_ENV}",
                 "username": "--username", "topic_root": "--topic-root"}
        raise UsageError("; ".join(f"{names.get(e.key, e.key)}: {e.message}" for e in errors))
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, not {args.port}")
    return config


def run_collector(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    config = settings(args)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    asyncio.run(_collect(config, args))
    return 0


async def _collect(config: MqttConfig, args: argparse.Namespace) -> None:
    import asyncio
    import signal
    import sqlite3

    from aiohttp import web

    from firmware.errors import UsageError
    from firmware.mqtt.collector import Collector, collector_id
    from firmware.mqtt.standings import app
    from firmware.mqtt.store import ResultsStore

    try:
        store = ResultsStore(args.db)
    except (sqlite3.Error, OSError) as exc:
        raise UsageError(f"--db {args.db}: cannot keep results there: {exc}") from None
    runner = web.AppRunner(app(store), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, args.host, args.port).start()
    except OSError as exc:
        await runner.cleanup()
        store.close()
        raise UsageError(f"the standings page cannot listen on {args.host}:{args.port}: "
                         f"{exc.strerror or exc}") from None
    print(f"results: standings on http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    task = asyncio.create_task(Collector(
        config, store, client_id=args.client_id or collector_id(args.db)).run())
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        pass
    finally:
        await runner.cleanup()
        store.close()


def run_show(args: argparse.Namespace) -> int:
    from firmware.errors import UsageError
    from firmware.mqtt.store import ResultsStore

    try:
        store = ResultsStore.read_only(args.show_db)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    try:
        standings = store.standings()
        if args.json:
            print(json.dumps({"results": store.results(), "standings": standings},
                             ensure_ascii=False, indent=1))
            return 0
    finally:
        store.close()
    print("Players: matches won, rounds won, points")
    for i, p in enumerate(standings["players"], 1):
        print(f"{i:3}. {p['name']:<24} {p['matches_won']:4} {p['rounds_won']:5} {p['points']:7}")
    print("Tables: matches, rounds, last winner, scores")
    for t in standings["tables"]:
        scores = ", ".join(f"{n} {s}" for n, s in t["scores"].items())
        print(f"  {t['name'] or t['table']}: {t['matches']} matches, {t['rounds']} rounds, "
              f"last winner {t['last_winner'] or '-'}; {scores}")
    return 0
