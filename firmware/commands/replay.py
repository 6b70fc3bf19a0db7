"""`unotable replay DB`: print a journal, one JSON object per line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="print the journal of a table, one JSON object per line",
        description="Print every match header and journal entry of DB in order, "
        "one JSON object per line; a declaration a seat (or the owner's token) made "
        'says who beside its payload ("by": "seat 2"). The journal is opened read-only.',
    )
    parser.add_argument("db", metavar="DB", help="journal file (e.g. /var/lib/unotable/journal.db)")
    parser.add_argument("--record", action="store_true",
                        help="print each match as a game record (uno_core.record): a header "
                        "line, one line per action and chance outcome, the result if over")
    parser.set_defaults(func=run)


def game_records(journal: Any) -> Iterator[str]:
    """Each match of the journal as game-record text, replayed through the engine."""
    import uno_core as U
    from firmware.controller.declared import engine_action
    from firmware.controller.undo import standing
    from uno_core.record import write_record

    for match in journal.matches():
        actions = [engine_action(e.payload)  # a declaration taken back is no action
                   for e in standing(journal.entries(match_id=match.id)) if e.kind == "action"]
        final, _ = U.replay(match.edition, match.seats, actions, match.options, mode=U.TABLE)
        yield write_record(match.edition, match.seats, actions, options=match.options,
                           mode=U.TABLE, seed=match.seed, meta={"match": match.id},
                           final=final if final.over else None)


def by(payload: Any) -> str | None:
    """Who made the declaration `payload` holds ("seat 2", "owner", "viewer"), where it
    says (an entry without ``"by"`` is the table's own)."""
    from firmware.controller.declared import BY, who_of

    if not isinstance(payload, dict) or not isinstance(payload.get(BY), dict):
        return None
    try:
        return str(who_of(payload))
    except (KeyError, TypeError, ValueError):  # not a sender this version knows
        return json.dumps(payload[BY], sort_keys=True)


def records(journal: Any) -> Iterator[dict[str, Any]]:
    """The lines `replay` prints: each match header, then that match's entries.

    This is the one place that decides the output format, so switching to the game
    record format (uno_core.record) later changes only this function. A declaration
    a request made says who made it beside its payload: ``"by": "seat 2"`` (`by`).
    """
    headers = iter(journal.matches())
    pending = next(headers, None)
    for entry in journal.entries():
        while pending is not None and pending.id <= entry.match_id:
            yield pending.to_json()
            pending = next(headers, None)
        line = entry.to_json()
        who = by(entry.payload)
        if who is not None:
            line["by"] = who
        yield line
    while pending is not None:
        yield pending.to_json()
        pending = next(headers, None)


def run(args: argparse.Namespace) -> int:
    from firmware.errors import JournalCorrupt, JournalError, UsageError
    from firmware.journal.store import Journal

    try:
        journal = Journal.open(args.db, readonly=True)
    except JournalCorrupt as exc:
        print(f"unotable replay: error: {exc}", file=sys.stderr)
        return 1
    except JournalError as exc:
        raise UsageError(str(exc)) from None
    with journal:
        try:
            if args.record:
                for text in game_records(journal):
                    sys.stdout.write(text)
            else:
                for record in records(journal):
                    sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
        except JournalCorrupt as exc:
            sys.stdout.flush()
            print(f"unotable replay: error: {exc}", file=sys.stderr)
            return 1
    return 0
