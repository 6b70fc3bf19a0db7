"""The simulated table as a physical world: real card tokens, towers on slots.

`World` owns the twins of every device (`hal.sim.launcher.SimLauncher` with the real
cards in its hopper, `hal.sim.seats.SimSeats`, `hal.sim.tray.SimTray`) on one mock pin
factory and one clock, and hands the daemon the production device classes built on
them (`hardware()`). Besides the hopper it holds what people hold at a table: each
seat's hand, the discard pile, the cards that just came out of the launcher and are
still lying in front of a seat (`landed`), a card turned face up but not yet on the
pile (`aside`), and where each tower stands.

The world is physical, so it outlives the daemon: with a `path` it writes itself to a
JSON file atomically (temp file + rename; never through a link: `firmware.safe_files`)
on every physical change, including every
card the exit sensor sees leave the hopper. A daemon killed with SIGKILL and
restarted finds the cards where they physically are, and when it asks how many
cards a cut-off ejection produced, `cards_out()` counts the cards lying in front of
the seat since that ejection started — never a guess from the journal.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware.controller.hardware import Hardware
from firmware.errors import Rejected
from firmware.safe_files import UnsafeFile, read_regular, refuse_unless_regular, replace_file
from firmware.sim.hil import (
    real_pad,
    real_tray_readers,
    say_real_readers,
    twin_towers,
    with_real_readers,
)
from hal.clock import Clock, MonotonicClock
from hal.launcher import LauncherConfig
from hal.pad import Pad, PadConfig
from hal.pad import parse_config as parse_pad_config
from hal.seats import SeatsConfig
from hal.sim.clock import VirtualClock
from hal.sim.launcher import SimLauncher
from hal.sim.pad import SimPad, chip_tags, deck_tags
from hal.sim.seats import SimSeats
from hal.sim.tray import SimTray
from hal.tray import NEUTRAL, Tray, TrayConfig
from uno_core import format_card, get_edition
from uno_core.cards import TOWERS

VERSION = 1
log = logging.getLogger(__name__)


# the [tray] options a twin takes over from the user's config (the rest names real ports)
TRAY_TIMING = ("seen_polls", "missed_polls", "poll_interval_s", "idle_poll_interval_s",
               "idle_after_s")
# the [pad] options a twin takes over from the user's config, and the twin's own pace
PAD_TIMING = ("poll_interval_s", "idle_poll_interval_s", "same_tap_s")
FAST_PAD = {"poll_interval_s": 0.005, "idle_poll_interval_s": 0.05, "same_tap_s": 0.0}


def pad_deck(edition: str) -> list[str]:
    """The edition's deck in its fixed order: the order its tags are derived in
    (`hal.sim.pad.card_uid`, as `unotable cards enroll` walks it)."""
    return [format_card(c) for c in get_edition(edition).deck]


def twin_pad_config(edition: str) -> PadConfig:
    """The twin's `[pad]`: every card of the deck and the four chips tagged with the
    twin's UIDs (its port is the twin's own, opened by `World`)."""
    mapping = {"driver": "pn532", "port": "sim", "cards": deck_tags(edition, pad_deck(edition)),
               "chips": chip_tags()}
    return parse_pad_config(mapping, path="pad")


def deck_of(edition: str) -> list[str]:
    return sorted(format_card(c) for c in get_edition(edition).deck)


def rng(seed: int, *parts: object) -> random.Random:
    """Every random choice of the simulated table comes from (seed, what, step): a run
    restarted after a crash makes the same choices at the same steps."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


class WorldError(Exception):
    """The world file cannot be read, or does not fit the match."""


