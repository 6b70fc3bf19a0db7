"""Who the table's seats belong to: the service's user owns its state directory and the
seats' keys in it, so another user runs `unotable seats` through `sudo -u` that user."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

SERVICE_STATE = Path("/var/lib/unotable")  # the service's StateDirectory= (systemd/)
SERVICE_USER = "unotable"  # the service's User=, who owns its state directory


def as_table_user(action: str, directory: Path | None = None) -> str:
    """The command line of `unotable ACTION` that works for this user: the seats' keys are
    the table's user's (the owner of `directory`, the seats' state directory, or the
    service's user while it is not made yet), so another user runs it through
    `sudo -u OWNER`."""
    directory = SERVICE_STATE if directory is None else directory
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing == directory:
        owner: int | None = directory.stat().st_uid
    else:
        try:
            owner = pwd.getpwnam(SERVICE_USER).pw_uid
        except KeyError:  # no service installed: the keys are whoever runs the table's
            owner = None
    if owner is None or owner == os.geteuid():
        return f"unotable {action}"
    return f"sudo -u {user_name(owner)} unotable {action}"


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"
