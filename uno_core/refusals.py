"""Every rule the engine can refuse an action by, keyed: the English wording of each.

An `IllegalAction` carries the rule's `key` and its `values` (seats as ints, cards as
`Card`, colours and towers as their codes, a sequence as a tuple); its ``rule`` text is
rendered from `ENGLISH` only when asked (a refusal probed in a loop costs no text).
Other languages word the same keys (the firmware's catalogues); nothing parses a text.
"""

from __future__ import annotations

from collections.abc import Mapping

# key -> English wording; fields are `IllegalAction.values` (a tuple: joined by spaces)
ENGLISH: dict[str, str] = {
    # whose turn, which cards a seat holds
    "not_your_turn": "it is not seat {seat}'s turn to play (to act: {to_act}, phase {phase})",
    "no_seat": "there is no seat {seat}",
    "not_a_card": "not a card: {card!r}",
    "all_seen": "no {card} is left unseen: it cannot be in a hand",
    "holds_only": "seat {seat} holds only {count} cards",
    "not_held": "seat {seat} does not hold {card}",
    "not_all_held": "seat {seat} does not hold all of those cards",
    "drawn_only": "after drawing only the drawn card may be played",
    # what fits on the discard pile
    "symbol": "no {card} on a power symbol {symbol} card ({top})",
    "turned_first": "on a turned {top} the first player takes no towers and lays only a "
                    "{colour} card, not {card}",
    "no_match": "{card} matches neither colour {colour} nor {top}",
    "wild_restricted": "a Wild may only be played with no {colour} card in hand",
    "wild_colour": "a wild needs a colour (one of R G B Y)",
    "colour_not_wild": "only a wild card names a colour",
    # a card's choices
    "uno_count": "UNO is called with one card left, not {count}",
    "target": "{card} needs a target seat other than {seat}",
    "no_target": "{card} takes no target",
    "towers": "{card} takes {count} tower(s) from {towers}",
    "no_towers": "{card} takes no towers",
    "discard_colour": "Discard All lays only {colour} cards, not {card}",
    "not_enough_unseen": "not enough {card} left unseen",
    "discard_all": "Discard All must lay all other {colour} cards: {cards}",
    "lays_none": "{card} lays no other cards",
    # an action out of its phase
    "pass_not_now": "passing is not possible now (to act: {to_act}, phase {phase})",
    "challenge_not_now": "deciding a challenge is not possible now (to act: {to_act}, "
                         "phase {phase})",
    "verdict_not_now": "a challenge verdict is not possible now (to act: {to_act}, "
                       "phase {phase})",
    "first_colour_not_now": "choosing the first colour is not possible now (to act: "
                            "{to_act}, phase {phase})",
    "hand_entry_not_now": "entering a hand is not possible now (to act: {to_act}, "
                          "phase {phase})",
    "four_towers_not_now": "the four-tower discard is not possible now (to act: {to_act}, "
                           "phase {phase})",
    # drawing
    "no_press": "no launcher press is owed now",
    "draw_by_press": "this edition draws by pressing the launcher",
    "draw_from_pile": "this edition has no launcher: draw from the pile",
    "draw_only_stuck": "you may only draw on your turn when you cannot play",
    "no_draw": "seat {seat} cannot draw now (to act: {to_act}, phase {phase})",
    # UNO
    "uno_at_play": "UNO is called before the second-to-last card is laid, with the play; "
                   "a forgotten call was penalised at once: there is nothing to call late "
                   "or to catch (option forgotten_uno='at_play')",
    "nothing_to_call": "seat {seat} has no uncalled UNO to call",
    "no_catch": "seat {seat} cannot be caught: no forgotten UNO open (the window closes "
                "when the next player starts a turn)",
    "catch_self": "a player cannot catch himself",
    # the other seat actions
    "colour_choice": "colour must be one of R G B Y",
    "hand_count": "seat {seat} holds {count} cards, not {given}",
    "hand_entry_public": "hand entry: no {card} is left unseen (all copies are public "
                         "since the last reshuffle)",
    "four_towers_public": "four-tower discard: no {card} is left unseen (all copies are "
                          "public since the last reshuffle)",
    "all_but_one": "lay all cards but one: {count} cards",
    # chance outcomes
    "no_chance": "no chance outcome is due (to act: seat {to_act})",
    "wrong_chance": "the chance player must supply {chance!r} now",
    "chance_first": "the chance player must supply {chance!r} first",
    "not_unseen": "no {card} is left unseen",
    "dealer_count": "one card per seat: {seats} cards, not {count}",
    "deck_has_only": "the {edition} deck has only {count} of {card}",
    "shuffle_unknown": "table mode: the shuffle order is unknown (leave it empty)",
    "shuffle_order": "the order must be a permutation of 0..{last}",
    "eject_count": "the card count must be an integer >= 0",
    "launcher_holds": "the launcher holds only {count} cards",
    # the match
    "match_over": "the match is over",
    "not_an_action": "not an action of this game",
    # house rules (issue 12): `unit` is "cards" or "presses", `mode` stack_draws' value
    "stack_pending": "a stack of {count} {unit} is pending on seat {seat}: answer with a "
                     "+2 or take them (stack_draws={mode!r})",
    "stack_pending_draw4": "a stack of {count} {unit} is pending on seat {seat}: answer "
                           "with a +4 or take them (stack_draws={mode!r})",
    "stack_pending_cross": "a stack of {count} {unit} is pending on seat {seat}: answer "
                           "with a +2 or a +4 or take them (stack_draws={mode!r})",
    "no_bluff": "a {card} only with no {colour} card in hand (no_bluff)",
    "no_action_finish": "nobody may go out on an action or wild card like {card} "
                        "(no_action_finish)",
    "no_draw_finish": "nobody may go out on a draw card like {card} (no_draw_finish)",
    "forced_play": "a drawn card that fits must be played (forced_play)",
    "draw_until": "draw_until_playable: play the drawn card if it fits, else draw again; "
                  "the turn ends only when a card is played or nothing is left to draw",
    "jump_chance": "no jump-in now: the chance player must supply {chance!r} first",
    "jump_challenge": "no jump-in while a Wild Draw 4 challenge is open",
    "jump_phase": "no jump-in in phase {phase}",
    "jump_owed": "no jump-in while draws or presses are owed: they come first",
    "jump_stack": "no jump-in while a stack is pending (no_jump_in_on_stack)",
    "jump_wild": "no jump-in on a wild: its colour was named, no card in a hand carries it",
    "jump_identical": "out of turn only a card identical to the top card {top} may be "
                      "played (jump_in), not {card}",
    "jump_first": "no {card} is left unseen: an earlier jump-in laid the last one (the "
                  "first declaration wins)",
}


def plain(value: object) -> object:
    """A value as a wording shows it: a tuple or list of codes joined by spaces, a
    StrEnum (a phase, a chance outcome) as its text."""
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    if isinstance(value, str):
        return str(value)
    return value


def english(key: str, values: Mapping[str, object]) -> str:
    """The English wording of rule `key` with `values` filled in."""
    return ENGLISH[key].format_map({k: plain(v) for k, v in values.items()})
