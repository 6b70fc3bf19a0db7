"""`unotable token new`: a fresh API token, generated, never chosen.

Prints ``secrets.token_urlsafe(32)`` (256 random bits, 43 characters). With ``--write``
it goes into the config's ``[api] token`` instead (the file's comments, layout, owner
and mode are kept; nothing else changes), and the token is not printed. A token
someone made up is what `config check` refuses (`firmware.config.token_problem`).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TOKEN_BYTES = 32


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("token", help="make a new API token")
    actions = parser.add_subparsers(dest="token_command", metavar="ACTION", required=True)
    new = actions.add_parser(
        "new", help="print a fresh random token (or write it into the config)",
        description="Print a fresh random API token (secrets.token_urlsafe(32)). With "
        "--write, store it as the config's [api] token instead, keeping the rest of the "
        "file; then restart the table (sudo systemctl restart unotable): every program and "
        "page that used the old token needs the new one.")
    new.add_argument("--write", action="store_true",
                     help="store it as [api] token in the config instead of printing it")
    new.add_argument("--config", metavar="PATH",
                     help="config file to write (default: $UNOTABLE_CONFIG, else "
                     "/etc/unotable/config.toml)")
    new.set_defaults(func=run_new)


def new_token() -> str:
    """A token `firmware.config.token_problem` always accepts."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def run_new(args: argparse.Namespace) -> int:
    token = new_token()
    if not args.write:
        if args.config:
            print("unotable token: --config only means something with --write", file=sys.stderr)
            return 2
        print(token)
        return 0
    path = config_to_edit(args.config)
    try:
        write_api(path, {"token": token})
    except ConfigEditError as exc:
        print(f"unotable token: error: {exc}", file=sys.stderr)
        return 1
    print(f"Wrote a new [api] token to {path} (not shown here; it is in the file).")
    print("Next: sudo systemctl restart unotable; programs and pages that used the old "
          "token need the new one.")
    return 0


# -- editing the config's [api] table (also used by `unotable lan`) ---------------------
class ConfigEditError(Exception):
    """The config could not be read or written; the message names the file."""


def config_to_edit(arg: str | None) -> Path:
    """The config file a command may change: never the built-in default (`UsageError`)."""
    from firmware.commands.enroll import _config_path

    return _config_path(arg)


def read_document(path: Path) -> Any:
    """The config as a tomlkit document (comments kept); an empty one when absent."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from firmware.input_file import InputFileError, read_input_text

    if not path.exists():
        return tomlkit.document()
    try:
        return tomlkit.parse(read_input_text(path))
    except InputFileError as exc:
        raise ConfigEditError(f"{path}: {exc.message}") from None
    except TOMLKitError as exc:
        raise ConfigEditError(f"cannot read {path}: {exc}") from None


def api_table(doc: Any, path: Path) -> Any:
    """The document's ``[api]`` table, added when missing."""
    import tomlkit

    if "api" not in doc:
        doc["api"] = tomlkit.table()
    api = doc["api"]
    if not isinstance(api, dict):
        raise ConfigEditError(f"{path}: api must be a table ([api])")
    return api


def write_api(path: Path, values: Mapping[str, object], doc: Any = None) -> None:
    """Set `values` in the config's ``[api]`` table and replace the file atomically with
    the old one's owner, group and mode (as `unotable enroll` writes it)."""
    import tomlkit

    from firmware.commands.enroll import _write_keeping_mode

    doc = read_document(path) if doc is None else doc
    api = api_table(doc, path)
    for key, value in values.items():
        api[key] = value
    try:
        _write_keeping_mode(path, tomlkit.dumps(doc))
    except OSError as exc:
        raise ConfigEditError(f"cannot write {path}: {exc.strerror or exc}") from None
