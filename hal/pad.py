"""The card pad: one PN532 on which a player taps the card they play, or a colour chip.

The pad is read like a tray reader (`hal.pn532.PN532.read_tags`: RF field on,
InListPassiveTarget with MaxTg 2, InDeselect and again while a listing finds two,
field off), so two tags on the pad at once are seen as two. `Pad.poll()` reads it once and reports:

- `Tap`: tags came onto the pad. Tags that arrive in the same read are one `Tap` with
  every one of their UIDs (two cards laid together). A tag held on the pad, or lifted
  and tapped again within `same_tap_s` of its last sighting, is not a new `Tap`;
- `PadDown` / `PadUp`: the reader failed (unplugged, chip silent) and came back, each
  said once. While it is down the pad forgets nothing: a card held across the outage is
  not tapped again.

`watch()` polls until told to stop, at the fast pace (`poll_interval_s`) while
`set_pace(fast=True)` says the table awaits a declaration, while a tag lies on the
pad, and for `same_tap_s` after a tap; at `idle_poll_interval_s` otherwise (the
tray's `PollPace`). Between idle reads it sleeps until `set_pace(True)` wakes it. The pad knows UIDs only: `[pad.cards]` and `[pad.chips]` say what
each names (`PadConfig.card_of`, `PadConfig.colour_of`); the card codes of an
edition's deck are uno_core's, so the daemon checks those (firmware.config).

Config::

    [pad]
    driver = "pn532"
    port = "/dev/serial/by-id/usb-...-port0"   # any pyserial URL
    poll_interval_s = 0.05        # while a declaration is awaited
    idle_poll_interval_s = 1.0    # otherwise
    same_tap_s = 2.0              # a tag seen again within this is the same tap
    [pad.cards]
    04A1B2C3D4E501 = "R7"         # written by `unotable cards enroll`
    [pad.chips]
    04C0FFEE000001 = "R"          # a colour chip: R, G, B or Y
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import serial

from hal.clock import REAL_TIME, Clock
from hal.config import Section
from hal.errors import ConfigError, HalError
from hal.safety import ClosedOnExit
from hal.tray import PollPace, Reader, Stop, normalise_uid

STOP_LOOK_S = 0.25  # at the idle pace the watcher looks at its stop this often
DRIVERS = ("pn532",)  # an RDM6300 sees one tag at most: it could not refuse two cards
CHIP_COLOURS = ("R", "G", "B", "Y")


# -- events ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tap:
    """Tags came onto the pad: `uids` (in the order the reader listed them), with
    `on_pad` every tag in its field at that read (`uids` included), at clock time `at`."""

    uids: tuple[str, ...]
    on_pad: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class PadDown:
    port: str
    reason: str


@dataclass(frozen=True)
class PadUp:
    port: str


PadEvent = Tap | PadDown | PadUp


# -- config ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PadConfig:
    port: str
    driver: str = "pn532"
    baudrate: int = 115200
    poll_interval_s: float = 0.05
    idle_poll_interval_s: float = 1.0
    same_tap_s: float = 2.0
    ack_timeout_s: float = 1.0
    response_timeout_s: float = 1.0
    max_retries: int = 1
    reconnect_min_s: float = 0.5
    reconnect_max_s: float = 10.0
    cards: Mapping[str, str] = field(default_factory=dict)  # tag UID -> card code
    chips: Mapping[str, str] = field(default_factory=dict)  # tag UID -> colour

    @property
    def idle_after_s(self) -> float:
        """After a tap the pace stays fast this long (`PollPace`), so a re-tap is timed
        against the card's real lift, not an idle read a second later."""
        return self.same_tap_s

    def card_of(self, uid: str) -> str | None:
        """The card code a tag names, or None."""
        return self.cards.get(uid)

    def colour_of(self, uid: str) -> str | None:
        """The colour a chip names (R, G, B, Y), or None."""
        return self.chips.get(uid)


def _tags(sec: Section, name: str, check: Callable[[str], str | None],
          seen: dict[str, str]) -> dict[str, str]:
    """`[pad.<name>]`: tag UID -> value, each UID once across cards and chips."""
    tsec = sec.section(name)
    written = sec.raw(name, {})
    found: dict[str, str] = {}
    for key in written if isinstance(written, Mapping) else ():
        value = tsec.raw(key)
        try:
            uid = normalise_uid(tsec.key(key), key)
        except ConfigError as exc:
            tsec.problem(exc.key, exc.message)
            continue
        problem = check(value)
        if problem:
            tsec.problem(tsec.key(key), problem)
            continue
        if uid in seen:
            tsec.problem(tsec.key(key), f"tag {uid} is already {seen[uid]}")
            continue
        seen[uid] = f"{tsec.key(key)} = {value!r}"
        found[uid] = value
    tsec.finish()
    return found


