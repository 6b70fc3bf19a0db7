"""The page's own matching check (firmware/web/rules.js) agrees with the rules engine.

The screen refuses a non-matching card before it asks the table; it takes the rules for
that from GET /api/editions (`uno_core.page_rules`, made from the engine's tables), holding
no copy of its own. Here both judge every (top card, colour, card) of every edition.
"""

from __future__ import annotations

from tests.web.screen import EngineTable
from uno_core import EDITIONS, format_card, position
from uno_core.matching import match_set


def cases() -> tuple[list[dict], list[bool]]:
    states, expected = [], []
    for name, edition in EDITIONS.items():
        deck = list(dict.fromkeys(format_card(c) for c in edition.deck))
        for top in deck:
            for colour in ("RGBY" if top.startswith("W") else top[0]):
                ok = {format_card(c) for c in match_set(
                    position(name, counts=[5, 5], discard=top, colour=colour, mode="table"))}
                states.append({"edition": name, "top": top, "colour": colour, "deck": deck})
                expected.extend(card in ok for card in deck)
    return states, expected


def test_the_screen_and_the_engine_agree_on_which_cards_match(page, served):
    server = served(EngineTable(position("classic", hands=["R7", "G1"], discard="R5", turn=0)))
    page.goto(server.url + "/")
    states, expected = cases()
    judged = page.evaluate("""async (states) => {
        const rules = await import("/static/rules.js");
        const before = rules.matchReason(states[0], "W") === null;  // no catalogue: no refusal
        rules.setCatalog(await (await fetch("/api/editions")).json());
        return [before, ...states.flatMap((s) => s.deck.map((card) => rules.matchReason(s, card) === null))];
    }""", states)
    assert judged.pop(0) is True
    assert len(judged) == len(expected) > 5000
    named = [(s["top"], s["colour"], card) for s in states for card in s["deck"]]
    wrong = [(top, colour, card, "screen says", a) for (top, colour, card), a, b
             in zip(named, judged, expected, strict=True) if a != b]
    assert wrong == []


def test_the_screen_asks_for_the_choices_the_engine_needs(page, served):
    from uno_core.matching import TARGETED, effective_kind, free_towers, tower_count

    server = served(EngineTable(position("classic", hands=["R7", "G1"], discard="R5", turn=0)))
    page.goto(server.url + "/")
    states, expected = [], []
    for name, edition in EDITIONS.items():
        customs = ("wild", "attack-attack", "trade-hands") if name == "attack" else (None,)
        for custom in customs:
            for towers in ({}, {"U": 0, "N": 1}, {"U": 0, "N": 0, "O": 0}):  # 4, 3 and 1 free
                if towers and not edition.towers:
                    continue
                s = position(name, counts=[5, 5], discard="R5" if name != "power" else "R5U",
                             towers=towers or None, mode="table",
                             options={"wild_customizable": custom} if custom else None)
                public = {"edition": name,
                          "towers": ({t: towers.get(t) for t in "UNO!"} if edition.towers else None),
                          "options": s.options.as_dict()}
                for card in edition.deck:
                    want = tower_count(s, card) if edition.towers else 0
                    states.append({**public, "card": format_card(card)})
                    expected.append({"colour": card.is_wild,
                                     "target": effective_kind(s, card) in TARGETED,
                                     "towers": min(want, len(free_towers(s, 0))),
                                     "laid": card.colour if card.kind == "DA" else ""})
    judged = page.evaluate("""async (states) => {
        const rules = await import("/static/rules.js");
        rules.setCatalog(await (await fetch("/api/editions")).json());
        return states.map((s) => {
            const n = rules.needs(s, 0, s.card);
            return {colour: n.colour, target: n.target, towers: n.towers, laid: n.laid};
        });
    }""", states)
    wrong = [(s["card"], s["towers"], s["options"]["wild_customizable"], a, b)
             for s, a, b in zip(states, judged, expected, strict=True) if a != b]
    assert len(states) > 1000 and wrong == []
