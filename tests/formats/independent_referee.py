"""An independent re-referee of game records, written from docs/formats.md and
docs/rules.md alone: it imports nothing from unotable (no uno_core), only the standard
library. It proves that the documents say enough to check a record without our code.

    python tests/formats/independent_referee.py RECORD.jsonl [...]

For every record it rebuilds the deck in the documented canonical order, applies the
shuffle orders, deals, turns the first card, and then checks every action: that it is
legal where it stands, what it does to hands, piles, towers and scores, and, where the
record stores them, that the effects are exactly the documented ones. The result line
must match. Every edition and both modes (simulation, table) are covered.

Section names in comments ("formats: Deck") point to docs/formats.md, "rules 38" to a
row of docs/rules.md.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Act = dict[str, Any]  # one action line, as read from JSON

CHANCE = -1
COLOURS = ("R", "G", "B", "Y")
TOWERS = ("U", "N", "O", "!")
# rules 65: the action each tower protects its holder against; rules 63: the action a
# symbol card forbids on top of it
PROTECTS = {"U": "+1", "N": "+2", "O": "W+4", "!": "S"}
PROTECTING = {kind: tower for tower, kind in PROTECTS.items()}
NOT_FIRST = {"W+4", "WH4", "WX"}  # rules 16: first cards that go back under the pile
TARGETED = {"WAA", "WX", "TH"}
CUSTOM = {"wild": "W", "skip": "S", "reverse": "R", "hit-2": "H2", "hit-4": "WH4",
          "attack-attack": "WAA", "hit-fire": "WHF", "all-hit": "WAH", "trade-hands": "TH"}
SYMBOLS = {1: "U", 2: "N", 3: "O", 4: "!", 5: "U", 6: "N", 7: "O", 8: "!"}


@dataclass(frozen=True)
class EditionData:
    zeros: bool
    symbols: bool
    coloured: tuple[tuple[str, int], ...]  # per colour, kinds in this order
    wilds: tuple[tuple[str, int], ...]
    points: dict[str, int]
    launcher: bool
    towers: bool
    highest_starts: bool  # rules 12: Extreme's dealer is right of the highest card
    defaults: dict[str, object]
    players: tuple[int, int]


_COMMON = {"scoring": "winner_takes", "target_score": 500, "uno_penalty": 2,
           "forgotten_uno": "catch", "hand_size": 7, "two_player_reverse_skips": True,
           "stack_draws": "off", "seven_zero": False, "jump_in": False, "forced_play": False,
           "no_action_finish": False, "turn_timer_s": 0,
           "timeout_action": "draw"}
# rules: "House rules": what this referee does not model yet; a record using one is refused
NOT_MODELLED: dict[str, object] = {  # every house rule of issue 12 is modelled
    "jump_in_wilds": False, "no_jump_in_on_stack": False, "no_draw_finish": False,
    "banned_finish_penalty": 0, "false_uno_penalty": 0, "swap_uno_called": False,
    "playable_draw_penalty": 0}
_COMMON.update(NOT_MODELLED)
# rules 120: what a draw card adds to a stack (stack_draws); rules 124: no_bluff's cards
STACKS = {"+2": 2, "H2": 2, "W+4": 4, "WH4": 4}

# formats: "The deck: canonical order"; rules: "Options" (the defaults)
EDITIONS = {
    "classic": EditionData(
        True, False, (("+2", 2), ("S", 2), ("R", 2)), (("W", 4), ("W+4", 4)),
        {"+2": 20, "S": 20, "R": 20, "W": 50}, False, False, False,
        {**_COMMON, "draw_then_play": False, "draw_when_playable": False,
         "wild_draw4_restricted": False, "stacked_draw4_challenge": False,
         "wild_draw4_points": 70, "forgotten_uno": "at_play",
         "draw_until_playable": False, "no_bluff": False},
        (2, 10)),
    "power": EditionData(
        False, True, (("+1", 2), ("+2", 2), ("S", 2), ("R", 1), ("T2", 1)),
        (("WT1", 4), ("W+4", 4)),
        {"+1": 20, "+2": 20, "S": 20, "R": 20, "T2": 20, "WT1": 50, "W+4": 50},
        False, True, False,
        {**_COMMON, "draw_then_play": True, "draw_when_playable": True,
         "wild_draw4_restricted": True, "draw_until_playable": False, "no_bluff": False,
         "stacked_draw4_challenge": False},
        (2, 6)),
    "attack": EditionData(
        False, False, (("R", 1), ("H2", 2), ("S", 2), ("DA", 2)),
        (("W", 4), ("WAA", 4), ("WC", 3), ("WH4", 1)),
        {"R": 20, "S": 20, "H2": 20, "WH4": 40, "DA": 30, "W": 50, "WAA": 50, "WC": 50},
        True, False, False,
        {**_COMMON, "draw_then_play": False, "draw_when_playable": True,
         "skip_reverse_extra_turn": "two-player", "wild_customizable": "wild",
         "no_bluff": False}, (2, 10)),
    "attack-1999": EditionData(
        False, False, (("H2", 2), ("R", 2), ("S", 2), ("DA", 1), ("TH", 1)),
        (("W", 4), ("WAH", 2), ("WHF", 2)),
        {"R": 20, "S": 20, "H2": 20, "DA": 30, "TH": 30, "W": 50, "WAH": 50, "WHF": 50},
        True, False, False,
        {**_COMMON, "draw_then_play": False, "draw_when_playable": True,
         "skip_reverse_extra_turn": "two-player", "all_hit_scope": "all"}, (2, 10)),
    "extreme": EditionData(
        True, False, (("H2", 2), ("R", 1), ("S", 2), ("DA", 2)), (("W", 4), ("WX", 4)),
        {"H2": 20, "R": 20, "S": 20, "DA": 30, "W": 50, "WX": 50}, True, False, True,
        {**_COMMON, "draw_then_play": True, "draw_when_playable": False,
         "wild_restricted": True}, (2, 10)),
}


def deck_of(edition: str) -> list[str]:
    """formats: "The deck: canonical order"."""
    ed = EDITIONS[edition]
    deck: list[str] = []
    for c in COLOURS:
        if ed.zeros:
            deck.append(f"{c}0")
        for n in range(1, 10):
            deck.append(f"{c}{n}{SYMBOLS.get(n, '') if ed.symbols else ''}")
            deck.append(f"{c}{n}")
    for c in COLOURS:
        for kind, copies in ed.coloured:
            deck += [f"{c}{kind}"] * copies
    for kind, copies in ed.wilds:
        deck += [kind] * copies
    return deck


# formats: "Cards"
def colour(card: str) -> str:
    return "" if card[0] == "W" else card[0]


def kind(card: str) -> str:
    if card[0] == "W":
        return card
    return "#" if card[1].isdigit() else card[1:]


def number(card: str) -> int:
    return int(card[1]) if kind(card) == "#" else -1


def symbol(card: str) -> str:
    return card[2:] if kind(card) == "#" else ""


class Illegal(Exception):
    """The record holds an action the rules do not allow, or lies about what happened."""


@dataclass
class Table:
    """Everything the referee tracks; a mirror of nothing but the documents."""

    edition: str
    n: int
    options: dict[str, Any]
    table: bool
    deck: list[str] = field(default_factory=list)
    hands: list[Counter[str]] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)  # last = top
    pile_count: int = 0
    discard: list[str] = field(default_factory=list)  # first = bottom, last = top
    unseen: Counter[str] = field(default_factory=Counter)
    colour: str = ""
    direction: int = 1
    dealer: int = -1
    turn: int = -1
    actor: int = -1
    phase: str = "dealer"
    to_act: int = CHANCE
    chance: str = "dealer_cards"
    queue: list[list[object]] = field(default_factory=list)  # [kind, seat, count, tag]
    drawn: list[str] = field(default_factory=list)
    towers: list[int] = field(default_factory=lambda: [-1] * 4)
    exposed: int = -1
    skip_pending: int = 0
    pending: tuple[int, int, bool] | None = None  # Wild Draw 4: player, challenger, guilty
    out: int = -1
    scores: list[int] = field(default_factory=list)
    round_no: int = 0
    winners: list[int] = field(default_factory=list)
    entered: list[bool] = field(default_factory=list)
    colour_only: bool = False
    stack: tuple[int, int] | None = None  # rules 120: (total, seat) of a pending stack
    fx: list[dict[str, object]] = field(default_factory=list)

    @property
    def ed(self) -> EditionData:
        return EDITIONS[self.edition]

    def opt(self, name: str) -> Any:
        return self.options[name]

    def effect(self, type_: str, **fields: object) -> None:
        self.fx.append({"type": type_, **fields})

    # ---- matching (rules 30, 31, 63, 20, 95)
    def matches(self, card: str) -> bool:
        top = self.discard[-1]
        if self.colour_only:
            return colour(card) == self.colour
        if symbol(top) and kind(card) == PROTECTS[symbol(top)]:
            return False
        if colour(card) in ("", self.colour):
            return True
        return kind(card) == kind(top) and number(card) == number(top)

    def wild_blocked(self, card: str, hand: Counter[str]) -> bool:
        if card != "W" or not self.opt_get("wild_restricted") or self.table:
            return False
        return any(colour(c) == self.colour and k > 0 for c, k in hand.items())

    def opt_get(self, name: str) -> object:
        return self.options.get(name, False)

    def playable(self, cards: list[str] | Counter[str], hand: Counter[str]) -> list[str]:
        return [c for c in dict.fromkeys(cards)
                if self.matches(c) and not self.wild_blocked(c, hand)]

    def effective(self, card: str) -> str:
        return CUSTOM[str(self.opt("wild_customizable"))] if card == "WC" else kind(card)

    # ---- house rules (rules 120-126)
    def house_refusal(self, seat: int, card: str, laid: int | None) -> str:
        """Why `seat` may not lay `card` under the house rules ("" if it may); `laid`:
        the cards laid with it, None for a Discard All that lays its colour (simulation)."""
        mine = STACKS.get(self.effective(card), 0)
        mode = self.opt_get("stack_draws")
        top = STACKS.get(self.effective(self.discard[-1]), 0)
        if self.stack is not None and (not mine or (mode == "same" and mine != top)
                                       or (mode == "up" and mine < top)):
            return f"a stack of {self.stack[0]} waits: only a draw card that stacks"
        if (self.opt_get("no_bluff") and not self.table and mine == 4
                and any(colour(c) == self.colour for c in +self.hands[seat])):
            return f"no_bluff: no {card} while holding {self.colour}"
        if self.opt_get("no_action_finish") and kind(card) != "#":
            if laid is None and kind(card) == "DA" and not self.table:
                left = sum(k for c, k in self.hands[seat].items() if colour(c) != colour(card))
            else:
                left = self.counts[seat] - 1 - (laid or 0)
            if left == 0:
                return "no_action_finish: nobody goes out on an action or wild card"
        return ""

    def allowed(self, seat: int, cards: list[str] | Counter[str]) -> list[str]:
        """The playable cards of `cards` that the house rules leave playable."""
        return [c for c in self.playable(cards, self.hands[seat])
                if not self.house_refusal(seat, c, None)]

    def swaps(self, card: str) -> bool:
        """rules 130-131: under seven_zero a 7 or a 0 moves its player's hand."""
        return bool(self.opt_get("seven_zero")) and kind(card) == "#" and number(card) in (0, 7)

    def stacking(self, card: str) -> bool:
        return self.opt_get("stack_draws") not in (False, "off") and card in STACKS

    def grow(self, seat: int, value: int, victim: int) -> int:
        """rules 120: the stack grows and waits on `victim` (0), or the player went out
        and the victim takes the total at once (returned)."""
        total = (self.stack[0] if self.stack else 0) + value
        if self.counts[seat] == 0:
            self.stack = None
            return total
        self.stack = (total, victim)
        self.advance(0)
        self.effect("prompt", seat=victim, kind="stack")
        return 0

    def take_stack(self, seat: int) -> None:
        """rules 120: not stacking is taking the total and losing the turn."""
        assert self.stack is not None
        total, self.stack = self.stack[0], None
        self.close_window(seat)
        self.owe("draw", seat, total)
        self.effect("player_skipped", seat=seat)
        self.advance(0)
        if self.ed.launcher and self.pile_count:
            self.to_act, self.chance = CHANCE, "eject"
            self.effect("prompt", seat=CHANCE, kind="eject")
            return
        self.settle()

    # ---- turn order (rules conventions)
    def next_seat(self, steps: int = 1) -> int:
        return (self.turn + self.direction * steps) % self.n

    def advance(self, skip: int) -> None:
        self.turn = self.next_seat(1 + skip + self.skip_pending)
        self.skip_pending = 0
        self.phase = "play"
        self.actor = self.turn
        self.drawn = []
        self.colour_only = False

    def close_window(self, seat: int) -> None:
        if self.exposed >= 0 and seat != self.exposed:
            self.exposed = -1

    # ---- cards moving
    def give(self, seat: int, k: int) -> list[str]:
        self.pile_count -= k
        self.counts[seat] += k
        if self.table:
            return []
        got = self.pile[len(self.pile) - k:]
        del self.pile[len(self.pile) - k:]
        self.hands[seat].update(got)
        return got

    def take_from_hand(self, seat: int, cards: list[str], why: str) -> None:
        if self.table:
            need = Counter(cards)
            for c, k in need.items():
                if self.unseen[c] < k:
                    raise Illegal(f"{why}: no {c} is left unseen")
            self.unseen.subtract(need)
        else:
            need = Counter(cards)
            if need - self.hands[seat]:
                raise Illegal(f"{why}: seat {seat} does not hold {sorted(need.elements())}")
            self.hands[seat].subtract(need)
            self.hands[seat] = +self.hands[seat]
        self.counts[seat] -= len(cards)

    def owe(self, kind_: str, seat: int, count: int, tag: str = "", front: bool = False) -> None:
        """formats: "Owed draws and presses"."""
        if self.ed.launcher and kind_ == "draw":
            kind_ = "press"
        item: list[object] = [kind_, seat, count, tag]
        if front:
            self.queue.insert(0, item)
        else:
            self.queue.append(item)
        if kind_ != "draw":
            mode = ("until-cards" if kind_ == "until" else
                    "everyone-once" if tag == "all" else "fixed")
            self.effect("owe_presses", seat=seat, count=count, mode=mode)

    def reshuffle_due(self) -> bool:
        return self.pile_count == 0 and len(self.discard) > 1

    def ask_shuffle(self) -> None:
        self.to_act = CHANCE
        self.chance = "shuffle"
        self.effect("prompt", seat=CHANCE, kind="shuffle")

    def settle(self) -> None:
        """formats: "After every action": owed draws and presses, the catch window, the
        end of the round, a due reshuffle, then who acts."""
        while self.queue:
            kind_, seat, count, tag = self.queue[0]
            assert isinstance(seat, int) and isinstance(count, int)
            if self.reshuffle_due():
                self.ask_shuffle()
                return
            if kind_ == "draw":
                k = min(count, self.pile_count)
                got = self.give(seat, k)
                if k:
                    self.effect("dispense", seat=seat, count=k)
                if tag == "turn":
                    self.drawn += got
                if k < count and self.reshuffle_due():
                    self.queue[0] = [kind_, seat, count - k, tag]
                    continue
                self.queue.pop(0)
                if tag == "turn":
                    self.after_turn_draw(seat, k)
                continue
            if self.pile_count == 0:  # nothing to press out: the presses are void
                self.queue.pop(0)
                if tag == "turn":
                    self.after_turn_draw(seat, 0)
                continue
            if self.to_act != seat:
                self.effect("prompt", seat=seat, kind="press")
            self.to_act = seat
            self.chance = ""
            return
        if self.exposed >= 0 and self.counts[self.exposed] != 1:
            self.exposed = -1
        if self.out >= 0 and self.phase in ("play", "drawn", "extra"):
            if self.counts[self.out] == 0:
                self.round_over()
                return
            self.out = -1
        if self.reshuffle_due():
            self.ask_shuffle()
            return
        self.chance = ""
        self.to_act = self.actor

    def after_turn_draw(self, seat: int, got: int) -> None:
        if self.opt_get("draw_until_playable") and got:  # rules 138-140
            self.phase, self.actor = "drawn", seat
            fits = self.allowed(seat, self.drawn)  # formats.md: the house rules applied
            self.effect("prompt", seat=seat, kind="play_or_draw_again" if self.table
                        else "play_drawn" if fits else "draw_again")
            return
        if ((self.opt("draw_then_play") or self.opt_get("forced_play")) and got
                and (self.table or self.allowed(seat, self.drawn))):
            self.phase = "drawn"
            self.actor = seat
            self.effect("prompt", seat=seat, kind="play_drawn")
            return
        self.advance(0)

    # ---- round life
    def points(self, card: str) -> int:
        if kind(card) == "#":
            return number(card)
        if card == "W+4" and "wild_draw4_points" in self.options:
            return int(self.opt("wild_draw4_points"))
        return self.ed.points[kind(card)]

    def start_round(self) -> None:
        self.round_no += 1
        self.phase, self.to_act, self.chance = "shuffle", CHANCE, "shuffle"
        self.colour, self.direction = "", 1
        self.queue, self.drawn = [], []
        self.exposed, self.pending, self.out = -1, None, -1
        self.colour_only, self.skip_pending, self.stack = False, 0, None
        self.entered = [False] * self.n
        if self.ed.towers:
            for i, t in enumerate(TOWERS):
                if self.towers[i] >= 0:
                    self.effect("tower_moved", tower=t, seat=-1)
            self.towers = [-1] * 4
        self.effect("prompt", seat=CHANCE, kind="shuffle")

    def round_over(self) -> None:
        """rules 103-108; table mode first collects the hands (rules 92)."""
        self.exposed = -1
        self.queue = []
        if self.table:
            missing = [i for i in range(self.n) if not self.entered[i] and self.counts[i] > 0]
            if missing:
                self.phase = "hand_entry"
                self.actor = self.to_act = missing[0]
                self.chance = ""
                self.effect("prompt", seat=missing[0], kind="hand_entry")
                return
        pts = [sum(self.points(c) * k for c, k in h.items()) for h in self.hands]
        if self.opt("scoring") == "winner_takes":
            self.scores[self.out] += sum(pts)
        else:
            self.scores = [a + b for a, b in zip(self.scores, pts, strict=True)]
        self.effect("round_over", winner=self.out, points=pts, scores=list(self.scores))
        if max(self.scores) >= int(self.opt("target_score")):
            best = (max(self.scores) if self.opt("scoring") == "winner_takes"
                    else min(self.scores))
            self.winners = [i for i, v in enumerate(self.scores) if v == best]
            self.phase, self.to_act, self.actor, self.chance = "match_over", -2, -2, ""
            self.effect("match_over", winners=list(self.winners), scores=list(self.scores))
            return
        self.dealer = (self.dealer + 1) % self.n
        self.start_round()

    def deal(self) -> None:
        """formats: "Dealing"."""
        size = int(self.opt("hand_size"))
        if size * self.n + 1 > len(self.deck):
            raise Illegal(f"{self.n} hands of {size} do not fit the deck")
        first = (self.dealer + 1) % self.n
        for k in range(size * self.n):
            self.give((first + k) % self.n, 1)
        for i in range(self.n):
            self.effect("dispense", seat=(first + i) % self.n, count=size)

    def turn_first_card(self) -> None:
        """formats: "The first card"."""
        if self.table:
            self.phase, self.to_act, self.chance = "reveal", CHANCE, "reveal"
            self.effect("prompt", seat=CHANCE, kind="reveal")
            return
        while True:
            card = self.pile.pop()
            if kind(card) in NOT_FIRST and self.pile:
                self.pile.insert(0, card)
                self.effect("card_returned", card=card)
                continue
            self.pile_count = len(self.pile)
            self.start_with(card)
            return

    def start_with(self, card: str) -> None:
        """rules 14-24."""
        self.discard = [card]
        self.colour = colour(card)
        self.direction = 1
        self.effect("first_card", card=card)
        first = (self.dealer + 1) % self.n
        self.turn = self.actor = first
        self.phase = "play"
        k = kind(card)
        if k in ("+1", "+2", "H2"):
            self.owe("draw", first, 1 if k == "+1" else 2)
            self.effect("player_skipped", seat=first)
            self.turn = self.dealer
            self.advance(1)
        elif k == "S":
            self.effect("player_skipped", seat=first)
            self.turn = self.dealer
            self.advance(1)
        elif k == "R":
            self.direction = -1
            self.effect("direction_changed", direction=-1)
            self.turn = self.actor = self.dealer
        elif k == "T2":
            self.colour_only = True
        elif colour(card) == "":
            self.phase = "first_colour"
            self.effect("prompt", seat=first, kind="colour")
        self.settle()

    # ---- chance outcomes
    def chance_action(self, a: Act) -> None:
        if self.to_act != CHANCE:
            raise Illegal(f"no chance outcome is due (seat {self.to_act} acts)")
        if a["type"] != self.chance:
            raise Illegal(f"the chance player must supply {self.chance!r}, not {a['type']!r}")
        getattr(self, "chance_" + str(a["type"]))(a)

    def chance_dealer_cards(self, a: Act) -> None:
        cards = list(a["cards"])
        if len(cards) != self.n or Counter(cards) - Counter(self.deck):
            raise Illegal(f"dealer cards {cards}: one card of the deck per seat")
        ranks = [number(c) if kind(c) == "#" else 0 for c in cards]
        best = max(ranks)
        if ranks.count(best) > 1:
            self.effect("prompt", seat=CHANCE, kind="dealer_cards")
            return
        high = ranks.index(best)
        self.dealer = (high - 1) % self.n if self.ed.highest_starts else high
        self.effect("dealer_chosen", seat=self.dealer)
        self.start_round()

    def chance_shuffle(self, a: Act) -> None:
        """formats: "Shuffling"."""
        order = list(a.get("order", []))
        starting = self.phase == "shuffle"
        if starting:
            self.hands = [Counter() for _ in range(self.n)]
            self.counts = [0] * self.n
            self.discard, self.pile, self.pile_count = [], [], 0
        cards = list(self.deck) if starting else self.discard[:-1]
        if self.table:
            if order:
                raise Illegal("table mode: a shuffle's order is unknown, must be empty")
            self.unseen = Counter(cards) if starting else self.unseen + Counter(cards)
        else:
            if sorted(order) != list(range(len(cards))):
                raise Illegal(f"the order must be a permutation of 0..{len(cards) - 1}")
            self.pile = [cards[i] for i in order] + self.pile
        self.pile_count += len(cards)
        self.chance = ""
        if starting:
            self.deal()
            self.turn_first_card()
            return
        self.discard = self.discard[-1:]
        self.effect("reshuffled", count=len(cards))
        self.settle()

    def chance_reveal(self, a: Act) -> None:
        card = str(a["card"])
        if self.unseen[card] <= 0:
            raise Illegal(f"no {card} is left unseen")
        if kind(card) in NOT_FIRST:
            self.effect("card_returned", card=card)
            return
        self.unseen[card] -= 1
        self.pile_count -= 1
        self.chance = ""
        self.start_with(card)

    def chance_eject(self, a: Act) -> None:
        count = a.get("count", 0)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise Illegal("an ejection is a count >= 0")
        if count > self.pile_count:
            raise Illegal(f"the launcher holds only {self.pile_count} cards")
        kind_, seat, left, tag = self.queue[0]
        assert isinstance(seat, int) and isinstance(left, int)
        got = self.give(seat, count)
        self.effect("ejected", seat=seat, count=count)
        self.chance = ""
        if tag == "turn":
            self.drawn += got
        done = count > 0 if kind_ == "until" else left - 1 <= 0
        if done:
            self.queue.pop(0)
            if tag == "turn":
                self.after_turn_draw(seat, count)
        else:
            self.queue[0] = [kind_, seat, left - 1, tag]
        self.settle()

    # ---- seat actions
    def own_turn(self, seat: int, phases: tuple[str, ...], what: str) -> None:
        if (self.phase not in phases or self.queue or seat != self.to_act
                or self.to_act != self.actor):
            raise Illegal(f"{what} by seat {seat} is not possible now "
                          f"(to act: {self.to_act}, phase {self.phase})")

    def one_card_left(self, seat: int, called: bool, keeps: bool = True) -> None:
        """rules 100, 101, 109."""
        if called:
            self.effect("uno_called", seat=seat)
        elif self.opt("forgotten_uno") == "at_play":
            if keeps:
                self.effect("uno_penalty", seat=seat, catcher=-1)
                if self.opt("uno_penalty"):
                    self.owe("draw", seat, int(self.opt("uno_penalty")),
                             "penalty", front=True)
        else:
            self.exposed = seat

    def check_play(self, a: Act) -> None:
        seat, card = a["seat"], str(a["card"])
        assert isinstance(seat, int)
        self.own_turn(seat, ("play", "drawn", "extra"), f"playing {card}")
        laid = [str(c) for c in a.get("laid", [])]
        if self.table:
            if self.unseen[card] <= 0:
                raise Illegal(f"no {card} is left unseen: it cannot be in a hand")
            if self.counts[seat] < 1 + len(laid):
                raise Illegal(f"seat {seat} holds only {self.counts[seat]} cards")
        else:
            if self.hands[seat][card] <= 0:
                raise Illegal(f"seat {seat} does not hold {card}")
            if self.phase == "drawn" and card not in self.drawn:
                raise Illegal("after drawing only the drawn card may be played")
        if not self.matches(card):
            raise Illegal(f"{card} may not go on {self.discard[-1]} (colour {self.colour})")
        rest = self.hands[seat] - Counter([card]) if not self.table else Counter()
        chosen = a.get("colour", "")
        if colour(card) == "":
            if self.wild_blocked(card, rest):
                raise Illegal(f"a Wild only with no {self.colour} card in hand")
            if chosen not in COLOURS:
                raise Illegal("a wild names a colour")
        elif chosen:
            raise Illegal("only a wild names a colour")
        target = a.get("target", -1)
        if self.effective(card) in TARGETED or (self.swaps(card) and number(card) == 7):
            if not (isinstance(target, int) and 0 <= target < self.n) or target == seat:
                raise Illegal(f"{card} needs a target seat other than {seat}")
        elif target != -1:
            raise Illegal(f"{card} takes no target")
        towers = list(a.get("towers", []))
        want = {"T2": 2, "WT1": 1}.get(kind(card), 0)
        if want and self.ed.towers:
            free = [t for i, t in enumerate(TOWERS) if self.towers[i] != seat]
            need = min(want, len(free))
            if len(towers) != need or len(set(towers)) != need or not set(towers) <= set(free):
                raise Illegal(f"{card} takes {need} tower(s) from {free}, not {towers}")
        elif towers:
            raise Illegal(f"{card} takes no towers")
        if kind(card) == "DA":
            if self.table:
                if any(colour(c) != colour(card) for c in laid):
                    raise Illegal("Discard All lays only cards of its colour")
                if Counter(laid + [card]) - self.unseen:
                    raise Illegal("Discard All: not enough of those cards left unseen")
            elif Counter(laid) != Counter({c: k for c, k in rest.items()
                                          if colour(c) == colour(card)}):
                raise Illegal(f"Discard All must lay all other {colour(card)} cards")
        elif laid:
            raise Illegal(f"{card} lays no other cards")
        if a.get("uno", False) and self.counts[seat] - 1 - len(laid) != 1:
            raise Illegal("UNO is called with the second-to-last card only")
        why = self.house_refusal(seat, card, len(laid))
        if why:
            raise Illegal(why)

    def play(self, a: Act) -> None:
        self.check_play(a)
        seat, card = int(a["seat"]), str(a["card"])
        laid = [str(c) for c in a.get("laid", [])]
        self.close_window(seat)
        self.take_from_hand(seat, laid + [card], "play")
        guilty = (card == "W+4" and not self.table
                  and any(colour(c) == self.colour for c in +self.hands[seat]))
        self.discard += laid + [card]  # formats: "Which end is which"
        if laid:
            self.effect("cards_laid", seat=seat, cards=laid)
        self.effect("card_played", seat=seat, card=card)
        if colour(card) == "":
            self.colour = str(a["colour"])
            self.effect("colour_chosen", seat=seat, colour=self.colour)
        else:
            self.colour = colour(card)
        eff = self.effective(card)
        if self.counts[seat] == 1:
            self.one_card_left(seat, bool(a.get("uno", False)),
                               keeps=eff != "TH" and not self.swaps(card))
        elif self.counts[seat] == 0:
            self.out = seat
        self.pending = (seat, -1, guilty) if card == "W+4" else None
        self.drawn = []
        self.colour_only = False
        getattr(self, "card_" + {"#": "number", "+1": "draw", "+2": "draw", "S": "skip",
                                 "R": "reverse", "T2": "towers", "WT1": "towers",
                                 "W+4": "draw4", "H2": "hit", "WH4": "hit", "WHF": "hit",
                                 "WAA": "attack", "WX": "extreme", "WAH": "all_hit",
                                 "TH": "trade"}.get(eff, "plain"))(seat, a)
        self.settle()

    def jump_in(self, a: Act) -> None:
        """rules 135-137: the top card's twin by a seat not to act; play goes on from it."""
        seat, top = a["seat"], self.discard[-1]
        if not (isinstance(seat, int) and 0 <= seat < self.n):
            raise Illegal(f"no seat {seat!r}")
        if self.phase not in ("play", "drawn", "extra") or self.queue or colour(top) == "":
            raise Illegal(f"no jump-in now (phase {self.phase}, top {top})")
        if a.get("card") != top:
            raise Illegal(f"a jump-in lays the top card's twin {top}, not {a.get('card')}")
        self.turn = self.actor = self.to_act = seat
        self.phase, self.drawn, self.skip_pending, self.colour_only = "play", [], 0, False
        self.play(a)

    # what each card does (rules 50-98)
    def protected(self, victim: int, card: str) -> bool:
        tower = PROTECTING.get(kind(card))
        if tower is None or not self.ed.towers or self.towers[TOWERS.index(tower)] != victim:
            return False
        self.effect("protection_used", seat=victim, tower=tower, card=card)
        return True

    def four_tower_check(self, seat: int) -> None:
        if self.towers == [seat] * 4 and self.counts[seat] > 1:
            self.phase = "four_towers"
            self.actor = seat
            self.effect("prompt", seat=seat, kind="four_towers")

    def capture(self, seat: int, tower: str) -> None:
        i = TOWERS.index(tower)
        if self.towers[i] != seat:
            self.towers[i] = seat
            self.effect("tower_moved", tower=tower, seat=seat)

    def card_plain(self, seat: int, a: Act) -> None:
        self.advance(0)

    def card_number(self, seat: int, a: Act) -> None:
        sym = symbol(str(a["card"]))
        if sym and self.ed.towers:
            self.capture(seat, sym)
        left = self.counts[seat]
        if self.swaps(str(a["card"])) and left:  # rules 130-132: seven_zero
            if number(str(a["card"])) == 7:
                receiver = int(a["target"])
                self.trade(seat, receiver)
            else:
                receiver = (seat + self.direction) % self.n
                step = self.direction
                self.hands = [self.hands[(i - step) % self.n] for i in range(self.n)]
                self.counts = [self.counts[(i - step) % self.n] for i in range(self.n)]
                self.exposed = -1
                self.effect("hands_passed", direction=step)
            if left == 1 and self.opt("forgotten_uno") == "catch":
                self.exposed = receiver
        self.advance(0)
        if sym:
            self.four_tower_check(seat)

    def card_towers(self, seat: int, a: Act) -> None:
        for t in a.get("towers", []):
            self.capture(seat, t)
        self.advance(0)
        self.four_tower_check(seat)

    def card_draw(self, seat: int, a: Act) -> None:
        victim = self.next_seat(1 + self.skip_pending)
        if self.protected(victim, str(a["card"])):
            self.stack = None  # rules 122: warded off, the stack with it
            self.advance(0)
            return
        count = 1 if kind(str(a["card"])) == "+1" else 2
        if self.stacking(kind(str(a["card"]))):
            count = self.grow(seat, count, victim)
            if not count:
                return
        self.owe("draw", victim, count)
        self.effect("player_skipped", seat=victim)
        self.advance(1)

    def extra_turn(self) -> bool:
        return self.opt_get("skip_reverse_extra_turn") == "always" and self.n > 2

    def card_skip(self, seat: int, a: Act) -> None:
        victim = self.next_seat(1 + self.skip_pending)
        if self.protected(victim, str(a["card"])):
            self.advance(0)
            return
        self.effect("player_skipped", seat=victim)
        if self.extra_turn() and self.counts[seat] > 0:
            self.skip_pending += 1
            self.phase, self.actor = "extra", seat
            self.effect("prompt", seat=seat, kind="extra_play")
            return
        self.advance(1)

    def card_reverse(self, seat: int, a: Act) -> None:
        self.direction = -self.direction
        self.effect("direction_changed", direction=self.direction)
        if self.n == 2 and self.opt("two_player_reverse_skips"):
            self.effect("player_skipped", seat=self.next_seat())
            self.advance(1)
        elif self.extra_turn() and self.counts[seat] > 0:
            self.phase, self.actor = "extra", seat
            self.effect("prompt", seat=seat, kind="extra_play")
        else:
            self.advance(0)

    def card_draw4(self, seat: int, a: Act) -> None:
        victim = self.next_seat(1 + self.skip_pending)
        if self.protected(victim, "W+4"):
            self.pending = None
            self.stack = None
            self.advance(0)
            return
        # rules 123: a +4 laid on a pending stack is challenged only with
        # stacked_draw4_challenge
        if (self.opt_get("wild_draw4_restricted") and not self.opt_get("no_bluff")
                and (self.stack is None or self.opt_get("stacked_draw4_challenge"))):
            assert self.pending is not None
            self.pending = (seat, victim, self.pending[2])
            if self.stacking("W+4"):  # rules 123: the challenge comes first
                self.stack = ((self.stack[0] if self.stack else 0) + 4, victim)
            self.phase, self.actor = "challenge", victim
            self.effect("prompt", seat=victim, kind="challenge")
            return
        self.pending = None
        count = 4
        if self.stacking("W+4"):
            count = self.grow(seat, 4, victim)
            if not count:
                return
        self.owe("draw", victim, count)
        self.effect("player_skipped", seat=victim)
        self.advance(1)

    def card_hit(self, seat: int, a: Act) -> None:
        victim = self.next_seat(1 + self.skip_pending)
        eff = self.effective(str(a["card"]))
        if eff == "WHF":
            self.owe("until", victim, 0)
        else:
            count = 4 if eff == "WH4" else 2
            if self.stacking(eff):
                count = self.grow(seat, count, victim)
                if not count:
                    return
            self.owe("press", victim, count)
        self.effect("player_skipped", seat=victim)
        self.advance(1)

    def card_attack(self, seat: int, a: Act) -> None:
        self.owe("press", int(a["target"]), 2)
        self.advance(0)

    def card_extreme(self, seat: int, a: Act) -> None:
        target = int(a["target"])
        self.owe("press", target, 4)
        if target == self.next_seat(1 + self.skip_pending):
            self.effect("player_skipped", seat=target)
            self.advance(1)
        else:
            self.advance(0)

    def card_all_hit(self, seat: int, a: Act) -> None:
        order = [(seat + self.direction * i) % self.n for i in range(1, self.n)]
        # attack has no all_hit_scope: its Wild Customizable as all-hit hits everyone
        if self.options.get("all_hit_scope", "all") == "all":
            order.append(seat)
        for victim in order:
            self.owe("press", victim, 1, "all")
        self.advance(0)

    def card_trade(self, seat: int, a: Act) -> None:
        if self.counts[seat] > 0:
            self.trade(seat, int(a["target"]))
        self.advance(0)

    def trade(self, seat: int, other: int) -> None:
        """rules 85, 130: two seats swap hands."""
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        self.counts[seat], self.counts[other] = self.counts[other], self.counts[seat]
        if self.exposed in (seat, other):
            self.exposed = -1
        self.effect("hands_traded", seat=seat, other=other)

    def draw(self, a: Act) -> None:
        """Draw (pile) or press (launcher) on one's turn, or a press one owes."""
        seat = int(a["seat"])
        if a["type"] == "press" and self.queue and self.to_act == seat:
            if self.queue[0][0] == "draw" or self.queue[0][1] != seat:
                raise Illegal("no launcher press is owed now")
            self.close_window(seat)
            self.to_act, self.chance = CHANCE, "eject"
            self.effect("prompt", seat=CHANCE, kind="eject")
            return
        if (a["type"] == "draw") == self.ed.launcher:
            raise Illegal(f"{a['type']} is not how this edition draws")
        again = (self.opt_get("draw_until_playable") and self.phase == "drawn"
                 and not self.queue and self.to_act == seat == self.actor)
        if again and not self.table and self.allowed(seat, self.drawn):
            raise Illegal("draw_until_playable: the drawn card fits: play it")
        if not again and not (self.phase == "play" and not self.queue
                              and self.to_act == seat == self.actor):
            raise Illegal(f"seat {seat} cannot draw now")
        if not (again or self.opt("draw_when_playable") or self.table or self.stack) and (
                self.allowed(seat, self.hands[seat])):
            raise Illegal("you may only draw when you cannot play")
        if self.stack is not None:
            self.take_stack(seat)
            return
        self.close_window(seat)
        self.drawn = []
        if self.ed.launcher:
            self.queue = [["press", seat, 1, "turn"]]
            self.to_act, self.chance = CHANCE, "eject"
            self.effect("prompt", seat=CHANCE, kind="eject")
            return
        self.queue = [["draw", seat, 1, "turn"]]
        self.settle()

    def pass_(self, a: Act) -> None:
        seat = int(a["seat"])
        self.own_turn(seat, ("drawn", "extra", "four_towers"), "passing")
        if self.opt_get("draw_until_playable") and self.phase == "drawn":
            raise Illegal("draw_until_playable: play the drawn card or draw again")
        if (self.opt_get("forced_play") and self.phase == "drawn" and not self.table
                and self.allowed(seat, self.drawn)):
            raise Illegal("forced_play: a drawn card that fits must be played")
        if self.phase == "four_towers":
            self.phase, self.actor = "play", self.turn
        else:
            self.advance(0)
        self.settle()

    def no_window(self) -> str:
        if self.opt("forgotten_uno") == "at_play":
            return "UNO goes with the play (forgotten_uno at_play): nothing to call or catch"
        return "no forgotten UNO is open"

    def call_uno(self, a: Act) -> None:
        if self.exposed != a["seat"]:
            raise Illegal(self.no_window())
        self.exposed = -1
        self.effect("uno_called", seat=a["seat"])

    def catch(self, a: Act) -> None:
        seat, target = a["seat"], a["target"]
        if self.exposed != target or self.exposed < 0:
            raise Illegal(self.no_window())
        if seat == target or not (isinstance(seat, int) and 0 <= seat < self.n):
            raise Illegal("a player cannot catch himself")
        self.exposed = -1
        self.effect("uno_penalty", seat=target, catcher=seat)
        if self.opt("uno_penalty"):
            self.owe("draw", target, int(self.opt("uno_penalty")), "penalty", front=True)
        self.settle()

    def resolve(self, guilty: bool) -> None:
        assert self.pending is not None
        player, challenger, _ = self.pending
        self.pending = None
        self.effect("challenge_resolved", challenger=challenger, player=player, guilty=guilty)
        self.turn = player
        total, self.stack = (self.stack[0] if self.stack else 4), None  # rules 123
        if guilty:
            self.owe("draw", player, total)
            self.advance(0)
        else:
            self.owe("draw", challenger, total + 2)
            self.effect("player_skipped", seat=challenger)
            self.advance(1)

    def challenge(self, a: Act) -> None:
        seat = int(a["seat"])
        self.own_turn(seat, ("challenge",), "deciding a challenge")
        self.close_window(seat)
        if a["type"] == "accept":
            player = self.pending[0] if self.pending else self.turn
            self.pending = None
            self.turn = player
            if self.stack is not None and self.counts[player] > 0:
                self.advance(0)  # rules 123: now stack or take
                self.settle()
                return
            total, self.stack = (self.stack[0] if self.stack else 4), None
            self.owe("draw", seat, total)
            self.effect("player_skipped", seat=seat)
            self.advance(1)
        elif self.table:
            self.phase = "verdict"
            self.effect("prompt", seat=seat, kind="verdict")
            return
        else:
            assert self.pending is not None
            self.resolve(self.pending[2])
        self.settle()

    def verdict(self, a: Act) -> None:
        self.own_turn(int(a["seat"]), ("verdict",), "a verdict")
        self.resolve(bool(a.get("guilty", False)))
        self.settle()

    def choose_colour(self, a: Act) -> None:
        self.own_turn(int(a["seat"]), ("first_colour",), "choosing the first colour")
        if a.get("colour") not in COLOURS:
            raise Illegal("the colour is one of R G B Y")
        self.colour = str(a["colour"])
        self.phase = "play"
        self.effect("colour_chosen", seat=a["seat"], colour=self.colour)
        self.settle()

    def four_tower_discard(self, a: Act) -> None:
        seat = int(a["seat"])
        self.own_turn(seat, ("four_towers",), "the four-tower discard")
        laid = [str(c) for c in a.get("laid", [])]
        if len(laid) != self.counts[seat] - 1:
            raise Illegal(f"lay all cards but one: {self.counts[seat] - 1} cards")
        self.take_from_hand(seat, laid, "four-tower discard")
        self.discard = self.discard[:-1] + laid + self.discard[-1:]  # under the top card
        self.effect("cards_laid", seat=seat, cards=laid)
        for t in TOWERS:
            self.effect("tower_moved", tower=t, seat=-1)
        self.towers = [-1] * 4
        self.one_card_left(seat, bool(a.get("uno", False)))
        self.phase, self.actor = "play", self.turn
        self.settle()

    def enter_hand(self, a: Act) -> None:
        seat = int(a["seat"])
        self.own_turn(seat, ("hand_entry",), "entering a hand")
        cards = [str(c) for c in a.get("cards", [])]
        if len(cards) != self.counts[seat]:
            raise Illegal(f"seat {seat} holds {self.counts[seat]} cards, not {len(cards)}")
        if Counter(cards) - self.unseen:
            raise Illegal("hand entry: those cards are not all unseen")
        self.unseen.subtract(Counter(cards))
        self.hands[seat] = Counter(cards)
        self.entered[seat] = True
        self.round_over()

    # ---- one record line
    def act(self, a: Act) -> list[dict[str, object]]:
        self.fx = []
        if self.phase == "match_over":
            raise Illegal("the match is over")
        t = a.get("type")
        if t in ("dealer_cards", "shuffle", "reveal", "eject"):
            self.chance_action(a)
        elif self.to_act == CHANCE:
            raise Illegal(f"the chance player must supply {self.chance!r} first")
        elif t == "play" and a.get("seat") != self.to_act and self.opt_get("jump_in"):
            self.jump_in(a)
        elif t == "play":
            self.play(a)
        elif t in ("draw", "press"):
            self.draw(a)
        else:
            handler = {"pass": self.pass_, "call_uno": self.call_uno, "catch": self.catch,
                       "challenge": self.challenge, "accept": self.challenge,
                       "verdict": self.verdict, "choose_colour": self.choose_colour,
                       "four_tower_discard": self.four_tower_discard,
                       "enter_hand": self.enter_hand}.get(str(t))
            if handler is None:
                raise Illegal(f"unknown action type {t!r}")
            handler(a)
        self.check_conservation()
        return self.fx

    def check_conservation(self) -> None:
        """Every card is somewhere, once: a check of the referee itself."""
        if self.table or self.round_no == 0 or self.phase == "shuffle" and not self.discard:
            return
        where = Counter(self.pile) + Counter(self.discard)
        for h in self.hands:
            where += h
        if where != Counter(self.deck) or self.pile_count != len(self.pile):
            raise AssertionError("the referee lost track of a card")


