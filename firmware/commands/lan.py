"""`unotable lan`: phones on the local network reach the table, in one step.

Three things must change for a phone to reach the API: ``[api] host`` must not be a
loopback address, the config needs a strong ``[api] token``, and the systemd unit's
``IPAddressAllow=localhost`` must let the LAN in. This command does all three: host
``0.0.0.0`` (or ``--host``), a generated token when there is none or a weak one (a
strong one is kept), and the drop-in ``/etc/systemd/system/unotable.service.d/lan.conf``
with ``IPAddressAllow=localhost`` and the private subnets of this machine's interfaces
(``ip -j addr``; or ``--subnet``). ``--dry-run`` says what it would write. The config is
edited keeping its comments, owner and mode; the drop-in needs root, and without it the
config is still written and the rest said.

`phone_problems` is what `config check` and `selftest` say when phones cannot reach
the table: one line for each missing piece.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.commands.token import ConfigEditError, config_to_edit, new_token, read_document

UNIT_FILE = Path("/etc/systemd/system/unotable.service")  # where systemd/install.sh puts it
DROPIN_DIR = Path("/etc/systemd/system/unotable.service.d")
DROPIN_NAME = "lan.conf"
UFW_CONF = Path("/etc/ufw/ufw.conf")
LAN_HOST = "0.0.0.0"
# Interfaces of containers and virtual machines: their subnets are not the room's LAN.
VIRTUAL = ("docker", "veth", "br-", "virbr", "lxcbr", "lxdbr", "cni", "flannel", "podman")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "lan", help="let phones on the local network reach the table",
        description="Open the table's API to the local network in one step: [api] host "
        "0.0.0.0, a generated [api] token when there is none or a weak one, and the "
        "systemd drop-in that lets the LAN's subnets through the unit's IPAddressAllow. "
        "Prints what it did and the next step.")
    parser.add_argument("--config", metavar="PATH",
                        help="config file to edit (default: $UNOTABLE_CONFIG, else "
                        "/etc/unotable/config.toml)")
    parser.add_argument("--host", default=LAN_HOST,
                        help="address to listen on: 0.0.0.0 (every interface) or the LAN address")
    parser.add_argument("--subnet", action="append", metavar="CIDR",
                        help="a subnet phones come from, e.g. 192.168.1.0/24 (repeatable; "
                        "default: the private subnets of this machine's interfaces)")
    parser.add_argument("--dropin-dir", metavar="DIR", default=str(DROPIN_DIR),
                        help="where the unit's drop-in goes")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would change, write nothing")
    parser.set_defaults(func=run_lan)


# -- the local network -----------------------------------------------------------------
@dataclass(frozen=True)
class Lan:
    address: Address  # this machine's address on it (what a phone types)
    network: Network
    interface: str


def read_interfaces() -> list[dict[str, Any]] | None:
    """`ip -j addr`: this machine's interfaces and their addresses; None when they cannot
    be read (no `ip`, or it fails, as in the unit's sandbox, which has no netlink)."""
    ip = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(p)), None)
    if ip is None:
        return None
    try:
        done = subprocess.run([ip, "-j", "addr"], capture_output=True, text=True, timeout=10)
        found = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    return found if isinstance(found, list) else None


def lan_networks(interfaces: Iterable[dict[str, Any]] | None) -> list[Lan]:
    """The private networks this machine is on (global scope, interface up, not a
    container's or VM's bridge), IPv4 first."""
    found: list[Lan] = []
    for iface in interfaces or ():
        name = str(iface.get("ifname", ""))
        if name == "lo" or name.startswith(VIRTUAL) or iface.get("operstate") == "DOWN" \
                or "LOOPBACK" in iface.get("flags", ()):
            continue
        for info in iface.get("addr_info", ()):
            if info.get("scope") != "global" or info.get("family") not in ("inet", "inet6"):
                continue
            try:
                here = ipaddress.ip_interface(f"{info['local']}/{info['prefixlen']}")
            except (KeyError, ValueError):
                continue
            if here.is_private and not (here.is_loopback or here.is_link_local):
                lan = Lan(here.ip, here.network, name)
                if lan.network not in [f.network for f in found]:
                    found.append(lan)
    return sorted(found, key=lambda lan: lan.network.version)


# -- the unit's IPAddressAllow -----------------------------------------------------------
SPECIAL = {
    "any": ("0.0.0.0/0", "::/0"),
    "localhost": ("127.0.0.0/8", "::1/128"),
    "link-local": ("169.254.0.0/16", "fe80::/64"),
    "multicast": ("224.0.0.0/4", "ff00::/8"),
}


