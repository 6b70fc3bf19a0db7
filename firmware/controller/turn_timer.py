"""The turn timer (house rules ``turn_timer_s`` and ``timeout_action``, table only: the
engine ignores both).

While the table waits for one seat's decision (its turn, the drawn card, an extra
play, a challenge, a press it owes) and nothing physical is pending, a timer of
``turn_timer_s`` runs on the loop's clock. In its last `WARN_S` seconds (the last half
of a timer shorter than twice that; none below `MIN_WARN_S` seconds left, where a
warning would say little more than the turn itself) the seat's light blinks and the
buzzer beeps once a second (``turn_warning``). When it runs out
the table applies ``timeout_action`` for that seat, as if the player had asked:

* ``draw``: the launcher button's action (`seats.press_action`: draw, press, or take
  a challenged Wild Draw 4), or a pass where that is not legal (a drawn card kept);
* ``pass``: a pass where it is legal, else the draw above;
* ``warn``: only the warning (and a ``turn_timeout`` event).

The timer belongs to one decision, (step, seat): any action, a pause or the launcher
at work stops it, and the next decision starts a fresh one. The action goes through
`Controller.accept` (journaled like any other, so a replay plays the same game); then
a ``timeout`` entry records that the decision's time ran out. Replayed, that entry
keeps a timer from starting again for the same decision (a ``warn`` after a crash is
not repeated), and the action already moved the step on: a restart never applies a
timeout twice. A restart during a running timer starts it afresh for the same
decision (as the round pause does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import uno_core as U
from firmware.controller.context import Blinking, Context, Part, Settles
from firmware.controller.seats import SeatButtons, press_action
from firmware.controller.waiting import Waits
from firmware.errors import Rejected
from firmware.waits import Wait
from hal.clock import Cancellable

TIMEOUT = "timeout"  # journal kind: {"step", "seat", "action"}: a decision's time ran out
WARN_S = 5  # the light blinks and the buzzer beeps in the last seconds
MIN_WARN_S = 2  # a shorter warning is no warning: the timer runs without one
WARNING_BUZZ = (0.1, 0.9, WARN_S)  # (on_s, off_s, repeats): a beep a second
# the waits a timeout can answer for the seat (a colour, a verdict or four towers it cannot)
TIMED = frozenset({Wait.TURN, Wait.PLAY_DRAWN, Wait.EXTRA_PLAY, Wait.CHALLENGE, Wait.PRESS})


def warning_left(limit: int) -> int | None:
    """The seconds left when the warning of a `limit`-second timer comes (never before
    half the time is gone: a warning at the start of every turn tells nothing), or None."""
    left = min(WARN_S, limit // 2)
    return left if left >= MIN_WARN_S else None


@dataclass(frozen=True)
class TurnWarning:
    """Posted by the timer `WARN_S` before the end of the decision (step, seat)."""

    step: int
    seat: int


@dataclass(frozen=True)
class TurnTimeout:
    """Posted by the timer when the decision (step, seat) ran out of time."""

    step: int
    seat: int


def timeout_choices(s: U.State, seat: int, how: str) -> list[U.Action]:
    """What `how` ("draw" | "pass" | "warn") may do for `seat`, in order of preference."""
    if how == "warn":
        return []
    try:
        draw = [press_action(s)]
    except Rejected:
        draw = []
    passing: list[U.Action] = [U.Pass(seat)]
    return draw + passing if how == "draw" else passing + draw


def timeout_action(s: U.State, seat: int, how: str) -> U.Action | None:
    """The first of `timeout_choices` the engine accepts now (tried on a copy)."""
    for action in timeout_choices(s, seat, how):
        try:
            U.apply(s.clone(), action, effects=False)
        except U.IllegalAction:
            continue
        return action
    return None


def _said(action: U.Action | None) -> str:
    """Which `event.turn_timeout.*` message says what the timeout did."""
    if action is None:
        return "warn"
    return "pass" if isinstance(action, U.Pass) else "draw"


class Decision(NamedTuple):
    """One seat's decision at one step: what a timer runs for."""

    step: int
    seat: int


