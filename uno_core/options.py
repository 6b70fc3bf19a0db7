"""House-rule options: named, typed, documented; the seed's behaviour is the default.

``make_options(edition, {"name": value, ...})`` validates overrides against the
edition: an unknown name, an option that does not apply to the edition, or a bad
value raises ``OptionError`` naming the option. ``OPTION_SPECS`` documents each one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from uno_core.errors import OptionError

if TYPE_CHECKING:
    from uno_core.editions import Edition

AT_PLAY = "at_play"  # forgotten_uno: the table applies the penalty with the play
CATCH = "catch"  # forgotten_uno: only if caught before the next player starts a turn

CUSTOMIZABLE_EFFECTS: tuple[str, ...] = (
    "wild", "skip", "reverse", "hit-2", "hit-4", "attack-attack", "hit-fire",
    "all-hit", "trade-hands",
)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: type
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


OPTION_SPECS: dict[str, OptionSpec] = {
    s.name: s
    for s in (
        OptionSpec("draw_then_play", bool,
                   "after drawing on your turn you may play the drawn card(s) at once "
                   "(False: the turn ends after drawing)"),
        OptionSpec("draw_when_playable", bool,
                   "you may draw (or press) although you hold a playable card; you may then "
                   "only play the drawn card"),
        OptionSpec("wild_draw4_restricted", bool,
                   "Wild Draw 4 only with no card of the current colour; the next player may "
                   "challenge (guilty: player takes 4; innocent: challenger takes 6)"),
        OptionSpec("wild_draw4_points", int, "points of a Wild Draw 4 at round end",
                   minimum=0, maximum=1000),
        OptionSpec("wild_restricted", bool,
                   "a plain Wild may only be played with no card of the current colour"),
        OptionSpec("skip_reverse_extra_turn", str,
                   "when a Skip/Reverse lets its player play another card at once",
                   choices=("two-player", "always")),
        OptionSpec("two_player_reverse_skips", bool,
                   "with two players a Reverse acts as a Skip (the player goes again)"),
        OptionSpec("wild_customizable", str,
                   "what the Wild Customizable does besides choosing a colour",
                   choices=CUSTOMIZABLE_EFFECTS),
        OptionSpec("all_hit_scope", str,
                   "who presses for Wild All Hit: every player ('all', seed) or every other "
                   "player starting left of the player ('others', Mattel)",
                   choices=("all", "others")),
        OptionSpec("scoring", str,
                   "winner_takes: the round winner scores the cards left in the other hands; "
                   "running_low: everyone adds their own cards, lowest total wins",
                   choices=("winner_takes", "running_low")),
        OptionSpec("target_score", int, "the match ends when a total reaches this",
                   minimum=1, maximum=100000),
        OptionSpec("uno_penalty", int,
                   "cards (pile editions) or launcher presses (launcher editions) for a "
                   "forgotten UNO", minimum=0, maximum=20),
        OptionSpec("forgotten_uno", str,
                   "at_play: UNO is called before the second-to-last card is laid (with "
                   "the play); a play that leaves one card without the call draws "
                   "uno_penalty at once, nobody needs to catch it (seed 002). catch: "
                   "the player may still call late, and pays only if another player "
                   "catches him before the next player starts a turn (seed 000)",
                   choices=(AT_PLAY, CATCH)),
        OptionSpec("hand_size", int, "cards dealt to each player", minimum=1, maximum=15),
        OptionSpec("stack_draws", str,
                   "off: a draw card is never answered. same: a Draw 2 (Hit 2) may be "
                   "answered with another, a Wild Draw 4 (Wild Hit 4) with another, and the "
                   "count adds up until someone cannot or will not stack; he takes "
                   "(presses) the total and loses his turn. cross: also a Wild Draw 4 "
                   "(Wild Hit 4) on a Draw 2 (Hit 2) and the reverse. up: same, and a Wild "
                   "Draw 4 (Wild Hit 4) on a Draw 2 (Hit 2) but not the reverse",
                   choices=("off", "same", "cross", "up")),
        OptionSpec("stacked_draw4_challenge", bool,
                   "with stack_draws and wild_draw4_restricted: a Wild Draw 4 laid on a "
                   "pending stack may be challenged too (false: only a Wild Draw 4 that "
                   "starts a stack is open to a challenge)"),
        OptionSpec("seven_zero", bool,
                   "a 7 swaps hands with a seat its player chooses; a 0 passes every hand "
                   "one seat on in the direction of play (where the deck has 0s)"),
        OptionSpec("jump_in", bool,
                   "a card identical to the top card (colour and face) may be played out of "
                   "turn; play goes on from the jumper; the first declaration wins"),
        OptionSpec("jump_in_wilds", bool,
                   "with jump_in: a wild may be jumped in on the same wild (a Wild on a "
                   "Wild, a Wild Draw 4 on a Wild Draw 4); the jumper names the colour"),
        OptionSpec("no_jump_in_on_stack", bool,
                   "with jump_in and stack_draws: nobody may jump in while a stack is "
                   "pending (false: an identical draw card jumps in and joins the stack)"),
        OptionSpec("draw_until_playable", bool,
                   "pile editions: a seat that cannot play draws one card at a time until "
                   "it draws a playable card"),
        OptionSpec("forced_play", bool, "a playable drawn card must be played"),
        OptionSpec("no_bluff", bool,
                   "a Wild Draw 4 (Attack: Wild Hit 4) only with no card of the current "
                   "colour, and no challenge"),
        OptionSpec("no_action_finish", bool,
                   "nobody may go out on an action or wild card"),
        OptionSpec("no_draw_finish", bool,
                   "nobody may go out on a card that makes a seat draw or press (Draw 1, "
                   "Draw 2, Wild Draw 4, Hit 2, Wild Hit 4, Wild Hit Fire, Wild All Hit, "
                   "Wild Attack-Attack, Extremer Zug); Skip, Reverse and the other cards "
                   "may finish"),
        OptionSpec("banned_finish_penalty", int,
                   "cards (launcher editions: presses) a player takes for trying to go out "
                   "on a card no_action_finish or no_draw_finish bans; the card stays in "
                   "his hand and his turn goes on (0: the play is only refused)",
                   minimum=0, maximum=20),
        OptionSpec("false_uno_penalty", int,
                   "cards (launcher editions: presses) for a false UNO call: a play with "
                   "the call that leaves two cards or more, or a call by a seat holding "
                   "two cards or more (0: such a call is refused)", minimum=0, maximum=20),
        OptionSpec("swap_uno_called", bool,
                   "with seven_zero: a hand of one card that a 7 or 0 gives a seat counts "
                   "as called; nobody can catch it"),
        OptionSpec("playable_draw_penalty", int,
                   "simulation: cards (launcher editions: presses) a seat takes instead of "
                   "its draw when it draws although it holds a card it may play; its turn "
                   "ends (0: no penalty; the draw is refused unless draw_when_playable). "
                   "At the table nobody sees the hand: every draw is trusted",
                   minimum=0, maximum=20),
        OptionSpec("turn_timer_s", int,
                   "seconds a seat has for its turn (0: no timer); the seat's light blinks "
                   "and the buzzer warns in the last 5 s", minimum=0, maximum=600),
        OptionSpec("timeout_action", str,
                   "what the table does when the turn timer runs out",
                   choices=("draw", "pass", "warn")),
    )
}

# House rules whose rule is not built yet: accepted at their default only, refused
# otherwise, so that no option is ever silently ignored.
NOT_YET: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Options:
    """Every option's value for one match (see OPTION_SPECS for meanings)."""

    draw_then_play: bool = False
    draw_when_playable: bool = False
    wild_draw4_restricted: bool = False
    wild_draw4_points: int = 50
    wild_restricted: bool = False
    skip_reverse_extra_turn: str = "two-player"
    two_player_reverse_skips: bool = True
    wild_customizable: str = "wild"
    all_hit_scope: str = "all"
    scoring: str = "winner_takes"
    target_score: int = 500
    uno_penalty: int = 2
    forgotten_uno: str = CATCH
    hand_size: int = 7
    stack_draws: str = "off"
    stacked_draw4_challenge: bool = False
    seven_zero: bool = False
    jump_in: bool = False
    jump_in_wilds: bool = False
    no_jump_in_on_stack: bool = False
    draw_until_playable: bool = False
    forced_play: bool = False
    no_bluff: bool = False
    no_action_finish: bool = False
    no_draw_finish: bool = False
    banned_finish_penalty: int = 0
    false_uno_penalty: int = 0
    swap_uno_called: bool = False
    playable_draw_penalty: int = 0
    turn_timer_s: int = 0
    timeout_action: str = "draw"

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# the house rules of issue 12 the engine plays (turn_timer_s/timeout_action are the
# table's): while one is on, the engine lists every decision its general way (no uno_core.listing)
# and the simulation kernel hands every turn to the engine
ENGINE_HOUSE_RULES: tuple[str, ...] = (
    "stack_draws", "seven_zero", "jump_in", "draw_until_playable", "forced_play",
    "no_bluff", "no_action_finish",
    # issue 23: the rules other tables play
    "stacked_draw4_challenge", "jump_in_wilds", "no_jump_in_on_stack", "no_draw_finish",
    "banned_finish_penalty", "false_uno_penalty", "swap_uno_called", "playable_draw_penalty",
)
# the options the engine's shortcuts (uno_core.listing, engine.play_plain, the simulation
# kernel's loop) were written for (issue 11); turn_timer_s/timeout_action are the table's
FAST_PATH_OPTIONS = frozenset({
    "draw_then_play", "draw_when_playable", "wild_draw4_restricted", "wild_draw4_points",
    "wild_restricted", "skip_reverse_extra_turn", "two_player_reverse_skips",
    "wild_customizable", "all_hit_scope", "scoring", "target_score", "uno_penalty",
    "forgotten_uno", "hand_size", "turn_timer_s", "timeout_action"})


