"""What the table waits for: the ``kind`` of ``GET /api/state``'s ``waiting``.

One vocabulary for the controller that says it, the simulated players that answer it
and the page that words it (`firmware/web/app.js`'s ``waitingText``; a test holds the
two together). A `StrEnum`, so each member is the very string the API sends.
"""

from __future__ import annotations

from enum import StrEnum


class Wait(StrEnum):
    # no match, or the match is over
    NEW_MATCH = "new-match"
    MATCH_OVER = "match-over"
    # something physical, before anyone may act (`firmware.controller.waiting.Waits.physical`)
    JOURNAL = "journal"  # the journal cannot be written: the table retries by itself
    CARDS_OUT = "cards-out"  # an ejection was cut off: count what came out
    PAUSED = "paused"
    JAM = "jam"
    RELOAD = "reload"
    EXTRA_CARDS = "extra-cards"  # a double feed: put the extra cards back
    ALARM = "alarm"  # a tower moved without a capture
    EJECTING = "ejecting"  # the launcher turns or ejects
    TOWER = "tower"  # a captured tower is to be carried to its slot
    # the chance player: people do what the engine cannot see
    DEALER_CARDS = "dealer-cards"
    SHUFFLE = "shuffle"
    REVEAL = "reveal"
    HAND = "hand"  # enter the cards left in a hand (scoring)
    ROUND_OVER = "round-over"  # the round's result is shown: tap next round, or wait
    # a seat decides (the engine's phase, `PHASE_WAITS`)
    PRESS = "press"
    TURN = "turn"
    PLAY_DRAWN = "play-drawn"
    EXTRA_PLAY = "extra-play"
    CHALLENGE = "challenge"
    VERDICT = "verdict"
    COLOUR = "colour"
    FOUR_TOWERS = "four-towers"


# the engine's phase (`uno_core` State.phase) -> what the table waits for in it
PHASE_WAITS: dict[str, Wait] = {
    "play": Wait.TURN, "drawn": Wait.PLAY_DRAWN, "extra": Wait.EXTRA_PLAY,
    "challenge": Wait.CHALLENGE, "verdict": Wait.VERDICT, "first_colour": Wait.COLOUR,
    "four_towers": Wait.FOUR_TOWERS, "hand_entry": Wait.HAND}

# waits a seat answers with a decision of its own (a press or a `Decide`)
SEAT_DECISIONS = frozenset({Wait.TURN, Wait.PLAY_DRAWN, Wait.EXTRA_PLAY, Wait.CHALLENGE,
                            Wait.COLOUR, Wait.FOUR_TOWERS, Wait.PRESS, Wait.VERDICT})
# the launcher or the journal is busy: the table goes on by itself
SELF_CLEARING = frozenset({Wait.EJECTING, Wait.JOURNAL})
# the launcher stopped: resume once the people have seen to it
RESUMABLE = frozenset({Wait.PAUSED, Wait.JAM, Wait.RELOAD})