class TurnTimer(Part):
    """Owns the running timer and the last decision whose time ran out; handles
    `TurnWarning` and `TurnTimeout`. Built for a match with ``turn_timer_s`` only."""

    name = "turn_timer"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._timers: list[Cancellable | None] = []
        self.reset()
        ctx.on(TurnWarning, self._on_warning)
        ctx.on(TurnTimeout, self._on_timeout)
        ctx.subscribe(Settles, lambda _e: self.settle())
        ctx.journal_kind(TIMEOUT, lambda e: self.replay(e.payload))
        ctx.subscribe(Blinking, lambda _e: self.blinking())

    def reset(self) -> None:
        self._stop()
        self.expired: Decision | None = None  # journaled as timed out

    def close(self) -> None:
        self._stop()

    def public(self, state: U.State | None) -> dict[str, Any]:
        return {"turn_timer": self.get_status()["turn_timer"]}

    def _stop(self) -> None:
        for timer in self._timers:
            if timer is not None:
                timer.cancel()
        self._timers = []
        self.running: Decision | None = None  # the decision timed
        self.deadline: float | None = None  # on the loop's clock
        self.warned = False

    def get_status(self) -> dict[str, Any]:
        """The timer under way (None: none runs) and the last decision that timed out."""
        running = None
        if self.running is not None and self.deadline is not None:
            left = max(0.0, self.deadline - self.ctx.loop.now())
            running = {"step": self.running.step, "seat": self.running.seat,
                       "left_s": round(left, 1), "warning": self.warned}
        return {"turn_timer": running,
                "timed_out": None if self.expired is None else list(self.expired)}

    def replay(self, payload: dict[str, Any]) -> None:
        """A journaled ``timeout``: that decision's time is over for good."""
        self.expired = Decision(int(payload["step"]), int(payload["seat"]))

    def blinking(self) -> set[int]:
        """The seat whose light blinks: its time is nearly up."""
        return {self.running.seat} if self.running is not None and self.warned else set()

    def _awaited(self) -> Decision | None:
        """The decision a timer should run for now, or None."""
        t = self.ctx
        s = t.state
        if s is None or s.over or not s.options.turn_timer_s:
            return None
        wait = t.peer(Waits).current()
        seat = getattr(wait, "seat", None)
        if wait.kind not in TIMED or seat is None:
            return None
        return Decision(t.step, int(seat))

    def settle(self) -> None:
        """After any change: keep the timer of the decision awaited, or start its own."""
        key = self._awaited()
        if key == self.running:
            return
        self._stop()
        if key is None or key == self.expired:
            return
        t = self.ctx
        assert t.state is not None
        limit = t.state.options.turn_timer_s
        self.running = key
        self.deadline = t.loop.now() + limit
        left = warning_left(limit)
        warning = None if left is None else t.loop.after(limit - left, TurnWarning(*key))
        self._timers = [warning, t.loop.after(limit, TurnTimeout(*key))]

    def _on_warning(self, event: TurnWarning) -> None:
        if (event.step, event.seat) != self.running:
            return  # the decision was taken meanwhile
        t = self.ctx
        self.warned = True
        left = warning_left(t.state.options.turn_timer_s) if t.state is not None else None
        left = left or WARN_S
        t.peer(SeatButtons).buzz((*WARNING_BUZZ[:2], left))
        words = t.words
        t.publish({"kind": "turn_warning", "seat": event.seat, "left_s": left,
                   "message": words("event.turn_warning", seat=words.seat(event.seat),
                                    seconds=left)})
        t.settle()  # the light blinks

    def _on_timeout(self, event: TurnTimeout) -> None:
        key = Decision(event.step, event.seat)
        if key != self.running:
            return  # the decision was taken meanwhile, or the table stopped for something
        t = self.ctx
        self._stop()
        try:
            s = t.gate()
        except Rejected:
            return  # the journal cannot be written: its retry settles, a fresh timer runs
        how = s.options.timeout_action
        action = timeout_action(s, event.seat, how)
        words = t.words
        t.peer(SeatButtons).buzz("error")
        t.publish({"kind": "turn_timeout", "seat": event.seat, "timeout_action": how,
                   "applied": None if action is None else U.action_to_dict(action),
                   "message": words(f"event.turn_timeout.{_said(action)}",
                                    seat=words.seat(event.seat))})
        if action is not None:
            try:
                t.accept(action)  # journaled as any action; the step moves on
            except Rejected:
                return  # the journal failed: its retry settles, and a fresh timer runs
        t.journal.append(TIMEOUT, {"step": event.step, "seat": event.seat, "action": how})
        self.expired = key
        t.settle()
