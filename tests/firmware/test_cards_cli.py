"""`unotable cards enroll` on the twin's pad (a simulated PN532 on a pty) with a scripted
tapper that answers each prompt as a person would; `unotable cards check`; [pad] in
`unotable config check`."""

import io
import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import tomlkit

import uno_core
from firmware.cli import main
from firmware.config import DEFAULT_PATH, check_config
from hal.pad import parse_config
from hal.sim.pad import SimPad, chip_tags, deck_tags
from uno_core.cards import format_card

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = [format_card(c) for c in uno_core.get_edition("classic").deck]
HEAD = '# the table in the kitchen\n[table]\nedition = "classic"  # our deck\nseats = 4\n'
PROMPT = re.compile(r"^(Card|Chip) (\d+) of (\d+): .*\((\S+?)(?:, copy (\d+) of \d+)?\)\. Tap it")
LINE_WAIT_S = 20.0  # a prompt slower than this is a hung command, not a slow machine


def with_tags(cards=None, chips=None):
    """HEAD with the given [pad.cards] / [pad.chips] entries."""
    text = HEAD
    for name, tags in (("cards", cards), ("chips", chips)):
        if tags:
            text += f"\n[pad.{name}]\n" + "".join(f"\"{uid}\" = \"{v}\"\n" for uid, v in tags.items())
    return text


class Tapper:
    """`unotable cards enroll` in its own process on the twin's pad; `prompt()` waits for
    the next "Card ... Tap it" line, `tap_asked()` taps the very card it asks for."""

    def __init__(self, twin, config):
        self.twin = twin
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware", "cards", "enroll", "--config", str(config),
             "--port", twin.port, "--timeout", "0.3"],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.out: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def line(self):
        line = self._lines.get(timeout=LINE_WAIT_S)
        assert line is not None, f"enroll ended: {self.out} {self.proc.stderr.read()}"
        self.out.append(line)
        return line

    def until(self, pattern):
        while not re.search(pattern, line := self.line()):
            pass
        return line

    def prompt(self):
        """(section, value, copy index) of the next prompt."""
        while not (m := PROMPT.match(self.line())):
            pass
        kind, _, _, value, copy = m.groups()
        return ("cards" if kind == "Card" else "chips", value, int(copy or 1) - 1)

    def tag(self, asked):
        section, value, copy = asked
        if section == "chips":
            return next(uid for uid, colour in self.twin.chips.items() if colour == value)
        return self.twin.tag_of(value, copy)

    def tap_asked(self, asked):
        self.twin.hold(self.tag(asked))  # until the next: a busy machine cannot miss it
        self.until(r"^\S+ = 04")

    def stop(self):
        self.proc.stdin.write("q\n")
        self.proc.stdin.flush()
        return self.finish()

    def finish(self):
        rest = self.proc.stdout and self.proc.wait(timeout=LINE_WAIT_S)
        while (line := self._lines.get(timeout=LINE_WAIT_S)) is not None:
            self.out.append(line)
        self.proc.stdin.close()
        self.proc.stderr.close()
        return rest


@pytest.fixture
def twin():
    with SimPad("classic", CLASSIC) as sim:
        yield sim


def test_enrolment_stops_when_told_and_goes_on_at_the_first_card_without_a_tag(
        twin, tmp_path):
    config = tmp_path / "unotable.toml"
    config.write_text(HEAD, encoding="utf-8")
    tapper = Tapper(twin, config)
    for number in range(1, 6):
        asked = tapper.prompt()
        assert asked[1] == CLASSIC[number - 1]
        tapper.tap_asked(asked)
    assert tapper.prompt()[1] == CLASSIC[5]
    assert tapper.stop() == 1
    assert any("Stopped: 5 tags saved, 107 still without a tag" in line for line in tapper.out)
    text = config.read_text(encoding="utf-8")
    assert text.startswith(HEAD)  # comments kept
    saved = dict(tomlkit.parse(text)["pad"]["cards"])
    assert saved == dict(list(deck_tags("classic", CLASSIC).items())[:5])

    again = Tapper(twin, config)
    asked = again.prompt()
    assert again.out[-1].startswith("Card 6 of 108: ")
    assert asked == ("cards", CLASSIC[5], 0)  # R5, the first of its two copies
    again.tap_asked(asked)
    assert again.stop() == 1
    assert len(tomlkit.parse(config.read_text(encoding="utf-8"))["pad"]["cards"]) == 6


