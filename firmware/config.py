"""The table's one TOML config file, validated at load (Klipper style).

Sections the daemon owns (`[table]`, `[api]`, `[journal]`, `[sim]`, `[voice]`) are read here;
each hardware section is handed to its hal feature's ``parse_config(mapping, path=,
errors=)``
(named in `SECTION_PARSERS`, imported lazily). Then cross-section rules are checked:
no GPIO pin used twice, none taken by the UART a configured serial port uses, serial
ports that pyserial can open, a strong token for a public API. A file passes only when
`unotable run` can start from it: the sections it cannot do without are present
(`REQUIRED_SECTIONS`, and `[tray]` for an edition with towers), and with `[sim]
enabled = false` gpiozero finds a pin library on this machine.

`load_config` raises the first `ConfigError`; `check_config` collects them all.
"""

from __future__ import annotations

import hashlib
import importlib
import ipaddress
import os
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import uno_core
from firmware.errors import ConfigError
from firmware.file_access import permission_hint
from firmware.input_file import InputFileError, read_input_bytes
from firmware.mqtt.settings import MqttConfig
from hal.config import Section, shown
from hal.errors import ConfigError as HalConfigError
from hal.pins import PI_EXTRA, no_pin_library
from uno_core.documents import DocumentError, load_document
from uno_core.errors import OptionError
from uno_core.options import PRESETS, make_options, preset_options

SYSTEM_PATH = Path("/etc/unotable/config.toml")
DEFAULT_PATH = Path(__file__).with_name("default_config.toml")
EDITIONS = tuple(uno_core.EDITIONS)
TOWER_CONFIRM = ("wait", "warn", "off")
LANGUAGES = ("en", "de")  # firmware.words.messages holds the texts of each
MIN_TOKEN_LENGTH = 16
MIN_TOKEN_DISTINCT = 8  # "aaaaaaaaaaaaaaaa" or "abababab..." is no secret
# zxcvbn's estimate: its top score 4 starts at 10^10 guesses; 100 times that leaves
# "correct horse" passphrases in and "password12345678" (10^4) far out.
MIN_TOKEN_GUESSES_LOG10 = 12
# Words a table's owner may build a token from: zxcvbn treats them as dictionary words.
TOKEN_WORDS = ("unotable", "uno", "table", "token", "secret", "password", "api", "seat",
               "raspberry", "pi", "card", "cards")
# Without these `run` cannot start (launcher, seats) or would play a game nobody chose.
# [api], [journal] and [sim] may be left out: loopback API, journal.db, real pins.
REQUIRED_SECTIONS = {
    "table": "the edition and seats of the game",
    "launcher": "the card launcher's pins",
    "seats": "the seat buttons and lights",
}
# The Pi's own UART sits on GPIO 14 (TXD) and 15 (RXD); these device names are it.
UART_PINS = {14: "TXD", 15: "RXD"}
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
# Hardware sections: "module:function" of the hal parser, imported only when used.
SECTION_PARSERS: dict[str, str] = {
    "launcher": "hal.launcher:parse_config",
    "seats": "hal.seats:parse_config",
    "tray": "hal.tray:parse_config",
    "pad": "hal.pad:parse_config",
}
# pyserial URL schemes (serial.urlhandler) a reader port may use besides a device path.
SERIAL_SCHEMES = ("loop", "socket", "rfc2217", "spy", "alt", "hwgrep", "cp2110")
OptionValue = bool | int | float | str


@dataclass(frozen=True)
class TableConfig:
    edition: str
    seats: int
    names: tuple[str, ...]  # "": a seat without a name (messages say "seat N")
    options: Mapping[str, OptionValue]
    tower_confirm: str
    language: str = "en"  # what the voice (and the screen) speak: LANGUAGES
    round_pause_s: float = 20.0  # a round's result stays on the screen this long (0: until tapped)
    preset: str = "seed"  # the named set of house rules `options` starts from (PRESETS)