@dataclass
class Verdict:
    edition: str
    mode: str
    actions: int
    effects_checked: int
    rounds: int
    scores: list[int]


def referee(text: str) -> Verdict:
    """Re-referee one record; raises Illegal naming the line of the first problem."""
    lines = text.splitlines()
    if not lines:
        raise Illegal("line 1: empty record")
    head = json.loads(lines[0])
    if head.get("record") != "unotable-game" or head.get("version") != 1:
        raise Illegal("line 1: not a version 1 game record")
    edition, n, mode = head["edition"], head["seats"], head["mode"]
    if edition not in EDITIONS:
        raise Illegal(f"line 1: unknown edition {edition!r}")
    lo, hi = EDITIONS[edition].players
    if not lo <= n <= hi:
        raise Illegal(f"line 1: {edition} is for {lo}-{hi} players")
    defaults = EDITIONS[edition].defaults
    unknown = set(head["options"]) - set(defaults)
    if unknown:
        raise Illegal(f"line 1: options {sorted(unknown)} do not apply to {edition}")
    house = sorted(k for k, off in NOT_MODELLED.items() if head["options"].get(k, off) != off)
    if house:
        raise Illegal(f"line 1: house rules {house} are not re-refereed by this program")
    t = Table(edition, n, {**defaults, **head["options"]}, mode == "table",
              deck=deck_of(edition), scores=[0] * n, hands=[Counter() for _ in range(n)],
              counts=[0] * n, entered=[False] * n)
    checked = actions = 0
    for no, raw in enumerate(lines[1:], 2):
        data = json.loads(raw)
        if "result" in data:
            got = {"round": t.round_no, "phase": t.phase, "scores": t.scores,
                   "winners": t.winners}
            if data["result"] != got:
                raise Illegal(f"line {no}: the result is {got}, the record says "
                              f"{data['result']}")
            if no != len(lines):
                raise Illegal(f"line {no}: nothing may follow the result line")
            break
        recorded = data.pop("effects", None)
        try:
            fx = t.act(data)
        except Illegal as exc:
            raise Illegal(f"line {no}: {data}: {exc}") from None
        actions += 1
        if recorded is not None:
            if recorded != fx:
                raise Illegal(f"line {no}: {data}: the effects are {fx}, the record says "
                              f"{recorded}")
            checked += 1
    return Verdict(edition, mode, actions, checked, t.round_no, list(t.scores))


def main(argv: list[str]) -> int:
    bad = 0
    for path in argv:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            v = referee(text)
        except Illegal as exc:
            print(f"{path}: ILLEGAL {exc}")
            bad += 1
            continue
        print(f"{path}: ok, {v.edition} {v.mode}, {v.actions} actions "
              f"({v.effects_checked} with effects checked), {v.rounds} rounds, "
              f"scores {v.scores}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
