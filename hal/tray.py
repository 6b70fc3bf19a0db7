"""The tower tray: where each UNO Power tower (U, N, O, !) physically stands.

Slots are ``"neutral"`` and the seats (0-based seat numbers); any subset of them
may have a reader. Each reader is a PN532 (13.56 MHz) or an RDM6300 (125 kHz) on
its own serial port. The enrolled tag UID of each tower is in ``[tray.towers]``.

`Tray.scan()` polls every reader once, one after the other (a PN532 only has its
field on during its own turn, so neighbours do not interfere), and debounces:
a tag counts as present at a slot after `seen_polls` consecutive sightings and as
gone after `missed_polls` consecutive misses. A reader that fails in a round
gives no information: its counts stand still (towers on it are not declared
lifted because a cable was pulled), and the tray reports `ReaderDown` /
`ReaderUp` once per change.

`watch()` paces the rounds: every `poll_interval_s` while the table awaits a tower
move (the caller's `awaited()` says so), while a tag is half-way through its
debounce, and for `idle_after_s` after anything changed; every
`idle_poll_interval_s` otherwise. Each PN532 turn is 3-5 commands on its serial
line, so an idle table polling five readers at the fast pace costs a few percent
of a Pi's core for nothing; at the idle pace a tower moved without being awaited
is still seen within about one idle interval, and from then on at the fast pace.

`get_status()` and `positions()` never wait for a scan: a reader that times out
holds its turn for seconds, and the daemon's event loop asks for the status. They
read a snapshot the scanning thread refreshes after each reader's turn (readers)
and at the end of each round (towers).

Config::

    [tray]
    seen_polls = 2            # sightings before a tag counts as present
    missed_polls = 3          # misses before it counts as gone
    poll_interval_s = 0.2     # pause between rounds in `watch` while a move is awaited
    idle_poll_interval_s = 1.0  # ... and while nothing is awaited or changed lately
    idle_after_s = 5.0        # the fast pace lasts this long after a change
    [[tray.readers]]
    slot = "neutral"          # or a seat number 0..7
    driver = "pn532"          # or "rdm6300"
    port = "/dev/serial/by-id/usb-...-port0"   # any pyserial URL
    [tray.towers]
    U = "04A1B2C3D4E501"      # written by `unotable enroll`
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

import serial

from hal.clock import REAL_TIME, Clock
from hal.config import Section
from hal.errors import ConfigError, HalError
from hal.safety import ClosedOnExit

# the towers the tray has tags for: the game's towers (uno_core.cards.TOWERS), which hal
# may not import; tests/test_layering.py checks the two agree
TOWERS = ("U", "N", "O", "!")
NEUTRAL = "neutral"
MAX_SEATS = 8
DRIVERS = ("pn532", "rdm6300")
DEFAULT_BAUD = {"pn532": 115200, "rdm6300": 9600}
_UID = re.compile(r"^(?:[0-9A-F]{2}){4,10}$")

Slot = str | int


class Reader(Protocol):
    port: str
    firmware: str | None

    def read_tags(self) -> list[str]: ...
    def get_status(self) -> dict[str, Any]: ...
    def close(self) -> None: ...


# -- events ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TowerPlaced:
    """Tower `tower` is now at slot `slot`."""

    tower: str
    slot: Slot


@dataclass(frozen=True)
class TowerRemoved:
    """Tower `tower` is off the tray (it was last at `slot`)."""

    tower: str
    slot: Slot


@dataclass(frozen=True)
class UnknownTag:
    """A tag that belongs to no tower was seen (reported once per UID)."""

    uid: str
    slot: Slot


@dataclass(frozen=True)
class ReaderDown:
    slot: Slot
    port: str
    reason: str


@dataclass(frozen=True)
class ReaderUp:
    slot: Slot
    port: str


TrayEvent = TowerPlaced | TowerRemoved | UnknownTag | ReaderDown | ReaderUp


# -- config ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ReaderConfig:
    slot: Slot
    driver: str
    port: str
    baudrate: int


@dataclass(frozen=True)
class TrayConfig:
    readers: tuple[ReaderConfig, ...] = ()
    towers: Mapping[str, str] = field(default_factory=dict)  # tower -> tag UID
    seen_polls: int = 2
    missed_polls: int = 3
    poll_interval_s: float = 0.2
    idle_poll_interval_s: float = 1.0
    idle_after_s: float = 5.0
    ack_timeout_s: float = 1.0
    response_timeout_s: float = 1.0
    max_retries: int = 1
    reconnect_min_s: float = 0.5
    reconnect_max_s: float = 10.0
    rdm6300_removal_s: float = 0.5
    rdm6300_listen_s: float = 0.12

    @property
    def tower_of(self) -> dict[str, str]:
        """Tag UID -> tower."""
        return {uid: tower for tower, uid in self.towers.items()}


def normalise_uid(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(key, f"must be a tag UID as a hex string, not {value!r}")
    uid = re.sub(r"[\s:-]", "", value).upper()
    if not _UID.match(uid):
        raise ConfigError(key, f"must be 4-10 bytes of hex (like '04A1B2C3D4E501'), not {value!r}")
    return uid


def _slot(key: str, value: Any) -> Slot:
    if value == NEUTRAL:
        return NEUTRAL
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_SEATS:
        raise ConfigError(
            key, f'must be "neutral" or a seat number 0-{MAX_SEATS - 1}, not {value!r}'
        )
    return value


def parse_config(mapping: Mapping[str, Any] | None, *, path: str = "tray",
                 errors: list[ConfigError] | None = None) -> TrayConfig:
    sec = Section(mapping, path=path, errors=errors)
    defaults = TrayConfig()
    readers_raw = sec.raw("readers", [])
    if not isinstance(readers_raw, list):
        raise ConfigError(sec.key("readers"), f"must be a list of tables, not {readers_raw!r}")
    readers: list[ReaderConfig] = []
    seen_slots: dict[Slot, str] = {}
    for i, item in enumerate(readers_raw):
        rsec = Section(item, path=f"{sec.key('readers')}[{i}]", errors=errors)
        slot = _slot(rsec.key("slot"), rsec.raw("slot"))
        if slot in seen_slots:
            rsec.problem(
                rsec.key("slot"), f"slot {slot!r} already has a reader ({seen_slots[slot]})"
            )
        seen_slots.setdefault(slot, rsec.key("slot"))
        driver = rsec.string("driver", "pn532", choices=DRIVERS)
        port = rsec.string("port")
        if not port.strip():
            rsec.problem(
                rsec.key("port"), "must name a serial port or URL, not an empty string"
            )
        baud = rsec.integer("baudrate", DEFAULT_BAUD[driver], minimum=1200, maximum=1_000_000)
        rsec.finish()
        readers.append(ReaderConfig(slot, driver, port, baud))
    ports = [r.port for r in readers]
    for i, port in enumerate(ports):
        if port in ports[:i]:
            sec.problem(f"{sec.key('readers')}[{i}].port", f"{port!r} is used by two readers")
    tsec = sec.section("towers")
    towers: dict[str, str] = {}
    for tower in TOWERS:
        if tsec.has(tower):
            try:
                uid = normalise_uid(tsec.key(tower), tsec.raw(tower))
            except ConfigError as exc:
                tsec.problem(exc.key, exc.message)
                continue
            for other, other_uid in towers.items():
                if other_uid == uid:
                    tsec.problem(tsec.key(tower), f"tag {uid} is already tower {other!r}")
            towers[tower] = uid
    tsec.finish()
    poll_interval_s = sec.number(
        "poll_interval_s", defaults.poll_interval_s, minimum=0, maximum=60
    )
    cfg = TrayConfig(
        readers=tuple(readers),
        towers=MappingProxyType(towers),
        seen_polls=sec.integer("seen_polls", defaults.seen_polls, minimum=1, maximum=100),
        missed_polls=sec.integer("missed_polls", defaults.missed_polls, minimum=1, maximum=100),
        poll_interval_s=poll_interval_s,
        # unset, it is never below poll_interval_s (a slow fast pace stays valid)
        idle_poll_interval_s=sec.number(
            "idle_poll_interval_s",
            max(defaults.idle_poll_interval_s, poll_interval_s),
            minimum=0,
            maximum=60,
        ),
        idle_after_s=sec.number("idle_after_s", defaults.idle_after_s, minimum=0, maximum=3600),
        ack_timeout_s=sec.number(
            "ack_timeout_s", defaults.ack_timeout_s, minimum=0.001, maximum=10
        ),
        response_timeout_s=sec.number(
            "response_timeout_s", defaults.response_timeout_s, minimum=0.001, maximum=10
        ),
        max_retries=sec.integer("max_retries", defaults.max_retries, minimum=0, maximum=254),
        reconnect_min_s=sec.number(
            "reconnect_min_s", defaults.reconnect_min_s, minimum=0, maximum=60
        ),
        reconnect_max_s=sec.number(
            "reconnect_max_s", defaults.reconnect_max_s, minimum=0, maximum=600
        ),
        rdm6300_removal_s=sec.number(
            "rdm6300_removal_s", defaults.rdm6300_removal_s, minimum=0.01, maximum=10
        ),
        rdm6300_listen_s=sec.number(
            "rdm6300_listen_s", defaults.rdm6300_listen_s, minimum=0, maximum=5
        ),
    )
    if cfg.idle_poll_interval_s < cfg.poll_interval_s:
        sec.problem(
            sec.key("idle_poll_interval_s"),
            f"must not be less than poll_interval_s ({cfg.poll_interval_s!r}), "
            f"not {cfg.idle_poll_interval_s!r}",
        )
    if cfg.reconnect_max_s < cfg.reconnect_min_s:
        sec.problem(sec.key("reconnect_max_s"), "must not be less than reconnect_min_s")
    sec.finish()
    return cfg


def open_reader(
    rc: ReaderConfig,
    cfg: TrayConfig,
    *,
    clock: Clock = REAL_TIME,
    open_port: Callable[..., Any] = serial.serial_for_url,
) -> Reader:
    """The driver for one configured reader (the port is opened at its first read)."""
    common = {
        "baudrate": rc.baudrate,
        "backoff_min_s": cfg.reconnect_min_s,
        "backoff_max_s": cfg.reconnect_max_s,
        "clock": clock,
        "open_port": open_port,
    }
    if rc.driver == "rdm6300":
        from hal.rdm6300 import RDM6300

        return RDM6300(
            rc.port, removal_s=cfg.rdm6300_removal_s, listen_s=cfg.rdm6300_listen_s, **common
        )
    from hal.pn532 import PN532

    return PN532(
        rc.port,
        ack_timeout_s=cfg.ack_timeout_s,
        response_timeout_s=cfg.response_timeout_s,
        max_retries=cfg.max_retries,
        **common,
    )


# -- pacing ---------------------------------------------------------------------------
class Stop(Protocol):
    """What `Tray.watch` waits on: a `threading.Event` (or a test's virtual one)."""

    def is_set(self) -> bool: ...
    def wait(self, timeout: float | None = None) -> bool: ...


class PollPace:
    """When `Tray.watch`'s next round is due.

    Fast (`poll_interval_s` between rounds) while a tower move is awaited, while a tag
    is half-way through its debounce, and for `idle_after_s` after the last change;
    idle (`idle_poll_interval_s`) otherwise. Between rounds the watcher looks again at
    least every fast interval, so a move that becomes awaited speeds the pace up
    within one fast interval, not one idle interval.
    """

    RECHECK_S = 0.05  # the longest look-again pause when poll_interval_s is 0

    def __init__(self, cfg: TrayConfig) -> None:
        self.fast_s = cfg.poll_interval_s
        self.idle_s = cfg.idle_poll_interval_s
        self.idle_after_s = cfg.idle_after_s
        self.last_scan = float("-inf")
        self.last_change = float("-inf")

    def interval(self, now: float, awaited: bool) -> float:
        """The pause between rounds that applies now."""
        if awaited or now - self.last_change < self.idle_after_s:
            return self.fast_s
        return self.idle_s

    def _remaining(self, now: float, awaited: bool) -> float:
        return self.last_scan + self.interval(now, awaited) - now

    def due(self, now: float, awaited: bool) -> bool:
        return self._remaining(now, awaited) <= 0

    def scanned(self, now: float, *, changed: bool) -> None:
        """A round ended at `now`; `changed`: it reported events or left a tag unsettled."""
        self.last_scan = now
        if changed:
            self.last_change = now

    def pause(self, now: float, awaited: bool) -> float:
        """How long to sleep before asking `due` again: until the next round is due, but
        no longer than one fast interval. (The same sum as `due`, so rounding can never
        give a 0 s pause while `due` says no: that would spin.)"""
        remaining = self._remaining(now, awaited)
        return max(0.0, min(remaining, max(self.fast_s, self.RECHECK_S)))


# -- the tray -------------------------------------------------------------------------
@dataclass
class _Presence:
    seen: int = 0
    missed: int = 0
    present: bool = False


class Tray(ClosedOnExit):
    def __init__(
        self,
        cfg: TrayConfig,
        readers: Mapping[Slot, Reader],
        *,
        clock: Clock = REAL_TIME,
    ) -> None:
        self.config = cfg
        self._readers = dict(readers)
        self._clock = clock
        self._tower_of = cfg.tower_of
        self._presence: dict[Slot, dict[str, _Presence]] = {slot: {} for slot in self._readers}
        self._position: dict[str, Slot | None] = {t: None for t in cfg.towers}
        self._reported_unknown: set[str] = set()
        self._reader_ok: dict[Slot, bool] = {slot: True for slot in self._readers}
        self._reader_error: dict[Slot, str | None] = {slot: None for slot in self._readers}
        self._scans = 0
        self._settling = False  # after the last round: a tag is half-way through its debounce
        self._lock = threading.Lock()  # one scan at a time; never taken by status reads
        self._snapshot_lock = threading.Lock()  # held only to copy or swap the snapshot
        self._reading: Slot | None = None
        self._snapshot: dict[str, Any] = {"readers": {}}
        self.closed = False
        self._snap_round()
        for slot in self._readers:
            self._snap_reader(slot)

    @classmethod
    def from_config(
        cls,
        cfg: TrayConfig,
        *,
        clock: Clock = REAL_TIME,
        open_port: Callable[..., Any] = serial.serial_for_url,
    ) -> Tray:
        readers = {
            rc.slot: open_reader(rc, cfg, clock=clock, open_port=open_port) for rc in cfg.readers
        }
        return cls(cfg, readers, clock=clock)

    # -- polling ----------------------------------------------------------------------
    def scan(self) -> list[TrayEvent]:
        """One round over every reader, in turn. Returns what changed."""
        with self._lock:
            if self.closed:
                raise HalError("tray is closed")
            events: list[TrayEvent] = []
            departures: list[tuple[str, Slot]] = []
            for slot, reader in self._readers.items():
                self._set_reading(slot)
                try:
                    self._read(slot, reader, events, departures)
                finally:
                    self._snap_reader(slot)
            self._set_reading(None)
            # Departures are settled after the whole round, so a tower moved from one
            # slot to another between two rounds is one TowerPlaced, not removed + placed.
            for uid, slot in departures:
                self._left(uid, slot, events)
            self._scans += 1
            self._settling = any(
                not p.present or p.missed
                for table in self._presence.values()
                for p in table.values()
            )
            self._snap_round()
            return events

    def _read(
        self,
        slot: Slot,
        reader: Reader,
        events: list[TrayEvent],
        departures: list[tuple[str, Slot]],
    ) -> None:
        try:
            uids = reader.read_tags()
        except HalError as exc:
            self._reader_error[slot] = str(exc)
            if self._reader_ok[slot]:
                self._reader_ok[slot] = False
                events.append(ReaderDown(slot, reader.port, str(exc)))
            return
        if not self._reader_ok[slot]:
            self._reader_ok[slot] = True
            events.append(ReaderUp(slot, reader.port))
        self._reader_error[slot] = None
        self._observe(slot, set(uids), events, departures)

    def watch(
        self,
        on_event: Callable[[TrayEvent], None],
        stop: Stop,
        *,
        awaited: Callable[[], bool] = lambda: False,
    ) -> None:
        """Scan until `stop` is set, handing each event to `on_event` (a worker thread's
        loop). `awaited()` is asked before each round: true while the table waits for a
        tower to be moved, so the rounds come every `poll_interval_s` (see `PollPace`)."""
        pace = PollPace(self.config)
        while not stop.is_set():
            now = self._clock.now()
            if pace.due(now, awaited()):
                events = self.scan()
                pace.scanned(self._clock.now(), changed=bool(events) or self._settling)
                for event in events:
                    on_event(event)
                now = self._clock.now()
            stop.wait(pace.pause(now, awaited()))

    def _observe(
        self,
        slot: Slot,
        uids: set[str],
        events: list[TrayEvent],
        departures: list[tuple[str, Slot]],
    ) -> None:
        table = self._presence[slot]
        for uid in uids:
            p = table.setdefault(uid, _Presence())
            p.seen, p.missed = p.seen + 1, 0
            if not p.present and p.seen >= self.config.seen_polls:
                p.present = True
                self._arrived(uid, slot, events)
        for uid, p in list(table.items()):
            if uid in uids:
                continue
            p.seen, p.missed = 0, p.missed + 1
            if p.missed >= self.config.missed_polls:
                del table[uid]
                if p.present:
                    departures.append((uid, slot))

    def _arrived(self, uid: str, slot: Slot, events: list[TrayEvent]) -> None:
        tower = self._tower_of.get(uid)
        if tower is None:
            if uid not in self._reported_unknown:
                self._reported_unknown.add(uid)
                events.append(UnknownTag(uid, slot))
            return
        if self._position[tower] != slot:
            self._position[tower] = slot
            events.append(TowerPlaced(tower, slot))

    def _left(self, uid: str, slot: Slot, events: list[TrayEvent]) -> None:
        tower = self._tower_of.get(uid)
        if tower is None or self._position[tower] != slot:
            return
        elsewhere = [
            s for s, table in self._presence.items() if uid in table and table[uid].present
        ]
        if elsewhere:
            self._position[tower] = elsewhere[0]
            events.append(TowerPlaced(tower, elsewhere[0]))
        else:
            self._position[tower] = None
            events.append(TowerRemoved(tower, slot))

    # -- state ------------------------------------------------------------------------
    # The snapshot is written by the scanning thread only (or before any scan), and read
    # by anyone: status reads never wait for a reader's serial I/O.
    def _snap_round(self) -> None:
        with self._snapshot_lock:
            self._snapshot = {
                **self._snapshot,
                "scans": self._scans,
                "towers": dict(self._position),
                "unknown_tags": sorted(self._reported_unknown),
            }

    def _snap_reader(self, slot: Slot) -> None:
        entry = {
            **self._readers[slot].get_status(),
            "ok": self._reader_ok[slot],
            "error": self._reader_error[slot],
        }
        with self._snapshot_lock:
            readers = {**self._snapshot.get("readers", {}), str(slot): entry}
            self._snapshot = {**self._snapshot, "readers": readers}

    def _set_reading(self, slot: Slot | None) -> None:
        with self._snapshot_lock:
            self._reading = slot

    def positions(self) -> dict[str, Slot | None]:
        """Enrolled tower -> the slot it stood on after the last complete round, or None
        when off the tray. Never waits for a scan under way."""
        with self._snapshot_lock:
            return dict(self._snapshot["towers"])

    def get_status(self) -> dict[str, Any]:
        """The status after the last reader's turn; ``reading`` names the slot whose
        reader is being read now (a reader that hangs stays named there). Never waits
        for a scan under way."""
        with self._snapshot_lock:
            snap = self._snapshot
            reading = self._reading
        return {
            "scans": snap["scans"],
            "towers": dict(snap["towers"]),
            "unknown_tags": list(snap["unknown_tags"]),
            "reading": None if reading is None else str(reading),
            "readers": {slot: dict(entry) for slot, entry in snap["readers"].items()},
        }

    def close(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
            for reader in self._readers.values():
                reader.close()


    def __repr__(self) -> str:
        if self.closed:
            return "<Tray closed>"
        where = ", ".join(f"{t}@{s}" for t, s in self._position.items() if s is not None)
        return f"<Tray readers={len(self._readers)} towers=[{where}]>"
