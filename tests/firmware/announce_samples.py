"""Published events of every kind the voice speaks, built from the engine's own actions
and effects (as the controller publishes them: `effects_json`)."""

from __future__ import annotations

from typing import Any

import uno_core as U
from firmware.controller.slots import effects_json
from uno_core import effects as E

NAMES = ("North", "East", "South", "West")


def action_event(action: Any, *effects: Any) -> dict[str, Any]:
    return {"kind": "action", "action": U.action_to_dict(action),
            "effects": effects_json(effects), "step": 7}


def card(text: str) -> U.Card:
    return U.parse_card(text)


# (what is announced, event, the seat whose turn it is afterwards, edition)
SAMPLES: list[tuple[str, dict[str, Any], int | None, str]] = [
    ("turn", action_event(U.Play(0, card("R7")), E.CardPlayed(0, card("R7"))), 1, "classic"),
    ("draw two", action_event(U.Play(0, card("B+2")), E.CardPlayed(0, card("B+2")),
                              E.Dispense(1, 2), E.PlayerSkipped(1)), 2, "classic"),
    ("presses", action_event(U.Play(3, card("GH2")), E.CardPlayed(3, card("GH2")),
                             E.OwePresses(0, 2, E.FIXED)), None, "attack"),
    ("ejected", action_event(U.Eject(3), E.Ejected(2, 3)), 3, "attack"),
    ("protection", action_event(U.Play(1, card("Y+2")), E.CardPlayed(1, card("Y+2")),
                                E.ProtectionUsed(2, "N", card("Y+2"))), 2, "power"),
    ("tower capture", action_event(U.Play(2, card("R3!")), E.CardPlayed(2, card("R3!")),
                                   E.TowerMoved("!", 2)), 3, "power"),
    ("uno call", action_event(U.Play(1, card("G5"), uno=True), E.CardPlayed(1, card("G5")),
                              E.UnoCalled(1)), 2, "classic"),
    ("uno catch", action_event(U.Catch(3, 1), E.UnoPenalty(1, 3), E.Dispense(1, 2)), 2,
     "power"),
    ("round winner", action_event(U.Play(2, card("Y9")), E.CardPlayed(2, card("Y9")),
                                  E.RoundOver(2, (12, 40, 0, 3), (0, 0, 55, 20))), None,
     "classic"),
    ("match winner", action_event(U.EnterHand(3, (card("R1"),)),
                                  E.RoundOver(2, (1, 0, 0, 0), (0, 0, 510, 20)),
                                  E.MatchOver((2,), (0, 0, 510, 20))), None, "classic"),
]
