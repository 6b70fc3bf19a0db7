"""The table's one TOML config file, validated at load (Klipper style).

Sections the daemon owns (`[table]`, `[api]`, `[journal]`, `[sim]`) are read here;
each hardware section is handed to its hal feature's ``parse_config(mapping, path=,
errors=)``
(named in `SECTION_PARSERS`, imported lazily). Then cross-section rules are checked:
no GPIO pin used twice, serial ports that pyserial can open, a token for a public API.

`load_config` raises the first `ConfigError`; `check_config` collects them all.
"""

from __future__ import annotations

import hashlib
import importlib
import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import uno_core
from firmware.errors import ConfigError
from hal.config import Section
from hal.errors import ConfigError as HalConfigError
from uno_core.errors import OptionError
from uno_core.options import make_options

SYSTEM_PATH = Path("/etc/unotable/config.toml")
DEFAULT_PATH = Path(__file__).with_name("default_config.toml")
EDITIONS = tuple(uno_core.EDITIONS)
TOWER_CONFIRM = ("wait", "warn", "off")
MIN_TOKEN_LENGTH = 16
# Hardware sections: "module:function" of the hal parser, imported only when used.
SECTION_PARSERS: dict[str, str] = {
    "launcher": "hal.launcher:parse_config",
    "seats": "hal.seats:parse_config",
    "tray": "hal.tray:parse_config",
}
# pyserial URL schemes (serial.urlhandler) a reader port may use besides a device path.
SERIAL_SCHEMES = ("loop", "socket", "rfc2217", "spy", "alt", "hwgrep", "cp2110")
OptionValue = bool | int | float | str


@dataclass(frozen=True)
class TableConfig:
    edition: str
    seats: int
    names: tuple[str, ...]
    options: Mapping[str, OptionValue]
    tower_confirm: str


@dataclass(frozen=True)
class ApiConfig:
    host: str
    port: int
    token: str | None = field(repr=False)
    allowed_hosts: tuple[str, ...] = ()  # Host names besides loopback and `host` (firmware.api.guard)

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


@dataclass(frozen=True)
class JournalConfig:
    path: str

    def resolve(self, env: Mapping[str, str] | None = None) -> Path:
        """Where the journal file is: a relative path lives in the state directory
        (systemd's $STATE_DIRECTORY, else $XDG_STATE_HOME/unotable or ~/.local/state/unotable)."""
        path = Path(self.path).expanduser()
        if path.is_absolute():
            return path
        env = os.environ if env is None else env
        if env.get("STATE_DIRECTORY"):
            base = Path(env["STATE_DIRECTORY"].split(":")[0])
        elif env.get("XDG_STATE_HOME"):
            base = Path(env["XDG_STATE_HOME"]) / "unotable"
        else:
            base = Path.home() / ".local" / "state" / "unotable"
        return base / path


@dataclass(frozen=True)
class SimConfig:
    enabled: bool
    seed: int | None


@dataclass(frozen=True)
class Config:
    path: Path
    digest: str  # sha256 of the file: the match header's config hash
    table: TableConfig
    api: ApiConfig
    journal: JournalConfig
    sim: SimConfig
    # hardware section name -> its hal config (or the raw table while no parser exists)
    hardware: Mapping[str, Any]

    def pins(self) -> dict[str, int]:
        """Every GPIO pin in use: dotted key -> BCM number."""
        out: dict[str, int] = {}
        for cfg in self.hardware.values():
            pins = getattr(cfg, "pins", None)
            if callable(pins):
                out.update(pins())
        return out


def default_path(env: Mapping[str, str] | None = None) -> Path:
    """$UNOTABLE_CONFIG, else /etc/unotable/config.toml if present, else the built-in default."""
    env = os.environ if env is None else env
    if env.get("UNOTABLE_CONFIG"):
        return Path(env["UNOTABLE_CONFIG"])
    return SYSTEM_PATH if SYSTEM_PATH.is_file() else DEFAULT_PATH


def load_config(path: str | Path | None = None) -> Config:
    """Read and validate the config; raises the first `ConfigError`."""
    config, errors = _read(Path(path) if path is not None else default_path())
    if errors:
        raise errors[0]
    assert config is not None
    return config


