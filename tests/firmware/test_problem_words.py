"""Why a house rule or a set-up is refused reaches people in the table's language:
uno_core's `OptionError` and `SetupError` carry a key and values, as its refusals do,
worded once in English (uno_core) and in German (firmware/words/problems.py). The keys
are collected here from uno_core's source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import uno_core as U
from firmware.words.messages import Words
from firmware.words.problems import PROBLEM_WORDS, problem
from firmware.words.rejected import say
from tests.firmware.test_refusal_words import _literals
from uno_core.problems import OPTION_ENGLISH, SETUP_ENGLISH

# the error, the position of its key among the arguments, its catalogue
RAISED = {"OptionError": (1, OPTION_ENGLISH, "option"), "SetupError": (0, SETUP_ENGLISH, "setup")}


def keys_in_source(error: str) -> set[str]:
    """Every key uno_core's source raises `error` with (a literal, or either branch of a
    conditional): each `raise` names its key."""
    at = RAISED[error][0]
    found: set[str] = set()
    for path in Path(U.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == error:
                assert len(call.args) > at and _literals(call.args[at]), (path, node.lineno)
                found |= _literals(call.args[at])
    return found


@pytest.mark.parametrize("error", sorted(RAISED))
def test_every_key_uno_core_raises_is_worded_in_english_and_german(error):
    _, english, kind = RAISED[error]
    raised = keys_in_source(error)
    assert len(raised) >= 10
    assert raised == set(english)  # uno_core's own registry: no key unlisted, none dead
    for lang in ("en", "de"):
        worded = {k.removeprefix(f"refused.{kind}.") for k in PROBLEM_WORDS[lang]
                  if k.startswith(f"refused.{kind}.")}
        assert worded == raised, (lang, raised ^ worded)


def test_the_english_message_is_as_it_was_and_the_german_one_has_no_english():
    with pytest.raises(U.OptionError) as err:
        U.new_match("classic", 4, {"stack_draws": "wild"})
    exc = err.value
    assert (exc.name, exc.key, exc.values) == (
        "stack_draws", "not_a_choice", {"value": "wild", "known": ("off", "same", "cross", "up")})
    assert str(exc) == "option 'stack_draws': 'wild' is not one of off, same, cross, up"
    assert say(problem(exc), Words("de")) == "„wild“ geht nicht, nur: off, same, cross, up"
    with pytest.raises(U.SetupError) as setup:
        U.new_match("classic", 1)
    assert (setup.value.key, setup.value.values["given"]) == ("seat_count", 1)
    assert str(setup.value) == "classic is for 2-10 players, not 1"
    assert say(problem(setup.value), Words("de")) == "classic ist für 2 bis 10 Spieler, nicht für 1"
    with pytest.raises(U.SetupError) as deck:
        U.position("classic", hands=["R1 R1 R1", "G2"], discard="R1")
    assert str(deck.value) == "R1: the classic deck has 2, the position uses 4"
    assert say(problem(deck.value), Words("de")) == (
        "die Ausgabe classic hat 2-mal rote 1, hier liegt sie 4-mal")
