"""`[mqtt]`: where the table's broker is and what the table says there.

Read like a hal section (``parse_config(mapping, path=, errors=)``): every bad value is
collected with its dotted key. The password is never shown: not in an error, not in
the dataclass's repr, not in a log line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hal.config import Section, shown
from hal.errors import ConfigError

SCHEMES = {"mqtt": 1883, "mqtts": 8883}
# A topic level the table writes under: no wildcard, no empty level, nothing MQTT forbids.
_TOPIC = re.compile(r"[^/#+\x00]+(/[^/#+\x00]+)*")
MAX_NAME = 64


@dataclass(frozen=True)
class MqttConfig:
    url: str
    host: str
    port: int
    tls: bool
    ca_file: str | None = None  # mqtts:// only; None: the system's trusted CAs
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    discovery_prefix: str = "homeassistant"
    topic_root: str = "unotable"
    commands: bool = False
    name: str = ""  # what Home Assistant and the standings call the table; "" = from its id


def parse_config(mapping: Mapping[str, Any], *, path: str = "mqtt",
                 errors: list[ConfigError] | None = None) -> MqttConfig | None:
    """The `[mqtt]` section; None (with `errors` filled) when any option is bad."""
    found: list[ConfigError] = [] if errors is None else errors
    before = len(found)
    sec = Section(mapping, path=path, errors=found)
    url = _option(sec, found, "string", "url", None)
    ca_file = _option(sec, found, "string", "ca_file", None)
    username = _option(sec, found, "string", "username", None)
    password = _password(sec, found)
    prefix = _topic(sec, found, "discovery_prefix", "homeassistant")
    root = _topic(sec, found, "topic_root", "unotable")
    commands = _option(sec, found, "boolean", "commands", False)
    name = _option(sec, found, "string", "name", "")
    for key in sorted(set(mapping) - sec._used):  # noqa: SLF001 - the section's own record
        found.append(ConfigError(sec.key(key), "unknown option"))
    where = _where(sec, found, url)
    if isinstance(name, str) and (len(name) > MAX_NAME or name != name.strip()):
        found.append(ConfigError(sec.key("name"), f"must be a name of at most {MAX_NAME} "
                                 "characters without spaces at its ends"))
    if where is not None and isinstance(ca_file, str):
        if not where[2]:
            found.append(ConfigError(sec.key("ca_file"), "is only for an mqtts:// url "
                                     f"(the url {url!r} is not encrypted)"))
        elif not Path(ca_file).is_file():
            found.append(ConfigError(sec.key("ca_file"), f"{ca_file!r} is not a file: the "
                                     "certificate (PEM) of the CA that signed the broker's"))
    if isinstance(password, str) and username is None:
        found.append(ConfigError(sec.key("password"), "needs mqtt.username"))
    if len(found) > before or where is None:
        return None
    host, port, tls = where
    return MqttConfig(url, host, port, tls, ca_file, username, password, prefix, root,
                      commands, name)


def _option(sec: Section, found: list[ConfigError], how: str, name: str, default: Any) -> Any:
    try:
        return getattr(sec, how)(name, default)
    except ConfigError as exc:
        found.append(exc)
        return default


def _password(sec: Section, found: list[ConfigError]) -> str | None:
    """`password`, judged without ever quoting it."""
    value = sec.raw("password", None)
    if value is None or (isinstance(value, str) and value):
        return value
    found.append(ConfigError(sec.key("password"), "must be a non-empty string (not shown)"))
    return None


def _topic(sec: Section, found: list[ConfigError], name: str, default: str) -> str:
    value = _option(sec, found, "string", name, default)
    if value is None or not _TOPIC.fullmatch(value):
        found.append(ConfigError(sec.key(name), "must be MQTT topic levels like "
                                 f"{default!r}: no '+' or '#', no empty level, not {shown(value)}"))
        return default
    return str(value)


def _redacted(url: str) -> str:
    """`url` as an error may quote it: whatever stands before an '@' is hidden."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest.split("/", 1)[0]:
        return repr(url)
    return repr(f"{scheme}{sep}***@{rest.split('@', 1)[1]}")


def _where(sec: Section, found: list[ConfigError], url: Any) -> tuple[str, int, bool] | None:
    """(host, port, tls) of `url`, or None after naming its problem."""
    key = sec.key("url")
    if url is None:
        if not sec.has("url"):  # else its type was already named
            found.append(ConfigError(key, "is required: the broker, like "
                                     "'mqtt://broker.local' or 'mqtts://broker.local:8883'"))
        return None
    if not isinstance(url, str):
        return None
    shown_url = _redacted(url)
    if shown_url != repr(url):
        found.append(ConfigError(key, "must not hold a user or password: put them in "
                                 "mqtt.username and mqtt.password"))
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        found.append(ConfigError(key, f"is not a broker URL ({exc}): {shown_url}"))
        return None
    if parts.scheme not in SCHEMES or not parts.hostname:
        found.append(ConfigError(key, "must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], "
                                 f"not {shown_url}"))
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        found.append(ConfigError(key, f"must be only mqtt(s)://HOST[:PORT], not {shown_url}"))
        return None
    if port == 0:
        found.append(ConfigError(key, f"port must be 1-65535, not 0: {shown_url}"))
        return None
    return parts.hostname, port or SCHEMES[parts.scheme], parts.scheme == "mqtts"