def house_rules_on(options: Options) -> bool:
    """Whether an option the shortcuts were not written for is away from its default: an
    engine house rule, or any option added later. Then every decision is listed anew,
    every play goes through `play`, and the kernel hands the match to the engine, so no
    shortcut ever skips a rule."""
    return any(f.name not in FAST_PATH_OPTIONS and getattr(options, f.name) != f.default
               for f in fields(options))


# `[table] preset`: named sets of options a table starts from (its own overrides win).
# Only the options that apply to the edition are taken (see preset_options).
PRESETS: dict[str, Mapping[str, object]] = {
    "seed": {},  # the seed rules as written: every house rule off
    "mattel": {},  # per edition: MATTEL (docs/rules.md, "Presets")
    "party": {"stack_draws": "cross", "seven_zero": True, "jump_in": True},
}

# "mattel": Mattel's official rules where they differ from the seed of the edition
# (Power's seed 000 and Attack's 001 are Mattel's own sheets: nothing differs)
MATTEL: dict[str, Mapping[str, object]] = {
    "classic": {"draw_then_play": True, "draw_when_playable": True,
                "wild_draw4_restricted": True, "wild_draw4_points": 50,
                "forgotten_uno": CATCH},
    "attack-1999": {"all_hit_scope": "others"},
    "extreme": {"draw_then_play": False, "wild_restricted": False},
}