@dataclass(frozen=True)
class ApiConfig:
    host: str
    port: int
    token: str | None = field(repr=False)
    allowed_hosts: tuple[str, ...] = ()  # Host names besides loopback and `host` (firmware.api.guard)
    trusted_proxy: str | None = None  # whose X-Forwarded-For names the client (firmware.api.identity)

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
class VoiceConfig:
    """`[voice]`: announcements through espeak-ng (firmware.voice, docs/voice.md)."""

    enabled: bool = False
    voice: str = ""  # an espeak-ng voice ("de", "en-us", "de+f3"); "" = the table's language
    speed: int = 160  # words per minute
    volume: int = 100  # espeak-ng's amplitude, 0-200
    device: str = ""  # an ALSA device for aplay ("plughw:CARD=Headphones"); "" = the default


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = "auto"  # hal.pins.CHOICES: which library drives the real pins


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
    voice: VoiceConfig = VoiceConfig()
    gpio: GpioConfig = GpioConfig()
    mqtt: MqttConfig | None = None  # [mqtt]: built only when the section exists

    def pins(self) -> dict[str, int]:
        """Every GPIO pin in use: dotted key -> BCM number."""
        return dict(_pins(self.hardware))


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
        # the table's seat count once it is known good, for the hardware's checks even
        # when another [table] option is bad
        self.seats: int | None = None

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

    def container(self, read: tuple[Section, set[str]], name: str, default: Any,
                  kind: type, what: str) -> Any:
        """Option `name` as written, when it is a `kind` (a list, a table) or the default;
        else the error "must be `what`, not ..." and `_BAD`."""
        raw = self.get(read, "raw", name, default)
        if raw is _BAD or raw is default or isinstance(raw, kind):
            return raw
        self.add(ConfigError(read[0].key(name), f"must be {what}, not {shown(raw)}"))
        return _BAD

    def finish(self, read: tuple[Section, set[str]], mapping: Any) -> None:
        sec, used = read
        for key in sorted(set(mapping or {}) - used):
            self.errors.append(ConfigError(sec.key(key), "unknown option"))


_BAD: Any = object()  # an option that failed: later checks skip it


def _read(path: Path) -> tuple[Config | None, list[ConfigError]]:
    try:
        data = read_input_bytes(path)
    except InputFileError as exc:
        hint = "" if exc.cause is None else permission_hint(path, exc.cause, default=SYSTEM_PATH)
        return None, [ConfigError("file", exc.message + hint)]
    try:
        doc = load_document(data.decode("utf-8"), "toml")
    except UnicodeDecodeError as exc:
        return None, [ConfigError("syntax", f"not UTF-8 text: {exc.reason} at byte {exc.start}")]
    except DocumentError as exc:
        return None, [ConfigError("syntax" if exc.syntax else exc.where, exc.message)]

    errors: list[ConfigError] = []
    reader = _Reader(errors)
    known = {"table", "api", "journal", "sim", "voice", "gpio", "mqtt", *SECTION_PARSERS}
    for key in sorted(set(doc) - known):
        errors.append(ConfigError(key, "unknown section" if isinstance(doc[key], dict) else "unknown option"))

    table = _table(reader, doc)
    api = _api(reader, doc)
    journal = _journal(reader, doc)
    sim = _sim(reader, doc)
    voice = _voice(reader, doc)
    gpio = _gpio(reader, doc)
    mqtt = _mqtt(reader, doc)
    hardware = {name: _hardware(reader, name, doc[name]) for name in SECTION_PARSERS if name in doc}
    for name, holds in REQUIRED_SECTIONS.items():
        if name not in doc:
            reader.add(ConfigError(name, f"missing section: add [{name}] with {holds}"))
    _check_tray(reader, table, doc)
    _check_pad_cards(reader, table, doc.get("pad"))
    _check_pins(reader, hardware)
    _check_seats(reader, reader.seats, hardware)
    ports = [found for name in hardware for found in serial_ports(name, doc[name])]
    for key, url in ports:
        problem = serial_port_problem(url)
        if problem:
            reader.add(ConfigError(key, problem))
    _check_uart(reader, hardware, ports)
    if sim is not None and not sim.enabled and any(_pins(hardware)) and gpio is not None \
            and gpio.pin_factory != "auto":
        problem = named_pin_library_problem(gpio.pin_factory)
        if problem:
            reader.add(ConfigError("gpio.pin_factory", problem))
    elif sim is not None and not sim.enabled and any(_pins(hardware)) and gpio is not None:
        pwm = [key for cfg in hardware.values() if callable(getattr(cfg, "pwm_pins", None))
               for key in cfg.pwm_pins()]
        problem = pin_library_problem(needs_pwm=pwm)
        if problem:
            why = "real pins" if "sim" in doc else "real pins: the file has no [sim] section"
            reader.add(ConfigError("sim.enabled", f"is false ({why}), but {problem}"))
    if errors or None in (table, api, journal, sim, voice, gpio) or mqtt is _BAD:
        return None, errors
    assert table and api and journal and sim and voice and gpio
    config = Config(
        path=path,
        digest=hashlib.sha256(data).hexdigest(),
        table=table,
        api=api,
        journal=journal,
        sim=sim,
        hardware=MappingProxyType(hardware),
        voice=voice,
        gpio=gpio,
        mqtt=mqtt,
    )
    return config, errors