class World:
    def __init__(self, edition: str, seats: int, seed: int, *, launcher: LauncherConfig,
                 panel: SeatsConfig, fast: bool = True, path: str | Path | None = None,
                 tray_poll_s: float | None = None, factory: MockFactory | None = None,
                 tray: TrayConfig | None = None, pad: PadConfig | None = None) -> None:
        self.edition = edition
        self.n = seats
        self.seed = seed
        self.path = Path(path) if path is not None else None
        self.fast = fast
        self.clock: Clock = VirtualClock() if fast else MonotonicClock()
        self.factory = factory if factory is not None else MockFactory(pin_class=MockPWMPin)
        self.launcher_sim = SimLauncher(launcher, factory=self.factory, clock=self.clock)
        self.seats_sim = SimSeats(panel, factory=self.factory)
        self.towers_used = get_edition(edition).towers
        # hardware in the loop: a reader whose port names a device on this machine is
        # opened for real, every other reader and every pin stays the twin's
        self.pad_real = real_pad(pad)
        self.tray_real = real_tray_readers(tray)
        self.tray_sim = SimTray((NEUTRAL, *range(min(seats, 8))), paced=not fast,
                                towers=twin_towers(tray))
        self.tray_poll_s = tray_poll_s if tray_poll_s is not None else (0.005 if fast else 0.2)
        # the pace and debounce of the configured tray (`unotable run` on the twin): its
        # readers are the simulated ones, but a user's timing options still apply
        self.tray_timing: dict[str, Any] = (
            {k: getattr(tray, k) for k in TRAY_TIMING} if tray is not None and not fast else {})
        # the card pad, with a [pad] section: every card of the deck carries a tag
        self.pad_sim = SimPad(edition, pad_deck(edition), paced=not fast) \
            if pad is not None and self.pad_real is None else None
        self.pad_timing: dict[str, Any] = (
            {k: getattr(pad, k) for k in PAD_TIMING} if pad is not None and not fast
            else FAST_PAD)
        # One lock for the whole physical world: the launcher twin's own. A card leaving
        # the hopper (launcher thread, twin lock held) and the world's bookkeeping of
        # it are then one atomic change, and no lock order can be inverted.
        self._lock: threading.RLock = self.launcher_sim.lock
        self._cursor = 0
        self._batch = 0  # inside `change()`: one save at its end
        self._save_failed = False  # the last save met a full disk (warned once)
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.discard: list[str] = []
        self.aside: list[str] = []
        self.landed: list[tuple[str, int | None]] = []
        self.ejection: int | None = None  # seat of the ejection under way
        self.ejection_job: str | None = None  # its job: deal, fire or turn
        self.received: dict[int, list[str]] = {}  # seat -> cards of its last ejection
        self.towers: dict[str, int | str] = {}
        self.agree = True
        self.mismatches: list[str] = []
        self.pending: dict[str, Any] | None = None  # a declaration under way
        self.notes: dict[str, Any] = {}  # what players remember (a Wild Draw 4's guilt)
        say_real_readers({"pad": pad, "tray": tray}, log)
        saved = check_world_file(self.path, edition, seats, seed) if self.path else None
        if saved is not None:
            self._restore(saved)
        else:
            self.launcher_sim.load(deck_of(edition))
            if self.towers_used:
                self.towers = {t: NEUTRAL for t in TOWERS}
        for tower, slot in self.towers.items():
            self.tray_sim.place(tower, slot)
        self.save()

    # ------------------------------------------------------------------ devices
    def hardware(self) -> Hardware:
        """The production device classes on this world's pins, ports and clock."""
        launcher = self.launcher_sim.launcher(rng=random.Random(self.seed))
        launcher.on_card(self._card_out)  # before the daemon's: the world is saved first
        panel = self.seats_sim.panel()
        timing = {"poll_interval_s": self.tray_poll_s, "seen_polls": 1 if self.fast else 2,
                  **self.tray_timing}
        tray = Tray.from_config(with_real_readers(self.tray_sim.config(**timing),
                                                  self.tray_real))
        # a real pad keeps the user's pace, cards and chips
        pad_cfg = self.pad_real or (self.pad_sim.config(**self.pad_timing)
                                    if self.pad_sim is not None else None)
        pad = Pad.from_config(pad_cfg) if pad_cfg is not None else None
        return Hardware(launcher, panel, tray, pad)

    def check_new_match(self, edition: str, seats: int) -> None:
        """For `Controller.new_match_checks`: the world holds one edition's deck for its
        seats; another match would leave the simulated players without its cards."""
        if edition != self.edition or seats != self.n:
            raise Rejected("sim.one_deck", edition=self.edition, seats=self.n, asked=edition,
                           asked_seats=seats, field="edition", status=422)

    def close(self) -> None:
        self.tray_sim.close()
        if self.pad_sim is not None:
            self.pad_sim.close()

    def records(self) -> dict[str, tuple[int, int | None]]:
        """Every record the twin keeps (logs and mock pins' state histories): name ->
        (entries kept, the most it keeps; None: unbounded). A daemon on the twin plays
        for days, so none may be unbounded (`bench/longrun.py` prints them)."""
        sim = self.launcher_sim
        logs: dict[str, Any] = {"launcher exited": sim.exited, "launcher motor": sim.motor_log}
        logs.update({f"launcher delivered to {seat}": log for seat, log in sim.delivered.items()})
        logs.update({f"reader {slot} commands": dev.commands
                     for slot, dev in self.tray_sim.readers.items() if hasattr(dev, "commands")})
        out = {name: (sum(1 for _ in log), log.maxlen) for name, log in logs.items()}
        for info, pin in list(self.factory.pins.items()):
            states = pin.states
            out[f"pin {getattr(info, 'name', info)} states"] = (
                len(states), getattr(states, "maxlen", None))
        return out

    # ------------------------------------------------------------------ persistence
    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "version": VERSION, "edition": self.edition, "seats": self.n, "seed": self.seed,
                "hopper": list(self.launcher_sim.stack), "hands": self.hands,
                "discard": self.discard, "aside": self.aside,
                "landed": [[c, s] for c, s in self.landed], "ejection": self.ejection,
                "ejection_job": self.ejection_job,
                "received": {str(k): v for k, v in self.received.items()},
                "towers": self.towers, "agree": self.agree, "mismatches": self.mismatches,
                "pending": self.pending, "notes": self.notes,
            }

    @contextmanager
    def change(self) -> Iterator[None]:
        """Several physical changes written to the file as one (a declaration recorded
        as pending together with the cards it moves): a crash sees all or none."""
        with self._lock:
            self._batch += 1
            try:
                yield
            finally:
                self._batch -= 1
            self.save()

    def save(self) -> None:
        if self.path is None:
            return
        with self._lock:
            if self._batch:
                return
            text = json.dumps(self.snapshot(), sort_keys=True)
            self._save_failed = not _write_world(self.path, text, warn=not self._save_failed)

    def _restore(self, data: Mapping[str, Any]) -> None:
        self.launcher_sim.load(data["hopper"])
        self.hands = [list(h) for h in data["hands"]]
        self.discard = list(data["discard"])
        self.aside = list(data["aside"])
        self.landed = [(c, s) for c, s in data["landed"]]
        self.ejection = data["ejection"]
        self.ejection_job = data.get("ejection_job")
        self.received = {int(k): list(v) for k, v in data["received"].items()}
        self.towers = {t: (NEUTRAL if s == NEUTRAL else int(s)) for t, s in data["towers"].items()}
        self.agree = bool(data["agree"])
        self.mismatches = list(data["mismatches"])
        self.pending = data["pending"]
        self.notes = dict(data["notes"])

    # ------------------------------------------------------------------ the launcher
    def _card_out(self, counted: int, seat: int | None) -> None:
        """A card broke the exit beam (launcher thread): it lies in front of a seat now."""
        with self._lock:
            exited = self.launcher_sim.exited
            for token, where in exited[self._cursor:]:
                self.landed.append((token, where))
            self._cursor = len(exited)
            self.save()

    def ejection_started(self, seat: int, job: str) -> None:
        with self._lock:
            self.end_unheard_ejection()
            self.collect()
            self.ejection, self.ejection_job = seat, job
            self.save()

    def ejection_ended(self, seat: int, job: str) -> None:
        with self._lock:
            cards = [c for c, _ in self.landed]
            self.collect(turned=job == "turn")
            self.received[seat] = cards
            self.ejection, self.ejection_job = None, None
            self.save()

    def end_unheard_ejection(self) -> None:
        """The referee finished the ejection under way (its result is journaled) but the
        daemon died before the world heard it end: the players take the cards that came
        out exactly as they do when they hear it (a turned first card goes aside, not
        into the dealer's hand). Only call this once the referee says nothing ejects."""
        with self._lock:
            if self.ejection is not None:
                self.ejection_ended(self.ejection, self.ejection_job or "deal")

    def collect(self, *, turned: bool = False) -> None:
        """Players pick up the cards lying in front of them (a turned card goes aside)."""
        with self._lock:
            for token, where in self.landed:
                if turned:
                    self.aside.append(token)
                elif where is not None:
                    self.hands[where].append(token)
                else:
                    self.aside.append(token)
            self.landed = []

    def put_back(self, seat: int, count: int) -> None:
        """The last `count` cards that came out for `seat` go back under the stack."""
        with self._lock:
            cards = self.received.get(seat, [])[-count:]
            for c in cards:
                (self.hands[seat] if c in self.hands[seat] else self.aside).remove(c)
            self.received[seat] = self.received.get(seat, [])[:-count]
            self.launcher_sim.load(cards)
            self.save()

    def cards_out(self) -> int:
        """How many cards came out since the ejection under way started: counted on the
        table, in front of the seat."""
        with self._lock:
            return len(self.landed) if self.ejection is not None else 0

    # ------------------------------------------------------------------ people's hands
    def gather_and_load(self, step: int) -> None:
        """Round start: every card back, shuffled (by seed and step), into the hopper."""
        with self._lock:
            self.collect()
            cards = (self.launcher_sim.empty_hopper() + self.discard + self.aside
                     + [c for h in self.hands for c in h])
            if Counter(cards) != Counter(deck_of(self.edition)):
                self._disagree(f"step {step}: gathered {len(cards)} cards, not the "
                               f"{self.edition} deck")
            cards.sort()
            rng(self.seed, "shuffle", step).shuffle(cards)
            self.hands = [[] for _ in range(self.n)]
            self.discard, self.aside, self.received = [], [], {}
            self.launcher_sim.load(cards)
            self.save()

    def reload_from_discard(self, step: int) -> None:
        """The hopper ran out: the discard pile but its top card, shuffled, goes in."""
        with self._lock:
            rest = sorted(self.discard[:-1])
            rng(self.seed, "reload", step).shuffle(rest)
            self.discard = self.discard[-1:]
            self.launcher_sim.load(rest)
            self.save()

    def lay(self, seat: int, cards: Iterable[str], *, under_top: bool = False) -> None:
        """`seat` lays `cards` from its hand on the discard pile (last = new top), or
        under the top card (the four-tower discard)."""
        with self._lock:
            cards = list(cards)
            for c in cards:
                self.hands[seat].remove(c)
            if under_top and self.discard:
                self.discard[-1:-1] = cards
            else:
                self.discard.extend(cards)
            self.save()

    def take_back(self, seat: int, cards: Iterable[str]) -> None:
        """Undo `lay` (the table refused the declaration, or never got it): the cards
        just laid, not an equal card laid earlier further down the pile. Each is the
        last of its value (under the top card it may be the top card itself: an equal
        card next to it, so the pile comes out the same)."""
        with self._lock:
            cards = list(cards)
            for c in reversed(cards):
                del self.discard[len(self.discard) - 1 - self.discard[::-1].index(c)]
            self.hands[seat].extend(cards)
            self.save()

    def swap_hands(self, a: int, b: int) -> None:
        with self._lock:
            self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
            self.save()

    def pass_hands(self, direction: int) -> None:
        """Every hand moves one seat on in `direction` (+1: seat s's hand goes to s + 1):
        a 0 laid under the seven_zero house rule (`HandsPassed`)."""
        with self._lock:
            n = self.n
            self.hands = [self.hands[(s - direction) % n] for s in range(n)]
            self.save()

    def turn_up(self) -> str | None:
        with self._lock:
            return self.aside[-1] if self.aside else None

    def to_pile(self, card: str) -> None:
        with self._lock:
            self.aside.remove(card)
            self.discard.append(card)
            self.save()

    def back_under(self, card: str) -> None:
        """A first card that may not start goes back under the stack in the launcher."""
        with self._lock:
            self.aside.remove(card)
            self.launcher_sim.load([card])
            self.save()

    def move_tower(self, tower: str, slot: int | str) -> None:
        with self._lock:
            self.tray_sim.place(tower, slot)
            self.towers[tower] = slot
            self.save()

    def set_pending(self, pending: dict[str, Any] | None) -> None:
        with self._lock:
            self.pending = pending
            self.save()

    # ------------------------------------------------------------------ agreement
    def check(self, public: Mapping[str, Any]) -> list[str]:
        """Compare the world with the referee's public state; record disagreements."""
        problems: list[str] = []
        with self._lock:
            hopper = len(self.launcher_sim.stack)
            if hopper != public["pile_count"]:
                problems.append(f"launcher holds {hopper} cards, referee says {public['pile_count']}")
            counts = [len(h) for h in self.hands]
            if counts != public["hand_counts"]:
                problems.append(f"hands hold {counts}, referee says {public['hand_counts']}")
            if self.discard != public["discard"]:
                problems.append(f"discard pile {self.discard[-3:]}..., referee says "
                                f"{public['discard'][-3:]}...")
            if self.landed:
                problems.append(f"{len(self.landed)} cards lie unclaimed on the table")
            owners = public.get("towers")
            if owners:
                for t, owner in owners.items():
                    if self.towers.get(t) != owner:
                        problems.append(f"tower {t} stands at {self.towers.get(t)}, "
                                        f"referee says {owner}")
            for p in problems:
                self._disagree(f"step {public['step']}: {p}")
        return problems

    def _disagree(self, message: str) -> None:
        self.agree = False
        if len(self.mismatches) < 20:
            self.mismatches.append(message)
        self.save()

    def __repr__(self) -> str:
        return (f"<World {self.edition} seats={self.n} hopper={len(self.launcher_sim.stack)} "
                f"hands={[len(h) for h in self.hands]} discard={len(self.discard)} "
                f"agree={self.agree}>")


