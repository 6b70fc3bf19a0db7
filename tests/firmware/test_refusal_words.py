"""The engine's refusals reach people in the table's language (issues 14 and 23):
uno_core names each refusal by a key with its values, `firmware.words.refusals` words
every key in English and German, seats by name (the asker as "you"), cards as said
aloud. Nothing parses a text: the keys are collected here from uno_core's source and
from random, mostly illegal actions in every edition and both modes."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import uno_core as U
from firmware.words.messages import MESSAGES, Words
from firmware.words.refusals import REFUSAL_WORDS
from tests.uno_core.lockstep import random_action, to_new
from uno_core.refusals import ENGLISH

# every house rule of issue 12 the engine plays, on where the edition has it
HOUSE = {"stack_draws": "cross", "seven_zero": True, "jump_in": True, "forced_play": True,
         "no_bluff": True, "no_action_finish": True, "draw_until_playable": True}
NAMES = ["Anna", "Ben", "Cleo", "Dora"]
# the calls that name a refusal's key, and the argument that is the key
KEY_ARG = {"IllegalAction": 1, "Refusal": 0, "_check_seat": 3, "check_unseen": 3}


def keys_in_source() -> set[str]:
    """Every refusal key uno_core's source writes: the string literals given as the key
    of an IllegalAction, a Refusal or a helper that raises one, or assigned to `key`."""
    found: set[str] = set()
    for path in Path(U.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            exprs: list[ast.expr] = []
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in KEY_ARG and len(node.args) > KEY_ARG[name]:
                    exprs.append(node.args[KEY_ARG[name]])
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "key" for t in node.targets):
                exprs.append(node.value)
            for e in exprs:
                found |= _literals(e)
    return found


def _literals(expr: ast.expr) -> set[str]:
    """The strings `expr` can be: a literal, or either branch of a conditional."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return _literals(expr.body) | _literals(expr.orelse)
    return set()


def test_the_catalogues_word_every_key_uno_core_can_raise_and_no_other():
    raised = keys_in_source()
    assert len(raised) >= 60
    assert raised == set(ENGLISH)  # uno_core's own registry: no key unlisted, none dead
    for lang, words in REFUSAL_WORDS.items():
        worded = {k.removeprefix("refusal.") for k in words if k.startswith("refusal.")}
        assert set(ENGLISH) <= worded, (lang, set(ENGLISH) - worded)
    assert set(REFUSAL_WORDS["en"]) == set(REFUSAL_WORDS["de"])


ROOT = Path(__file__).parents[2]
# the exceptions that carry a refusal's key: a test asserts the key, never the words
REFUSALS = re.compile(r"\b(Rejected|JournalUnwritable|Answered|IllegalAction)\b")
# an argument that is a refusal's words
REFUSAL_TEXT = re.compile(r"reason|refusal|\.rule\b")
REGEX_READS = {"search", "match", "fullmatch", "findall", "finditer", "sub", "subn"}


