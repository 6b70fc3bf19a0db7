"""What stops the table goes out as the same JSON, key by key and in the same order, as
the API sent before the controller kept it typed (golden strings: GET /api/state's
``waiting`` and ``alarm``, and the ``blocked``/``alarm`` events)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from firmware.controller.stops import Alarm, CutOff, ExtraCards, Jam, JournalFault, Reload
from firmware.words.messages import Words

RESUME = "then resume (POST /api/admin/resume)"
# the launcher's stops word their message with the table's words (issue 14: seats by name)
WORDS = Words("en", ["North", "East", "South", "West"])


@pytest.mark.parametrize(("held", "sent"), [
    (Jam("motor stalled"), '{"kind": "jam", "message": "the launcher is jammed: clear it, '
                           f'{RESUME}", "fault": "motor stalled"}}'),
    (Jam(None), f'{{"kind": "jam", "message": "the launcher is jammed: clear it, {RESUME}", '
                '"fault": null}'),
    (Reload(), f'{{"kind": "reload", "message": "the launcher\'s hopper is empty: reload it, '
               f'{RESUME}"}}'),
    (ExtraCards(2, 3), '{"kind": "extra-cards", "seat": 2, "count": 3, "message": "3 card(s) '
                       "too many came out for South: put them back under the launcher's "
                       f'stack, {RESUME}"}}'),
    (Alarm("U", None, "neutral", "tower U was lifted"),
     '{"kind": "alarm", "tower": "U", "slot": null, "expected": "neutral", '
     '"message": "tower U was lifted"}'),
    (CutOff(7, 1, 4, "deal"), '{"kind": "cards-out", "seat": 1, "want": 4, "message": '
                              '"an ejection to East was cut off: count the cards that came '
                              'out and enter them (override cards-out)"}'),
    (JournalFault("full", "the disk is full"),
     '{"kind": "journal", "cause": "full", "message": "the disk is full (the table is paused)"}'),
])
def test_the_api_sees_what_it_always_saw(held, sent):
    words = (WORDS,) if isinstance(held, Jam | Reload | ExtraCards | CutOff) else ()
    assert json.dumps(held.to_json(*words)) == sent


def test_what_stops_the_table_cannot_change_behind_its_back():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Alarm("U", 3, 0, "moved").slot = 0  # type: ignore[misc]