def demo_panel_config(base: SeatsConfig, seats: int) -> SeatsConfig:
    """The example seat panel, extended with free GPIO pins for more than four seats."""
    if seats <= len(base.buttons):
        return replace(base, buttons=base.buttons[:seats], leds=base.leds[:seats])
    used = set(base.pins().values())
    free = [p for p in range(28) if p not in used and p not in (20, 21, 12, 5, 6, 13)]
    status = base.status_led
    if seats - len(base.buttons) > len(free) // 2 and status is not None:
        free.append(status)
        status = None
    extra = seats - len(base.buttons)
    if extra > len(free) // 2:
        raise WorldError(f"the simulated table has pins for at most "
                         f"{len(base.buttons) + len(free) // 2} seats")
    return replace(base, buttons=base.buttons + tuple(free[:extra]),
                   leds=base.leds + tuple(free[extra:2 * extra]), status_led=status)


def demo_launcher_config(base: LauncherConfig, seats: int) -> LauncherConfig:
    """The example launcher with one aiming angle per seat, spread over the servo's range."""
    if base.servo is None:
        return base
    lo, hi = base.servo_min_angle + 10, base.servo_max_angle - 10
    angles = tuple(lo + (hi - lo) * i / max(1, seats - 1) for i in range(seats))
    return replace(base, seat_angles=angles)


