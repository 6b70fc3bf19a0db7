"""The table's link built from its `[mqtt]` settings, its game and its identity: what the
daemon's MQTT part calls once at start (only when the config has `[mqtt]`). It takes the
config's parts, not the config: firmware.config reads `[mqtt]` with this package, so
this package never imports it back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import uno_core
from firmware.mqtt.discovery import discovery_message
from firmware.mqtt.link import TableLink
from firmware.mqtt.settings import MqttConfig
from firmware.mqtt.topics import Topics


def build_link(mqtt: MqttConfig, table_id: str, *, edition: str, seat_names: Sequence[str],
               version: str, on_result_acked: Callable[[str], object] = lambda _id: None,
               on_command: Callable[[str], object] = lambda _name: None,
               **options: Any) -> TableLink:
    """The link of the table whose identity is `table_id`
    (firmware.journal.mark.table_identity), playing `edition` with `seat_names`
    (``config.table``); `options` go to `TableLink` (a test's sleep, rng, clock)."""
    topics = Topics(mqtt.discovery_prefix, mqtt.topic_root, table_id)
    discovery = discovery_message(
        topics, name=mqtt.name, edition=edition, seat_names=seat_names,
        towers=bool(uno_core.get_edition(edition).towers), commands=mqtt.commands,
        version=version)
    return TableLink(mqtt, topics, discovery, on_result_acked=on_result_acked,
                     on_command=on_command, **options)