def _card_code(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"must be a card code like 'R7' or 'W+4', not {value!r}"
    return None


def _colour(value: Any) -> str | None:
    if value not in CHIP_COLOURS:
        return f"must be a colour, one of {', '.join(CHIP_COLOURS)}, not {value!r}"
    return None


def parse_config(mapping: Mapping[str, Any] | None, *, path: str = "pad",
                 errors: list[ConfigError] | None = None) -> PadConfig:
    sec = Section(mapping, path=path, errors=errors)
    defaults = PadConfig(port="")
    driver = sec.string("driver", "pn532", choices=DRIVERS)
    port = sec.string("port")
    if not port.strip():
        sec.problem(sec.key("port"), "must name a serial port or URL, not an empty string")
    seen: dict[str, str] = {}
    cards = _tags(sec, "cards", _card_code, seen)
    chips = _tags(sec, "chips", _colour, seen)
    poll_interval_s = sec.number("poll_interval_s", defaults.poll_interval_s,
                                 minimum=0, maximum=10)
    cfg = PadConfig(
        port=port,
        driver=driver,
        baudrate=sec.integer("baudrate", defaults.baudrate, minimum=1200, maximum=1_000_000),
        poll_interval_s=poll_interval_s,
        # unset, it is never below poll_interval_s (a slow fast pace stays valid)
        idle_poll_interval_s=sec.number(
            "idle_poll_interval_s", max(defaults.idle_poll_interval_s, poll_interval_s),
            minimum=0, maximum=60),
        same_tap_s=sec.number("same_tap_s", defaults.same_tap_s, minimum=0, maximum=60),
        ack_timeout_s=sec.number("ack_timeout_s", defaults.ack_timeout_s,
                                 minimum=0.001, maximum=10),
        response_timeout_s=sec.number("response_timeout_s", defaults.response_timeout_s,
                                      minimum=0.001, maximum=10),
        max_retries=sec.integer("max_retries", defaults.max_retries, minimum=0, maximum=254),
        reconnect_min_s=sec.number("reconnect_min_s", defaults.reconnect_min_s,
                                   minimum=0, maximum=60),
        reconnect_max_s=sec.number("reconnect_max_s", defaults.reconnect_max_s,
                                   minimum=0, maximum=600),
        cards=MappingProxyType(cards),
        chips=MappingProxyType(chips),
    )
    if cfg.idle_poll_interval_s < cfg.poll_interval_s and not sec.failed("poll_interval_s"):
        sec.problem(sec.key("idle_poll_interval_s"),
                    f"must not be less than poll_interval_s ({cfg.poll_interval_s!r}), "
                    f"not {cfg.idle_poll_interval_s!r}")
    if cfg.reconnect_max_s < cfg.reconnect_min_s:
        sec.problem(sec.key("reconnect_max_s"), "must not be less than reconnect_min_s")
    sec.finish()
    return cfg


def open_pad_reader(
    cfg: PadConfig,
    *,
    clock: Clock = REAL_TIME,
    open_port: Callable[..., Any] = serial.serial_for_url,
) -> Reader:
    """The pad's PN532, as the tray opens its readers (the port is opened at the first read)."""
    from hal.pn532 import PN532

    return PN532(cfg.port, baudrate=cfg.baudrate, ack_timeout_s=cfg.ack_timeout_s,
                 response_timeout_s=cfg.response_timeout_s, max_retries=cfg.max_retries,
                 backoff_min_s=cfg.reconnect_min_s, backoff_max_s=cfg.reconnect_max_s,
                 clock=clock, open_port=open_port)


# -- the pad --------------------------------------------------------------------------
class Pad(ClosedOnExit):
    def __init__(self, cfg: PadConfig, reader: Reader, *, clock: Clock = REAL_TIME) -> None:
        self.config = cfg
        self._reader = reader
        self._clock = clock
        self._fast = False
        self._ok = True
        self._error: str | None = None
        self._on_pad: tuple[str, ...] = ()
        self._last_seen: dict[str, float] = {}  # UID -> clock time of its last sighting
        self._polls = 0
        self._taps = 0
        self._last_tap: Tap | None = None
        self._lock = threading.Lock()  # one read at a time; status reads never take it
        self._wake = threading.Event()  # set_pace(True) and close() end an idle pause
        self.closed = False

    @classmethod
    def from_config(
        cls,
        cfg: PadConfig,
        *,
        clock: Clock = REAL_TIME,
        open_port: Callable[..., Any] = serial.serial_for_url,
    ) -> Pad:
        return cls(cfg, open_pad_reader(cfg, clock=clock, open_port=open_port), clock=clock)

    # -- pace -------------------------------------------------------------------------
    def set_pace(self, fast: bool) -> None:
        """Fast while the table awaits a declaration; a running `watch` follows at once.
        Safe from any thread."""
        was, self._fast = self._fast, bool(fast)
        if self._fast and not was:
            self._wake.set()

    @property
    def fast(self) -> bool:
        return self._fast

    # -- polling ----------------------------------------------------------------------
    def poll(self) -> list[PadEvent]:
        """Read the pad once. Returns what happened."""
        with self._lock:
            if self.closed:
                raise HalError("pad is closed")
            self._polls += 1
            try:
                uids = self._reader.read_tags()
            except HalError as exc:
                self._error = str(exc)
                if self._ok:
                    self._ok = False
                    return [PadDown(self._reader.port, str(exc))]
                return []
            events: list[PadEvent] = []
            if not self._ok:
                self._ok = True
                events.append(PadUp(self._reader.port))
            self._error = None
            now = self._clock.now()
            window = self.config.same_tap_s
            came = [
                uid for uid in uids
                if uid not in self._on_pad and now - self._last_seen.get(uid, -float("inf")) > window
            ]
            for uid in uids:
                self._last_seen[uid] = now
            for uid, seen in list(self._last_seen.items()):
                if now - seen > window:
                    del self._last_seen[uid]  # older than the window: a new tap again
            self._on_pad = tuple(uids)
            if came:
                tap = Tap(tuple(came), tuple(uids), now)
                self._taps += 1
                self._last_tap = tap
                events.append(tap)
            return events

    def watch(self, on_event: Callable[[PadEvent], None], stop: Stop) -> None:
        """Poll until `stop` is set or the pad is closed, handing each event to `on_event`
        in this thread (a worker thread's loop; the daemon posts them into its event loop)."""
        pace = PollPace(self.config)  # type: ignore[arg-type]  # reads the three pace fields
        while not stop.is_set() and not self.closed:
            now = self._clock.now()
            if pace.due(now, self._fast):
                try:
                    events = self.poll()
                except HalError:
                    if self.closed:  # closed from another thread while this one waited
                        return
                    raise
                busy = any(isinstance(e, Tap) for e in events) or bool(self._on_pad)
                pace.scanned(self._clock.now(), changed=busy)
                for event in events:
                    on_event(event)
                now = self._clock.now()
            fast = self._fast
            if fast or pace.interval(now, fast) <= self.config.poll_interval_s:
                stop.wait(pace.pause(now, fast))
            else:
                self._idle_pause(pace.last_scan + pace.interval(now, fast) - now, stop)

    def _idle_pause(self, seconds: float, stop: Stop) -> None:
        """Sleep until the next idle read, cut short by `set_pace(True)` or `close()`:
        waking every fast interval to look at the pace would cost more CPU than the
        idle reads themselves. The stop is looked at every `STOP_LOOK_S`."""
        end = self._clock.now() + seconds
        while not stop.is_set() and not self.closed:
            left = end - self._clock.now()
            if left <= 0 or self._clock.wait(self._wake, min(left, STOP_LOOK_S)):
                break
        self._wake.clear()

    # -- state ------------------------------------------------------------------------
    @property
    def on_pad(self) -> tuple[str, ...]:
        """The tags the last good read saw."""
        return self._on_pad

    def get_status(self) -> dict[str, Any]:
        """The reader's fields (as the tray's readers report them) and the pad's own.
        Never waits for a read under way."""
        last = self._last_tap
        return {
            **self._reader.get_status(),
            "ok": self._ok,
            "error": self._error,
            "pace": "fast" if self._fast else "idle",
            "polls": self._polls,
            "taps": self._taps,
            "on_pad": list(self._on_pad),
            "last_tap": None if last is None else {"uids": list(last.uids), "at": last.at},
            "cards": len(self.config.cards),
            "chips": len(self.config.chips),
        }

    def close(self) -> None:
        self._wake.set()  # a watcher in an idle pause ends now
        with self._lock:
            if self.closed:
                return
            self.closed = True
            self._reader.close()

    def __repr__(self) -> str:
        if self.closed:
            return f"<Pad {self.config.port} closed>"
        state = "ok" if self._ok else "down"
        pace = "fast" if self._fast else "idle"
        return f"<Pad {self.config.port} {state} {pace} on_pad={list(self._on_pad)}>"
