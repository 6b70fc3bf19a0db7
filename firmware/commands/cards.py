"""`unotable cards`: the tags of the card pad's deck.

``unotable cards enroll`` walks the edition's deck in its fixed order (the order of
`uno_core.get_edition(edition).deck`), then the four colour chips R, G, B, Y. For each
it prints (and, with `[voice] enabled`, says) what to tap; the person taps that card on
the pad and its tag goes into ``[pad.cards]`` (tag UID = card code) or ``[pad.chips]``
(tag UID = colour). A tag that already names another card or chip is refused. The file
is edited with tomlkit (comments kept) and replaced atomically after every tag, so
enrolment can stop at any moment (q, Ctrl-C, a power cut) and goes on, the next time,
at the first card with no tag.

``unotable cards check`` lists the cards with no tag, tags used twice or naming more
copies of a card than the deck has, and tags of a card that is not in the edition's deck.

The pad is ``--port``; else ``[pad] port``, but with ``[sim] enabled = true`` the twin's
pad when that port is one the twin stands in for (firmware.sim.hil). ``--port sim``
enrols from the twin's pad, which taps the card asked for by itself: the flow without
hardware.
"""

from __future__ import annotations

import argparse
import json
import select
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from firmware.commands.tags import SIM, reader_failure
from firmware.errors import UsageError

DEFAULT_EDITION = "classic"  # as [table] edition defaults (firmware.config)
CHIP_WORDS = {"en": "the {colour} chip", "de": "den Farbchip {colour}"}
KEYS = "(s = skip, q = stop)"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="enrol the deck's tags for the card pad, or check them",
        description="The card pad's tags: `enroll` learns each card's and colour chip's "
        "tag by a tap on the pad; `check` lists cards without a tag and tags that are wrong.",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    config_help = ("config file (default: $UNOTABLE_CONFIG, else /etc/unotable/config.toml)")
    enroll = sub.add_parser(
        "enroll", help="tap every card of the deck, then the four colour chips, on the pad",
        description="Walks the edition's deck in a fixed order, then the colour chips R, G, "
        "B, Y; tap each on the pad when asked. Every tag is saved at once into [pad.cards] "
        "or [pad.chips]; run it again to go on where it stopped.")
    enroll.add_argument("--config", metavar="PATH", help=config_help)
    enroll.add_argument("--port", help="the pad's reader: a device path, a pyserial URL, or "
                        "'sim' for the twin's pad, which taps each card by itself (default: "
                        "[pad] port; 'sim' when the config has [sim] enabled = true, "
                        "unless [pad] port names a real reader: docs/pad.md)")
    enroll.add_argument("--timeout", type=float, default=1.0, metavar="S",
                        help="the reader's answer timeout, in seconds")
    enroll.set_defaults(func=run_enroll)
    check = sub.add_parser(
        "check", help="list cards without a tag, duplicated tags and tags of another deck",
        description="Compares [pad.cards] and [pad.chips] with the edition's deck; exit "
        "status 1 when anything is listed.")
    check.add_argument("--config", metavar="PATH", help=config_help)
    check.add_argument("--json", action="store_true", help="print the findings as JSON")
    check.set_defaults(func=run_check)


class CardsFailed(Exception):
    pass


# -- the config file --------------------------------------------------------------------
@dataclass
class Tags:
    """What the file says: the edition, and the enrolled tags (UIDs normalised)."""

    edition: str
    deck: list[str]  # card codes in the deck's fixed order
    cards: dict[str, str]  # UID -> card code
    chips: dict[str, str]  # UID -> colour
    twice: list[str]  # one line per tag written twice


def _read_tags(path: Path, doc: Any) -> Tags:
    import uno_core
    from uno_core.cards import format_card

    table = doc.get("table", {})
    edition = table.get("edition", DEFAULT_EDITION) if isinstance(table, dict) else DEFAULT_EDITION
    if edition not in uno_core.EDITIONS:
        raise CardsFailed(f"{path}: table.edition: unknown edition {edition!r}; the editions "
                          f"are {', '.join(uno_core.EDITIONS)}")
    deck = [format_card(card) for card in uno_core.get_edition(edition).deck]
    pad = doc.get("pad", {})
    if not isinstance(pad, dict):
        raise CardsFailed(f"{path}: pad must be a table")
    seen: dict[str, str] = {}
    twice: list[str] = []
    cards = _section(path, pad, "cards", lambda v: isinstance(v, str) and bool(v), seen, twice)
    chips = _section(path, pad, "chips", _is_colour, seen, twice)
    return Tags(edition, deck, cards, chips, twice)


def _is_colour(value: Any) -> bool:
    from hal.pad import CHIP_COLOURS

    return value in CHIP_COLOURS


