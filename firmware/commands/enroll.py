"""`unotable enroll`: learn the tag UID of each tower and store it in the config.

Walks through the towers U, N, O, ! one at a time: place the tower alone on the
reader, press Enter, and the UID it reads goes into ``[tray.towers]``. The file is
edited with tomlkit, so comments and layout survive. Nothing is written until
every tower is done (or skipped); quitting or a broken input leaves it untouched.

The reader is ``--port``/``--driver``; else, when the config has ``[sim] enabled =
true``, the simulated reader, unless a reader's port names a real one (firmware.sim.hil:
then the real ones are chosen from); else the config's neutral-slot reader, else its first
reader (the config's ``/dev/serial0`` is read as the UART on GPIO 14/15: ``/dev/ttyAMA0``
on a Pi 5). It says which port it reads. ``--port sim`` enrolls from a simulated reader that shows each tower's demo tag
in turn, to try the flow without hardware. The reader is opened before the first
question, so a missing or busy port is said at once, in one line.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.commands.tags import DRIVERS, SIM, CliReader, reader_failure
from firmware.errors import UsageError
from hal.tray import NEUTRAL, TOWERS

SCAN_ATTEMPTS = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "enroll",
        help="learn each tower's tag and store it in the config",
        description="Place each tower (U, N, O, !) alone on a reader when asked; the tag "
        "UIDs are stored in the config's [tray.towers] table (comments are kept).",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="config file to edit (default: $UNOTABLE_CONFIG, else /etc/unotable/config.toml)",
    )
    parser.add_argument("--port", help="reader to use: a device path, a pyserial URL, or 'sim' "
                        "for a simulated reader that shows each tower's demo tag (default: "
                        "'sim' when the config has [sim] enabled = true and no reader's "
                        "port names a real one, else the config's neutral-slot reader)")
    parser.add_argument("--driver", choices=DRIVERS, help="reader chip for --port (default: pn532)")
    parser.add_argument("--timeout", type=float, default=1.0, metavar="S",
                        help="answer timeout, in seconds")
    parser.set_defaults(func=run_enroll)


def _config_path(arg: str | None) -> Path:
    from firmware.config import DEFAULT_PATH, default_path

    path = Path(arg) if arg else default_path()
    if path.resolve() == DEFAULT_PATH.resolve():
        raise UsageError(
            "name the config file to edit with --config PATH (or set UNOTABLE_CONFIG); "
            "the built-in default is not edited"
        )
    return path


def _load(path: Path) -> Any:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from firmware.input_file import InputFileError, read_input_text

    if not path.exists():
        return tomlkit.document()
    try:  # never blocks on a FIFO, never reads a device
        return tomlkit.parse(read_input_text(path))
    except InputFileError as exc:
        raise EnrollFailed(f"{path}: {exc.message}") from None
    except TOMLKitError as exc:
        raise EnrollFailed(f"cannot read {path}: {exc}") from exc


class EnrollFailed(Exception):
    pass


def _reader_choice(args: argparse.Namespace, doc: Any) -> tuple[str, str]:
    if args.port is not None:
        return args.port, args.driver or "pn532"
    if args.driver is not None:
        raise UsageError("--driver needs --port")
    tray = doc.get("tray", {})
    readers = tray.get("readers", []) if isinstance(tray, dict) else []
    if _simulated(doc):
        from firmware.sim.hil import is_twin_port

        listed = [r for r in readers if isinstance(r, dict)] if isinstance(readers, list) else []
        real = [r for r in listed
                if isinstance(r.get("port"), str) and not is_twin_port(r["port"])]
        if not real:  # the twin stands in for every reader (firmware.sim.hil)
            drivers = [r.get("driver") for r in listed]
            return SIM, str(next((d for d in drivers if d in DRIVERS), "pn532"))
        readers = real  # hardware in the loop: a real reader on this machine
    if not isinstance(readers, list) or not readers:
        raise UsageError(
            "no reader to enroll with: give --port, or add [[tray.readers]] to the config"
        )
    chosen = next((r for r in readers if r.get("slot") == NEUTRAL), readers[0])
    port = chosen.get("port")
    if not isinstance(port, str):
        raise UsageError("the config's tray reader has no port: give --port")
    return port, str(chosen.get("driver", "pn532"))


def _say_port(port: str, *, chosen: bool) -> str:
    """The port enroll reads, said in one line: the config's /dev/serial0 means the UART on
    GPIO 14/15, which on a Pi 5 is /dev/ttyAMA0 (its serial0 is the debug connector)."""
    from hal.board import SERIAL0, board_model, gpio_uart

    uart = gpio_uart()
    if not chosen and port == SERIAL0 and uart != SERIAL0:
        print(f"Reading from {uart}, the UART on GPIO 14/15 of this {board_model()} "
              f"(its {SERIAL0} is the debug connector).")
        return uart
    print(f"Reading from {port}.")
    return port


def _simulated(doc: Any) -> bool:
    sim = doc.get("sim", {})
    return isinstance(sim, dict) and sim.get("enabled") is True


def run_enroll(args: argparse.Namespace) -> int:
    from hal.errors import HalError
    from hal.tray import normalise_uid

    path = _config_path(args.config)
    try:
        doc = _load(path)
        tray = doc.get("tray", {})
        existing = tray.get("towers", {}) if isinstance(tray, dict) else None
        if not isinstance(existing, dict):
            raise EnrollFailed(f"{path}: tray.towers must be a table")
        known = {t: normalise_uid(f"tray.towers.{t}", existing[t]) for t in TOWERS if t in existing}
    except (EnrollFailed, ValueError) as exc:
        print(f"unotable enroll: error: {exc}", file=sys.stderr)
        return 1
    port, driver = _reader_choice(args, doc)
    if args.port is None and port == SIM:
        print(f"Enrolling from a simulated reader: {path} has [sim] enabled = true "
              "(--port names a real one).")
    elif port != SIM:
        port = _say_port(port, chosen=args.port is not None)
    cli = CliReader(port, driver, timeout=args.timeout)
    try:
        show = _demo_tags(cli, driver) if cli.sim is not None else None
        try:
            cli.reader.open()  # a missing or busy port is said before the first question
            enrolled = _walk(cli, known, show)
        except HalError as exc:
            print(f"unotable enroll: error: {reader_failure(port, driver, exc)}", file=sys.stderr)
            return 1
    finally:
        cli.close()
    if enrolled is None:
        print("Stopped; the config is unchanged.")
        return 1
    try:
        _save(path, doc, enrolled)
    except OSError as exc:
        print(f"unotable enroll: error: cannot write {path}: {exc}", file=sys.stderr)
        return 1
    print(f"Saved {len(enrolled)} tower tag{'s' if len(enrolled) != 1 else ''} to {path}.")
    return 0


def _demo_tags(cli: CliReader, driver: str) -> Callable[[str], None]:
    """For --port sim: the simulated reader shows the demo tag of the tower asked for."""
    from hal.sim.tray import DEMO_UIDS

    def show(tower: str) -> None:
        for uid in cli.sim.tags:
            cli.sim.lift(uid)
        cli.sim.place(DEMO_UIDS[driver][tower])

    return show


def _walk(
    cli: CliReader, known: dict[str, str], show: Callable[[str], None] | None
) -> dict[str, str] | None:
    """Ask for each tower; the changed tower -> UID entries ("" = no longer enrolled),
    or None when the user quits."""
    towers = dict(known)
    enrolled: dict[str, str] = {}
    for tower in TOWERS:
        if show is not None:
            show(tower)
        while True:
            try:
                answer = input(
                    f"Place tower {tower} alone on the reader, then press Enter "
                    "(s = skip, q = quit): "
                )
            except EOFError:
                print()
                return None
            answer = answer.strip().lower()
            if answer == "q":
                return None
            if answer == "s":
                print(f"Tower {tower} skipped.")
                break
            if answer:
                print("Press Enter to read, s to skip, q to quit.")
                continue
            uid = _read_one(cli, tower)
            if uid is None:
                continue
            owner = next((t for t, u in towers.items() if u == uid and t != tower), None)
            if owner in enrolled:
                print(f"That tag was just enrolled as tower {owner}; use tower {tower}'s own tag.")
                continue
            if owner is not None:
                print(f"That tag was tower {owner}; tower {owner} is no longer enrolled.")
                del towers[owner]
                enrolled[owner] = ""
            towers[tower] = enrolled[tower] = uid
            print(f"Tower {tower} = {uid}")
            break
    return enrolled


def _read_one(cli: CliReader, tower: str) -> str | None:
    tags: list[str] = []
    for _ in range(SCAN_ATTEMPTS):
        tags = cli.scan()
        if tags:
            break
    if not tags:
        print("No tag seen. Check the tower sits on the reader and try again.")
        return None
    if len(tags) > 1:
        print(f"{len(tags)} tags seen ({', '.join(tags)}): leave only tower {tower} on the reader.")
        return None
    return tags[0]


def _save(path: Path, doc: Any, enrolled: dict[str, str]) -> None:
    import tomlkit

    if "tray" not in doc:
        doc["tray"] = tomlkit.table()
    tray = doc["tray"]
    if "towers" not in tray:
        tray["towers"] = tomlkit.table()
    towers = tray["towers"]
    for tower, uid in enrolled.items():
        if uid:
            towers[tower] = uid
        elif tower in towers:
            del towers[tower]
    _write_keeping_mode(path, tomlkit.dumps(doc))


def _write_keeping_mode(path: Path, text: str) -> None:
    """Replace the file atomically (temp file in its directory, fsync, rename) with the
    old file's owner, group and mode: the service reads it as root:unotable 0640, and a
    rename would otherwise leave the temp file's root 0600 behind. A symlink is followed,
    so the file it points to is replaced, not the link. A new file gets the umask's mode."""
    target = path.resolve()
    try:
        old = target.stat()
    except FileNotFoundError:
        old = None
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if old is None:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fh.fileno(), 0o666 & ~umask)
            else:
                if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                    _chown(fh.fileno(), old)
                os.fchmod(fh.fileno(), stat.S_IMODE(old.st_mode))
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)  # the rename itself survives a power cut
    finally:
        os.close(dir_fd)


def _chown(fd: int, old: os.stat_result) -> None:
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except PermissionError as exc:
        raise PermissionError(
            exc.errno, f"it belongs to {_owner(old)} and only root can keep that "
            "(run: sudo unotable enroll ...); nothing was changed") from exc


def _owner(st: os.stat_result) -> str:
    try:
        user = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        user = str(st.st_uid)
    try:
        group = grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        group = str(st.st_gid)
    return f"{user}:{group}"
