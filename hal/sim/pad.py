"""A simulated card pad: a `SimPN532` on a pty, and a deck whose every card carries a tag.

The real `hal.pad.Pad` built from `config()` reads it through the same PN532 driver and
byte protocol as on the table::

    with SimPad("classic", deck_codes) as sim, Pad.from_config(sim.config()) as pad:
        sim.hold(sim.tag_of("R7"))
        pad.poll()                       # -> [Tap(uids=('04...',), ...)]

Each card copy's tag is derived from the edition and the card's index in the deck
(`card_uid`), so the twin's deck, `[pad.cards]` and a bot agree without being told.
Four colour chips (`chip_uid`) carry R, G, B and Y. hal does not know the decks
(uno_core does): the caller hands the deck's card codes in order.

`tap(*uids)` lays tags on the pad and lifts them `tap_s` later on the given clock (a
person's tap), `hold(*uids)` lays them until `lift()`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from hal.clock import REAL_TIME, Cancellable, Clock
from hal.pad import CHIP_COLOURS, PadConfig, parse_config
from hal.safety import ClosedOnExit
from hal.sim.pn532 import SimPN532

TAP_S = 0.3  # how long a tapped card lies on the pad: a quick tap is seen at the fast pace


def _ntag_uid(seed: str) -> str:
    # 7 bytes, the first 04: NXP's manufacturer byte, as on an NTAG213 sticker
    return "04" + hashlib.sha256(seed.encode()).hexdigest()[:12].upper()


def card_uid(edition: str, index: int) -> str:
    """The tag of the card at `index` in `edition`'s deck on the twin."""
    return _ntag_uid(f"unotable card {edition} {index}")


def chip_uid(colour: str) -> str:
    """The tag of the twin's colour chip `colour` (R, G, B, Y)."""
    if colour not in CHIP_COLOURS:
        raise ValueError(f"a chip is one of {', '.join(CHIP_COLOURS)}, not {colour!r}")
    return _ntag_uid(f"unotable chip {colour}")


def deck_tags(edition: str, codes: Sequence[str]) -> dict[str, str]:
    """Tag UID -> card code for every card of a deck given in order (`[pad.cards]`)."""
    return {card_uid(edition, i): code for i, code in enumerate(codes)}


def chip_tags() -> dict[str, str]:
    """Tag UID -> colour of the four chips (`[pad.chips]`)."""
    return {chip_uid(colour): colour for colour in CHIP_COLOURS}


class SimPad(ClosedOnExit):
    def __init__(
        self,
        edition: str,
        codes: Sequence[str],
        *,
        clock: Clock = REAL_TIME,
        paced: bool = True,
        tap_s: float = TAP_S,
    ) -> None:
        """`paced`: every byte takes its wire time at 115200 baud, as on the real line."""
        self.edition = edition
        self.cards = deck_tags(edition, codes)
        self.chips = chip_tags()
        self._codes = tuple(codes)
        self._clock = clock
        self.tap_s = tap_s
        self._lifting: Cancellable | None = None
        self.reader = SimPN532(baud=115200 if paced else None)
        self.port = self.reader.port

    # -- which tag -----------------------------------------------------------------------
    def tags_of(self, code: str) -> list[str]:
        """The tags of every copy of card `code`, in deck order."""
        return [card_uid(self.edition, i) for i, c in enumerate(self._codes) if c == code]

    def tag_of(self, code: str, copy: int = 0) -> str:
        """The tag of copy `copy` (0-based) of card `code`."""
        tags = self.tags_of(code)
        if not 0 <= copy < len(tags):
            raise ValueError(f"the {self.edition} deck has {len(tags)} of {code!r}, "
                             f"no copy {copy}")
        return tags[copy]

    # -- the world -----------------------------------------------------------------------
    def hold(self, *uids: str) -> None:
        """Lay tags on the pad (after lifting whatever lay there) and leave them."""
        self.lift()
        for uid in uids:
            self.reader.place(uid)

    def tap(self, *uids: str) -> None:
        """Lay tags on the pad together and lift them `tap_s` later (on the clock)."""
        self.hold(*uids)
        self._lifting = self._clock.call_later(self.tap_s, self._lift_tags)

    def lift(self) -> None:
        """Take every tag off the pad."""
        if self._lifting is not None:
            self._lifting.cancel()
            self._lifting = None
        self._lift_tags()

    def _lift_tags(self) -> None:
        for uid in self.reader.tags:
            self.reader.lift(uid)

    @property
    def on_pad(self) -> list[str]:
        return self.reader.tags

    def unplug(self) -> None:
        self.reader.unplug()

    def replug(self) -> None:
        self.reader.replug()

    # -- what the real Pad is built from --------------------------------------------------
    def config_mapping(self, **options: Any) -> dict[str, Any]:
        """The `[pad]` table (as parsed TOML) pointing at the simulated port, every card
        and chip enrolled."""
        return {"driver": "pn532", "port": self.port, "cards": dict(self.cards),
                "chips": dict(self.chips), **options}

    def config(self, **options: Any) -> PadConfig:
        return parse_config(self.config_mapping(**options), path="pad")

    def close(self) -> None:
        if self._lifting is not None:
            self._lifting.cancel()
            self._lifting = None
        self.reader.close()

    def __repr__(self) -> str:
        return f"<SimPad {self.edition} {self.port} cards={len(self.cards)} on_pad={self.on_pad}>"