def check_config(path: str | Path | None = None) -> list[ConfigError]:
    """Every problem of the config file (empty when it is fine)."""
    return _read(Path(path) if path is not None else default_path())[1]


# -- reading ------------------------------------------------------------------------


class _Reader:
    """Reads options one by one, collecting errors instead of stopping at the first."""

    def __init__(self, errors: list[ConfigError]) -> None:
        self.errors = errors

    def add(self, exc: HalConfigError) -> None:
        self.errors.append(exc if isinstance(exc, ConfigError) else ConfigError(exc.key, exc.message))

    def section(self, doc: Mapping[str, Any], name: str) -> tuple[Section, set[str]] | None:
        try:
            return Section(doc.get(name), path=name), set()
        except HalConfigError as exc:
            self.add(exc)
            return None

    def get(self, read: tuple[Section, set[str]], how: str, name: str, *args: Any, **kw: Any) -> Any:
        sec, used = read
        used.add(name)
        try:
            return getattr(sec, how)(name, *args, **kw)
        except HalConfigError as exc:
            self.add(exc)
            return _BAD

    def finish(self, read: tuple[Section, set[str]], mapping: Any) -> None:
        sec, used = read
        for key in sorted(set(mapping or {}) - used):
            self.errors.append(ConfigError(sec.key(key), "unknown option"))


_BAD: Any = object()  # an option that failed: later checks skip it


