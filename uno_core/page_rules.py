"""The public rules a screen checks before it asks the table, as data made from the
engine's own tables (``GET /api/editions`` serves them; ``firmware/web/rules.js`` reads
them, so the page holds no copy of a rule).

``page_rules(edition)`` is ``{"fits", "forbids", "kinds", "custom_kinds"}``:

- ``fits[top][colour]``: the deck's cards (in notation) that may go on `top` while
  `colour` is the colour (``Tables.match``), for every colour a table can show with
  that top card: its own colour, any of the four under a wild;
- ``forbids[top]``: the kind a top card's power symbol forbids (Power), for the reason
  the page words;
- ``kinds[kind]``: ``{"targeted", "towers", "lays"}`` from ``kinds.KINDS``, for every
  kind of the deck and every kind a Wild Customizable may play as: the choices a
  declared card needs;
- ``custom_kinds``: ``wild_customizable``'s words to the kind the card plays as
  (``kinds.CUSTOM_KIND``), for a deck with a Wild Customizable.
"""

from __future__ import annotations

from typing import Any

from uno_core.cards import COLOURS, WILD_CUSTOM, format_card
from uno_core.editions import Edition
from uno_core.kinds import CUSTOM_KIND, KINDS
from uno_core.options import make_options
from uno_core.tables import forbidden_kind, tables_for


def page_rules(edition: Edition) -> dict[str, Any]:
    """The rules of `edition` a screen may check on its own (see the module docstring)."""
    tables = tables_for(edition, make_options(edition, {}))
    faces = list(dict.fromkeys(edition.deck))
    fits: dict[str, dict[str, list[str]]] = {}
    forbids: dict[str, str] = {}
    for top in faces:
        text = format_card(top)
        colours = (top.colour,) if top.colour else COLOURS
        fits[text] = {colour: [format_card(c) for c in faces
                               if c.bit & tables.match[top.id][colour]]
                      for colour in colours}
        if forbidden_kind(top):
            forbids[text] = forbidden_kind(top)
    custom = WILD_CUSTOM in edition.kinds
    kinds = {c.kind for c in faces if c.kind in KINDS}
    if custom:
        kinds |= set(CUSTOM_KIND.values())
    return {
        "fits": fits,
        "forbids": forbids,
        "kinds": {k: {"targeted": KINDS[k].targeted, "towers": KINDS[k].towers,
                      "lays": KINDS[k].lays} for k in sorted(kinds)},
        "custom_kinds": dict(CUSTOM_KIND) if custom else {},
    }