def _section(path: Path, pad: Mapping[str, Any], name: str, good: Callable[[Any], bool],
             seen: dict[str, str], twice: list[str]) -> dict[str, str]:
    from hal.errors import ConfigError
    from hal.tray import normalise_uid

    entries = pad.get(name, {})
    if not isinstance(entries, dict):
        raise CardsFailed(f"{path}: pad.{name} must be a table")
    found: dict[str, str] = {}
    for key, value in entries.items():
        where = f"pad.{name}.{key}"
        try:
            uid = normalise_uid(where, key)
        except ConfigError as exc:
            raise CardsFailed(f"{path}: {exc}") from None
        if not good(value):
            what = "a colour R, G, B or Y" if name == "chips" else "a card code like 'R7'"
            raise CardsFailed(f"{path}: {where}: must be {what}, not {value!r}")
        if uid in seen:
            twice.append(f"tag {uid} is written twice: {seen[uid]} and {where} = {value!r}")
            continue
        seen[uid] = f"{where} = {value!r}"
        found[uid] = str(value)
    return found


def _save_tag(path: Path, doc: Any, section: str, uid: str, value: str) -> None:
    import tomlkit

    from firmware.commands.enroll import _write_keeping_mode

    if "pad" not in doc:
        doc["pad"] = tomlkit.table()
    if section not in doc["pad"]:
        doc["pad"][section] = tomlkit.table()
    doc["pad"][section][uid] = value
    _write_keeping_mode(path, tomlkit.dumps(doc))


# -- what to tap --------------------------------------------------------------------------
@dataclass(frozen=True)
class Wanted:
    """One card copy (or chip) still without a tag."""

    section: str  # "cards" or "chips"
    value: str  # card code or colour
    number: int  # 1-based place in the walk's own part (deck position, or chip 1-4)
    of: int  # the part's length
    copy: int = 0  # which copy of the card (0-based)
    copies: int = 1

    def line(self) -> str:
        from uno_core.cards import COLOUR_NAMES

        if self.section == "chips":
            name = CHIP_WORDS["en"].format(colour=COLOUR_NAMES[self.value])
            return f"Chip {self.number} of {self.of}: {name} ({self.value}). Tap it on the pad."
        return (f"Card {self.number} of {self.of}: {_card_name(self.value, 'en')} ({self.value}, "
                f"copy {self.copy + 1} of {self.copies}). Tap it on the pad.")

    def spoken(self, lang: str) -> str:
        from firmware.words.messages import COLOURS

        if self.section == "chips":
            return CHIP_WORDS.get(lang, CHIP_WORDS["en"]).format(colour=COLOURS[lang][self.value])
        return _card_name(self.value, lang)


def _card_name(code: str, lang: str) -> str:
    from firmware.words.messages import card_name
    from uno_core.cards import parse_card

    return card_name(parse_card(code), lang)


def wanted(tags: Tags) -> Iterator[Wanted]:
    """Every card copy without a tag in deck order, then every chip colour without one:
    the k-th copy of a card counts as tagged when k tags name that card."""
    from hal.pad import CHIP_COLOURS

    tagged = Counter(tags.cards.values())
    copies = Counter(tags.deck)
    met: Counter[str] = Counter()
    for i, code in enumerate(tags.deck):
        copy = met[code]
        met[code] += 1
        if copy >= tagged[code]:
            yield Wanted("cards", code, i + 1, len(tags.deck), copy, copies[code])
    chips = set(tags.chips.values())
    for i, colour in enumerate(CHIP_COLOURS):
        if colour not in chips:
            yield Wanted("chips", colour, i + 1, len(CHIP_COLOURS))


def refusal(tags: Tags, uids: tuple[str, ...], want: Wanted) -> str | None:
    """Why this tap cannot be `want`'s tag, or None."""
    from uno_core.cards import COLOUR_NAMES

    if len(uids) > 1:
        return f"{len(uids)} tags on the pad at once: tap one card at a time."
    uid = uids[0]
    if uid in tags.cards:
        code = tags.cards[uid]
        other = " Tap the other copy." if want.section == "cards" and code == want.value else ""
        return f"This tag is the {code} already.{other}"
    if uid in tags.chips:
        return f"This tag is the {COLOUR_NAMES[tags.chips[uid]]} chip already."
    return None