def _read(path: Path) -> tuple[Config | None, list[ConfigError]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [ConfigError("file", f"cannot read: {exc.strerror or exc}")]
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, [ConfigError("syntax", f"not UTF-8 text: {exc.reason} at byte {exc.start}")]
    except tomllib.TOMLDecodeError as exc:
        return None, [ConfigError("syntax", str(exc))]

    errors: list[ConfigError] = []
    reader = _Reader(errors)
    known = {"table", "api", "journal", "sim", *SECTION_PARSERS}
    for key in sorted(set(doc) - known):
        errors.append(ConfigError(key, "unknown section" if isinstance(doc[key], dict) else "unknown option"))

    table = _table(reader, doc)
    api = _api(reader, doc)
    journal = _journal(reader, doc)
    sim = _sim(reader, doc)
    hardware = {name: _hardware(reader, name, doc[name]) for name in SECTION_PARSERS if name in doc}
    _check_pins(reader, hardware)
    _check_seats(reader, table, hardware)
    for name in hardware:
        _check_ports(reader, name, doc[name])
    if errors or None in (table, api, journal, sim):
        return None, errors
    assert table and api and journal and sim
    config = Config(
        path=path,
        digest=hashlib.sha256(data).hexdigest(),
        table=table,
        api=api,
        journal=journal,
        sim=sim,
        hardware=MappingProxyType(hardware),
    )
    return config, errors


def _table(reader: _Reader, doc: Mapping[str, Any]) -> TableConfig | None:
    sec = reader.section(doc, "table")
    if sec is None:
        return None
    edition = reader.get(sec, "string", "edition", "classic", choices=EDITIONS)
    seats = reader.get(sec, "integer", "seats", 4, minimum=2, maximum=10)
    tower_confirm = reader.get(sec, "string", "tower_confirm", "wait", choices=TOWER_CONFIRM)
    if edition is not _BAD and seats is not _BAD:
        spec = uno_core.get_edition(edition)
        if not spec.min_players <= seats <= spec.max_players:
            reader.add(ConfigError(sec[0].key("seats"), f"{edition} is for {spec.min_players}-{spec.max_players} players, not {seats}"))
            seats = _BAD
    names = _names(reader, sec, seats)
    options = _options(reader, sec, edition)
    reader.finish(sec, doc.get("table"))
    if _BAD in (edition, seats, tower_confirm, names, options):
        return None
    return TableConfig(edition, seats, names, options, tower_confirm)


def _names(reader: _Reader, sec: tuple[Section, set[str]], seats: Any) -> Any:
    raw = reader.get(sec, "raw", "names", None)
    key = sec[0].key("names")
    if raw is None:
        return _BAD if seats is _BAD else tuple(f"Seat {i + 1}" for i in range(seats))
    if raw is _BAD:
        return _BAD
    if not isinstance(raw, list):
        reader.add(ConfigError(key, f"must be a list of names, not {raw!r}"))
        return _BAD
    bad = False
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip() or len(name) > 32:
            reader.add(ConfigError(f"{key}[{i}]", f"must be a name of 1-32 characters, not {name!r}"))
            bad = True
        elif raw.index(name) != i:
            reader.add(ConfigError(f"{key}[{i}]", f"{name!r} is already the name of seat {raw.index(name) + 1}"))
            bad = True
    if seats is not _BAD and len(raw) != seats:
        reader.add(ConfigError(key, f"has {len(raw)} names for {seats} seats"))
        bad = True
    return _BAD if bad else tuple(raw)


def _options(reader: _Reader, sec: tuple[Section, set[str]], edition: Any) -> Any:
    raw = reader.get(sec, "raw", "options", {})
    key = sec[0].key("options")
    if raw is _BAD:
        return _BAD
    if not isinstance(raw, dict):
        reader.add(ConfigError(key, f"must be a table of house-rule options, not {raw!r}"))
        return _BAD
    bad = False
    for name, value in raw.items():
        if not isinstance(value, OptionValue):
            reader.add(ConfigError(f"{key}.{name}", f"must be true/false, a number or a string, not {value!r}"))
            bad = True
        elif edition is not _BAD:
            try:  # one at a time, so that every bad option is reported
                make_options(uno_core.get_edition(edition), {name: value})
            except OptionError as exc:
                reader.add(ConfigError(f"{key}.{name}", exc.message))
                bad = True
    return _BAD if bad else MappingProxyType(dict(raw))


def _api(reader: _Reader, doc: Mapping[str, Any]) -> ApiConfig | None:
    sec = reader.section(doc, "api")
    if sec is None:
        return None
    host = reader.get(sec, "string", "host", "127.0.0.1")
    port = reader.get(sec, "integer", "port", 8080, minimum=1024, maximum=65535)
    allowed_hosts = _allowed_hosts(reader, reader.get(sec, "raw", "allowed_hosts", []))
    token = reader.get(sec, "string", "token", None)
    reader.finish(sec, doc.get("api"))
    if host is not _BAD and not _is_address(host):
        reader.add(ConfigError("api.host", f"must be an IP address or 'localhost', not {host!r}"))
        host = _BAD
    if isinstance(token, str) and (len(token) < MIN_TOKEN_LENGTH or token != token.strip() or " " in token):
        reader.add(ConfigError("api.token", f"must be at least {MIN_TOKEN_LENGTH} characters without spaces"))
        token = _BAD
    if host is not _BAD and token is None and not is_loopback(host):
        reader.add(ConfigError("api.token", f"is required when api.host is {host!r} (not a loopback address)"))
        return None
    if _BAD in (host, port, token, allowed_hosts):
        return None
    return ApiConfig(host, port, token, allowed_hosts)


_HOST_NAME = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*", re.I)


def _allowed_hosts(reader: _Reader, value: Any) -> tuple[str, ...] | Any:
    """`[api] allowed_hosts`: host names (or addresses) the browser may use for the table,
    e.g. ``["unotable.local"]``; no ports, no wildcards (see firmware.api.guard)."""
    if value is _BAD:
        return _BAD
    if not isinstance(value, list):
        reader.add(ConfigError("api.allowed_hosts", f"must be a list of host names, not {value!r}"))
        return _BAD
    bad = [v for v in value if not isinstance(v, str) or not (_HOST_NAME.fullmatch(v) or _is_address(v))]
    for v in bad:
        reader.add(ConfigError("api.allowed_hosts", f"{v!r} is not a host name like 'unotable.local' "
                               "(no scheme, port or wildcard)"))
    return _BAD if bad else tuple(v.lower() for v in value)


def _journal(reader: _Reader, doc: Mapping[str, Any]) -> JournalConfig | None:
    sec = reader.section(doc, "journal")
    if sec is None:
        return None
    path = reader.get(sec, "string", "path", "journal.db")
    reader.finish(sec, doc.get("journal"))
    if path is _BAD:
        return None
    if not path.strip() or "\0" in path or path.endswith("/"):
        reader.add(ConfigError("journal.path", f"must be a file path, not {path!r}"))
        return None
    return JournalConfig(path)


def _sim(reader: _Reader, doc: Mapping[str, Any]) -> SimConfig | None:
    sec = reader.section(doc, "sim")
    if sec is None:
        return None
    enabled = reader.get(sec, "boolean", "enabled", False)
    seed = reader.get(sec, "integer", "seed", None, minimum=0, maximum=2**63 - 1)
    reader.finish(sec, doc.get("sim"))
    if _BAD in (enabled, seed):
        return None
    return SimConfig(enabled, seed)


def resolve_parser(name: str) -> Callable[..., Any] | None:
    """The hal parser of a hardware section; None while that hal feature does not exist."""
    module_name, _, func = SECTION_PARSERS[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    return getattr(module, func, None)


def _hardware(reader: _Reader, name: str, mapping: Any) -> Any:
    if not isinstance(mapping, dict):
        reader.add(ConfigError(name, f"must be a table, not {mapping!r}"))
        return _BAD
    parser = resolve_parser(name)
    if parser is None:
        return MappingProxyType(mapping)
    found: list[HalConfigError] = []  # every bad value of the section, not just the first
    try:
        cfg = parser(mapping, path=name, errors=found)
    except HalConfigError as exc:
        found.append(exc)
    for exc in found:
        reader.add(exc)
    return _BAD if found else cfg


def _check_pins(reader: _Reader, hardware: Mapping[str, Any]) -> None:
    owner: dict[int, str] = {}
    for cfg in hardware.values():
        pins = getattr(cfg, "pins", None)
        if not callable(pins):
            continue
        for key, pin in pins().items():
            if pin in owner:
                reader.add(ConfigError(key, f"GPIO {pin} is already used by {owner[pin]}"))
            else:
                owner[pin] = key


def _check_seats(reader: _Reader, table: TableConfig | None, hardware: Mapping[str, Any]) -> None:
    """The hardware must serve every seat the table plays with."""
    if table is None:
        return
    wired = getattr(hardware.get("seats"), "seats", None)
    if isinstance(wired, int) and table.seats > wired:
        reader.add(ConfigError("table.seats", f"is {table.seats} but [seats] wires buttons for {wired}"))
    angles = getattr(hardware.get("launcher"), "seat_angles", None)
    if angles and len(angles) < table.seats:
        reader.add(ConfigError("launcher.seat_angles", f"has {len(angles)} angles for {table.seats} seats"))


def _check_ports(reader: _Reader, path: str, value: Any) -> None:
    """Serial ports anywhere in a hardware section: options named *port, *url or *device."""
    if isinstance(value, dict):
        for key, item in value.items():
            key_path = f"{path}.{key}"
            if isinstance(item, str) and key.endswith(("port", "url", "device")):
                problem = serial_port_problem(item)
                if problem:
                    reader.add(ConfigError(key_path, problem))
            else:
                _check_ports(reader, key_path, item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_ports(reader, f"{path}[{i}]", item)


def serial_port_problem(url: str) -> str | None:
    """Why pyserial could not open `url`, or None when it looks openable."""
    hint = "a device path like /dev/unotable-reader-1 or a pyserial URL (loop://, socket://HOST:PORT)"
    if url.startswith("/"):
        if url.endswith("/") or "\0" in url:
            return f"must be {hint}, not {url!r}"
        return None
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in SERIAL_SCHEMES:
        return f"must be {hint}, not {url!r}"
    if scheme in ("socket", "rfc2217"):
        host, _, port = rest.partition("/")[0].rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            return f"{scheme}:// needs HOST:PORT, not {url!r}"
    return None


def _is_address(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    return host == "localhost" or (_is_address(host) and ipaddress.ip_address(host).is_loopback)
