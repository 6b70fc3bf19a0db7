"""`unotable demo --serve`: a person takes one seat at the simulated table, in the browser.

The daemon runs unchanged on the twin (`firmware.sim`), bots sit at every other seat,
and the API serves the table's screen. The person has no physical cards, so the twin
puts them on the screen: the public state gains ``screen_hands`` ({seat: the cards the
simulated launcher delivered to that seat}) and ``POST /api/screen/launcher`` presses
the simulated launcher button. What the person declares on the screen goes through the
API like at a real table; the twin then lays those cards on its discard pile, so world
and referee keep agreeing. The table's chores (shuffle and load, turn the first card,
move towers) are done by the twin's helpers, as in `unotable demo`.
"""

from __future__ import annotations

import asyncio
import secrets
import tempfile
from collections import Counter
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TextIO

import uno_core as U
from firmware.api import requests as api
from firmware.controller.table import Controller
from firmware.controller.waiting import Waits
from firmware.errors import LoopStopped, Rejected
from firmware.qr import qr_text
from firmware.seat_keys import lan_address, reachable_by_phones, seat_url
from firmware.sim.demo import NAMES, DemoError, SimRun, check_arguments, sim_daemon
from firmware.sim.players import TablePlayers
from firmware.sim.world import World
from firmware.waits import Wait
from firmware.words.messages import PERSON
from firmware.words.problems import problem
from uno_core import EDITIONS, OptionError, get_edition, make_options
from uno_core.cards import TRADE_HANDS, WILD_DRAW4
from uno_core.options import preset_options

# the waits in which the person's on-screen launcher button stands for their own press
PERSON_PRESSES = frozenset({Wait.TURN, Wait.PRESS, Wait.CHALLENGE, Wait.PLAY_DRAWN})
# the table-wide requests the page may make in the demo (the next round is its own request)
OPEN_ADMIN = frozenset({"new-match", "pause", "resume"})
POLL_S = 0.05
# set while the bots' own request is handled (the loop runs a handler in its caller's
# context): the page's requests are checked, the bots' are theirs to make
BOTS_ASKING: ContextVar[bool] = ContextVar("bots_asking", default=False)


class _Abstain:
    """No bot speaks for the person: it never calls UNO or catches on their behalf."""

    def interject(self, *_args: Any) -> None:
        return None


def check_seats(edition: str, seats: int) -> None:
    """Another edition asked on the page: one the engine plays, for as many seats as it
    is for (10 at most, as the demo's command line allows)."""
    if edition not in EDITIONS:
        raise Rejected("refused.edition", edition=edition, known=", ".join(EDITIONS),
                       field="edition", status=422)
    ed = get_edition(edition)
    high = min(ed.max_players, 10)
    if not ed.min_players <= seats <= high:
        raise Rejected("refused.seat_count", edition=edition, low=ed.min_players, high=high,
                       count=seats, field="seats", status=422)