def _table(reader: _Reader, doc: Mapping[str, Any]) -> TableConfig | None:
    sec = reader.section(doc, "table")
    if sec is None:
        return None
    edition = reader.get(sec, "string", "edition", "classic", choices=EDITIONS)
    seats = reader.get(sec, "integer", "seats", 4, minimum=2, maximum=10)
    tower_confirm = reader.get(sec, "string", "tower_confirm", "wait", choices=TOWER_CONFIRM)
    language = reader.get(sec, "string", "language", "en", choices=LANGUAGES)
    round_pause_s = reader.get(sec, "number", "round_pause_s", 20.0, minimum=0, maximum=3600)
    if edition is not _BAD and seats is not _BAD:
        spec = uno_core.get_edition(edition)
        if not spec.min_players <= seats <= spec.max_players:
            reader.add(ConfigError(sec[0].key("seats"), f"{edition} is for {spec.min_players}-{spec.max_players} players, not {seats}"))
            seats = _BAD
    if seats is not _BAD:
        reader.seats = seats
    preset = reader.get(sec, "string", "preset", "seed", choices=tuple(PRESETS))
    names = _names(reader, sec, seats)
    options = _options(reader, sec, edition, preset)
    reader.finish(sec, doc.get("table"))
    if _BAD in (edition, seats, tower_confirm, names, options, language, round_pause_s, preset):
        return None
    return TableConfig(edition, seats, names, options, tower_confirm, language,
                       float(round_pause_s), preset)


def _names(reader: _Reader, sec: tuple[Section, set[str]], seats: Any) -> Any:
    raw = reader.container(sec, "names", None, list, "a list of names")
    key = sec[0].key("names")
    if raw is None:
        return _BAD if seats is _BAD else ("",) * seats
    if raw is _BAD:
        return _BAD
    bad = False
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip() or len(name) > 32:
            reader.add(ConfigError(f"{key}[{i}]", f"must be a name of 1-32 characters, not {shown(name)}"))
            bad = True
        elif raw.index(name) != i:
            reader.add(ConfigError(f"{key}[{i}]", f"{name!r} is already the name of seat {raw.index(name) + 1}"))
            bad = True
    if seats is not _BAD and len(raw) != seats:
        reader.add(ConfigError(key, f"has {len(raw)} names for {seats} seats"))
        bad = True
    return _BAD if bad else tuple(raw)


def _preset(reader: _Reader, sec: tuple[Section, set[str]], edition: Any, preset: Any) -> Any:
    """The options `[table] preset` sets for the edition (each checked: a house rule the
    engine does not build yet is refused under ``table.preset``)."""
    if _BAD in (edition, preset):
        return {}
    chosen = preset_options(preset, uno_core.get_edition(edition))
    for name, value in chosen.items():
        try:
            make_options(uno_core.get_edition(edition), {name: value})
        except OptionError as exc:
            reader.add(ConfigError(sec[0].key("preset"), f"{preset!r} sets {name}: {exc.message}"))
            return _BAD
    return chosen


def _options(reader: _Reader, sec: tuple[Section, set[str]], edition: Any, preset: Any) -> Any:
    """`[table.options]` over the preset's options: the match's house rules."""
    base = _preset(reader, sec, edition, preset)
    raw = reader.container(sec, "options", {}, dict, "a table of house-rule options")
    key = sec[0].key("options")
    if raw is _BAD or base is _BAD:
        return _BAD
    bad = False
    for name, value in raw.items():
        if not isinstance(value, OptionValue):
            reader.add(ConfigError(f"{key}.{name}", f"must be true/false, a number or a string, not {shown(value)}"))
            bad = True
        elif edition is not _BAD:
            try:  # one at a time, so that every bad option is reported
                make_options(uno_core.get_edition(edition), {name: value})
            except OptionError as exc:
                reader.add(ConfigError(f"{key}.{name}", exc.message))
                bad = True
    return _BAD if bad else MappingProxyType({**base, **raw})


