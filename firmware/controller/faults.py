"""When the journal cannot be written (a full disk, a read-only card): the table
pauses, says so (event stream, `systemctl status`), tries again every
`JOURNAL_RETRY_S` on the loop's clock and goes on by itself once a write works.

Nothing is lost meanwhile: a request is refused with 507 and changes nothing; an
ejection that ended is kept (`Ejections.unjournaled`), and its part hands the watch the
write it owes (`owe`), done first thing once the journal can be written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware.controller.context import Context, Part, RoundEnded
from firmware.controller.seats import SeatButtons
from firmware.controller.stops import JournalFault
from firmware.errors import JournalUnwritable, Rejected

log = logging.getLogger(__name__)

JOURNAL_RETRY_S = 1.0  # while the journal cannot be written: try again this often


class JournalRetry:
    """Posted while the journal cannot be written: try again."""


class JournalOpenedFull:
    """Posted once the table is built when its journal opened unwritable (a full disk)."""


class JournalWatch(Part):
    """Owns the journal's fault and the pending retry; handles `JournalRetry`; answers
    the first stop (``journal``)."""

    name = "journal_watch"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.fault: JournalFault | None = None  # the journal cannot be written
        self._retry_due = False  # a JournalRetry is posted for later
        self._owed: list[Callable[[], None]] = []  # writes a part owes the journal
        ctx.journal.fault_listeners.append(self._on_fault)
        ctx.on(JournalRetry, self._on_retry)
        ctx.on(JournalOpenedFull, lambda _e: self._on_fault(ctx.journal.fault))
        if ctx.journal.fault is not None:  # opened on a full disk: paused from the start
            ctx.loop.post(JournalOpenedFull())
        ctx.stop("journal", (self, "fault"))
        ctx.subscribe(RoundEnded, self._on_round_ended)

    def _on_round_ended(self, event: RoundEnded) -> None:
        if event.live:  # a damaged WAL can cost at most the round under way
            self.ctx.journal.checkpoint()

    def _on_fault(self, fault: JournalUnwritable | None) -> None:
        """The journal cannot be written (`fault`), or can again (None): pause, go on.
        Called inside the journal's commit: only notes and announces."""
        t = self.ctx
        notifier = t.notifier  # systemctl status shows it
        if fault is None:
            if self.fault is not None:
                self.fault = None
                log.warning("the journal can be written again: the table goes on")
                notifier.status("the journal can be written again: the table goes on")
                t.publish({"kind": "journal_ok"})
            return
        first = self.fault is None
        self.fault = JournalFault(fault.cause, fault.reason)
        if first:
            log.error("%s", self.fault.message)
            notifier.status(f"paused: {fault.reason}")
            t.peer(SeatButtons).buzz("error")
            t.publish(self.fault.to_json(t.words))  # kind "journal"
            self._retry_later()

    def owe(self, write: Callable[[], None]) -> None:
        """A part could not journal something that happened (an ejection's end):
        `write()` journals it once the journal can be written (raises
        `JournalUnwritable` while it cannot)."""
        if write not in self._owed:
            self._owed.append(write)

    def must_retry(self) -> bool:
        """The journal could not be written, or a part owes it a write."""
        return self.fault is not None or bool(self._owed)

    def gate(self) -> None:
        """Raise the 507 of a journal that still cannot be written (after trying)."""
        if self.must_retry():
            self.retry()
        if self.fault is not None:
            raise Rejected("refused.journal", status=507, cause=self.fault.cause,
                           path=self.ctx.journal.path)

    def retry(self) -> None:
        """Try to write again; once it works, journal an ejection's end that could not
        be written and go on where the table stopped."""
        t = self.ctx
        if self.fault is not None and not t.journal.probe():
            self._retry_later()
            return
        try:
            while self._owed:
                self._owed[0]()
                del self._owed[0]
        except JournalUnwritable:
            return  # the fault is back: its retry is scheduled
        t.settle()

    def _retry_later(self) -> None:
        if not self._retry_due:
            self._retry_due = True
            self.ctx.loop.after(JOURNAL_RETRY_S, JournalRetry())

    def _on_retry(self, _event: JournalRetry) -> None:
        self._retry_due = False
        self.retry()
