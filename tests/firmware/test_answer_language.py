"""Issue 14, point 4: the daemon answers in the language a request asks for
(``Accept-Language``, as the screen sends its own), else in its `[table] language`;
the refusals of the rules engine too, seats by name."""

from __future__ import annotations

from firmware.sim.testbed import SimTable
from firmware.words.messages import DEFAULT_NAMES
from tests.firmware.conftest import request


def call(url: str, path: str, body: dict | None = None, lang: str | None = None) -> tuple[int, dict]:
    return request(url, "GET" if body is None else "POST", path, body, lang=lang)


def test_refusals_and_waits_come_in_the_language_asked_for(tmp_path):
    with SimTable(tmp_path, "classic", players=3, language="en") as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        assert call(table.url, "/api/next-round", {}) == (409, {
            "error": "rejected", "reason": "no round is over: there is no pause to end", "field": None,
            "key": "refused.no_pause", "values": {}})  # the key and values whatever the language
        status, body = call(table.url, "/api/next-round", {}, lang="de-DE,de;q=0.9,en;q=0.8")
        assert (status, body["reason"]) == (409, "Keine Runde ist vorbei: es gibt keine Pause zu beenden")
        assert call(table.url, "/api/next-round", {}, lang="fr")[1]["reason"].startswith("no round")

        seat = st["to_act"]
        other = (seat + 1) % 3
        card = table.world.hands[other][0]
        status, body = call(table.url, "/api/play", {"seat": other, "card": card}, lang="de")
        german = DEFAULT_NAMES["de"]  # the demo's compass names, in the language answered
        mover = german.get(st["names"][seat], st["names"][seat])
        assert (status, body["reason"]) == (409, f"{mover} ist dran, nicht du")
        _, state = call(table.url, "/api/state", lang="de")
        assert state["waiting"]["message"] == f"{mover}: du bist dran"
        assert table.state()["waiting"]["message"] == f"{st['names'][seat]}: your turn"


def test_a_german_table_answers_in_german_unless_asked_otherwise(tmp_path):
    with SimTable(tmp_path, "classic", players=3, language="de") as table:
        table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        assert call(table.url, "/api/admin/resume", {})[1]["reason"].startswith("Nichts fortzusetzen")
        assert call(table.url, "/api/admin/resume", {}, lang="en")[1]["reason"].startswith(
            "nothing to resume")


def test_a_bad_field_is_said_in_the_language_asked_for(tmp_path):
    with SimTable(tmp_path, "classic", players=3) as table:
        body = {"kind": "cards-out", "count": 500}
        answer = call(table.url, "/api/admin/override", body)[1]
        assert (answer["key"], answer["values"]) == ("field.maximum", {"limit": 120, "value": "500"})
        assert answer["reason"] == "count must be at most 120, not 500"
        assert call(table.url, "/api/admin/override", body, lang="de")[1]["reason"] == (
            "count: darf höchstens 120 sein, nicht 500")
        status, answer = call(table.url, "/api/play", {"seat": 7, "card": "R1"}, lang="de")
        assert (status, answer["reason"]) == (404, "Platz 8 gibt es nicht: der Tisch hat die Plätze 1 bis 3")


def test_a_refused_house_rule_or_set_up_is_said_wholly_in_the_language_asked_for(tmp_path):
    """uno_core's OptionError and SetupError carry a key and values: the answer words them
    in German without an English fragment, and sends the key and values beside them."""
    with SimTable(tmp_path, "classic", players=8) as table:  # eight seat buttons
        before = table.journal_seq
        status, answer = call(table.url, "/api/admin/new-match",
                              {"options": {"stack_draws": "wild"}}, lang="de")
        assert (status, answer["key"], answer["values"]) == (422, "refused.option", {
            "option": "stack_draws", "problem": {
                "key": "refused.option.not_a_choice",
                "values": {"value": "wild", "known": ["off", "same", "cross", "up"]}}})
        assert answer["reason"] == "Hausregel stack_draws: „wild“ geht nicht, nur: off, same, cross, up"
        english = call(table.url, "/api/admin/new-match", {"options": {"stack_draws": "wild"}})[1]
        assert english["reason"] == "option stack_draws: 'wild' is not one of off, same, cross, up"

        status, answer = call(table.url, "/api/admin/new-match",
                              {"edition": "power", "seats": 7}, lang="de")  # Power seats 6
        assert (status, answer["key"], answer["values"]) == (422, "refused.setup", {
            "problem": {"key": "refused.setup.seat_count",
                        "values": {"edition": "power", "low": 2, "high": 6, "given": 7}}})
        assert answer["reason"] == (
            "Dieses Spiel lässt sich so nicht aufbauen: power ist für 2 bis 6 Spieler, nicht für 7")
        assert table.journal_seq == before  # nothing changed


def test_a_match_whose_hands_do_not_fit_the_deck_is_refused_before_it_starts(tmp_path):
    with SimTable(tmp_path, "classic", players=8) as table:  # 8 hands of 15: 121 cards > 108
        before = table.journal_seq
        status, answer = call(table.url, "/api/admin/new-match", {"options": {"hand_size": 15}},
                              lang="de")
        assert (status, answer["key"], answer["values"]["problem"]) == (422, "refused.setup", {
            "key": "refused.setup.deal_too_big", "values": {"count": 8, "size": 15, "deck": 108}})
        assert answer["reason"] == ("Dieses Spiel lässt sich so nicht aufbauen: 8 Hände mit je "
                                    "15 Karten passen nicht in ein Spiel mit 108 Karten")
        assert table.journal_seq == before