def _api(reader: _Reader, doc: Mapping[str, Any]) -> ApiConfig | None:
    sec = reader.section(doc, "api")
    if sec is None:
        return None
    host = reader.get(sec, "string", "host", "127.0.0.1")
    port = reader.get(sec, "integer", "port", 8080, minimum=1024, maximum=65535)
    allowed_hosts = _allowed_hosts(
        reader, reader.container(sec, "allowed_hosts", [], list, "a list of host names"))
    token = reader.get(sec, "string", "token", None)
    trusted_proxy = reader.get(sec, "string", "trusted_proxy", None)
    reader.finish(sec, doc.get("api"))
    if isinstance(trusted_proxy, str) and (trusted_proxy == "localhost" or not is_address(trusted_proxy)):
        reader.add(ConfigError("api.trusted_proxy", "must be the IP address the proxy connects "
                               f"from, like '127.0.0.1', not {trusted_proxy!r}"))
        trusted_proxy = _BAD
    if isinstance(trusted_proxy, str) and token is None:
        # through a local proxy every phone would come from loopback, where no token is the owner
        reader.add(ConfigError("api.trusted_proxy", "needs an [api] token: behind a proxy on this "
                               "machine every client would otherwise be the owner"))
        trusted_proxy = _BAD
    if host is not _BAD and not is_address(host):
        reader.add(ConfigError("api.host", f"must be an IP address or 'localhost', not {host!r}"))
        host = _BAD
    if isinstance(token, str) and (weak := token_problem(token)):
        reader.add(ConfigError("api.token", weak))
        token = _BAD
    if host is not _BAD and token is None and not is_loopback(host):
        reader.add(ConfigError("api.token", f"is required when api.host is {host!r} (not a loopback address)"))
        return None
    if _BAD in (host, port, token, allowed_hosts, trusted_proxy):
        return None
    return ApiConfig(host, port, token, allowed_hosts, trusted_proxy)


_HOST_NAME = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*", re.I)


def _allowed_hosts(reader: _Reader, value: Any) -> tuple[str, ...] | Any:
    """`[api] allowed_hosts`: host names (or addresses) the browser may use for the table,
    e.g. ``["unotable.local"]``; no ports, no wildcards (see firmware.api.guard)."""
    if value is _BAD:
        return _BAD
    bad = [v for v in value if not isinstance(v, str) or not (_HOST_NAME.fullmatch(v) or is_address(v))]
    for v in bad:
        reader.add(ConfigError("api.allowed_hosts", f"{shown(v)} is not a host name like 'unotable.local' "
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


_VOICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]*")  # espeak-ng: "de", "en-us", "de+f3"
_ALSA_DEVICE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_:,.=-]*")  # "hw:1,0", "plughw:CARD=Headphones"


def _voice(reader: _Reader, doc: Mapping[str, Any]) -> VoiceConfig | None:
    sec = reader.section(doc, "voice")
    if sec is None:
        return None
    enabled = reader.get(sec, "boolean", "enabled", False)
    voice = reader.get(sec, "string", "voice", "")
    speed = reader.get(sec, "integer", "speed", 160, minimum=80, maximum=450)
    volume = reader.get(sec, "integer", "volume", 100, minimum=0, maximum=200)
    device = reader.get(sec, "string", "device", "")
    reader.finish(sec, doc.get("voice"))
    if isinstance(voice, str) and voice and not _VOICE_NAME.fullmatch(voice):
        reader.add(ConfigError("voice.voice", f"must be an espeak-ng voice like 'de' or "
                                              f"'en-us' (espeak-ng --voices), not {voice!r}"))
        voice = _BAD
    if isinstance(device, str) and device and not _ALSA_DEVICE.fullmatch(device):
        reader.add(ConfigError("voice.device", f"must be an ALSA device like 'hw:1,0' or "
                                               f"'plughw:CARD=Headphones' (aplay -L), not {device!r}"))
        device = _BAD
    if _BAD in (enabled, voice, speed, volume, device):
        return None
    return VoiceConfig(enabled, voice, speed, volume, device)