def test_a_tag_that_names_another_card_or_two_tags_at_once_are_refused_and_nothing_saved(
        twin, tmp_path):
    first = dict(list(deck_tags("classic", CLASSIC).items())[:1])  # R0 enrolled already
    config = tmp_path / "unotable.toml"
    config.write_text(with_tags(first), encoding="utf-8")
    tapper = Tapper(twin, config)
    asked = tapper.prompt()
    assert asked == ("cards", "R1", 0)
    twin.hold(twin.tag_of("R0"))
    assert tapper.line() == "This tag is the R0 already."
    twin.hold(twin.tag_of("R2"), twin.tag_of("R3"))
    assert tapper.line() == "2 tags on the pad at once: tap one card at a time."
    assert tomlkit.parse(config.read_text(encoding="utf-8"))["pad"]["cards"] == first
    tapper.tap_asked(asked)
    assert tapper.stop() == 1
    saved = dict(tomlkit.parse(config.read_text(encoding="utf-8"))["pad"]["cards"])
    assert saved == {**first, twin.tag_of("R1"): "R1"}


def test_the_last_cards_then_the_four_chips_finish_the_enrolment(twin, tmp_path):
    tags = deck_tags("classic", CLASSIC)
    config = tmp_path / "unotable.toml"
    config.write_text(with_tags(dict(list(tags.items())[:-2])), encoding="utf-8")
    tapper = Tapper(twin, config)
    asked = []
    for _ in range(6):
        asked.append(tapper.prompt())
        tapper.tap_asked(asked[-1])
    assert asked == [("cards", "W+4", 2), ("cards", "W+4", 3),
                     *[("chips", c, 0) for c in "RGBY"]]
    assert tapper.finish() == 0
    assert tapper.out[-1] == "Done: 6 tags saved; every card and chip has a tag."
    cfg = parse_config({"port": "/dev/pad", **tomlkit.parse(config.read_text())["pad"]},
                       path="pad")
    assert dict(cfg.cards) == tags and dict(cfg.chips) == chip_tags()


def run(capsys, *argv, stdin=""):
    sys_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(list(argv))
    finally:
        sys.stdin = sys_stdin
    out = capsys.readouterr()
    return status, out.out, out.err