def preset_options(preset: str, edition: Edition) -> dict[str, object]:
    """The options `preset` sets that apply to `edition`; OptionError for an unknown name."""
    chosen = PRESETS.get(preset)
    if chosen is None:
        raise OptionError("preset", "unknown_preset", value=preset, known=tuple(PRESETS))
    if preset == "mattel":
        chosen = {**chosen, **MATTEL.get(edition.name, {})}
    return {k: v for k, v in chosen.items() if k in edition.option_defaults}


def check_value(name: str, value: object) -> object:
    spec = OPTION_SPECS.get(name)
    if spec is None:
        raise OptionError(name, "unknown_option", known=tuple(sorted(OPTION_SPECS)))
    if spec.type is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise OptionError(name, "expected_integer", value=value)
    if not isinstance(value, spec.type):  # the other options are bool or str
        raise OptionError(name, "expected_bool" if spec.type is bool else "expected_text",
                          value=value)
    if spec.choices and value not in spec.choices:
        raise OptionError(name, "not_a_choice", value=value, known=tuple(spec.choices))
    if spec.minimum is not None and isinstance(value, int) and value < spec.minimum:
        raise OptionError(name, "below_minimum", value=value, minimum=spec.minimum)
    if spec.maximum is not None and isinstance(value, int) and value > spec.maximum:
        raise OptionError(name, "above_maximum", value=value, maximum=spec.maximum)
    return value


def option_from_text(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` (a command line's ``--option``) as a checked, typed pair: VALUE is
    read by the option's type (true/false, an integer, one of its choices).
    OptionError names the option and the bad value."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise OptionError(text, "expected_name_value")
    spec = OPTION_SPECS.get(name)
    if spec is None:
        check_value(name, raw)  # raises: unknown option, naming the known ones
    value: object = raw
    if spec is not None and spec.type is bool:
        lowered = raw.lower()
        if lowered not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
            raise OptionError(name, "expected_true_false", value=raw)
        value = lowered in ("true", "on", "yes", "1")
    elif spec is not None and spec.type is int:
        try:
            value = int(raw)
        except ValueError:
            raise OptionError(name, "expected_integer", value=raw) from None
    return name, check_value(name, value)


# the options missing from the launcher editions because they draw by pressing it (their
# error says why: `uno_core.problems`, "pile_only")
PILE_ONLY = frozenset({"draw_until_playable"})


def make_options(edition: Edition, overrides: Mapping[str, object] | None = None) -> Options:
    """The edition's defaults with `overrides` applied; rejects unknown/inapplicable/bad ones."""
    values: dict[str, object] = dict(edition.option_defaults)
    for name, value in (overrides or {}).items():
        check_value(name, value)
        if name not in edition.option_defaults:
            raise OptionError(name, "pile_only" if edition.launcher and name in PILE_ONLY
                              else "not_here", edition=edition.name)
        if name in NOT_YET and value != edition.option_defaults[name]:
            raise OptionError(name, "not_built")
        values[name] = value
    return replace(Options(), **values)  # type: ignore[arg-type]
