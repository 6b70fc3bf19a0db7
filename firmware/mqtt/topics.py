"""Every topic a table and the collector use, from `[mqtt]` and the table's identity.

Under ``<topic_root>/<table id>/``: ``availability`` (online/offline, retained),
``state`` (one retained JSON document), ``event`` (things that happen), ``results``
(QoS 1, from the outbox) and ``command`` (pause/resume/new match, when commands are on).
Home Assistant's discovery is ``<discovery_prefix>/device/<device id>/config`` and its
birth message ``<discovery_prefix>/status``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TABLE_ID = re.compile(r"[0-9a-f]{32}")  # firmware.journal.mark.table_identity
ONLINE, OFFLINE = "online", "offline"


@dataclass(frozen=True)
class Topics:
    discovery_prefix: str
    topic_root: str
    table_id: str

    def __post_init__(self) -> None:
        if not TABLE_ID.fullmatch(self.table_id):
            raise ValueError(f"a table's id is 32 hex digits, not {self.table_id!r}")

    @property
    def device_id(self) -> str:
        """Home Assistant's id of this table: the table's identity, so two tables on one
        broker never share one."""
        return f"unotable_{self.table_id}"

    def _under(self, name: str) -> str:
        return f"{self.topic_root}/{self.table_id}/{name}"

    @property
    def availability(self) -> str:
        return self._under("availability")

    @property
    def state(self) -> str:
        return self._under("state")

    @property
    def event(self) -> str:
        return self._under("event")

    @property
    def results(self) -> str:
        return self._under("results")

    @property
    def command(self) -> str:
        return self._under("command")

    @property
    def discovery(self) -> str:
        return f"{self.discovery_prefix}/device/{self.device_id}/config"

    @property
    def ha_status(self) -> str:
        return f"{self.discovery_prefix}/status"


def all_results(topic_root: str) -> str:
    """The collector's subscription: every table's results."""
    return f"{topic_root}/+/results"