def check_world_file(path: Path, edition: str, seats: int, seed: int) -> dict[str, Any] | None:
    """The world saved at `path` (None: none yet), after checking that it is this
    table's and that it and its temporary file are regular files; only reads.
    Raises `WorldError` (one line) otherwise."""
    try:
        refuse_unless_regular(path.with_name(path.name + ".tmp"))
    except UnsafeFile as exc:
        raise WorldError(str(exc)) from None
    data = _read_world(path)
    if data is not None and (data.get("version") != VERSION or data.get("edition") != edition
                             or data.get("seats") != seats or data.get("seed") != seed):
        raise WorldError(f"{path} holds another table ({data.get('edition')}, "
                         f"{data.get('seats')} seats, seed {data.get('seed')}): continue "
                         "it with those arguments, or use another --journal")
    return data


def _read_world(path: Path) -> dict[str, Any] | None:
    """The saved world (no-follow: a link or directory at its path is refused)."""
    try:
        raw = read_regular(path)
    except UnsafeFile as exc:
        raise WorldError(str(exc)) from None
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise WorldError(f"{path} is not the twin's world file: {exc}") from None
    if not isinstance(data, dict):
        raise WorldError(f"{path} is not the twin's world file")
    return data


def _write_world(path: Path, text: str, *, warn: bool) -> bool:
    """Save the world; False on a full disk (the table pauses on its journal meanwhile,
    the next change tries again), warned once (`warn`)."""
    try:
        replace_file(path, text.encode())
    except UnsafeFile as exc:
        raise WorldError(str(exc)) from None
    except OSError as exc:
        if warn:
            log.warning("the twin cannot save its world to %s: %s (it tries again at every "
                        "change)", path, exc)
        return False
    return True
