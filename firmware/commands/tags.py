"""`unotable tags`: scan one tag reader and print what it sees.

    unotable tags --port /dev/ttyUSB0                 # PN532 (default driver)
    unotable tags --port /dev/ttyAMA0 --driver rdm6300 --json
    unotable tags --port sim --watch                  # a simulated reader, no hardware

``--port sim`` runs a simulated reader (the same twin the tests use) holding the
four demo tower tags; ``--port sim:UID,UID`` puts exactly those tags on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from firmware.errors import UsageError

DRIVERS = ("pn532", "rdm6300")
SIM = "sim"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tags",
        help="scan one NFC/RFID reader and print the tags it sees",
        description="Scan the reader on PORT (a device path or pyserial URL; 'sim' or "
        "'sim:UID,UID' for a simulated reader) and print the tag UIDs it sees.",
    )
    parser.add_argument("--port", required=True, help="device path, pyserial URL, or sim[:UID,...]")
    parser.add_argument(
        "--driver", choices=DRIVERS, default="pn532", help="reader chip"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per scan")
    parser.add_argument("--watch", action="store_true", help="keep scanning; print each change")
    parser.add_argument(
        "--scans", type=int, default=None, metavar="N",
        help="stop after N scans (with --watch; default: scan until Ctrl-C)",
    )
    parser.add_argument(
        "--interval",
        type=float,
        default=0.2,
        metavar="S",
        help="pause between scans, in seconds",
    )
    parser.add_argument(
        "--timeout", type=float, default=1.0, metavar="S", help="answer timeout, in seconds"
    )
    parser.set_defaults(func=run_tags)


class CliReader:
    """A reader opened for the command line, with its simulated device when port is sim."""

    def __init__(self, port: str, driver: str, *, timeout: float) -> None:
        if not port.strip():
            raise UsageError("--port must name a serial port, a pyserial URL or 'sim'")
        if timeout <= 0:
            raise UsageError(f"--timeout must be positive, not {timeout}")
        self.port_arg = port
        self.driver = driver
        self.sim: Any = None
        self.before_scan: Callable[[], None] = lambda: None
        url = port
        if port == SIM or port.startswith(SIM + ":"):
            self.sim = open_sim(driver, port[len(SIM) + 1 :] if ":" in port else None)
            url = self.sim.port
        if driver == "pn532":
            from hal.pn532 import PN532

            self.reader: Any = PN532(url, ack_timeout_s=timeout, response_timeout_s=timeout)
        else:
            from hal.rdm6300 import RDM6300

            # The module repeats its frame a few times a second: listen long enough for one.
            self.reader = RDM6300(url, listen_s=0.3, removal_s=max(0.6, 2 * timeout))

    @property
    def firmware(self) -> str | None:
        return self.reader.firmware

    def scan(self) -> list[str]:
        self.before_scan()
        return list(self.reader.read_tags())

    def close(self) -> None:
        self.reader.close()
        if self.sim is not None:
            self.sim.close()


def open_sim(driver: str, spec: str | None) -> Any:
    from hal.sim.tray import DEMO_UIDS
    from hal.tray import normalise_uid

    if spec is None:
        uids = list(DEMO_UIDS[driver].values()) if driver == "pn532" else [DEMO_UIDS[driver]["U"]]
    else:
        try:
            uids = [normalise_uid("--port", part) for part in spec.split(",") if part.strip()]
        except ValueError as exc:
            raise UsageError(f"--port sim:UID,...: {exc}") from exc
    if driver == "rdm6300":
        from hal.sim.rdm6300 import SimRDM6300

        if any(len(uid) != 10 for uid in uids):
            raise UsageError("--port sim:UID,...: RDM6300 tags have 10 hex digits (5 bytes)")
        return SimRDM6300(uids)
    from hal.sim.pn532 import SimPN532

    return SimPN532(uids)


def reader_failure(port: str, driver: str, exc: Exception) -> str:
    from hal.errors import PortBusy, ReaderDisconnected

    if isinstance(exc, PortBusy):
        return (f"port {port} is busy: another program holds it (the table's daemon? "
                "`systemctl stop unotable` first), or name another reader with --port")
    if isinstance(exc, ReaderDisconnected):
        return f"cannot open port {port}: {exc.reason}"
    return f"no usable answer from the {driver} on port {port}: {exc}"


def run_tags(args: argparse.Namespace) -> int:
    from hal.errors import HalError

    if args.scans is not None and args.scans < 1:
        raise UsageError(f"--scans must be at least 1, not {args.scans}")
    if args.interval < 0:
        raise UsageError(f"--interval must not be negative, not {args.interval}")
    scans = args.scans if args.watch else 1
    cli = CliReader(args.port, args.driver, timeout=args.timeout)
    try:
        previous: list[str] | None = None
        done = 0
        while scans is None or done < scans:
            if done:
                time.sleep(args.interval)
            done += 1
            try:
                tags = cli.scan()
            except HalError as exc:
                message = reader_failure(args.port, args.driver, exc)
                if not args.watch:
                    print(f"unotable tags: error: {message}", file=sys.stderr)
                    return 1
                print(f"unotable tags: {message} (retrying)", file=sys.stderr)
                continue
            if args.watch and tags == previous:
                continue
            previous = tags
            _print(args, cli, tags)
        return 0
    finally:
        cli.close()


def _print(args: argparse.Namespace, cli: CliReader, tags: list[str]) -> None:
    if args.json:
        out = {"port": args.port, "driver": args.driver, "firmware": cli.firmware, "tags": tags}
        print(json.dumps(out), flush=True)
        return
    firmware = f", firmware {cli.firmware}" if cli.firmware else ""
    count = f"{len(tags)} tag{'s' if len(tags) != 1 else ''}"
    print(f"{args.port} ({args.driver}{firmware}): {count}", flush=True)
    for uid in tags:
        print(f"  {uid}", flush=True)