# -- enroll --------------------------------------------------------------------------------
def run_enroll(args: argparse.Namespace) -> int:
    from firmware.commands.enroll import EnrollFailed, _config_path, _load

    path = _config_path(args.config)
    if args.timeout <= 0:
        raise UsageError(f"--timeout must be positive, not {args.timeout}")
    try:
        doc = _load(path)
        tags = _read_tags(path, doc)
    except (EnrollFailed, CardsFailed) as exc:
        print(f"unotable cards enroll: error: {exc}", file=sys.stderr)
        return 1
    todo = list(wanted(tags))
    if not todo:
        print(f"Every card of the {tags.edition} deck and every colour chip has a tag "
              f"({path}); `unotable cards check` lists them.")
        return 0
    port = _port_choice(args, doc)
    with _PadSession(port, tags, args.timeout) as session:
        failure = session.open()
        if failure:
            print(f"unotable cards enroll: error: {failure}", file=sys.stderr)
            return 1
        voice, lang = _voice(doc)
        try:
            return Walk(session, tags, todo, save=lambda s, u, v: _save_tag(path, doc, s, u, v),
                        say=voice.say if voice else None, path=path, lang=lang).run()
        finally:
            if voice is not None:
                voice.close()


def _port_choice(args: argparse.Namespace, doc: Any) -> str:
    if args.port is not None:
        if not args.port.strip():
            raise UsageError("--port must name a serial port, a pyserial URL or 'sim'")
        return str(args.port)
    from firmware.sim.hil import is_twin_port

    pad = doc.get("pad", {})
    port = pad.get("port") if isinstance(pad, dict) else None
    sim = doc.get("sim", {})
    if isinstance(sim, dict) and sim.get("enabled") is True:
        if not isinstance(port, str) or is_twin_port(port):
            print("Enrolling from the twin's pad: the config has [sim] enabled = true "
                  "(--port names a real one).")
            return SIM
        print(f"Enrolling from the real pad at [pad] port = {port!r} ([sim] enabled: the "
              "pins stay simulated).")
        return port
    if not isinstance(port, str) or not port.strip():
        raise UsageError("no pad to enroll with: give --port, or add [pad] port = ... to the config")
    return port


def _voice(doc: Any) -> tuple[Any, str]:
    """The table's voice when `[voice] enabled` (else None) and its language (a broken
    [voice] is config check's to report: enrolment then stays silent)."""
    from firmware.config import LANGUAGES, _Reader, _voice
    from firmware.voice import open_voice

    table = doc.get("table", {})
    language = table.get("language", "en") if isinstance(table, dict) else "en"
    lang = language if language in LANGUAGES else "en"
    config = _voice(_Reader([]), doc)
    if config is None or not config.enabled:
        return None, lang
    return open_voice(config, lang), lang


class _PadSession:
    """The pad enrolment reads: a real port, or the twin's pad that taps what is asked."""

    def __init__(self, port: str, tags: Tags, timeout: float) -> None:
        from hal.pad import Pad, PadConfig, open_pad_reader

        self.port = port
        self.sim: Any = None
        url = port
        if port == SIM:
            from hal.sim.pad import SimPad

            self.sim = SimPad(tags.edition, tags.deck)
            url = self.sim.port
        cfg = PadConfig(port=url, ack_timeout_s=timeout, response_timeout_s=timeout)
        self.reader = open_pad_reader(cfg)
        self.pad = Pad(cfg, self.reader)

    def open(self) -> str | None:
        """Connect now, so a missing or busy port is said before the first card."""
        from hal.errors import HalError

        try:
            self.reader.open()  # type: ignore[attr-defined]  # the pad's PN532
        except HalError as exc:
            return reader_failure(self.port, "pn532", exc)
        return None

    def offer(self, want: Wanted) -> None:
        """On the twin: lay the card asked for on the pad (its tag by deck position) until
        the next one is asked for."""
        if self.sim is None:
            return
        if want.section == "chips":
            from hal.sim.pad import chip_uid

            self.sim.hold(chip_uid(want.value))
        else:
            self.sim.hold(self.sim.tag_of(want.value, want.copy))

    def __enter__(self) -> _PadSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pad.close()
        if self.sim is not None:
            self.sim.close()


