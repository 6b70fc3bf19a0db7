"""The engine's refusals reach people in the table's language (issue 14, point 4):
`firmware.rule_words` recognises every rule text uno_core writes (collected here from
random, mostly illegal actions in every edition and both modes, as the lockstep test
makes them) and says it again from the catalog, seats by name, numbers from 1."""

from __future__ import annotations

import random
import re

import pytest

import uno_core as U
from firmware.messages import Words
from firmware.rule_words import RULES, say_rule
from tests.uno_core.lockstep import random_action, to_new

# every house rule of issue 12 the engine plays, on where the edition has it
HOUSE = {"stack_draws": "cross", "seven_zero": True, "jump_in": True, "forced_play": True,
         "no_bluff": True, "no_action_finish": True, "draw_until_playable": True}


def house_rules(edition: str) -> dict[str, object]:
    return {k: v for k, v in HOUSE.items() if k in U.EDITIONS[edition].option_defaults}


def engine_refusals(edition: str, mode: str, games: int = 2, steps: int = 300,
                    options: dict[str, object] | None = None) -> set[str]:
    rng = random.Random(f"{edition}-{mode}-{sorted(options or {})}")
    rules: set[str] = set()
    for _ in range(games):
        s = U.new_match(edition, 4, options, mode=mode)
        for _ in range(steps):
            if s.over:
                break
            if s.to_act == U.CHANCE:
                s, _ = U.apply(s, U.sample_outcome(s, rng))
                continue
            for _ in range(6):
                try:
                    U.apply(s.clone(), to_new(random_action(rng, s)))
                except U.IllegalAction as exc:
                    rules.add(exc.rule)
            legal = U.legal_actions(s)
            if not legal:
                break
            s, _ = U.apply(s, rng.choice(legal))
    return rules


@pytest.mark.parametrize("house", [False, True], ids=["seed-rules", "house-rules"])
@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize("edition", sorted(U.EDITIONS))
def test_every_refusal_of_the_engine_is_said_in_both_languages(edition, mode, house):
    rules = engine_refusals(edition, mode, options=house_rules(edition) if house else None)
    assert len(rules) >= 20  # the probe reaches many rules
    unknown = sorted(r for r in rules if not any(p.match(r) for p, _ in RULES))
    assert unknown == []
    de, en = Words("de", ["Anna", "Ben", "Cleo", "Dora"]), Words("en", ["Anna", "Ben", "Cleo", "Dora"])
    for rule in rules:
        german, english = say_rule(rule, de), say_rule(rule, en)
        assert "{" not in german and german != english, (rule, german)
        # the four seats by name; a seat beyond the table (a bad request) as "seat N", from 1
        assert not re.search(r"\b(seat|Platz) (-\d|[0-4]\b)", english + german), (rule, english)


def test_a_refusal_names_seats_and_keeps_an_unknown_rule_in_english():
    words = Words("de", ["Anna", "Ben", ""])
    assert say_rule("seat 0 does not hold R9", words) == "Anna hat keine R9"
    assert say_rule("it is not seat 2's turn to play (to act: 1, phase play)", words) == (
        "Platz 3 ist nicht am Zug (dran: Ben)")
    assert say_rule("passing is not possible now (to act: -1, phase drawn)", words) == (
        "Passen geht jetzt nicht (dran: der Tisch)")
    assert say_rule("a rule added later, for seat 1", words) == "a rule added later, for Ben"
    assert Words("en", ["Anna"]).rule("seat 0 does not hold R9") == "Anna does not hold R9"