def test_an_unknown_edition_is_refused_and_the_file_is_left_as_it_was(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    text = HEAD.replace('"classic"', '"uno-flip"') + '[pad]\nport = "/dev/pad"\n'
    config.write_text(text, encoding="utf-8")
    for action in ("enroll", "check"):
        status, _, err = run(capsys, "cards", action, "--config", str(config))
        assert status == 1
        assert "table.edition: unknown edition 'uno-flip'" in err
    assert config.read_text(encoding="utf-8") == text


def test_the_twins_own_pad_taps_what_it_is_asked_for(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    config.write_text(with_tags(dict(list(deck_tags("classic", CLASSIC).items())[:-3])))
    status, out, _ = run(capsys, "cards", "enroll", "--config", str(config), "--port", "sim")
    assert status == 0, out
    assert "Card 106 of 108: Wild Draw 4 (W+4, copy 2 of 4). Tap it on the pad." in out
    assert "Done: 7 tags saved; every card and chip has a tag." in out
    status, out, _ = run(capsys, "cards", "check", "--config", str(config))
    assert status == 0 and "Every card and chip has exactly its tag." in out


def test_a_pad_that_is_not_there_is_said_before_the_first_card(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    config.write_text(HEAD + '[pad]\nport = "/nonexistent/ttyUSB7"\n', encoding="utf-8")
    status, out, err = run(capsys, "cards", "enroll", "--config", str(config))
    assert status == 1 and "Card 1" not in out
    assert "cannot open port /nonexistent/ttyUSB7" in err
    config.write_text(HEAD, encoding="utf-8")
    status, _, err = run(capsys, "cards", "enroll", "--config", str(config))
    assert status == 2 and "no pad to enroll with" in err


def test_check_lists_cards_without_a_tag_duplicated_tags_and_tags_of_another_deck(
        tmp_path, capsys):
    tags = deck_tags("classic", CLASSIC)
    cards = dict(list(tags.items())[2:])  # R0 and one R1 untagged
    r7 = next(uid for uid, code in tags.items() if code == "R7")
    cards["04:00:00:00:00:00:01"] = "R7"  # a third R7
    cards["04AAAAAAAAAA01"] = "R1U"  # of the power deck
    config = tmp_path / "unotable.toml"
    text = with_tags(cards, {**chip_tags(), r7.lower(): "R"})
    config.write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "cards", "check", "--config", str(config))
    assert status == 1
    assert "  R0: 1 of 1 without a tag" in out and "  R1: 1 of 2 without a tag" in out
    assert f"  tag {r7} is written twice: pad.cards.{r7} = 'R7' and pad.chips.{r7.lower()} = 'R'" in out
    assert "  R7: 3 tags for the 2 in the deck" in out
    assert "  tag 04AAAAAAAAAA01: 'R1U' is not a card of the classic deck" in out
    status, out, _ = run(capsys, "cards", "check", "--config", str(config), "--json")
    found = json.loads(out)
    assert (found["edition"], found["cards"], len(found["missing"]), len(found["other_deck"])) == (
        "classic", 108, 2, 1)
    assert config.read_text(encoding="utf-8") == text


def test_config_check_names_a_card_not_of_the_edition_and_a_tag_used_twice(tmp_path):
    config = tmp_path / "unotable.toml"
    config.write_text(DEFAULT_PATH.read_text(encoding="utf-8") + '\n[pad]\nport = "/dev/pad"\n'
                      '[pad.cards]\n04A1B2C3D4E501 = "R1U"\n04A1B2C3D4E502 = "R7"\n'
                      '[pad.chips]\n04a1b2c3d4e502 = "G"\n', encoding="utf-8")
    found = {(e.key, e.message) for e in check_config(config)}
    assert ("pad.cards.04A1B2C3D4E501", "'R1U' is not a card of the classic deck "
            "(unotable cards check lists every such tag)") in found
    assert ("pad.chips.04a1b2c3d4e502",
            "tag 04A1B2C3D4E502 is already pad.cards.04A1B2C3D4E502 = 'R7'") in found


def test_no_pad_section_no_pad(tmp_path):
    from firmware.config import load_config

    config = tmp_path / "unotable.toml"
    config.write_text(DEFAULT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    assert "pad" not in load_config(config).hardware
    config.write_text(DEFAULT_PATH.read_text(encoding="utf-8") + '\n[pad]\nport = "/dev/pad"\n')
    assert load_config(config).hardware["pad"].port == "/dev/pad"


def test_each_card_is_said_in_the_tables_language_and_a_second_copy_is_asked_for(tmp_path):
    from firmware.commands.cards import Walk, _PadSession, _read_tags, refusal, wanted

    tags = deck_tags("classic", CLASSIC)
    path = tmp_path / "unotable.toml"
    read = _read_tags(path, tomlkit.parse(with_tags(dict(list(tags.items())[:-1]))))
    todo = list(wanted(read))
    said, saved, out = [], [], io.StringIO()
    with _PadSession("sim", read, 0.3) as session:
        walk = Walk(session, read, todo, save=lambda *entry: saved.append(entry), say=said.append,
                    path=path, lang="de", keys=io.StringIO(), out=out)
        assert walk.run() == 0
    assert said == ["Zieh-4-Farbenwahl-Karte", "den Farbchip Rot", "den Farbchip Grün",
                    "den Farbchip Blau", "den Farbchip Gelb"]
    assert [entry[0] for entry in saved] == ["cards", "chips", "chips", "chips", "chips"]
    w4 = next(uid for uid, code in tags.items() if code == "W+4")
    assert refusal(read, (w4,), todo[0]) == "This tag is the W+4 already. Tap the other copy."


def test_a_simulated_table_enrols_from_the_twins_pad_without_being_told(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    tags = deck_tags("classic", CLASSIC)
    config.write_text(with_tags(tags, dict(list(chip_tags().items())[:3]))
                      + "\n[sim]\nenabled = true\n", encoding="utf-8")
    status, out, _ = run(capsys, "cards", "enroll", "--config", str(config))
    assert status == 0
    assert out.startswith("Enrolling from the twin's pad: the config has [sim] enabled = true")
    assert "Chip 4 of 4: the yellow chip (Y). Tap it on the pad." in out
    status, out, _ = run(capsys, "cards", "enroll", "--config", str(config))
    assert status == 0 and "Every card of the classic deck and every colour chip has a tag" in out
