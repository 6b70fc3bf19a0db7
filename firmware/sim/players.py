"""Bots seated at the simulated table, playing through the same paths as people.

A `TablePlayers` runs on the daemon's event loop next to the controller. It looks at
the table the way players do: the referee's public state (the controller's engine
state is table mode: it holds no hidden card) plus, for each seat, the real card
tokens that seat holds in the `World`. Then it acts the way people act:

* lays cards on the discard pile in the world and declares them (`Play`, `Decide`,
  `Reveal`, `Hands` requests through `TableLoop.call`, the path every API request
  takes), each bot as its seat (`bot(seat)`: the table refuses it what a phone of that
  seat may not do); the table's chores (resume, count, the first card, next round) go
  as its owner on the screen (`TWIN`);
* presses the simulated launcher button and seat buttons (`SimSeats`: mock pins, the
  production `SeatPanel` callbacks, the controller's hardware events);
* moves towers on the simulated tray when the table asks, shuffles and loads the
  launcher, counts the cards of a cut-off ejection.

One decision at a time, in a fixed order (where the match has a catch window: late UNO
call, catches; then the seat to act, which presses its own button before a play that
leaves one card, to say UNO before the card), each from an rng made of (seed, seat, step): the same seed plays the same match,
also after the daemon was killed and restarted. A declaration in progress is written
into the world file first (`World.pending`), so a restart can tell whether the referee
got it (its step moved on) or the cards go back into the hand.

The parts: `TablePlayers` decides and acts; `Narrator` tells what happens (``out``);
`firmware.sim.follow` keeps the world up with the table (ejected cards, a restart);
`firmware.sim.api_client` talks HTTP like a screen; `firmware.sim.kill_hook` is the
crash soak's kill hook (`kill_after`, `check_answered`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, TextIO

import uno_core as U
from firmware.api import requests as api
from firmware.controller.slots import slot_name
from firmware.counting import count_of
from firmware.errors import Rejected
from firmware.sim.api_client import ApiClient, TokenFor
from firmware.sim.follow import catch_up, follow
from firmware.sim.kill_hook import KillHook
from firmware.sim.pad_tapper import jump_pressable, tap_play, tappable
from firmware.sim.world import World, deck_of, rng
from firmware.waits import RESUMABLE, SEAT_DECISIONS, SELF_CLEARING, Wait
from firmware.words.messages import Words, seat_name
from uno_core.bots import HeuristicBot
from uno_core.cards import COLOUR_NAMES, TRADE_HANDS, WILD_DRAW4
from uno_core.effects import CardReturned, HandsPassed, HandsTraded

# the stops the table announces under their own kind (firmware/controller/stops.py)
STOPS = (Wait.JAM, Wait.RELOAD, Wait.EXTRA_CARDS, Wait.JOURNAL)
JUMP_IN_CHANCE = 0.8  # how often a bot holding the top card's twin jumps in
# what a person decides at their seat; the chores that name a seat (turning the first
# card as dealer, putting cards back) are the twin's, for a person's seat too
PERSON_WAITS = SEAT_DECISIONS | {Wait.HAND}
DOZE_CHANCE = 0.05  # with a turn timer: how often a bot lets it run out (the demo shows it)
# the table's chores the twin does (count, resume, turn the first card, next round): the
# owner's, as on the table's own screen; the bots declare as their seats (`bot`)
TWIN = api.Who("owner", via="screen")


def bot(seat: int) -> api.Who:
    """The bot in `seat`: it may do what a phone of that seat may (`firmware.api.roles`)."""
    return api.Who("seat", seat, "bot")


class _Barrier:
    """Queued behind every event posted before it: awaiting it means they were handled."""


def match_step(match: Any, step: object) -> object:
    """A step as the simulated table's random choices key it: the first match's by itself
    (the games seeds have always played), a later one's with its match id, so that "Start
    new match" with the same seed deals another game (and still the same after a restart)."""
    mid = getattr(match, "id", None)
    return step if mid in (None, 1) else f"m{mid}:{step}"


def private_view(state: U.State, seat: int, hand: list[str], drawn: list[str]) -> U.State:
    """What `seat` knows: the public table-mode state plus its own cards."""
    view = state.clone()
    view.table = False
    cards = tuple(U.parse_card(c) for c in hand)
    view.assume_hands([cards if i == seat else () for i in range(state.n)])
    view.drawn = tuple(U.parse_card(c) for c in drawn) if state.phase == "drawn" else ()
    return view


