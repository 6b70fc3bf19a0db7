"""Bots: they play only legal actions, replay per seed, forget UNO when told, and the
heuristic bot plays like a sensible person (and beats the random one)."""

import random

import pytest

from uno_core import (
    EDITIONS,
    Catch,
    ChooseColour,
    Draw,
    IllegalAction,
    Play,
    apply,
    legal_actions,
    position,
    replay,
)
from uno_core.bots import BOTS, HeuristicBot, MatchError, RandomBot, play_match
from uno_core.cards import parse_card


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_play_whole_matches_with_legal_actions_only(edition, bot):
    rng = random.Random(3)
    log = play_match(edition, 3, [BOTS[bot](rng) for _ in range(3)], rng)
    assert log.state.over
    assert max(log.state.scores) >= 500


def test_random_bots_in_table_mode_finish_a_match():
    rng = random.Random(4)
    log = play_match("power", 3, [RandomBot(rng) for _ in range(3)], rng, mode="table",
                     options={"target_score": 150})
    assert log.state.over


def test_same_seed_same_match():
    def run(seed):
        rng = random.Random(seed)
        return play_match("attack", 4, [HeuristicBot(rng) for _ in range(4)], rng)

    a, b, c = run(5), run(5), run(6)
    assert a.actions == b.actions and a.state == b.state
    assert a.actions != c.actions


def _penalties(log):
    return [e for fx in log.effects for e in fx if e.name == "uno_penalty"]


def test_bots_that_never_forget_uno_are_never_penalised():
    rng = random.Random(1)
    bots = [HeuristicBot(rng, forget_uno=0.0) for _ in range(3)]
    log = play_match("classic", 3, bots, rng)
    assert _penalties(log) == []
    assert any(e.name == "uno_called" for fx in log.effects for e in fx)


def test_forgetful_bots_get_caught_and_draw_the_penalty():
    rng = random.Random(1)
    bots = [HeuristicBot(rng, forget_uno=1.0) for _ in range(3)]
    log = play_match("classic", 3, bots, rng,
                     options={"target_score": 200, "forgotten_uno": "catch"})
    penalties = _penalties(log)
    assert penalties
    for fx in log.effects:
        names = [e.name for e in fx]
        if "uno_penalty" in names:
            pen = fx[names.index("uno_penalty")]
            assert any(e.name == "dispense" and e.seat == pen.seat and e.count == 2
                       for e in fx)


def test_forgetful_bots_in_classic_draw_the_penalty_with_the_play():
    # classic's default: the call goes with the play, a forgotten one costs 2 at once;
    # nobody is ever open to a catch, so the bots are never asked to interject
    rng = random.Random(3)
    bots = [HeuristicBot(rng, forget_uno=0.5) for _ in range(3)]
    log = play_match("classic", 3, bots, rng, options={"target_score": 200})
    assert log.state.over
    penalties = [fx for fx in log.effects if any(e.name == "uno_penalty" for e in fx)]
    assert penalties
    for fx in penalties:
        pen = next(e for e in fx if e.name == "uno_penalty")
        assert fx[0].name == "card_played" and fx[0].seat == pen.seat and pen.catcher == -1
    assert not [a for a in log.actions if a.name in ("catch", "call_uno")]


def test_forgetful_launcher_players_owe_presses():
    rng = random.Random(2)
    bots = [HeuristicBot(rng, forget_uno=1.0) for _ in range(3)]
    log = play_match("extreme", 3, bots, rng, options={"target_score": 200})
    caught = [fx for fx in log.effects if any(e.name == "uno_penalty" for e in fx)]
    assert caught
    assert all(any(e.name == "owe_presses" and e.count == 2 for e in fx) for fx in caught)


def _act(state, bot):
    return bot.act(state, [a for a in legal_actions(state) if a.seat == state.to_act])


def test_heuristic_keeps_the_wild_and_plays_the_colour():
    s = position("classic", hands=["W R7 R2 B9", "G1 G2"], discard="R5")
    action = _act(s, HeuristicBot(random.Random(0)))
    assert action == Play(0, parse_card("R7"))  # coloured before wild, higher points first


def test_heuristic_names_the_colour_it_holds_most():
    s = position("classic", hands=["W B1 B2 G3", "G1 G2"], discard="R5")
    action = _act(s, HeuristicBot(random.Random(0)))
    assert action == Play(0, parse_card("W"), colour="B")


def test_heuristic_attacks_the_seat_with_fewest_cards():
    s = position("attack", hands=["WAA R1 R2", "G1 G2 G3", "Y1", "B1 B2"], discard="G5",
                 exposed=-1)
    action = _act(s, HeuristicBot(random.Random(0)))
    assert action.card == parse_card("WAA") and action.target == 2 and action.colour == "R"


def test_heuristic_chooses_first_colour_from_its_hand():
    s = position("classic", hands=["G1 G2 Y3", "B1 B2"], discard="R5")
    s.phase = "first_colour"
    action = _act(s, HeuristicBot(random.Random(0)))
    assert action == ChooseColour(0, "G")


def test_heuristic_challenges_a_draw4_from_a_full_hand_only():
    def after_draw4(hand0):
        s = position("power", hands=[hand0, "G1 G2"], discard="R5",
                     options={"wild_draw4_restricted": True})
        s, _ = apply(s, Play(0, parse_card("W+4"), colour="G"))
        return s

    bot = HeuristicBot(random.Random(0))
    assert _act(after_draw4("W+4 R1 R2 R3 R4 R6"), bot).name == "challenge"
    assert _act(after_draw4("W+4 B1 B2"), bot).name == "accept"


def test_heuristic_catches_a_forgotten_uno():
    s = position("classic", hands=["R7 R8", "G1 G2", "B1 B2"], discard="R5",
                 options={"forgotten_uno": "catch"})
    s, _ = apply(s, Play(0, parse_card("R7")))  # no UNO called
    calls = [a for a in legal_actions(s) if a.name in ("catch", "call_uno")]
    assert HeuristicBot(random.Random(0)).interject(s, 2, calls) == Catch(2, 0)


def test_heuristic_beats_random():
    wins = 0
    for i in range(20):
        rng = random.Random(i)
        heuristic_seat = i % 2
        bots = [RandomBot(rng), RandomBot(rng)]
        bots[heuristic_seat] = HeuristicBot(rng)
        log = play_match("classic", 2, bots, rng)
        wins += log.state.winners == (heuristic_seat,)
    assert wins >= 15


class _Cheater:
    """Plays correctly until its 10th decision, then draws out of turn."""

    def __init__(self, rng):
        self.inner = RandomBot(rng)
        self.calls = 0

    def act(self, state, legal):
        self.calls += 1
        if self.calls == 10:
            return Draw((state.to_act + 1) % state.n)
        return self.inner.act(state, legal)

    def interject(self, state, seat, legal):
        return None


def test_a_failing_match_keeps_its_log_up_to_the_failure():
    rng = random.Random(8)
    cheater = _Cheater(rng)
    with pytest.raises(MatchError) as err:
        play_match("classic", 2, [cheater, cheater], rng)
    log = err.value.log
    assert isinstance(err.value.cause, IllegalAction)
    assert "IllegalAction" in str(err.value) and f"after {len(log.actions)} actions" in str(
        err.value)
    replayed, _ = replay("classic", 2, log.actions)
    assert replayed == log.state  # the log is exactly what was applied before the failure