class ScreenPlayers(TablePlayers):
    """The bots of `unotable demo` at every seat but `person`'s, who decides on the screen."""

    def __init__(self, *args: Any, person: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.person = person
        self._acting_at: tuple[Any, int, Any] = (None, -1, None)

    def _bot(self, seat: int, step: int, what: str) -> Any:
        if seat == self.person:
            return _Abstain()
        return super()._bot(seat, step, what)

    async def _submit(self, request: api.Request) -> dict[str, Any] | None:
        token = BOTS_ASKING.set(True)
        try:
            return await super()._submit(request)
        finally:
            BOTS_ASKING.reset(token)

    def finished(self) -> bool:
        return False  # a match over waits for the person's next one (Start new match)

    def _moment(self) -> tuple[Any, int, Any]:
        return getattr(self.ctl.match, "id", None), self.ctl.step, self.ctl.lookup("admin").paused

    def excused(self, _exc: Rejected) -> bool:
        # the person paused or started a new match while a bot was about to act
        return self._moment() != self._acting_at

    async def _act(self, st: Mapping[str, Any]) -> None:
        self._acting_at = (getattr(self.ctl.match, "id", None), st["step"], st["paused"])
        if self._moment() != self._acting_at:  # the person changed the table during the pace
            return
        w = st["waiting"]
        if w["kind"] in (Wait.MATCH_OVER, Wait.NEW_MATCH, Wait.PAUSED):
            await asyncio.sleep(POLL_S)  # the person's: a new match, or Resume on the page
            return
        await super()._act(st)

    async def _await_person(self, st: Mapping[str, Any]) -> None:
        """The bots may still catch the person's forgotten UNO, at the bots' pace."""
        self._acting_at = (getattr(self.ctl.match, "id", None), st["step"], st["paused"])
        await asyncio.sleep(max(self.pace, POLL_S))
        if self._moment() == self._acting_at:
            await self._interject(st)


class ScreenTable:
    """The `Table` the API serves: the controller, plus the person's cards on the screen."""

    def __init__(self, controller: Controller, world: World, person: int,
                 demo: ScreenDemo | None = None) -> None:
        self.ctl = controller
        self.world = world
        self.person = person
        self.demo = demo  # the demo that serves another edition's table when asked
        self._colour = ""  # the current colour before the action being announced
        controller.listeners.append(self._on_event)

    def public_state(self) -> dict[str, Any]:
        out = self.ctl.public_state()
        hand = sorted(self.world.hands[self.person], key=_card_order)
        out["screen_hands"] = {str(self.person): hand}
        undoable = out.get("undoable")
        if undoable and undoable.get("seat") != self.person:
            out["undoable"] = None  # a bot's play is the twin's: the page may take back only the person's
        challenge = out.get("challenge")
        if out.get("phase") == "verdict" and challenge and challenge["challenger"] == self.person:
            # the person challenged a bot's +4: the twin shows them the hand to judge
            player = challenge["player"]
            out["screen_hands"][str(player)] = sorted(self.world.hands[player], key=_card_order)
            out["challenge"] = {**challenge, "colour": self.world.notes.get("w4_colour", "")}
        return out

    def health(self) -> dict[str, Any]:
        return self.ctl.health()

    def submit(self, request: api.Request) -> dict[str, Any]:
        """What the page sends: the person's own declarations, a new match, a pause. The
        bots' seats and the table's chores (counting, turning cards, towers) are the
        twin's: a request for them is refused, so world and referee keep agreeing."""
        if not BOTS_ASKING.get():
            self._check_allowed(request)
            if self.demo is not None and self._other_table(request):
                return self.demo.another_edition(request.params)  # type: ignore[attr-defined]
        if getattr(request, "seat", None) == self.person:
            self._check_holds(request)
        return self.ctl.submit(request)

    def _other_table(self, request: api.Request) -> bool:
        """A new match of another edition or seat count than the twin's deck holds."""
        if not isinstance(request, api.Admin) or request.action != "new-match":
            return False
        p = request.params
        return p.get("edition", self.world.edition) != self.world.edition or \
            p.get("seats", self.world.n) != self.world.n

    def screen_press(self) -> dict[str, Any]:
        """The person's finger on the simulated launcher button: only for their own draw or
        press (the button is the table's, so in another seat's turn it would draw for it)."""
        w = self.ctl.waiting()
        if w.get("seat") != self.person or w["kind"] not in PERSON_PRESSES:
            raise self._not_now(w)
        self.world.seats_sim.press_launcher()
        return {"pressed": True}

    def _not_now(self, w: Mapping[str, Any]) -> Rejected:
        seat = w.get("seat")
        if isinstance(seat, int) and 0 <= seat < self.world.n and seat != self.person:
            return Rejected("demo.bots_turn", seat=seat)
        return Rejected("demo.not_now", what=self.ctl.peer(Waits).current())

    def refused(self, refusal: Rejected) -> dict[str, Any]:
        return self.ctl.refused(refusal)

    def _check_allowed(self, request: api.Request) -> None:
        if isinstance(request, api.Admin):
            if request.action not in OPEN_ADMIN:
                raise Rejected("demo.twin_does", status=403)
            return
        if isinstance(request, api.Reveal):
            raise Rejected("demo.twin_does", status=403)
        seat = getattr(request, "seat", self.person)
        if seat != self.person:
            raise Rejected("demo.only_yours", number=self.person + 1, other=seat, field="seat",
                           status=403)

    def _check_holds(self, request: api.Request) -> None:
        """A person can only lay cards they hold: the twin knows which those are."""
        hand = Counter(self.world.hands[self.person])
        if isinstance(request, api.Play):
            laid = Counter([request.card, *request.choices.get("cards", ())])
        elif isinstance(request, api.Decide) and request.decision == "four-towers":
            laid = Counter(request.cards)
        elif isinstance(request, api.Hands):
            if Counter(request.cards) != hand:
                cards = tuple(U.parse_card(c) for c in sorted(hand.elements(), key=_card_order))
                raise Rejected("refused.your_hand", cards=cards, field="cards", status=422)
            return
        else:
            return
        missing = laid - hand
        if missing:
            card = next(iter(missing))
            raise Rejected("refused.not_yours", card=U.parse_card(card), field="card", status=422)

    def _on_event(self, event: Mapping[str, Any]) -> None:
        """After the referee accepted the person's declaration, the twin lays the cards
        (and picks the card up again when the person takes the declaration back)."""
        if event.get("kind") == "undone" and event.get("seat") == self.person:
            self.world.take_back(self.person, [*event["laid"], event["card"]])
            return
        if event.get("kind") != "action":
            return
        a = event["action"]
        if a.get("seat") == self.person:
            world, seat = self.world, self.person
            if a["type"] == "play":
                cards = [*a.get("laid", []), a["card"]]
                card = U.parse_card(a["card"])
                if card.kind == WILD_DRAW4:  # for a bot that challenges: was it legal?
                    rest = list(world.hands[seat])
                    for c in cards:
                        rest.remove(c)
                    world.notes["w4_guilty"] = any(U.parse_card(c).colour == self._colour for c in rest)
                world.lay(seat, cards)
                if card.kind == TRADE_HANDS and world.hands[seat]:
                    world.swap_hands(seat, a["target"])
            elif a["type"] == "four_tower_discard":
                world.lay(seat, a["laid"], under_top=True)
        state = self.ctl.state
        self._colour = state.colour if state is not None else ""


def _card_order(text: str) -> tuple[str, str]:
    return ("W" if text.startswith("W") else text[0], text)


def check_person(person: int, players: int) -> None:
    """`person` (the engine's seat, from 0) is one of the table's; people (and --seat)
    number seats from 1."""
    if not 0 <= person < players:
        raise DemoError(f"--seat {person + 1}: the table has seats 1-{players}")


class ScreenDemo:
    """The daemon on the twin with bots, serving the screen for one person at `person`."""

    def __init__(self, variant: str = "classic", players: int = 4, seed: int = 1, *,
                 person: int = 0, port: int = 8080, options: Mapping[str, Any] | None = None,
                 fast: bool = False, pace: float = 1.0, out: TextIO | None = None,
                 directory: str | Path | None = None, lan: bool = False,
                 pad: bool = False) -> None:
        """`lan`: serve the local network (every address, with a fresh API token) and
        print each seat's code for a phone; else only this machine (127.0.0.1). `pad`:
        the table has a card pad, the bots tap their cards on it (the person declares
        on the screen)."""
        check_arguments(variant, players, 1)
        check_person(person, players)
        self._tmp = tempfile.TemporaryDirectory(prefix="unotable-serve-") if directory is None else None
        self.directory = Path(directory if directory is not None else self._tmp.name)  # type: ignore[union-attr]
        self.person, self.out, self.seed, self.fast, self.pace = person, out, seed, fast, pace
        self.lan, self.pad = lan, pad
        # on the network the owner is whoever holds the token: a fresh one, in the owner's link
        self.token = secrets.token_urlsafe(24) if lan else None
        self.tables = 0  # the tables served so far: another edition is another simulated table
        self._next: dict[str, Any] | None = None  # the edition the person asked for next
        self._seat(variant, players, options, None, port)

    def _seat(self, variant: str, players: int, options: Mapping[str, Any] | None,
              names: list[str] | None, port: int) -> None:
        """Build the simulated table of `variant` (its own journal) with the person at it."""
        self.tables += 1
        person = self.person
        if names is None:
            names = list(NAMES[:players])
            names[person] = PERSON
        path = self.directory / ("journal.db" if self.tables == 1 else f"journal-{self.tables}.db")
        self.sim = sim_daemon(variant, players, self.seed, path, fast=self.fast, rounds=10**9,
                              pace=self.pace, out=self.out, options=options, names=names,
                              port=port, seat=ScreenPlayers,
                              # the person's waits are theirs: no bot taps "next round"
                              seat_options={"person": person, "human_seats": (person,)},
                              serve=lambda ctl: ScreenTable(ctl, self.world, person, self),
                              play=self._play, over_http=False,
                              round_pause_s=0,  # the round's result stays until they tap
                              api={"host": "0.0.0.0", "token": self.token} if self.lan else None,
                              pad=self.pad)
        self.config, self.world, self.daemon = self.sim.config, self.sim.world, self.sim.daemon

    def another_edition(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Match → another edition (or seat count): the twin holds one edition's deck, so
        the demo serves a new simulated table of that edition on the same address. Bad
        choices are refused before anything stops."""
        variant = str(params.get("edition", self.world.edition))
        players = int(params.get("seats", self.world.n))
        options = dict(params.get("options", {}))
        check_seats(variant, players)
        try:
            if "preset" in params:  # the request's options over the preset's, as a new match
                options = {**preset_options(params["preset"], get_edition(variant)), **options}
            make_options(get_edition(variant), options)
        except OptionError as exc:
            raise Rejected("refused.option", option=exc.name, problem=problem(exc),
                           field="options", status=422) from None
        if not 0 <= self.person < players:
            raise Rejected("demo.person_seats", number=self.person + 1, field="seats", status=422)
        names = list(params["names"]) if "names" in params else None
        assert self.daemon.server is not None
        self._next = {"variant": variant, "players": players, "options": options,
                      "names": names, "port": self.daemon.server.port}
        # after this answer reached the page: its stream then finds the new table
        asyncio.get_running_loop().call_later(0.2, self.daemon.stop, f"the demo moves to {variant}")
        return {"new_match": variant, "seats": players}

    @property
    def controller(self) -> Controller | None:
        return self.sim.controller

    async def _play(self, run: SimRun) -> None:
        server = None
        while server is None or not server.app.frozen or server.port == 0:
            await asyncio.sleep(0.01)
            server = self.daemon.server
        if self.token is not None:
            self._say_seat_codes()
        self._say(f"the table's screen: {self.url}  (you are seat {self.person + 1}; "
                  "Ctrl-C stops)")
        assert run.players is not None
        try:
            await run.players.run()  # until the match is over
        except LoopStopped:  # stopped from outside (Ctrl-C, the output closed)
            return
        self._say("match over: the screen stays up until Ctrl-C")

    def _say_seat_codes(self) -> None:
        """Each seat's invitation as a QR code in the terminal, with its link: a phone
        that scans the person's plays their seat; one at a bot's seat follows the table."""
        server = self.daemon.server
        assert server is not None and server.seat_keys is not None
        address = lan_address(server.host)
        if not reachable_by_phones(address):
            self._say("no local network found: phones cannot reach this machine")
            return
        for seat, name in enumerate(self.sim.names):
            url = seat_url(address, server.port, seat, server.seat_keys.invite(seat))
            who = "your seat" if seat == self.person else f"{name}, a bot plays it"
            self._say(qr_text(url).rstrip("\n"))
            self._say(f"seat {seat + 1} ({who}): scan the code with a phone, or open {url}")

    def _say(self, line: str) -> None:
        if self.out is not None:
            self.out.write(line + "\n")
            self.out.flush()

    @property
    def url(self) -> str:
        """The person's page (seat numbered from 1, as the screen); on the network it
        carries the owner's token, which the page keeps and takes off the address bar."""
        server = self.daemon.server
        assert server is not None
        if self.token is None:
            return f"{server.url}/?seat={self.person + 1}"
        return f"http://127.0.0.1:{server.port}/?seat={self.person + 1}#token={self.token}"

    def run(self, *, signals: bool = True) -> int:
        try:
            while True:
                status = self.sim.run(signals=signals)
                ask, self._next = self._next, None
                if ask is None or status != 0:
                    return status
                self._say(f"another edition: {ask['variant']} for {ask['players']} players")
                self._seat(ask["variant"], ask["players"], ask["options"], ask["names"], ask["port"])
        finally:
            if self._tmp is not None:
                self._tmp.cleanup()

    def stop(self) -> None:
        self.daemon.stop("the screen demo is over")