def refusals_read_by_pattern(root: Path) -> list[str]:
    """"file:line" of every `pytest.raises(<a refusal>, match=...)` and every regular
    expression applied to a refusal's words, in every .py file of firmware/, hal/,
    uno_core/ and tests/."""
    found = []
    for path in sorted(p for d in ("firmware", "hal", "uno_core", "tests")
                       for p in (root / d).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            name, args = node.func.attr, [ast.unparse(a) for a in node.args]
            on_re = ast.unparse(node.func.value) == "re"
            regex = name in REGEX_READS or (name == "split" and on_re)
            read = args[1:] if on_re else args  # (re's first argument is the pattern)
            if (name == "raises" and args and REFUSALS.search(args[0])
                    and any(k.arg == "match" for k in node.keywords)) \
                    or (regex and any(REFUSAL_TEXT.search(a) for a in read)):
                found.append((where, node.lineno))
    return [f"{where}:{line}" for where, line in sorted(found)]


def test_no_regular_expression_reads_a_refusal():
    """Every file, the tests included: a refusal is told by its key, never by matching
    its words with a pattern (`pytest.raises(Rejected, match=...)` included)."""
    assert refusals_read_by_pattern(ROOT) == []
    handling = [p for p in [*ROOT.glob("firmware/**/*.py"), *ROOT.glob("uno_core/*.py")]
                if re.search(r"IllegalAction|\.rule\b|refusal", p.read_text())]
    handling.append(ROOT / "firmware/words/fields.py")  # words the API's bad fields
    assert len(handling) >= 5
    for path in handling:
        assert not re.search(r"^\s*(import re\b|from re import)", path.read_text(), re.M), path


def test_the_guard_sees_a_refusal_read_by_a_pattern(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import re, pytest\n"
        "with pytest.raises(Rejected, match='paused'):\n    pass\n"
        "assert re.search('seat 2', body['reason'])\n"
        "PATTERN.match(exc.reason)\n"
        "with pytest.raises(ValueError, match='x'):\n    pass\n"
        "assert exc.key == 'refused.no_press'\n")
    assert refusals_read_by_pattern(tmp_path) == [
        "tests/test_x.py:2", "tests/test_x.py:4", "tests/test_x.py:5"]


# the calls that name a daemon refusal's key, and the argument that is the key: a
# `Phrase` inside a refusal, a phone's claim refused (`Claim.refuse`, `Claims.drop`)
DAEMON_KEY_ARG = {"Rejected": 0, "Phrase": 0, "refuse": 0, "drop": 1}
# a Rejected(...) whose key is no literal: the engine's, a claim's (its callers name it)
FORWARDED = {"refusal_key(exc)", "key"}


def rejected_keys(root: Path) -> tuple[set[str], list[str]]:
    """The catalogue keys firmware/ refuses with (the literal key argument of the calls in
    `DAEMON_KEY_ARG`), and "file:line" of every `Rejected(...)` whose key is neither a
    literal nor forwarded (`FORWARDED`)."""
    keys: set[str] = set()
    unnamed = []
    for path in sorted((root / "firmware").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in DAEMON_KEY_ARG or len(node.args) <= DAEMON_KEY_ARG[name]:
                continue
            key = node.args[DAEMON_KEY_ARG[name]]
            found = _literals(key)
            keys |= found
            if name == "Rejected" and not found and ast.unparse(key) not in FORWARDED:
                unnamed.append(f"{path.relative_to(root)}:{node.lineno}")
    return keys, unnamed


def test_every_key_the_daemon_refuses_with_is_worded_in_both_languages():
    keys, unnamed = rejected_keys(ROOT)
    assert unnamed == []  # every raise site names its key: no words made at a raise site
    assert len(keys) >= 55
    for lang in ("en", "de"):
        assert keys - set(MESSAGES[lang]) == set(), lang


def house_rules(edition: str) -> dict[str, object]:
    return {k: v for k, v in HOUSE.items() if k in U.EDITIONS[edition].option_defaults}


def engine_refusals(edition: str, mode: str, games: int = 2, steps: int = 300,
                    options: dict[str, object] | None = None) -> dict[str, U.IllegalAction]:
    """One refusal per key the engine gave to random actions (as the lockstep test makes
    them) over `games` matches."""
    rng = random.Random(f"{edition}-{mode}-{sorted(options or {})}")
    refusals: dict[str, U.IllegalAction] = {}
    for _ in range(games):
        s = U.new_match(edition, 4, options, mode=mode)
        for _ in range(steps):
            if s.over:
                break
            if s.to_act == U.CHANCE:
                s, _ = U.apply(s, U.sample_outcome(s, rng))
                continue
            for _ in range(6):
                try:
                    U.apply(s.clone(), to_new(random_action(rng, s)))
                except U.IllegalAction as exc:
                    refusals.setdefault(exc.key, exc)
            legal = U.legal_actions(s)
            if not legal:
                break
            s, _ = U.apply(s, rng.choice(legal))
    return refusals


@pytest.mark.parametrize("house", [False, True], ids=["seed-rules", "house-rules"])
@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize("edition", sorted(U.EDITIONS))
def test_every_refusal_of_the_engine_is_said_in_both_languages(edition, mode, house):
    refusals = engine_refusals(edition, mode, options=house_rules(edition) if house else None)
    assert len(refusals) >= 15  # the probe reaches many rules
    assert set(refusals) <= set(ENGLISH)
    de, en = Words("de", NAMES), Words("en", NAMES)
    for key, exc in refusals.items():
        german, english = de.refusal(exc, edition), en.refusal(exc, edition)
        assert "{" not in german + english and german != english, (key, german)
        # seats by name, the asker as "you"; a seat beyond the table as "seat N", from 1;
        # no engine seat number, no card notation such as R9 or W+4
        assert not re.search(r"\b(seat|Platz) (-\d|[0-4]\b)", english + german), (key, english)
        assert not re.search(r"\b[RGBYW][0-9+]", english + german), (key, english)


def refused(state: U.State, action: U.Action) -> U.IllegalAction:
    with pytest.raises(U.IllegalAction) as err:
        U.apply(state, action)
    return err.value


def test_a_card_that_does_not_fit_is_refused_as_the_screen_words_it():
    s = U.position("classic", hands=["Y1 G5 R8", "G2", "Y2"], discard="B4", turn=0)
    exc = refused(s, U.Play(0, U.parse_card("Y1")))
    assert (exc.key, exc.values["card"], exc.values["colour"]) == ("no_match", U.parse_card("Y1"), "B")
    assert exc.rule == "Y1 matches neither colour B nor B4"  # uno_core's English, unchanged
    assert Words("en", NAMES).refusal(exc) == "yellow 1 does not fit: needs blue or a 4"
    assert Words("de", NAMES).refusal(exc) == "Die gelbe 1 passt nicht: nur Blau oder eine 4"
    s = U.position("classic", hands=["G5 Y1", "G2", "Y2"], discard="BR", turn=0)
    exc = refused(s, U.Play(0, U.parse_card("G5")))
    assert Words("en", NAMES).refusal(exc) == "green 5 does not fit: needs blue or a Reverse"
    s = U.position("classic", hands=["G5 Y1", "G2", "Y2"], discard="R8", turn=0)
    assert Words("en", NAMES).refusal(refused(s, U.Play(0, U.parse_card("G5")))) == (
        "green 5 does not fit: needs red or an 8")
    s = U.position("classic", hands=["G5 Y1", "G2", "Y2"], discard="W", colour="R", turn=0)
    assert Words("de", NAMES).refusal(refused(s, U.Play(0, U.parse_card("G5")))) == (
        "Die grüne 5 passt nicht: nur Rot")


def test_a_refusal_speaks_to_the_seat_that_asked_and_names_the_others():
    s = U.position("classic", hands=["R1", "R2 G7", "R3", "R4"], discard="R5", turn=3)
    exc = refused(s, U.Play(1, U.parse_card("R2")))
    names = ["North", "You", "East", "West"]
    assert Words("en", names).refusal(exc) == "it is West's turn, not yours"
    assert Words("de", ["Nord", "Du", "Ost", "West"]).refusal(exc) == "West ist dran, nicht du"
    exc = refused(s, U.Play(3, U.parse_card("R9")))
    assert Words("en", names).refusal(exc) == "you do not hold red 9"
    assert Words("de", names).refusal(exc) == "Du hast keine rote 9"
    s = U.position("classic", hands=["R1", "R2 G7", "R3", "R4"], discard="R5", turn=3,
                   options={"forgotten_uno": "catch"})
    exc = refused(s, U.Catch(3, 1))  # the rule's seat is another: named
    assert Words("en", NAMES).refusal(exc) == (
        "Ben cannot be caught: no forgotten UNO is open (it closes when the next player "
        "starts a turn)")
