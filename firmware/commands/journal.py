"""`unotable journal check FILE`, `unotable journal recover FILE --out NEW` and
`unotable journal accept FILE`."""

from __future__ import annotations

import argparse
import os
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "journal",
        help="check a journal, or salvage a damaged one into a new file",
        description="Look into a journal without changing it (both commands read a copy: "
        "safe while the daemon runs, and on a journal the daemon refused).",
    )
    sub = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    check = sub.add_parser(
        "check", help="integrity, the mark, every CRC, and per match its entries",
        description="Report SQLite's integrity check, the high-water mark beside the "
        "journal and whether the journal reaches it, every CRC that fails, and per match "
        "its entries and last action. Exit status 0 when all is well, 1 when not.")
    check.add_argument("file", metavar="FILE", help="the journal")
    check.set_defaults(func=run_check)
    recover = sub.add_parser(
        "recover", help="write every readable match into a new journal",
        description="Salvage every readable match of FILE into a new journal NEW (with "
        "its own mark) and report what was lost. FILE is never changed. To continue "
        "the table on NEW, stop the daemon and put NEW and NEW.mark in the place of "
        "the journal and its .mark (or point [journal] path at NEW). Exit status 1 when "
        "no match could be read.")
    recover.add_argument("file", metavar="FILE", help="the damaged journal")
    recover.add_argument("--out", metavar="NEW", required=True, help="the new journal")
    recover.set_defaults(func=run_recover)
    accept = sub.add_parser(
        "accept", help="take a journal the daemon refused for its mark or its table",
        description="The owner's explicit yes to a journal `unotable run` refused because "
        "its mark is missing or damaged, or because it is another table's: FILE becomes "
        "this table's journal as it is, the acceptance is written into it and a new mark "
        "beside it. Damage, lost entries and another edition are not accepted (see "
        "`journal check` and `journal recover`). Stop the daemon first.")
    accept.add_argument("file", metavar="FILE", help="the journal")
    accept.set_defaults(func=run_accept)


def run_check(args: argparse.Namespace) -> int:
    from firmware.errors import JournalError, UsageError
    from firmware.journal.check import inspect

    try:
        report = inspect(args.file)
    except (JournalError, OSError) as exc:
        raise UsageError(str(exc)) from None
    _print(report.lines())
    return 0 if report.ok else 1


def run_recover(args: argparse.Namespace) -> int:
    from firmware.errors import JournalError, UsageError
    from firmware.journal.check import recover

    try:
        report, lines = recover(args.file, args.out)
    except (JournalError, OSError) as exc:
        raise UsageError(str(exc)) from None
    _print([f"recovered {args.file} into {args.out} (the original is unchanged)", *lines,
            *(["nothing was lost"] if report.ok else [])])
    return 0 if report.matches else 1


def run_accept(args: argparse.Namespace) -> int:
    from pathlib import Path

    from firmware.errors import JournalError, UsageError
    from firmware.journal.store import Journal, refusal

    if not Path(args.file).is_file():  # accepting never makes a new journal
        raise UsageError(f"no journal at {args.file}")
    accepted: list[str] = []
    try:
        Journal.open(args.file, accepted=accepted).close()
    except (JournalError, OSError) as exc:
        raise UsageError(refusal(exc) if isinstance(exc, JournalError) else str(exc)) from None
    if not accepted:
        _print([f"{args.file}: nothing to accept (the journal, its mark and its table agree)"])
    else:
        _print([f"accepted {args.file} as this table's journal: {'; '.join(accepted)}; the "
                "acceptance is written into it and its mark is new"])
    return 0


def _print(lines: list[str]) -> None:
    """Print; a reader that stops early (`| head`) is not an error."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
