"""`unotable seats`, `unotable seats qr N` and `unotable seats revoke N`: who sits where.

Seats are numbered from 1 here, as the screen and the players say them (the API's
seat 0 is seat 1). The seats' keys live in the state directory's seats.json
(firmware.seat_keys), beside the journal; the running daemon notices when this command
changes the file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.commands.table_user import SERVICE_STATE, as_table_user, user_name

if TYPE_CHECKING:
    from firmware.config import Config

CONFIG_HELP = "config file (default: $UNOTABLE_CONFIG, /etc/unotable/config.toml, else the " \
              "built-in default)"
LAN_COMMAND = "unotable lan"  # opens the API to the LAN with a token in one step


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "seats",
        help="list the seats' phones, show a seat's QR code, revoke a seat's phone",
        description="Without an action: every seat of the table, whether a phone holds it "
        "and since when, and how many invitations wait. A phone joins a seat by scanning "
        "the seat's QR code (`seats qr N`); when another phone already holds the seat, "
        "the table's screen asks to approve the new one.")
    parser.add_argument("--config", metavar="PATH", help=CONFIG_HELP)
    parser.set_defaults(func=run_list)
    actions = parser.add_subparsers(dest="seats_command", metavar="ACTION")
    qr = actions.add_parser(
        "qr", help="print seat N's QR code and link (a new invitation)",
        description="Make a new invitation for seat N and print its QR code (for a "
        "terminal with light text on a dark background) and the link under it. The link's "
        "secret is the invitation: show it only to the player of seat N. A seat keeps its "
        "last four invitations.")
    qr.add_argument("seat", metavar="N", help="the seat, 1 to the table's seat count")
    qr.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help=CONFIG_HELP)
    qr.set_defaults(func=run_qr)
    revoke = actions.add_parser(
        "revoke", help="take seat N from its phone and cancel its invitations",
        description="Seat N's phone loses the seat (its next request is refused with "
        "401), the seat's invitations stop working and every phone waiting for the owner's "
        "approval of it is refused. The running daemon notices at once; the seat is free "
        "for a new QR code.")
    revoke.add_argument("seat", metavar="N", help="the seat, 1 to the table's seat count")
    revoke.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                        help=CONFIG_HELP)
    revoke.set_defaults(func=run_revoke)


# -- the actions ------------------------------------------------------------------------


def run_list(args: argparse.Namespace) -> int:
    config = _config(args)
    path = seats_file(config)
    lines = [f"seats of {path}:"]
    status = _status(path, "seats")
    for seat in range(1, config.table.seats + 1):
        entry = status.get(seat, {})
        name = _name(config, seat)
        held = (f"phone since {_when(entry.get('since'))}" if entry.get("claimed")
                else "no phone")
        count = int(entry.get("invitations") or 0)
        lines.append(f"seat {seat}{name}: {held}; "
                     f"{count} invitation{'' if count == 1 else 's'}")
    _print(lines)
    note = _unreachable(config)
    if note:
        print(note, file=sys.stderr)
    return 0


def run_qr(args: argparse.Namespace) -> int:
    from firmware.errors import UsageError
    from firmware.qr import qr_text
    from firmware.seat_keys import lan_address, seat_url

    config = _config(args)
    seat = _seat(args.seat, config)
    note = _unreachable(config)
    if note:  # a link phones cannot open is no invitation: make none
        raise UsageError(note)
    path = seats_file(config)
    address = lan_address(config.api.host)
    join = _change(path, lambda keys: keys.invite(seat - 1), f"seats qr {seat}")
    url = seat_url(address, config.api.port, seat - 1, join)  # the API's seat number
    _print([*qr_text(url).splitlines(),
            f"seat {seat}{_name(config, seat)}: scan the code with the player's phone, or "
            "open this link on it (its secret is the invitation; keep it from the others):",
            url])
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    config = _config(args)
    seat = _seat(args.seat, config)
    path = seats_file(config)
    entry = _status(path, f"seats revoke {seat}").get(seat, {})
    if not entry.get("claimed") and not entry.get("invitations"):
        _print([f"seat {seat}{_name(config, seat)}: no phone and no invitation to revoke; "
                "nothing changed"])
        return 0
    _change(path, lambda keys: keys.revoke(seat - 1), f"seats revoke {seat}")
    _print([f"seat {seat}{_name(config, seat)}: revoked; its phone is refused (401) from its "
            "next request on, its invitations no longer work, and every phone waiting for it is "
            "refused"])
    return 0


# -- the parts ------------------------------------------------------------------------


def seats_file(config: Config, env: Mapping[str, str] | None = None) -> Path:
    """The daemon's seats.json (firmware.daemon.seats_file). Typed in a shell, where
    systemd sets no $STATE_DIRECTORY, the state directory is the installed service's."""
    from firmware.daemon import seats_file as daemons_seats_file

    env = dict(os.environ if env is None else env)
    if not env.get("STATE_DIRECTORY") and SERVICE_STATE.is_dir():
        env["STATE_DIRECTORY"] = str(SERVICE_STATE)
    return daemons_seats_file(config, env)


