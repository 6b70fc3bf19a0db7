"""Round and match ends are announced on the screen (issue 14, point 1): the round's
result stays on the daemon's screen until someone taps "next round"; the match's end
shows the winner and a score chart the page draws itself (SVG, one point per round)."""

from __future__ import annotations

from playwright.sync_api import expect
from screen import EngineTable

from firmware.sim.testbed import SimTable


def test_a_round_end_shows_who_went_out_the_points_and_totals_until_next_round(page, tmp_path):
    with SimTable(tmp_path, "classic", players=2, seed=3) as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "round-over")
        r = st["round_end"]
        assert st["rounds"] == [r] and r["round"] == 1
        page.set_viewport_size({"width": 800, "height": 480})
        page.goto(table.url)
        panel = page.locator("#round-end")
        expect(panel).to_be_visible()
        names = st["names"]
        expect(panel.locator("h2")).to_have_text(
            f"Round 1 is over: {names[r['winner']]} went out")
        # who went out and with what each hand gave: the loser's cards went to the winner,
        # whose row scores their sum (it read "+23" beside a loser's total of 0)
        won = sum(r["points"])
        expect(panel.locator("#round-how")).to_have_text(
            f"The cards left in the other hands count for {names[r['winner']]}: +{won}")
        for seat in range(2):
            row = panel.locator(f'tr[data-seat="{seat}"]')
            expect(row.locator(".name")).to_have_text(names[seat])
            out = seat == r["winner"]
            expect(row.locator(".hand")).to_have_text(
                "went out" if out else f"{r['points'][seat]} to {names[r['winner']]}")
            expect(row.locator(".points")).to_have_text(f"+{won}" if out else "–")
            expect(row.locator(".total")).to_have_text(str(r["scores"][seat]))
        assert won > 0 and r["points"][r["winner"]] == 0 and r["scores"][r["winner"]] == won
        size = panel.locator(".name").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 24
        assert panel.locator("#next-round").bounding_box()["height"] >= 48
        page.click("#next-round")
        expect(page.locator("#ends")).to_be_hidden()
        after = table.wait_for(lambda st: st["waiting"]["kind"] == "shuffle")
        assert after["round_end"] is None and after["rounds"] == [r]
        next_rounds = [e for e in table.events if e["kind"] == "next_round"]
        assert [(e["round"], e["by"]) for e in next_rounds] == [(1, "tap")]


def test_a_match_end_shows_the_winner_and_a_chart_with_a_point_per_round(page, served):
    table = EngineTable.new("classic", 3, names=["Ann", "Bo", "Cy"])
    rounds = [{"round": 1, "winner": 0, "points": [0, 40, 12], "scores": [0, 40, 12]},
              {"round": 2, "winner": 1, "points": [90, 0, 7], "scores": [90, 40, 19]},
              {"round": 3, "winner": 2, "points": [30, 480, 0], "scores": [120, 520, 19]}]
    table.extra = {"rounds": rounds, "round_end": None, "winners": [2],
                   "waiting": {"kind": "match-over", "winners": [2], "message": "match over"}}
    s = served(table)
    page.set_viewport_size({"width": 800, "height": 480})
    page.goto(s.url)
    panel = page.locator("#match-end")
    expect(panel.locator("h2")).to_have_text("Cy won the match")
    chart = panel.locator("svg#score-chart")
    expect(chart).to_be_visible()
    for seat in range(3):
        expect(chart.locator(f'circle[data-seat="{seat}"]')).to_have_count(3)
    ys = [chart.locator(f'circle[data-seat="1"][data-round="{n}"]').get_attribute("cy")
          for n in (1, 2, 3)]
    assert float(ys[2]) < float(ys[0])  # Bo's total grows: higher up the chart
