"""House rules on the whole simulated table (issue 12, point 4): the daemon, the twin's
devices on mock pins, the bots' world. The loop's timers run on a virtual clock the test
moves (nothing sleeps)."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.turn_timer import TIMEOUT, WARNING_BUZZ
from firmware.errors import Rejected
from firmware.sim.testbed import SimTable

TIMER = {"turn_timer_s": 10, "timeout_action": "draw"}


def entries(table, kind):
    ctl = table.controller
    return table.call(lambda: [e.payload for e in ctl.journal.entries(match_id=ctl.match.id)
                               if e.kind == kind])


def timed_table(directory, options, **kw):
    """A classic table whose loop's timers run on a virtual clock: (table, clock)."""
    table = SimTable(directory, "classic", seed=4, options=options, **kw)
    return table, table.world.clock


def advance(table, clock, seconds):
    clock.advance(seconds)  # the loop's timers post their events from here
    return table.settle()


@pytest.fixture
def timed(tmp_path, mock_factory):
    table, clock = timed_table(tmp_path, TIMER, factory=mock_factory)
    yield table, clock
    table.stop()


def test_a_timeout_draws_for_the_seat_after_the_warning_and_the_world_agrees(timed):
    table, clock = timed
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    seat, step, held = st["waiting"]["seat"], st["step"], st["hand_counts"][st["waiting"]["seat"]]
    assert st["turn_timer"] == {"step": step, "seat": seat, "left_s": 10.0, "warning": False}
    st = advance(table, clock, 5)  # the last 5 s: the seat's light blinks, the buzzer beeps
    panel = table.call(table.controller.hw.panel.get_status)
    assert panel["seats"][seat]["light"] == "blink" and panel["buzzer"] == list(WARNING_BUZZ)
    assert st["turn_timer"]["warning"] is True and st["step"] == step
    st = advance(table, clock, 5)
    assert st["hand_counts"][seat] == held + 1  # the launcher dealt the card drawn
    assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "draw"}]
    assert U.action_from_dict(entries(table, "action")[step]) == U.Draw(seat)
    kinds = [e["kind"] for e in table.events]
    assert kinds.index("turn_warning") < kinds.index("turn_timeout")
    assert table.world.check(st) == [] and table.world.agree


def test_a_restart_after_a_timeout_does_not_apply_it_twice(tmp_path):
    options = {"turn_timer_s": 10, "timeout_action": "warn"}
    table, clock = timed_table(tmp_path, options)
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        seat, step = st["waiting"]["seat"], st["step"]
        st = advance(table, clock, 10)
        assert st["step"] == step and st["turn_timer"] is None  # warned, nothing applied
        assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "warn"}]
    finally:
        table.stop()
    table, clock = timed_table(tmp_path, options)
    try:
        st = advance(table, clock, 30)
        assert st["step"] == step and st["turn_timer"] is None  # the same decision: no timer
        assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "warn"}]
        assert [e["kind"] for e in table.events].count("turn_timeout") == 0
        st = table.bot_act()  # the seat decides at last: the next decision is timed again
        assert st["turn_timer"] is not None and st["turn_timer"]["step"] == st["step"]
    finally:
        table.stop()


# ---------------------------------------------------------------- rules of the engine
# The bots' world holds real card tokens: a test that wants a seat to hold a card swaps
# it in from another hand or the launcher's stack (the referee knows only counts).

def give(table, seat, card):
    """Seat `seat` holds `card`: swapped with one of its cards, from another hand or the
    launcher's stack, so every count stays what the referee knows."""
    world = table.world

    def swap() -> None:
        hand = world.hands[seat]
        if card in hand:
            return
        out = next(c for c in hand if c[0] != card[0] or c[1:] != card[1:])
        with world.change():
            for other, held in enumerate(world.hands):
                if other != seat and card in held:
                    held[held.index(card)] = out
                    break
            else:
                stack = world.launcher_sim.empty_hopper()
                stack[stack.index(card)] = out
                world.launcher_sim.load(stack)
            hand[hand.index(out)] = card
    table.call(swap)


def declare(table, seat, card, **choices):
    """`seat` lays `card` in the world and declares it, as a person at the table would
    (once the launcher has turned to the seat to act: the table takes nothing before)."""
    table.settle()
    table.call(lambda: table.world.lay(seat, [card]))
    return table.submit(api.Play(seat, card, choices))


def next_seat(st, seat, steps=1):
    return (seat + steps * st["direction"]) % st["seats"]


def free_copy(st, cards):
    """The first of `cards` of which no copy lies on the discard pile yet."""
    return next(c for c in cards if c not in st["discard"])


