"""One exception hierarchy for the daemon: everything derives from TableError."""

from __future__ import annotations

from hal.errors import ConfigError as HalConfigError


class TableError(Exception):
    """Root of every error raised by the firmware package."""


class ConfigError(TableError, HalConfigError):
    """A config option is unknown, missing or bad. `key` is the dotted path (`api.port`).

    It is also a `hal.errors.ConfigError`, so callers catch one class for both layers.
    """


class UsageError(TableError):
    """Bad input on the command line: printed as `unotable COMMAND: error: ...`, exit
    status 2."""


class JournalError(TableError):
    """The journal cannot be opened or written."""


class JournalCorrupt(JournalError):
    """The journal file is damaged: `path` names the file, `detail` says what is wrong."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"journal {path} is corrupt: {detail}")
        self.path = path
        self.detail = detail


class JournalRefused(JournalError):
    """The daemon must not start on this journal: it lost committed entries, a match
    header was changed, or it cannot be written. The message is one line naming the
    file, what is wrong and what to do; `unotable run` prints it and exits with 2."""


class Rejected(TableError):
    """A request was refused; nothing changed.

    `key` names the refusal in the catalogues (`firmware.words`) and `values` fill its
    wording: seats numbered from 0, cards as `Card`, a part worded on its own as a
    `firmware.words.rejected.Phrase`. It is worded once, where it is said (the API's
    answer, the screen, the voice: `Words.rejected`); `reason` is its English, for logs.
    `status` is the HTTP status the API answers with: 409 when the request does not fit
    the table's current situation (not your turn, paused, waiting for a tower), 422 when
    the rules forbid it, 404 when it names something that does not exist (a seat), 507
    when it could not be written to the journal.
    `field` names the offending request field when there is one.
    """

    def __init__(self, key: str, /, *, field: str | None = None, status: int = 409,
                 **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values
        self.field = field
        self.status = status

    @property
    def reason(self) -> str:
        """In English, seats numbered from 1: for logs (the key and values as they are
        should a wording be missing, so that a log line never fails)."""
        from firmware.words.messages import Words  # noqa: PLC0415 - worded only when asked

        try:
            return Words("en").rejected(self)
        except (KeyError, IndexError, ValueError):
            return f"{self.key} {self.values}"

    def __str__(self) -> str:
        return self.reason


class JournalUnwritable(JournalError, Rejected):
    """A commit failed and was rolled back (disk full, read-only file or directory, I/O
    error, or the file was deleted or replaced under the daemon): the journal is fine up
    to its last entry, the request is refused with 507 and nothing changed. `cause` is
    ``"disk-full"``, ``"read-only"``, ``"io"`` or ``"lost"``; `reason` the operator's
    English line (the file, what to do), for the log and ``systemctl status``."""

    def __init__(self, detail: str, *, cause: str, path: str) -> None:
        Rejected.__init__(self, "refused.journal", status=507, cause=cause, path=path)
        self.cause = cause
        self.detail = detail

    @property
    def reason(self) -> str:
        return self.detail


class StartRefused(TableError):
    """The daemon cannot start for a reason outside it (the API's port is taken); the
    message says what to change. Logged as one line, without a traceback."""


class FileRefused(StartRefused):
    """A file of the table's state beside the journal (the seats' keys, the twin's world)
    is a link or another non-regular file, damaged, or another table's: the daemon does
    not start and writes nothing. `unotable run` prints the one-line message and exits
    with 2, as for a refused journal."""


class LoopStopped(TableError):
    """The event loop stopped before it could handle an event."""


class NoHandler(TableError, LookupError):
    """An event was called on the loop that no handler is registered for."""
