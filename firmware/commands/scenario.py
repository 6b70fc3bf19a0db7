"""`unotable scenario FILE`: set up a position from a scenario file, apply its actions,
print the public state and the effects of the last action (the text counts seats from
1, as the screen does; the file and --json count them from 0, as docs/formats.md says).

    unotable scenario docs/scenarios/power-capture.toml
    unotable scenario bug.json --json

Exit status 2 for a bad file or an illegal action (the message names the action, its
index and the rule it breaks). The format is in docs/formats.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from firmware.counting import count_of
from firmware.errors import UsageError
from firmware.input_file import InputFileError, read_input_text


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "scenario",
        help="apply a scenario file and print the resulting position",
        description="Set up the position in FILE (TOML, or JSON if it ends in .json), apply "
        "its actions, and print the public state and the effects of the last action.",
    )
    parser.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


# effect fields that hold a seat: the text shows them numbered from 1, as the screen does
SEAT_FIELDS = frozenset({"seat", "target", "catcher", "other", "winner"})


def _seat(n: object) -> str:
    """A seat as people count it ("seat 1" is the file's seat 0); a slot name as it is."""
    return f"seat {n + 1}" if isinstance(n, int) and n >= 0 else str(n)


def _field(key: str, value: object) -> str:
    if key in SEAT_FIELDS and isinstance(value, int) and value >= 0:
        return f"{key}={value + 1}"
    if key == "winners" and isinstance(value, list):
        return f"{key}={[w + 1 for w in value]}"
    return f"{key}={value}"


def _text(state: dict[str, Any], effects: list[dict[str, Any]], applied: int) -> str:
    lines = [f"{state['edition']} ({state['mode']}), round {state['round']}, "
             f"phase {state['phase']}, after {count_of(applied, 'action')} "
             "(seats counted from 1, as on the screen: the file's seat 0 is seat 1)"]
    lines.append(f"top {state['top']}  colour {state['colour']}  direction {state['direction']}"
                 f"  to act {_seat(state['to_act'])}")
    lines.append("hand counts: " + "  ".join(
        f"{_seat(i)}: {c}" for i, c in enumerate(state["hand_counts"])))
    lines.append(f"draw pile: {state['pile_count']}")
    if state["towers"] is not None:
        lines.append("towers: " + "  ".join(
            f"{t}: {_seat(s)}" for t, s in state["towers"].items()))
    for owed in state["owed"]:
        lines.append(f"owed: {_seat(owed['seat'])} {owed['kind']} {owed['count']}")
    lines.append("scores: " + "  ".join(
        f"{_seat(i)}: {s}" for i, s in enumerate(state["scores"])))
    lines.append("effects of the last action:" if effects else "effects of the last action: none")
    for e in effects:
        rest = ", ".join(_field(k, v) for k, v in e.items() if k != "type")
        lines.append(f"  {e['type']}({rest})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from firmware.controller.slots import effects_json
    from uno_core import RuleError, public_state
    from uno_core.scenario import ScenarioActionError, parse_scenario, run_scenario

    path = Path(args.file)
    try:
        text = read_input_text(path)
    except InputFileError as exc:
        raise UsageError(f"{args.file}: {exc.message}") from None
    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    try:
        result = run_scenario(parse_scenario(text, fmt))
    except ScenarioActionError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    except RuleError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    state = public_state(result.state)
    effects = effects_json(result.effects)
    if args.json:
        print(json.dumps({"state": state, "effects": effects, "applied": result.applied},
                         sort_keys=True))
    else:
        print(_text(state, effects, result.applied))
    return 0