class Walk:
    """The walk through what still has no tag: one prompt, taps until one fits, save."""

    def __init__(self, session: _PadSession, tags: Tags, todo: list[Wanted], *,
                 save: Callable[[str, str, str], None], say: Callable[[str], None] | None,
                 path: Path, lang: str = "en", keys: TextIO | None = None,
                 out: TextIO | None = None) -> None:
        self.session = session
        self.tags = tags
        self.todo = todo
        self.save = save
        self.say = say
        self.path = path
        self.keys = sys.stdin if keys is None else keys
        self.out = sys.stdout if out is None else out
        self.lang = lang
        self.keys_open = True
        self.done = 0

    def print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        from hal.errors import HalError

        self.print(f"Enrolling the {self.tags.edition} deck into {self.path}: "
                   f"{len(self.todo)} to tap {KEYS}.")
        try:
            for want in self.todo:
                answer = self._one(want)
                if answer == "q":
                    return self._stopped()
        except KeyboardInterrupt:
            return self._stopped()
        except (HalError, OSError) as exc:
            self.print(f"unotable cards enroll: error: {exc}")
            return self._stopped()
        left = len(list(wanted(self.tags)))
        if left:
            self.print(f"Done: {self.done} tags saved; {left} skipped, still without a tag "
                       "(run `unotable cards enroll` again for them).")
            return 1
        self.print(f"Done: {self.done} tags saved; every card and chip has a tag.")
        return 0

    def _stopped(self) -> int:
        left = len(list(wanted(self.tags)))
        self.print(f"Stopped: {self.done} tags saved, {left} still without a tag. "
                   "`unotable cards enroll` goes on from there.")
        return 1

    def _one(self, want: Wanted) -> str | None:
        """Wait for `want`'s tag; returns "q" when told to stop."""
        from hal.pad import PadDown, PadUp, Tap

        self.print(want.line())
        if self.say is not None:
            self.say(want.spoken(self.lang))
        self.session.offer(want)
        pad = self.session.pad
        while True:
            for event in pad.poll():
                if isinstance(event, PadDown):
                    self.print(f"The pad's reader is not answering ({event.reason}); retrying.")
                elif isinstance(event, PadUp):
                    self.print("The pad's reader answers again.")
                elif isinstance(event, Tap):
                    why = refusal(self.tags, event.uids, want)
                    if why:
                        self.print(why)
                        continue
                    self._take(want, event.uids[0])
                    return None
            key = self._key(pad.config.poll_interval_s)
            if key == "q":
                return "q"
            if key == "s":
                self.print(f"Skipped {want.value}.")
                return None

    def _take(self, want: Wanted, uid: str) -> None:
        self.save(want.section, uid, want.value)
        (self.tags.cards if want.section == "cards" else self.tags.chips)[uid] = want.value
        self.done += 1
        self.print(f"{want.value} = {uid}")

    def _key(self, timeout: float) -> str | None:
        """A line typed on the keys (s, q) within `timeout`, else None."""
        try:
            fd = self.keys.fileno()
        except (AttributeError, OSError, ValueError):
            fd = None
        if fd is None or not self.keys_open:
            select.select([], [], [], timeout)
            return None
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        line = self.keys.readline()
        if not line:  # no more keys (stdin closed): tapping goes on
            self.keys_open = False
            return None
        return line.strip().lower()[:1] or None


# -- check ------------------------------------------------------------------------------
def findings(tags: Tags) -> dict[str, list[str]]:
    """What `cards check` lists: cards with no tag, tags used twice (or naming more copies
    than the deck has), tags of a card not in the deck, and chips missing."""
    from firmware.config import deck_problems
    from hal.pad import CHIP_COLOURS

    copies = Counter(tags.deck)
    tagged = Counter(tags.cards.values())
    missing = [f"{code}: {copies[code] - tagged[code]} of {copies[code]} without a tag"
               for code in dict.fromkeys(tags.deck) if tagged[code] < copies[code]]
    missing += [f"chip {colour}: no tag" for colour in CHIP_COLOURS
                if colour not in tags.chips.values()]
    duplicated = list(tags.twice)
    duplicated += [f"{code}: {tagged[code]} tags for the {copies[code]} in the deck"
                   for code in tagged if code in copies and tagged[code] > copies[code]]
    other = [f"tag {uid}: {problem}" for uid, problem in
             deck_problems(tags.edition, tags.cards).items()]
    return {"missing": missing, "duplicated": duplicated, "other_deck": other}


def run_check(args: argparse.Namespace) -> int:
    from firmware.commands.enroll import EnrollFailed, _load
    from firmware.config import default_path

    path = Path(args.config) if args.config else default_path()
    try:
        if not path.exists():
            raise CardsFailed(f"{path}: no such file")
        tags = _read_tags(path, _load(path))
    except (EnrollFailed, CardsFailed) as exc:
        print(f"unotable cards check: error: {exc}", file=sys.stderr)
        return 1
    found = findings(tags)
    if args.json:
        print(json.dumps({"edition": tags.edition, "cards": len(tags.deck),
                          "tagged": len(tags.cards), "chips": len(tags.chips), **found}))
    else:
        print(f"{path}: {tags.edition} deck, {len(tags.cards)} card tags for "
              f"{len(tags.deck)} cards, {len(tags.chips)} colour chips.")
        titles = {"missing": "Without a tag", "duplicated": "Duplicated tags",
                  "other_deck": "Tags of another deck"}
        for key, title in titles.items():
            if found[key]:
                print(f"{title} ({len(found[key])}):")
                for line in found[key]:
                    print(f"  {line}")
        if not any(found.values()):
            print("Every card and chip has exactly its tag.")
    return 1 if any(found.values()) else 0