def hand_moves(state: U.State, play: U.Play) -> tuple[tuple[int, int] | None, int]:
    """What `play` makes the players do with their hands, as the referee says it (tried on
    a copy of the table's state): the two seats that trade hands (Trade Hands, a 7 under
    seven_zero), and the direction every hand passes on (a 0 under seven_zero; 0: none)."""
    if play.card.kind != TRADE_HANDS and not state.options.seven_zero:
        return None, 0
    try:
        _new, fx = U.apply(state.clone(), play)
    except U.IllegalAction:
        return None, 0  # the table will refuse it: nothing moves
    swap = next(((e.seat, e.other) for e in fx if isinstance(e, HandsTraded)), None)
    passed = next((e.direction for e in fx if isinstance(e, HandsPassed)), 0)
    return swap, passed


def _cards(count: int) -> str:
    return "no cards" if count == 0 else count_of(count, "card")


class Narrator:
    """The players' log: a line for each event worth telling, written to `out`."""

    def __init__(self, names: list[str], controller: Any, out: TextIO | None) -> None:
        self.names = names
        self.ctl = controller
        self.out = out

    def tell(self, event: Mapping[str, Any]) -> None:
        line = self.describe(event)
        if line and self.out is not None:
            self.out.write(line + "\n")
            self.out.flush()

    def _name(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the neutral slot"
        return seat_name(seat, self.names)

    def describe(self, e: Mapping[str, Any]) -> str | None:
        kind = e.get("kind")
        if kind == "action":
            return self._describe_action(e["action"], e["effects"])
        if kind == "ejected":
            if e["job"] == "fire":  # the eject action that follows says it, with its step
                return None
            if e["job"] == "turn" and e["counted"] == 1:
                return f"      the first card comes out at {self._name(e['seat'])}"
            job = "dealt" if e["job"] == "deal" else "turned up"
            return f"      {job}: {_cards(e['counted'])} to {self._name(e['seat'])}"
        if kind == "tower_seen":
            return f"      tray sees tower {e['tower']} at {self._slot(e['slot'])}"
        if kind == "turn_warning" and e.get("left_s", 0) >= self._timer_s():
            return None  # a timer shorter than its warning warns as the turn starts: no news
        if kind in ("protected", "alarm", "refused", "turn_warning", "turn_timeout", *STOPS):
            return f"  !   {e.get('message') or e.get('reason')}"
        if kind == "new_match":
            return (f"new match: {e['edition']}, {e['seats']} players "
                    f"({', '.join(e['names'])})")
        return None

    def _slot(self, slot: Any) -> str:
        return slot_name(slot, Words(names=self.names))

    @staticmethod
    def _does(who: str, verb: str) -> str:
        """`who` and the verb agreeing: "South plays", but "You play" (the person of
        `demo --serve`)."""
        if who != "You":
            return f"{who} {verb}"
        return f"{who} {verb[:-2] if verb.endswith(('sses', 'ches')) else verb[:-1]}"

    def _describe_action(self, a: Mapping[str, Any], fx: list[Mapping[str, Any]]) -> str | None:
        t = a["type"]
        who = self._name(a.get("seat"))
        if t == "play":
            extra = ""
            if a.get("colour"):
                extra += f", colour {COLOUR_NAMES.get(a['colour'], a['colour'])}"
            if a.get("target") is not None and a.get("target", -1) >= 0:
                extra += f", at {self._name(a['target'])}"
            if a.get("towers"):
                extra += f", takes {'towers' if len(a['towers']) > 1 else 'tower'} {' '.join(a['towers'])}"
            if a.get("laid"):
                extra += f", lays {' '.join(a['laid'])}"
            if a.get("uno"):
                extra += " — UNO!"
            text = f"{self._does(who, 'plays')} {a['card']}{extra}"
        elif t in ("draw", "press"):
            text = f"{self._does(who, 'draws' if t == 'draw' else 'presses')}" + (
                "" if t == "draw" else " the launcher")
        elif t == "shuffle":
            text = "cards shuffled into the launcher"
        elif t == "dealer_cards":
            text = "dealer cards turned: " + " ".join(a["cards"])
        elif t == "reveal":
            text = f"first card: {a['card']}"
        elif t == "eject":  # a launcher press's cards, as the launcher counted them
            out = next((f for f in fx if f["type"] == "ejected"), {"seat": -1, "count": a["count"]})
            text = f"the launcher fires {_cards(out['count'])} at {self._name(out['seat'])}"
        elif t == "call_uno":
            text = f"{self._does(who, 'calls')} UNO"
        elif t == "catch":
            text = f"{self._does(who, 'catches')} {self._name(a['target'])}"
        elif t == "enter_hand":
            text = f"{self._does(who, 'shows')} {' '.join(a['cards']) or 'nothing'}"
        elif t == "choose_colour":
            text = f"{self._does(who, 'chooses')} {COLOUR_NAMES.get(a['colour'], a['colour'])}"
        elif t == "accept":
            text = f"{self._does(who, 'takes')} the cards without a challenge"
        elif t == "challenge":
            text = f"{self._does(who, 'challenges')} the Wild Draw 4"
        elif t == "verdict":
            text = f"{who} saw the hand: {'guilty' if a.get('guilty') else 'not guilty'}"
        elif t == "pass":
            text = f"{self._does(who, 'passes')}"
        elif t == "four_tower_discard":
            text = (f"{self._does(who, 'holds')} all four towers and "
                    f"{'lay' if who == 'You' else 'lays'} {' '.join(a['laid'])}")
        else:
            text = f"{who}: {t.replace('_', ' ')}"
        notes = []
        for f in fx:
            n = f["type"]
            if n == "tower_moved":
                notes.append(f"tower {f['tower']} → {self._slot(f['seat'])}")
            elif n == "uno_penalty":
                notes.append(f"{self._name(f['seat'])} forgot UNO")
            elif n == "challenge_resolved" and t != "verdict":  # a verdict says it already
                notes.append("guilty" if f["guilty"] else "not guilty")
            elif n == "round_over":
                notes.append(f"round won by {self._name(f['winner'])}, scores {f['scores']}")
            elif n == "match_over":
                notes.append(f"MATCH OVER: {', '.join(self._name(w) for w in f['winners'])}")
            elif n == "hands_traded":
                notes.append(f"{self._name(f['seat'])} and {self._name(f['other'])} trade hands")
            elif n == "hands_passed":
                notes.append("every hand passes on")
        stack = self._stack()
        if stack:
            unit = "cards" if stack["unit"] == "cards" else "presses"
            notes.append(f"stack: {stack['count']} {unit} pending, {self._name(stack['seat'])}")
        return f"[{self._step()}] {text}" + (f"  ({'; '.join(notes)})" if notes else "")

    def _step(self) -> int:
        return int(self.ctl.step)

    def _timer_s(self) -> int:
        s = getattr(self.ctl, "state", None)
        return int(s.options.turn_timer_s) if s is not None else 0

    def _stack(self) -> dict[str, Any] | None:
        """The draw stack pending (stack_draws), as the table publishes it."""
        s = getattr(self.ctl, "state", None)  # (a log without a table: none)
        if s is None or s.options.stack_draws == "off":
            return None
        stack: dict[str, Any] | None = U.public_state(s).get("stack")  # type: ignore[assignment]
        return stack


class TablePlayers:
    def __init__(self, world: World, controller: Any, loop: Any, *, seed: int, rounds: int,
                 pace: float = 0.0, out: TextIO | None = None,
                 names: list[str] | None = None, forget_uno: float = 0.05,
                 human_seats: tuple[int, ...] = (),
                 api_url: Callable[[], str | None] | None = None,
                 kill_after: tuple[str, int] | None = None,
                 token_for: TokenFor | None = None) -> None:
        """`api_url()`: the table's API address once it listens; declarations then go
        over HTTP like a person's screen (else straight to `TableLoop.call`), each with
        the token `token_for(sender)` gives (a seat's device token; none: no token)."""
        self.world, self.ctl, self.loop = world, controller, loop
        self.seed, self.rounds, self.pace, self.out = seed, rounds, pace, out
        self.names = names or [seat_name(i, ()) for i in range(world.n)]
        self.narrator = Narrator(self.names, controller, out)
        self.refusals = 0
        self.forget_uno = forget_uno
        self.human_seats = frozenset(human_seats)  # nobody decides for these: a person does
        self.api_url = api_url
        self._http = ApiClient(token_for)
        self.kill_hook = KillHook(world, kill_after, table=controller.journaled_view,
                                  step=self._step)
        if world.pad_sim is not None:  # the pad's moments around a tapped play's commit
            controller.lookup("pad").moment = lambda name: self.kill_hook.moment(f"pad-{name}")
        loop.on(_Barrier, lambda _e: None)

    def on_event(self, event: Mapping[str, Any]) -> None:
        """Controller events (on the loop): the world reacts, the log prints."""
        follow(self.world, event)
        self.narrator.tell(event)

    def check_answered(self) -> None:
        """Right after the controller replayed its journal (`firmware.sim.kill_hook`)."""
        self.kill_hook.check_answered()

    def _step(self) -> int:
        return int(self.ctl.step)

    def _key(self, step: int) -> object:
        return match_step(getattr(self.ctl, "match", None), step)

    # ------------------------------------------------------------------ the loop
    def finished(self) -> bool:
        s = self.ctl.state
        return s is not None and (s.over or self.ctl.stats["rounds"] >= self.rounds)

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            await self.close()

    async def _run(self) -> None:
        while self.api_url is not None and self.api_url() is None:
            await asyncio.sleep(0.005)  # the API starts listening after the controller
        await self._sync()
        self.after_restart()
        st = self.ctl.public_state()
        if self.out is not None:
            again = f", continuing at step {st['step']}" if st["step"] else ""
            self.out.write(f"{st['edition']} at the simulated table: {', '.join(self.names)} "
                           f"(seed {self.seed}{again})\n")
        while True:
            await self._settle()
            if self.finished():
                return
            st = self.ctl.public_state()
            if st["waiting"].get("seat") in self.human_seats and st["waiting"]["kind"] in PERSON_WAITS:
                await self._await_person(st)  # the table waits for the person in that seat
                continue
            if self.pace:
                await asyncio.sleep(self.pace)
            if await self._doze(st):
                continue
            await self._act(st)

    async def _await_person(self, _st: Mapping[str, Any]) -> None:
        await asyncio.sleep(0.05)  # while a person decides, the bots wait a moment

    async def _doze(self, st: Mapping[str, Any]) -> bool:
        """turn_timer_s: now and then the seat to decide lets its timer run out, so the
        table applies timeout_action (the same seat and step doze again after a restart)."""
        timer = st.get("turn_timer")
        if not timer or timer["seat"] in self.human_seats:
            return False
        if rng(self.seed, "bot", timer["seat"], self._key(st["step"]), "doze").random() >= DOZE_CHANCE:
            return False
        key = [timer["step"], timer["seat"]]
        while self.ctl.step == st["step"] and self.ctl.lookup("turn_timer").get_status()["timed_out"] != key:
            await asyncio.sleep(0.02)
        return True

    async def _sync(self) -> None:
        await asyncio.sleep(0)  # let posts from this thread reach the queue
        await self.loop.call(_Barrier())

    async def _settle(self) -> None:
        """Wait until the table waits for people (not for the launcher or the tray)."""
        while True:
            await self._sync()
            w = self.ctl.waiting()
            # the launcher, or a journal that cannot be written, goes on by itself
            if w["kind"] in SELF_CLEARING or (
                    w["kind"] == Wait.TOWER and self.world.towers.get(w["tower"]) == w["slot"]):
                await asyncio.sleep(0.001 if self.world.fast else 0.02)
                continue
            return

    def after_restart(self) -> None:
        """The world catches up with what the journal brought back (`follow.catch_up`)."""
        catch_up(self.world, self._step(),
                 ejecting=self.ctl.recover is not None or self.ctl.running is not None)

    async def _submit(self, request: api.Request) -> dict[str, Any] | None:
        url = self.api_url() if self.api_url is not None else None
        try:
            if tappable(self.world, self.ctl, request):  # a card pad's table: the bots tap
                result: dict[str, Any] = await tap_play(self.world, self.ctl, request)
            elif url is None:
                result = await self.loop.call(request)
            else:
                result = await self._http.post(url, request)
        except Rejected as exc:
            if self.excused(exc):
                return None
            self.refusals += 1
            self.world._disagree(f"step {self._step()}: the table refused {request}: {exc.reason}")
            if self.out is not None:
                self.out.write(f"  !   refused {type(request).__name__}: {exc.reason}\n")
            return None
        self.kill_hook.answered(request)
        return result

    def excused(self, _exc: Rejected) -> bool:
        """Whether a refusal is no disagreement (a person changed the table meanwhile)."""
        return False

    async def close(self) -> None:
        await self._http.close()

    # ------------------------------------------------------------------ acting
    async def _act(self, st: Mapping[str, Any]) -> None:
        w = st["waiting"]
        kind = w["kind"]
        world = self.world
        step = st["step"]
        if kind in SEAT_DECISIONS:
            world.check(st)
        if kind == Wait.CARDS_OUT:
            await self._submit(api.Admin("override", {"kind": "cards-out",
                                                      "count": world.cards_out()}, by=TWIN))
        elif kind == Wait.EXTRA_CARDS:
            world.put_back(w["seat"], w["count"])
            await self._submit(api.Admin("resume", {}, by=TWIN))
        elif kind in RESUMABLE:
            world.launcher_sim.clear_jam()
            await self._submit(api.Admin("resume", {}, by=TWIN))
        elif kind == Wait.ALARM:
            world.move_tower(w["tower"], w["expected"])
        elif kind == Wait.TOWER:
            world.move_tower(w["tower"], w["slot"])
        elif kind == Wait.DEALER_CARDS:
            # every seat's card, drawn at once: a restart after some were answered finds
            # the same cards for the seats still missing
            picks = rng(self.seed, "dealer", self._key(step)).sample(deck_of(world.edition), world.n)
            for seat in w["missing"]:
                await self._submit(api.Reveal(picks[seat], seat, by=bot(seat)))
        elif kind == Wait.ROUND_OVER:
            if self.human_seats:  # a person reads the result: their tap or the timer ends it
                await asyncio.sleep(0.05)
            else:
                await self._submit(api.NextRound(by=TWIN))
        elif kind == Wait.SHUFFLE:
            if w["round_start"]:
                world.gather_and_load(self._key(step))  # type: ignore[arg-type]
            else:
                world.reload_from_discard(self._key(step))  # type: ignore[arg-type]
            await self._submit(api.Admin("resume", {}, by=TWIN))
        elif kind == Wait.REVEAL:
            await self._reveal(step)
        elif kind == Wait.HAND:
            seat = w["seat"]
            await self._submit(api.Hands(seat, tuple(world.hands[seat]), by=bot(seat)))
        elif kind == Wait.VERDICT:
            guilty = bool(world.notes.get("w4_guilty"))
            await self._submit(api.Decide(w["seat"], "guilty" if guilty else "innocent",
                                          by=bot(w["seat"])))
        elif kind == Wait.PRESS:
            if not await self._interject(st):
                await self._press()
        elif kind in SEAT_DECISIONS:
            if not await self._interject(st):
                await self._decide(w["seat"], step)
        else:
            raise RuntimeError(f"the simulated players do not know how to answer {w}")

    async def _press(self) -> None:
        self.world.seats_sim.press_launcher()

    async def _reveal(self, step: int) -> None:
        world = self.world
        card = world.turn_up()
        if card is None:
            raise RuntimeError("the table asks for the first card, but none was turned up")
        # a trial on a copy: apply changes the state it is given, this is the table's
        _new, fx = U.apply(self.ctl.state.clone(), U.Reveal(U.parse_card(card)))
        with world.change():
            world.set_pending({"step": step, "aside": card})
            if any(type(e) is CardReturned for e in fx):
                world.back_under(card)
            else:
                world.to_pile(card)
        await self._submit(api.Reveal(card, by=TWIN))
        world.set_pending(None)

    def _bot(self, seat: int, step: int, what: str) -> HeuristicBot:
        return HeuristicBot(rng(self.seed, "bot", seat, self._key(step), what), forget_uno=self.forget_uno)

    def _view(self, seat: int) -> U.State:
        world = self.world
        return private_view(self.ctl.state, seat, world.hands[seat],
                            world.received.get(seat, []))

    async def _interject(self, st: Mapping[str, Any]) -> bool:
        exposed = st.get("uno_exposed")
        if exposed is None:
            return await self._jump_in(st)
        n = self.world.n
        calls: list[U.Action] = [U.CallUno(exposed)]
        calls += [U.Catch(i, exposed) for i in range(n) if i != exposed]
        for seat in [exposed] + [(exposed + i) % n for i in range(1, n)]:
            if seat in self.human_seats:
                continue
            choice = self._bot(seat, st["step"], "interject").interject(
                self._view(seat), seat, calls)
            if choice is not None:
                self.world.seats_sim.press_seat(seat)  # own button: call; another's: catch
                return True
        return await self._jump_in(st)

    async def _jump_in(self, st: Mapping[str, Any]) -> bool:
        """jump_in: a seat holding the top card's twin may lay it out of turn; the seats
        after the one to act ask themselves in order, each with its own rng."""
        w = st["waiting"]
        if not st["options"].get("jump_in") or w["kind"] != Wait.TURN \
                or not jump_pressable(self.world, st):
            return False
        n, step = self.world.n, st["step"]
        for seat in [(w["seat"] + i) % n for i in range(1, n)]:
            if seat in self.human_seats or st["top"] not in self.world.hands[seat]:
                continue
            view = self._view(seat)
            jumps = [a for a in U.legal_actions(view) if isinstance(a, U.Play) and a.seat == seat]
            if jumps and rng(self.seed, "bot", seat, self._key(step), "jump").random() < JUMP_IN_CHANCE:
                if self.out is not None:
                    self.out.write(f"  >>  {self.names[seat]} jumps in with {st['top']}\n")
                await self._play(seat, step, self._bot(seat, step, "jump").act(view, jumps))
                return True
        return False

    async def _decide(self, seat: int, step: int) -> None:
        view = self._view(seat)
        legal = [a for a in U.legal_actions(view)
                 if a.seat == seat and not isinstance(a, U.CallUno | U.Catch)]
        action = self._bot(seat, step, "act").act(view, legal)
        await self._perform(seat, step, action)

    async def _perform(self, seat: int, step: int, a: U.Action) -> None:
        world = self.world
        if isinstance(a, U.Draw | U.Press | U.Accept):
            await self._press()
        elif isinstance(a, U.Play):
            await self._play(seat, step, a)
        elif isinstance(a, U.Pass):
            await self._submit(api.Decide(seat, "pass", by=bot(seat)))
        elif isinstance(a, U.Challenge):
            await self._submit(api.Challenge(seat, by=bot(seat)))
        elif isinstance(a, U.ChooseColour):
            await self._submit(api.Decide(seat, "colour", color=COLOUR_NAMES[a.colour],
                                          by=bot(seat)))
        elif isinstance(a, U.FourTowerDiscard):
            if a.uno:
                await self._arm(seat)
            laid = [U.format_card(c) for c in a.laid]
            with world.change():
                world.set_pending({"step": step, "undo": [[seat, c] for c in laid]})
                world.lay(seat, laid, under_top=True)
            await self._declare(api.Decide(seat, "four-towers", cards=tuple(laid), by=bot(seat)),
                                seat, laid)
        else:
            raise RuntimeError(f"no way to perform {a} at the table")

    async def _arm(self, seat: int) -> None:
        self.world.seats_sim.press_seat(seat)
        await self._sync()

    async def _play(self, seat: int, step: int, a: U.Play) -> None:
        world = self.world
        state = self.ctl.state
        if a.uno:
            await self._arm(seat)
        card = U.format_card(a.card)
        laid = [U.format_card(c) for c in a.laid]
        if a.card.kind == WILD_DRAW4:
            rest = list(world.hands[seat])
            for c in [card, *laid]:
                rest.remove(c)
            world.notes["w4_guilty"] = any(U.parse_card(c).colour == state.colour for c in rest)
            world.notes["w4_colour"] = state.colour  # what a challenger looks for in the hand
        pending: dict[str, Any] = {"step": step, "undo": [[seat, c] for c in [*laid, card]]}
        swap, passed = hand_moves(state, a)
        if swap:
            pending["swap"] = list(swap)
        if passed:
            pending["pass"] = passed
        with world.change():
            world.set_pending(pending)
            world.lay(seat, [*laid, card])
            if swap:
                world.swap_hands(*swap)
            if passed:
                world.pass_hands(passed)
        choices: dict[str, Any] = {}
        if a.colour:
            choices["color"] = COLOUR_NAMES[a.colour]
        if a.target >= 0:
            choices["target"] = a.target
        if a.towers:
            choices["towers"] = list(a.towers)
        if laid:
            choices["cards"] = tuple(laid)
        undo: Callable[[], None] | None = None
        if swap or passed:
            def undo() -> None:
                if swap:
                    world.swap_hands(*swap)
                if passed:
                    world.pass_hands(-passed)
        await self._declare(api.Play(seat, card, choices, by=bot(seat)), seat, [*laid, card],
                            undo)

    async def _declare(self, request: api.Request, seat: int, cards: list[str],
                       undo: Callable[[], None] | None = None) -> None:
        result = await self._submit(request)
        with self.world.change():
            if result is None:
                if undo is not None:
                    undo()
                self.world.take_back(seat, cards)
            self.world.set_pending(None)
