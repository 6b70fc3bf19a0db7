"""`unotable mqtt check|forget`: the table's broker, from the command line.

``check`` connects with the config's `[mqtt]` settings and says whether it worked (a
wrong password, an untrusted certificate, a broker that is not there). ``forget``
removes the table from Home Assistant: an empty retained message on its discovery topic
(Home Assistant deletes the device and its entities, so no ghost is left) and on its
state and availability topics. ``--table ID`` forgets another table, one whose Pi is
gone, by the id Home Assistant shows as its serial number.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.config import Config
    from firmware.mqtt.settings import MqttConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("mqtt", help="the table's MQTT broker and Home Assistant")
    actions = parser.add_subparsers(dest="mqtt_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="connect to the [mqtt] broker and report",
                               description="Connect to the broker of the config's [mqtt] "
                               "section with its credentials and TLS settings; exit status 0 "
                               "when that works, 1 with the reason when it does not.")
    forget = actions.add_parser(
        "forget", help="remove the table from Home Assistant (its retained discovery)",
        description="Publish an empty retained message on the table's discovery, state and "
        "availability topics: Home Assistant removes the device and its entities. Run it "
        "before a table is retired or its [mqtt] discovery_prefix or topic_root change.")
    forget.add_argument("--table", metavar="ID", help="the 32-hex id of another table to "
                        "forget (default: this one's, from its state directory)")
    for action in (check, forget):
        action.add_argument("--config", metavar="PATH", help="config file (default: "
                            "$UNOTABLE_CONFIG, /etc/unotable/config.toml, else the built-in one)")
    check.set_defaults(func=run_check)
    forget.set_defaults(func=run_forget)


def _mqtt(config: Config) -> MqttConfig:
    from firmware.errors import UsageError

    if config.mqtt is None:
        raise UsageError(f"{config.path} has no [mqtt] section: add one with url = "
                         "'mqtt://HOST' (docs/homeassistant.md)")
    return config.mqtt


def run_check(args: argparse.Namespace) -> int:
    from firmware.commands.config_cmd import load_or_refuse
    from firmware.mqtt.link import where
    from firmware.mqtt.probe import probe

    mqtt = _mqtt(load_or_refuse(args.config))
    problem = probe(mqtt, f"unotable-check-{os.getpid()}")
    if problem:
        print(f"unotable mqtt check: cannot connect: {problem}", file=sys.stderr)
        return 1
    print(f"mqtt: connected to {where(mqtt)}" + (f" as {mqtt.username}" if mqtt.username else ""))
    return 0


def _table_id(config: Config, given: str | None) -> str:
    from firmware.errors import UsageError
    from firmware.journal.mark import TABLE_ID
    from firmware.mqtt.topics import TABLE_ID as ID_FORM

    if given is not None:
        if not ID_FORM.fullmatch(given):
            raise UsageError(f"--table must be a table's id of 32 hex digits, not {given!r}")
        return given
    path = config.journal.resolve().parent / TABLE_ID
    try:
        found = path.read_text().strip()
    except FileNotFoundError:
        raise UsageError(f"{path} does not exist: this table never started, so Home "
                         "Assistant never saw it (use --table ID for another table)") from None
    if not ID_FORM.fullmatch(found):
        raise UsageError(f"{path} is damaged; give the table's id with --table ID")
    return found


def run_forget(args: argparse.Namespace) -> int:
    from firmware.commands.config_cmd import load_or_refuse
    from firmware.mqtt.probe import clear_retained, probe
    from firmware.mqtt.topics import Topics

    config = load_or_refuse(args.config)
    mqtt = _mqtt(config)
    topics = Topics(mqtt.discovery_prefix, mqtt.topic_root, _table_id(config, args.table))
    cleared = [topics.discovery, topics.state, topics.availability]
    problem = probe(mqtt, f"unotable-forget-{topics.table_id}", clear_retained(cleared))
    if problem:
        print(f"unotable mqtt forget: nothing removed: {problem}", file=sys.stderr)
        return 1
    for topic in cleared:
        print(f"removed {topic}")
    return 0