def test_a_stacked_draw_2_draw_2_wild_draw_4_deals_8_cards_to_the_seat_that_takes_it(tmp_path):
    table = SimTable(tmp_path, "classic", seed=6, options={"stack_draws": "cross"})
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["colour"])
        a = st["waiting"]["seat"]
        b, c, d = (next_seat(st, a, i) for i in (1, 2, 3))
        first = free_copy(st, [f"{st['colour']}+2"])
        second = free_copy(st, [f"{x}+2" for x in "RGBY" if x != st["colour"]])
        for seat, card in ((a, first), (b, second), (c, "W+4")):
            give(table, seat, card)
        declare(table, a, first)
        assert table.state()["stack"] == {"count": 2, "unit": "cards", "seat": b}
        declare(table, b, second)
        declare(table, c, "W+4", color="red")
        st = table.settle()
        assert st["stack"] == {"count": 8, "unit": "cards", "seat": d}
        held = st["hand_counts"][d]
        table.world.seats_sim.press_launcher()  # d does not stack: the launcher deals it all
        st = table.settle()
        assert st["hand_counts"][d] == held + 8 and st["stack"] is None
        dealt = [e for e in table.events if e["kind"] == "ejected"][-1]
        assert (dealt["seat"], dealt["counted"]) == (d, 8)
        assert table.world.check(st) == [] and table.world.agree
    finally:
        table.stop()


def test_a_stacked_hit_2_on_a_hit_2_gives_4_presses(tmp_path):
    table = SimTable(tmp_path, "attack", seed=6, options={"stack_draws": "same"})
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["colour"])
        a = st["waiting"]["seat"]
        b, c = next_seat(st, a), next_seat(st, a, 2)
        first = free_copy(st, [f"{st['colour']}H2"])
        second = free_copy(st, [f"{x}H2" for x in "RGBY" if x != st["colour"]])
        give(table, a, first)
        give(table, b, second)
        declare(table, a, first)
        declare(table, b, second)
        st = table.settle()
        assert st["stack"] == {"count": 4, "unit": "presses", "seat": c}
        presses = 0
        while st["waiting"].get("seat") == c and st["waiting"]["kind"] in ("turn", "press"):
            table.world.seats_sim.press_launcher()
            presses += 1
            st = table.settle()
            assert presses <= 4, st["waiting"]
        assert presses == 4
        assert table.world.check(st) == [] and table.world.agree
    finally:
        table.stop()


def test_a_7_swaps_hands_and_a_0_passes_them_on_and_the_world_agrees(tmp_path):
    table = SimTable(tmp_path, "classic", seed=6, options={"seven_zero": True})
    bots = table.bots
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["colour"])
        a = st["waiting"]["seat"]
        other = next_seat(st, a, 2)
        seven = free_copy(st, [f"{st['colour']}7"])
        give(table, a, seven)
        before = [list(h) for h in table.world.hands]
        table.on_loop(lambda: bots._play(a, st["step"], U.Play(a, U.parse_card(seven),
                                                               target=other)))
        st = table.settle()
        hands = table.world.hands
        assert sorted(hands[other]) == sorted(c for c in before[a] if c != seven)
        assert sorted(hands[a]) == sorted(before[other])
        assert any(e["kind"] == "action" and {"type": "hands_traded", "seat": a, "other": other}
                   in e["effects"] for e in table.events)
        assert table.world.check(st) == [] and table.world.agree
        b = st["waiting"]["seat"]
        zero = free_copy(st, [f"{st['colour']}0"])
        give(table, b, zero)
        before = [list(h) for h in table.world.hands]
        direction = st["direction"]
        table.on_loop(lambda: bots._play(b, st["step"], U.Play(b, U.parse_card(zero))))
        st = table.settle()
        mine = sorted(c for c in before[b] if c != zero)
        assert sorted(table.world.hands[(b + direction) % st["seats"]]) == mine
        assert table.world.check(st) == [] and table.world.agree
    finally:
        table.stop()


def test_the_first_jump_in_wins_and_a_second_is_refused_naming_the_first(tmp_path):
    table = SimTable(tmp_path, "classic", seed=6, options={"jump_in": True})
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["colour"])
        a = st["waiting"]["seat"]
        jumper, late = next_seat(st, a, 2), next_seat(st, a, 3)
        card = free_copy(st, [f"{st['colour']}{n}" for n in range(1, 10)])
        give(table, a, card)
        declare(table, a, card)
        give(table, jumper, card)  # the twin
        declare(table, jumper, card)  # out of turn: play goes on from the jumper
        st = table.settle()
        assert st["top"] == card and st["to_act"] == next_seat(st, jumper)
        with pytest.raises(Rejected) as err:
            table.submit(api.Play(late, card, {}))
        assert err.value.status == 409
        assert (err.value.key, err.value.values) == (
            "refused.jump_in_late", {"seat": late, "first": jumper})
        assert table.world.check(table.settle()) == []
    finally:
        table.stop()