def allowed(unit_file: Path, dropin_dir: Path) -> tuple[list[str], list[Path]] | None:
    """The unit's effective IPAddressAllow= entries and the files that set them, read as
    systemd does (the unit, then its drop-ins by name; an empty assignment resets the
    list); None when neither the unit nor a drop-in is here."""
    files = [unit_file] if unit_file.is_file() else []
    if dropin_dir.is_dir():
        files += sorted(p for p in dropin_dir.glob("*.conf") if p.is_file())
    if not files:
        return None
    entries: list[str] = []
    for path in files:
        try:
            lines = path.read_text(errors="replace").splitlines()
        except OSError:
            continue
        section = ""
        for line in lines:
            line = line.strip()
            if line.startswith("["):
                section = line
            elif section == "[Service]" and line.startswith("IPAddressAllow="):
                value = line.partition("=")[2].split()
                entries = entries + value if value else []
    return entries, files


def covers(entries: Sequence[str], address: Address) -> bool:
    for entry in entries:
        for net in SPECIAL.get(entry, (entry,)):
            try:
                if address in ipaddress.ip_network(net, strict=False):
                    return True
            except (ValueError, TypeError):
                continue
    return False


def dropin_text(subnets: Sequence[Network]) -> str:
    nets = " ".join(str(n) for n in subnets)
    return ("# Written by `unotable lan`: phones on the local network reach the table's API.\n"
            "# The unit denies every address (IPAddressDeny=any); this lets localhost and the\n"
            "# LAN in. Remove this file and run `systemctl daemon-reload` to close it again.\n"
            "[Service]\n"
            "IPAddressAllow=\n"
            f"IPAddressAllow=localhost {nets}\n")


# -- what phones lack ----------------------------------------------------------------------
def firewall_line(port: int, ufw_conf: Path | None = None) -> str:
    """What is known of a firewall in front of the API's port (always one line)."""
    try:
        ufw_on = any(line.strip().replace(" ", "") == "ENABLED=yes"
                     for line in (ufw_conf or UFW_CONF).read_text().splitlines())
    except OSError:
        ufw_on = False
    if ufw_on:
        return (f"phones get no answer while ufw (on here) keeps TCP port {port} shut: "
                f"sudo ufw allow {port}/tcp")
    return (f"phones may meet a firewall: unknown here (no ufw; nftables or iptables rules "
            f"are not read): let TCP port {port} in from the LAN")


_READ: Any = object()  # phone_problems reads the interfaces itself


def phone_problems(host: str, port: int, token: str | None, *,
                   interfaces: Iterable[dict[str, Any]] | None = _READ,
                   unit_file: Path | None = None, dropin_dir: Path | None = None,
                   ufw_conf: Path | None = None) -> list[str]:
    """Why phones on the LAN cannot reach the table, one line each; the last line is
    what is known of the firewall. `interfaces` as `read_interfaces` gives them (None:
    they could not be read; then the unit is only asked whether it allows more than
    localhost)."""
    from firmware.config import is_loopback, token_problem

    lines = []
    if is_loopback(host):
        lines.append(f"phones cannot reach a table on {host}: run `unotable lan`")
    if token is None:
        lines.append("phones need an [api] token on the table, and there is none: "
                     "run `unotable lan`")
    elif token_problem(token):
        lines.append("phones need a strong [api] token: run `unotable token new --write`")
    if interfaces is _READ:
        interfaces = read_interfaces()
    lans = lan_networks(interfaces)
    if interfaces is not None and not lans:
        lines.append("phones have no LAN to reach the table on: no private address on an "
                     "interface that is up (`ip addr`)")
    found = allowed(unit_file or UNIT_FILE, dropin_dir or DROPIN_DIR)
    if found is not None:
        entries, _files = found
        if lans:
            missing = [str(lan.network) for lan in lans if not covers(entries, lan.address)]
        else:  # the interfaces are unknown: is anything beyond localhost let in?
            missing = [] if any(e not in ("localhost", "::1", "127.0.0.1", "127.0.0.0/8")
                                for e in entries) else ["the LAN"]
        if missing:
            shown = " ".join(entries) or "nothing"
            lines.append(f"phones' packets are dropped by systemd: the unit's IPAddressAllow "
                         f"({shown}) has no LAN ({', '.join(missing)}): run `sudo "
                         "unotable lan`, then `sudo systemctl daemon-reload && sudo systemctl "
                         "restart unotable`")
    lines.append(firewall_line(port, ufw_conf))
    return lines


# -- the command -------------------------------------------------------------------------
def needs_root(directory: Path) -> bool:
    """Whether writing into `directory` (or creating it) is refused to this user."""
    if os.geteuid() == 0:
        return False
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    return not os.access(existing, os.W_OK)