def _gpio(reader: _Reader, doc: Mapping[str, Any]) -> GpioConfig | None:
    from hal.pins import CHOICES

    sec = reader.section(doc, "gpio")
    if sec is None:
        return None
    pin_factory = reader.get(sec, "string", "pin_factory", "auto", choices=CHOICES)
    reader.finish(sec, doc.get("gpio"))
    return None if pin_factory is _BAD else GpioConfig(pin_factory)


def _mqtt(reader: _Reader, doc: Mapping[str, Any]) -> MqttConfig | None | Any:
    """`[mqtt]` (firmware.mqtt.settings); None when the file has none."""
    from firmware.mqtt.settings import parse_config

    if "mqtt" not in doc:
        return None
    if not isinstance(doc["mqtt"], dict):
        reader.add(ConfigError("mqtt", f"must be a table, not {shown(doc['mqtt'])}"))
        return _BAD
    found: list[HalConfigError] = []
    mqtt = parse_config(doc["mqtt"], path="mqtt", errors=found)
    for exc in found:
        reader.add(exc)
    return _BAD if mqtt is None else mqtt


def named_pin_library_problem(choice: str) -> str | None:
    """Why the pin library `[gpio] pin_factory` names cannot drive pins here, or None.
    Loads it as `unotable run` will, and releases it."""
    from hal.pins import PinLibraryError, load_pin_factory

    try:
        load_pin_factory(choice).close()
    except PinLibraryError as exc:
        return f"{exc} (or set [sim] enabled = true for the simulated table)"
    return None


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
        reader.add(ConfigError(name, f"must be a table, not {shown(mapping)}"))
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


def _pins(hardware: Mapping[str, Any]) -> Iterator[tuple[str, int]]:
    """(dotted key, BCM pin) of every pin the parsed hardware sections use."""
    for cfg in hardware.values():
        pins = getattr(cfg, "pins", None)
        if callable(pins):
            yield from pins().items()


def _check_pins(reader: _Reader, hardware: Mapping[str, Any]) -> None:
    owner: dict[int, str] = {}
    for key, pin in _pins(hardware):
        if pin in owner:
            reader.add(ConfigError(key, f"GPIO {pin} is already used by {owner[pin]}"))
        else:
            owner[pin] = key


def _check_uart(reader: _Reader, hardware: Mapping[str, Any], ports: list[tuple[str, str]]) -> None:
    """A reader on the Pi's own UART owns GPIO 14 and 15: no other device may use them."""
    uart = next(((key, url) for key, url in ports if url in UART_PORTS), None)
    if uart is None:
        return
    for key, pin in _pins(hardware):
        if pin in UART_PINS:
            reader.add(ConfigError(key, f"GPIO {pin} is the {UART_PINS[pin]} pin of the UART "
                                        f"{uart[0]} = {uart[1]!r} uses"))


def _check_tray(reader: _Reader, table: TableConfig | None, doc: Mapping[str, Any]) -> None:
    """An edition with towers waits for the tray to see them, unless told not to."""
    if table is None or "tray" in doc or table.tower_confirm == "off":
        return
    if uno_core.get_edition(table.edition).towers:
        reader.add(ConfigError("tray", f"missing section: the {table.edition} edition needs the "
                                       "tower tray's readers (or set table.tower_confirm = 'off')"))


def _check_pad_cards(reader: _Reader, table: TableConfig | None, pad: Any) -> None:
    """Every tag in [pad.cards] names a card of the edition's deck (hal cannot know the
    decks). Read as written, so it is said beside [pad]'s other problems."""
    cards = pad.get("cards") if isinstance(pad, dict) else None
    if table is None or not isinstance(cards, dict):
        return
    problems = deck_problems(table.edition, {k: v for k, v in cards.items() if isinstance(v, str)})
    for uid, problem in problems.items():
        reader.add(ConfigError(f"pad.cards.{uid}", problem))


