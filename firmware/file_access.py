"""What to do about a file this user may not read: the installed config is
root:unotable 0640 (systemd/install.sh), readable by the group unotable and by root."""

from __future__ import annotations

import getpass
import grp
import os
import pwd
from collections.abc import Callable, Sequence
from pathlib import Path


def permission_hint(path: Path, exc: OSError, *, default: Path | None = None) -> str:
    """For a PermissionError on `path`: who may read it and how to become one of them
    (sudo, or its group); `default`: the path chosen when none was named, which then says
    how to name another. Empty for any other error."""
    if not isinstance(exc, PermissionError):
        return ""
    try:
        st = path.stat()
    except OSError:
        return ""
    owner = _name(pwd.getpwuid, st.st_uid)
    group = _name(grp.getgrgid, st.st_gid)
    user = os.environ.get("USER") or getpass.getuser()
    hint = (f" (it is {owner}:{group} {st.st_mode & 0o777:04o}): run the command with sudo, or "
            f"join group {group} (sudo usermod -a -G {group} {user}, then log in again)")
    if default is not None and path == default:
        hint += (f"; {path} is the default config because it exists: --config PATH or "
                 "$UNOTABLE_CONFIG names another")
    return hint


def _name(lookup: Callable[[int], Sequence[object]], number: int) -> str:
    """A user's or group's name (pwd.getpwuid, grp.getgrgid), else its number."""
    try:
        return str(lookup(number)[0])
    except KeyError:
        return str(number)