def run_lan(args: argparse.Namespace) -> int:
    from firmware.commands.token import write_api
    from firmware.config import is_address, is_loopback, token_problem

    path = config_to_edit(args.config)
    if not path.is_file():
        print(f"unotable lan: error: there is no config at {path}: install first "
              "(sudo systemd/install.sh) or name one with --config", file=sys.stderr)
        return 1
    if is_loopback(args.host) or not is_address(args.host):
        print(f"unotable lan: error: --host must be 0.0.0.0 or this machine's LAN address, "
              f"not {args.host!r}", file=sys.stderr)
        return 2
    lans = lan_networks(read_interfaces())
    try:
        subnets = _subnets(args.subnet) or [lan.network for lan in lans]
    except ValueError as exc:
        print(f"unotable lan: error: --subnet: {exc}", file=sys.stderr)
        return 2
    if not subnets:
        print("unotable lan: error: found no private subnet on this machine's interfaces "
              "(`ip -j addr`): connect it to the LAN, or name one with --subnet "
              "192.168.1.0/24", file=sys.stderr)
        return 1
    try:
        doc = read_document(path)
    except ConfigEditError as exc:
        print(f"unotable lan: error: {exc}", file=sys.stderr)
        return 1
    api = doc.get("api", {})
    old_host = api.get("host", "127.0.0.1") if isinstance(api, dict) else "127.0.0.1"
    old_token = api.get("token") if isinstance(api, dict) else None
    changes: dict[str, object] = {}
    said = []
    would = "would set" if args.dry_run else "set"
    if old_host != args.host:
        changes["host"] = args.host
        said.append(f"{would} [api] host = {args.host!r} in {path} (was {str(old_host)!r})")
    else:
        said.append(f"[api] host is already {args.host!r}")
    if not isinstance(old_token, str):
        changes["token"] = new_token()
        said.append(f"{would} [api] token to a new generated one (there was none)")
    elif token_problem(old_token):
        changes["token"] = new_token()
        said.append(f"{would} [api] token to a new generated one (the old one was weak: "
                    "whatever used it needs the new one)")
    else:
        said.append("kept the [api] token (it is strong)")
    dropin = Path(args.dropin_dir) / DROPIN_NAME
    text = dropin_text(subnets)
    status = 0
    if not args.dry_run and changes:
        try:
            write_api(path, changes, doc)
        except ConfigEditError as exc:
            print(f"unotable lan: error: {exc}", file=sys.stderr)
            return 1
    allow = f"IPAddressAllow=localhost {' '.join(str(n) for n in subnets)}"
    if args.dry_run:
        said.append(f"would write {dropin}: {allow}")
    elif needs_root(dropin.parent):
        said.append(f"NOT written: {dropin} ({allow}) needs root: run `sudo unotable lan`")
        status = 1
    else:
        try:
            _write_dropin(dropin, text)
        except OSError as exc:
            said.append(f"NOT written: {dropin}: {exc.strerror or exc}")
            status = 1
        else:
            said.append(f"wrote {dropin}: {allow}")
    port = api.get("port", 8080) if isinstance(api, dict) else 8080
    address = next((str(lan.address) for lan in lans if any(lan.address in n for n in subnets)),
                   args.host if args.host != LAN_HOST else "<this machine's address>")
    print(("unotable lan (dry run, nothing written): " if args.dry_run else "unotable lan: ")
          + f"phones on {', '.join(str(n) for n in subnets)} reach the table at "
          f"http://{_url_host(address)}:{port}/")
    for line in said:
        print(f"  {line}")
    print(f"  {firewall_line(int(port))}")
    if not args.dry_run:
        from firmware.commands.table_user import as_table_user

        print("Next: sudo systemctl daemon-reload && sudo systemctl restart unotable; then "
              f"hand out the seats: `{as_table_user('seats qr N')}` (or Seats on the table's "
              "screen)")
    return status


def _subnets(given: Sequence[str] | None) -> list[Network]:
    """The --subnet values as networks ([] when none was given)."""
    nets = []
    for text in given or ():
        try:
            net = ipaddress.ip_network(text, strict=False)
        except ValueError:
            raise ValueError(f"{text!r} is not a subnet like 192.168.1.0/24") from None
        if net.prefixlen == 0:
            raise ValueError(f"{text!r} is every address, not a LAN")
        nets.append(net)
    return nets


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _write_dropin(path: Path, text: str) -> None:
    from firmware.commands.enroll import _write_keeping_mode

    umask = os.umask(0o022)  # systemd's drop-ins are root's, readable by all (0644)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_keeping_mode(path, text)
    finally:
        os.umask(umask)