def _config(args: argparse.Namespace) -> Config:
    from firmware.commands.config_cmd import load_or_refuse

    return load_or_refuse(getattr(args, "config", None))


def _seat(text: str, config: Config) -> int:
    from firmware.errors import UsageError

    seats = config.table.seats
    if not text.isdigit() or not 1 <= int(text) <= seats:
        raise UsageError(f"no seat {text!r}: this table has seats 1 to {seats} "
                         f"([table] seats in {config.path})")
    return int(text)


def _name(config: Config, seat: int) -> str:
    names = config.table.names
    return f" ({names[seat - 1]})" if len(names) >= seat and names[seat - 1] else ""


def _unreachable(config: Config) -> str | None:
    """One line when phones cannot reach the table's API, with the fix."""
    from firmware.seat_keys import lan_address, reachable_by_phones

    if config.api.loopback:
        return (f"phones cannot reach the table: [api] host is {config.api.host} (this "
                f"machine only) in {config.path}; `{LAN_COMMAND}` serves it on the local "
                "network")
    if not reachable_by_phones(lan_address(config.api.host)):
        return (f"phones cannot reach the table: [api] host is {config.api.host}, but this "
                "machine has no address on a network; connect it to the phones' network "
                "(Wi-Fi or cable) first")
    return None


def _status(path: Path, action: str) -> dict[int, dict[str, Any]]:
    """What seats.json says of each seat, by the seat's number as people say it (from 1;
    the store and the API number them from 0); nothing while there is no file."""
    try:
        exists = path.is_file()
    except PermissionError:
        exists = True  # said by _keys, with the command that can read it
    if not exists:
        return {}
    return {entry["seat"] + 1: entry for entry in _keys(path, action, write=False).status()}


def _keys(path: Path, action: str, *, write: bool) -> Any:
    from firmware.errors import UsageError
    from firmware.seat_keys import SeatKeys

    directory = path.parent
    problem = _write_problem(directory, action) if write else None
    if problem:
        raise UsageError(f"cannot write the seats' keys to {path}: {problem}")
    try:
        if write:  # a table whose daemon never ran yet has no state directory
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        return SeatKeys(path)
    except PermissionError as exc:
        raise UsageError(f"cannot read the seats' keys in {path}: {_reason(exc)}; they are "
                         f"the table's user's: run `{as_table_user(action, directory)}`"
                         ) from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the seats' keys in {path}: {_reason(exc)}") from None


def _change(path: Path, change: Any, action: str) -> Any:
    """Run `change(keys)` on the seats' keys; any failure is one line, exit status 2."""
    from firmware.errors import UsageError

    keys = _keys(path, action, write=True)
    try:
        return change(keys)
    except OSError as exc:
        raise UsageError(f"cannot write the seats' keys to {path}: {_reason(exc)}") from None


def _write_problem(directory: Path, action: str) -> str | None:
    """Why this user must not write the seats' keys into `directory` (None: it may). The
    directory's owner is the daemon's user: a file written by anyone else (root too)
    would belong to them, and the daemon could no longer read it."""
    existing = directory
    while not existing.exists():  # made on the first write: its nearest parent counts
        existing = existing.parent
    if existing == directory:
        owner = directory.stat().st_uid
        if owner != os.geteuid():
            name = user_name(owner)
            return (f"the state directory {directory} belongs to {name}, the table's user; "
                    f"run the command as {name}: `sudo -u {name} unotable {action}`")
    if not existing.is_dir():
        return f"{existing} is not a directory"
    if not _access(existing, os.W_OK | os.X_OK):
        return f"this user cannot write {existing}"
    return None


def _access(path: Path, mode: int) -> bool:
    """os.access for the effective user (the one that would write), where the OS can."""
    if os.access in os.supports_effective_ids:
        return os.access(path, mode, effective_ids=True)
    return os.access(path, mode)


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _when(since: Any) -> str:
    """A claim's time as the owner reads it (seconds since the epoch, or already text)."""
    if isinstance(since, int | float):
        import time

        return time.strftime("%Y-%m-%d %H:%M", time.localtime(since))
    return str(since) if since else "an unknown time"


def _print(lines: list[str]) -> None:
    """Print; a reader gone away (`| head`) ends the command quietly in firmware.cli."""
    for line in lines:
        print(line)
