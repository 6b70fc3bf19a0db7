"""A re-referee written from docs/formats.md and docs/rules.md alone (no uno_core)
agrees with our records, action by action and effect by effect, and rejects bad ones:
the proof that the documents are enough to read and check a record (issue 11)."""

from __future__ import annotations

import ast
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from firmware.cli import main as unotable
from tests.formats.independent_referee import Illegal, deck_of, referee
from tests.formats.independent_referee import main as referee_main
from tests.uno_core.regen_golden import GOLDEN, GOLDEN_DIR
from uno_core import EDITIONS, format_card, get_edition, new_match
from uno_core.bots import HeuristicBot, RandomBot, play_match
from uno_core.record import write_record

REFEREE = Path(__file__).with_name("independent_referee.py")


def test_the_referee_imports_only_the_standard_library():
    tree = ast.parse(REFEREE.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    assert roots <= set(sys.stdlib_module_names) | {"__future__"}, roots


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_documented_canonical_deck_order_is_the_engines(edition):
    assert deck_of(edition) == [format_card(c) for c in get_edition(edition).deck]


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_documented_card_points_are_the_engines(edition):
    from tests.formats.independent_referee import Table

    ref = Table(edition, 2, {"wild_draw4_points": 70} if edition == "classic" else {},
                False)
    engine = get_edition(edition)
    assert {c: ref.points(c) for c in deck_of(edition)} == {
        format_card(c): engine.card_points(c, 70 if edition == "classic" else None)
        for c in engine.deck}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_golden_record_re_referees_effect_by_effect(name):
    text = (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
    verdict = referee(text)
    assert verdict.actions == len(text.splitlines()) - 2  # header and result line
    assert verdict.effects_checked == verdict.actions  # golden records store every effect
    assert verdict.rounds == json.loads(text.splitlines()[-1])["result"]["round"]


def _simulated(tmp_path, capsys, variant, players, seed, *flags):
    out = tmp_path / f"{variant}-{players}-{seed}-{len(flags)}"
    code = unotable(["simulate", "--variant", variant, "--players", str(players), "--games",
                     "2", "--seed", str(seed), "--json", "--record", str(out), *flags])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    return summary, sorted(out.iterdir())


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("effects", [False, True], ids=["actions", "effects"])
def test_fresh_simulate_records_re_referee(tmp_path, capsys, edition, effects):
    flags = ("--effects",) if effects else ()
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        summary, files = _simulated(tmp_path, capsys, edition, players, seed, *flags)
        wins = [0] * players
        actions = 0
        for f in files:
            text = f.read_text(encoding="utf-8")
            verdict = referee(text)  # raises Illegal naming the line of any disagreement
            actions += verdict.actions
            assert verdict.effects_checked == (verdict.actions if effects else 0)
            result = json.loads(text.splitlines()[-1])["result"]
            assert result["phase"] == "match_over" and verdict.scores == result["scores"]
            for w in result["winners"]:
                wins[w] += 1
        assert {str(i): w for i, w in enumerate(wins)} == summary["wins"]
        assert actions == summary["actions"]


HOUSE_RULES = [
    ("classic", {"draw_then_play": True, "draw_when_playable": True,
                 "wild_draw4_restricted": True, "wild_draw4_points": 50,
                 "forgotten_uno": "catch"}),
    ("classic", {"scoring": "running_low", "uno_penalty": 0, "hand_size": 3}),
    ("power", {"forgotten_uno": "at_play", "draw_then_play": False,
               "two_player_reverse_skips": False}),
    ("attack", {"skip_reverse_extra_turn": "always", "forgotten_uno": "at_play"}),
    ("attack", {"wild_customizable": "all-hit"}),
    ("attack", {"wild_customizable": "trade-hands"}),
    ("attack", {"wild_customizable": "hit-fire"}),
    ("attack-1999", {"all_hit_scope": "others", "skip_reverse_extra_turn": "always"}),
    ("extreme", {"wild_restricted": False, "draw_then_play": False,
                 "draw_when_playable": True}),
    # issue 12's house rules (rules 120-126)
    ("classic", {"stack_draws": "cross", "no_action_finish": True, "forced_play": True}),
    ("classic", {"stack_draws": "cross", "wild_draw4_restricted": True}),
    ("classic", {"stack_draws": "same", "no_bluff": True, "wild_draw4_restricted": True}),
    ("power", {"stack_draws": "cross", "no_action_finish": True}),
    ("power", {"stack_draws": "same", "no_bluff": True, "forced_play": True}),
    ("attack", {"stack_draws": "cross", "no_bluff": True, "wild_customizable": "hit-4"}),
    ("attack-1999", {"stack_draws": "same", "no_action_finish": True, "forced_play": True}),
    ("extreme", {"stack_draws": "same", "forced_play": True, "no_action_finish": True}),
    # rules 130-140: seven_zero, jump_in (bots play for the seat to act: see below),
    # draw_until_playable
    ("classic", {"seven_zero": True, "draw_until_playable": True, "forgotten_uno": "catch"}),
    ("classic", {"seven_zero": True, "jump_in": True, "stack_draws": "cross"}),
    ("power", {"seven_zero": True, "draw_until_playable": True, "no_bluff": True}),
    ("attack-1999", {"seven_zero": True, "jump_in": True}),
    ("extreme", {"seven_zero": True, "forgotten_uno": "at_play"}),
]


@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize(("edition", "options"), HOUSE_RULES + [(e, {}) for e in EDITIONS])
def test_house_rules_and_table_mode_re_referee(edition, options, mode):
    for seats, seed in ((2, 0), (3, 1), (5, 2)):
        rng = random.Random(f"{edition}:{seats}:{seed}:{mode}")
        bot = RandomBot if seed == 2 else HeuristicBot
        opts = {"target_score": 200, **options}
        log = play_match(edition, seats, [bot(rng) for _ in range(seats)], rng,
                         options=opts, mode=mode)
        text = write_record(edition, seats, log.actions, options=opts, mode=mode,
                            effects=log.effects, final=log.state)
        verdict = referee(text)
        assert verdict.mode == mode and verdict.effects_checked == len(log.actions)


@pytest.mark.parametrize(("edition", "options"), [
    ("classic", {"jump_in": True, "seven_zero": True, "forgotten_uno": "catch"}),
    ("power", {"jump_in": True, "draw_until_playable": True, "stack_draws": "same"}),
    ("extreme", {"jump_in": True, "seven_zero": True})])
def test_jump_ins_and_catches_of_any_seat_re_referee(edition, options):
    # a driver that picks uniformly among every listed action, any seat's: jump-ins,
    # calls and catches included (rules 135-137)
    from uno_core import CHANCE, Play, apply, legal_actions, sample_outcome

    rng = random.Random(edition)
    opts = {"target_score": 1000, **options}
    state, actions, effects, jumps = new_match(edition, 4, opts), [], [], 0
    while not state.over and len(actions) < 3000:
        if state.to_act == CHANCE:
            action = sample_outcome(state, rng)
        else:
            action = rng.choice(legal_actions(state))
            jumps += isinstance(action, Play) and action.seat != state.to_act
        state, fx = apply(state, action)
        actions.append(action)
        effects.append(fx)
    assert jumps > 0
    text = write_record(edition, 4, actions, options=opts, effects=effects, final=state)
    assert referee(text).effects_checked == len(actions)


@pytest.mark.parametrize(("edition", "options"), [
    ("classic", {"forgotten_uno": "catch"}), ("power", {}), ("attack", {}),
    ("attack-1999", {}), ("extreme", {})])
def test_forgotten_unos_nobody_catches_close_with_the_next_turn(edition, options):
    # forgetful bots that never catch: the catch window closes with the next seat's
    # action (rules 109), or the forgetful seat calls late
    rng = random.Random(edition)
    opts = {"target_score": 400, **options}
    log = play_match(edition, 3, [RandomBot(rng, forget_uno=0.6, catch=0.0)
                                  for _ in range(3)], rng, options=opts)
    from uno_core import apply, public_state

    state, closed = new_match(edition, 3, opts), 0
    for a in log.actions:
        before = public_state(state)["uno_exposed"]
        state, _ = apply(state, a)
        closed += (before is not None and public_state(state)["uno_exposed"] is None
                   and a.seat != before)
    assert closed >= 1  # a window the next seat's action closed
    text = write_record(edition, 3, log.actions, options=opts, effects=log.effects,
                        final=log.state)
    assert referee(text).effects_checked == len(log.actions)


def test_table_mode_a_returned_first_card_is_revealed_again():
    from uno_core import DealerCards, Reveal, Shuffle, apply, parse_card

    state = new_match("classic", 2, mode="table")
    actions = [DealerCards((parse_card("R9"), parse_card("G2"))), Shuffle(()),
               Reveal(parse_card("W+4")), Reveal(parse_card("B5"))]
    effects = []
    for a in actions:
        state, fx = apply(state, a)
        effects.append(fx)
    assert [e.name for e in effects[2]] == ["card_returned"]
    text = write_record("classic", 2, actions, mode="table", effects=effects)
    assert referee(text).effects_checked == 4


# ---- the referee is a real check: bad records are refused, naming the line


def _classic_lines() -> list[str]:
    return (GOLDEN_DIR / "classic.jsonl").read_text(encoding="utf-8").splitlines()


def _refused(lines: list[str]) -> str:
    with pytest.raises(Illegal) as err:
        referee("\n".join(lines) + "\n")
    return str(err.value)


def _first(lines: list[str], kind: str) -> int:
    return next(i for i, raw in enumerate(lines) if json.loads(raw).get("type") == kind)


def _state_before(lines: list[str], index: int):
    """uno_core's state before line `index` (0-based), to build a precise bad line."""
    from uno_core import action_from_dict, apply

    head = json.loads(lines[0])
    state = new_match(head["edition"], head["seats"], head["options"], head["mode"])
    for raw in lines[1:index]:
        data = json.loads(raw)
        data.pop("effects", None)
        state, _ = apply(state, action_from_dict(data))
    return state


def test_a_card_the_seat_does_not_hold_is_refused():
    lines = _classic_lines()
    i = _first(lines, "play")
    data = json.loads(lines[i])
    from uno_core import snapshot

    held = set(snapshot(_state_before(lines, i))["hands"][data["seat"]])
    data["card"] = next(c for c in deck_of("classic") if c not in held and c[0] != "W")
    lines[i] = json.dumps(data)
    assert _refused(lines).startswith(f"line {i + 1}: ")
    assert f"does not hold {data['card']}" in _refused(lines)


def test_drawing_while_holding_a_playable_card_is_refused_in_classic():
    lines = _classic_lines()
    i = _first(lines, "play")  # the seat could play, so it may not draw (rules 32)
    lines[i] = json.dumps({"type": "draw", "seat": json.loads(lines[i])["seat"]})
    assert "only draw when you cannot play" in _refused(lines)


def test_a_catch_is_refused_when_uno_goes_with_the_play():
    lines = _classic_lines()
    lines.insert(4, json.dumps({"type": "catch", "seat": 1, "target": 0}))
    assert "at_play" in _refused(lines)


def test_a_shuffle_order_that_is_no_permutation_is_refused():
    lines = _classic_lines()
    i = _first(lines, "shuffle")
    data = json.loads(lines[i])
    data["order"][0] = data["order"][1]
    lines[i] = json.dumps(data)
    assert "permutation" in _refused(lines)


def test_a_reordered_shuffle_deals_other_hands_and_is_caught():
    lines = _classic_lines()
    i = _first(lines, "shuffle")
    data = json.loads(lines[i])
    data["order"] = data["order"][::-1]  # still a permutation, another deal
    lines[i] = json.dumps(data)
    assert f"line {i + 1}: " in _refused(lines)  # the first card differs from its effect


def test_a_changed_effect_is_refused():
    lines = _classic_lines()
    i = _first(lines, "play")
    data = json.loads(lines[i])
    data["effects"].append({"type": "player_skipped", "seat": 2})
    lines[i] = json.dumps(data)
    assert f"line {i + 1}: " in _refused(lines) and "the record says" in _refused(lines)


def test_a_wrong_result_is_refused():
    lines = _classic_lines()
    data = json.loads(lines[-1])
    data["result"]["scores"][0] += 1
    lines[-1] = json.dumps(data)
    assert _refused(lines).startswith(f"line {len(lines)}: the result is")


def test_the_command_line_says_ok_or_illegal_per_file(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    good.write_text((GOLDEN_DIR / "power.jsonl").read_text(encoding="utf-8"))
    bad = tmp_path / "bad.jsonl"
    lines = _classic_lines()
    lines.insert(4, json.dumps({"type": "pass", "seat": 0}))
    bad.write_text("\n".join(lines) + "\n")
    assert referee_main([str(good)]) == 0
    assert referee_main([str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{good}: ok, power simulation, 155 actions")
    assert out[2].startswith(f"{bad}: ILLEGAL line 5: ")


# ---- the same verdicts as uno_core on random, mostly illegal actions


def _same_position(ref, state) -> None:
    """The referee's hands, piles, colour, turn and scores are uno_core's."""
    from uno_core import public_state, snapshot

    pub, full = public_state(state), snapshot(state)
    assert (ref.round_no, ref.phase, ref.to_act, ref.turn, ref.direction) == (
        pub["round"], pub["phase"], pub["to_act"], pub["turn"], pub["direction"])
    assert (ref.colour or None, ref.discard, ref.pile_count, ref.counts, ref.scores) == (
        pub["colour"], pub["discard"], pub["pile_count"], pub["hand_counts"], pub["scores"])
    if not ref.table:
        assert ref.pile == full["pile"]
        assert ref.hands == [Counter(h) for h in full["hands"]]
    if pub["towers"] is not None:
        assert {t: (None if o < 0 else o) for t, o in zip("UNO!", ref.towers,
                                                          strict=True)} == pub["towers"]


def _candidates(rng: random.Random, state, deck: list[str]) -> list[dict]:
    """Random actions in record form near the position: most are illegal."""
    from uno_core import action_to_dict, legal_actions, snapshot

    full = snapshot(state)
    n = len(full["hands"])
    seats = [s for s in (full["to_act"], full["actor"], rng.randrange(n)) if s >= 0] or [0]
    hand = full["hands"][seats[0]] or deck

    def some(pool: list[str], k: int) -> list[str]:
        return [rng.choice(pool) for _ in range(k)]

    out = []
    if full["to_act"] >= 0:
        legal = legal_actions(state)
        out += [action_to_dict(a) for a in rng.sample(legal, min(2, len(legal)))]
    for _ in range(6):
        seat = rng.choice(seats)
        card = rng.choice(hand if rng.random() < 0.7 else deck)
        kind = rng.choice(["play"] * 6 + ["draw", "press", "pass", "call_uno", "catch",
                                          "challenge", "accept", "choose_colour",
                                          "four_tower_discard", "eject", "verdict"])
        a: dict = {"type": kind, "seat": seat}
        if kind == "play":
            a["card"] = card
            if card.startswith("W") or rng.random() < 0.1:
                a["colour"] = rng.choice("RGBY")
            if rng.random() < 0.3:
                a["target"] = rng.randrange(n)
            if rng.random() < 0.2:
                a["towers"] = rng.sample("UNO!", rng.randrange(1, 3))
            if rng.random() < 0.2:
                a["laid"] = some(hand, rng.randrange(1, 3))
            if rng.random() < 0.3:
                a["uno"] = True
        elif kind == "catch":
            a["target"] = rng.randrange(n)
        elif kind == "choose_colour":
            a["colour"] = rng.choice("RGBY")
        elif kind == "four_tower_discard":
            a["laid"] = hand[:-1] if rng.random() < 0.5 else some(hand, 2)
            a["uno"] = rng.random() < 0.5
        elif kind == "eject":
            del a["seat"]
            a["count"] = rng.randrange(4)
        elif kind == "verdict":
            a["guilty"] = rng.random() < 0.5
        out.append(a)
    return out


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("mode", ["simulation", "table"])
def test_same_verdicts_and_effects_as_uno_core_on_random_actions(edition, mode):
    import copy

    from tests.formats.independent_referee import EDITIONS as DOCS
    from tests.formats.independent_referee import Table
    from uno_core import (
        IllegalAction,
        action_from_dict,
        action_to_dict,
        apply,
        effect_to_dict,
    )
    from uno_core.record import every_option

    rng = random.Random(f"lockstep:{edition}:{mode}")
    opts = {"target_score": 500}
    log = play_match(edition, 3, [RandomBot(rng, catch=0.3) for _ in range(3)], rng,
                     options=opts, mode=mode)
    deck = deck_of(edition)
    state = new_match(edition, 3, opts, mode)
    ref = Table(edition, 3, every_option(edition, opts), mode == "table", deck=deck,
                scores=[0] * 3, hands=[Counter() for _ in range(3)], counts=[0] * 3,
                entered=[False] * 3)
    assert set(ref.options) == set(DOCS[edition].defaults)
    tried = legal = 0
    for action in log.actions:
        for cand in _candidates(rng, state, deck) if tried < 2500 else ():
            try:
                engine = action_from_dict(dict(cand))
            except ValueError:
                continue  # not even an action of the format
            tried += 1
            try:
                _, fx = apply(state.clone(), engine)
                want = [effect_to_dict(e) for e in fx]
            except IllegalAction:
                want = None
            trial = copy.deepcopy(ref)
            try:
                got = trial.act(dict(cand))
            except Illegal:
                got = None
            assert got == want, (cand, state)
            legal += want is not None
        ref.act(action_to_dict(action))
        state, _ = apply(state, action)
        _same_position(ref, state)
    assert tried > 1000 and 0.05 < legal / tried < 0.6  # mostly illegal, some legal