def deck_problems(edition: str, cards: Mapping[str, str]) -> dict[str, str]:
    """Tag UID -> why its card code is no card of `edition`'s deck (`unotable cards check`
    lists the same)."""
    deck = {uno_core.format_card(card) for card in uno_core.get_edition(edition).deck}
    return {uid: f"{code!r} is not a card of the {edition} deck (unotable cards check lists "
                 "every such tag)" for uid, code in cards.items() if code not in deck}


def _check_seats(reader: _Reader, seats: int | None, hardware: Mapping[str, Any]) -> None:
    """The hardware must serve every seat the table plays with (a spare is fine)."""
    if seats is None:
        return
    wired = getattr(hardware.get("seats"), "seats", None)
    if isinstance(wired, int) and seats > wired:
        reader.add(ConfigError("table.seats", f"is {seats} but [seats] wires buttons for {wired}"))
    angles = getattr(hardware.get("launcher"), "seat_angles", None)
    if angles and len(angles) < seats:
        reader.add(ConfigError("launcher.seat_angles", f"has {len(angles)} angles for {seats} seats"))


def serial_ports(path: str, value: Any) -> Iterator[tuple[str, str]]:
    """(dotted key, port) of every serial port in a hardware section: string options
    named *port, *url or *device, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            key_path = f"{path}.{key}"
            if isinstance(item, str) and key.endswith(("port", "url", "device")):
                yield key_path, item
            else:
                yield from serial_ports(key_path, item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from serial_ports(f"{path}[{i}]", item)


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


def is_address(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    return host == "localhost" or (is_address(host) and ipaddress.ip_address(host).is_loopback)


def token_problem(token: str) -> str | None:
    """Why `token` is too weak for the API, or None (the token itself is never quoted).

    Besides length and distinct characters, zxcvbn (Dropbox's estimator) must reckon it
    takes at least 10^12 guesses (`MIN_TOKEN_GUESSES_LOG10`): a word plus digits, a
    keyboard walk, a repeat, a date or the table's own name fall far short, while any
    `secrets.token_urlsafe(16)` or longer is above 10^20. Only its first 72 characters
    are judged (zxcvbn's own limit)."""
    new = "make one with `unotable token new`"
    if len(token) < MIN_TOKEN_LENGTH or token != token.strip() or " " in token:
        return f"must be at least {MIN_TOKEN_LENGTH} characters without spaces: {new}"
    if len(set(token)) < MIN_TOKEN_DISTINCT:
        return (f"has only {len(set(token))} different characters, at least "
                f"{MIN_TOKEN_DISTINCT} are needed: {new}")
    from zxcvbn import zxcvbn

    judged = zxcvbn(token[:72], user_inputs=list(TOKEN_WORDS))
    if judged["guesses_log10"] < MIN_TOKEN_GUESSES_LOG10:
        warning = judged["feedback"].get("warning") or "it follows a pattern"
        return (f"is easy to guess ({warning.rstrip('.').lower()}; about "
                f"10^{int(judged['guesses_log10'])} guesses, at least "
                f"10^{MIN_TOKEN_GUESSES_LOG10} are needed): {new}")
    return None


def pin_library_problem(needs_pwm: Sequence[str] = ()) -> str | None:
    """Why gpiozero could not drive real pins here, or None. Runs gpiozero's own default
    pin-factory search (lgpio, RPi.GPIO, pigpio, native; or $GPIOZERO_PIN_FACTORY), as
    the devices of `unotable run` will, and releases what it found. The last resort,
    gpiozero's native factory, has no PWM: not enough for the pins `needs_pwm` names."""
    from gpiozero import Device
    from gpiozero.exc import NativePinFactoryFallback, PinFactoryFallback


    if Device.pin_factory is not None:
        return None
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:  # noqa: BLE001 - any failure means run cannot start
            tried = [str(w.message).removeprefix("Falling back from ") for w in seen
                     if issubclass(w.category, PinFactoryFallback)]
            return no_pin_library(tried or [str(exc)],
                                  ", or set [sim] enabled = true for the simulated table")
    factory, Device.pin_factory = Device.pin_factory, None
    factory.close()
    if needs_pwm and any(issubclass(w.category, NativePinFactoryFallback) for w in seen):
        return (f"only gpiozero's native pin factory works on this machine, and it has no "
                f"PWM, which {', '.join(needs_pwm)} need: {PI_EXTRA}")
    return None
