"""When the journal cannot be written (a full disk, a read-only card): the table
pauses, says so (event stream, `systemctl status`), tries again every
`JOURNAL_RETRY_S` on the loop's clock and goes on by itself once a write works.

Nothing is lost meanwhile: a request is refused with 507 and changes nothing; an
ejection that ended is kept (`Ejections.unjournaled`) and journaled first thing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from firmware.controller.stops import JournalFault
from firmware.errors import JournalUnwritable, Rejected

if TYPE_CHECKING:
    from firmware.controller.table import Controller

log = logging.getLogger(__name__)

JOURNAL_RETRY_S = 1.0  # while the journal cannot be written: try again this often


class JournalRetry:
    """Posted while the journal cannot be written: try again."""


class JournalOpenedFull:
    """Posted once the table is built when its journal opened unwritable (a full disk)."""


class JournalWatch:
    """Owns the journal's fault and the pending retry; handles `JournalRetry`."""

    def __init__(self, table: Controller) -> None:
        self.table = table
        self.fault: JournalFault | None = None  # the journal cannot be written
        self._retry_due = False  # a JournalRetry is posted for later
        table.journal.fault_listeners.append(self._on_fault)
        table.loop.on(JournalRetry, self._on_retry)
        table.loop.on(JournalOpenedFull, lambda _e: self._on_fault(table.journal.fault))
        if table.journal.fault is not None:  # opened on a full disk: paused from the start
            table.loop.post(JournalOpenedFull())

    def _on_fault(self, fault: JournalUnwritable | None) -> None:
        """The journal cannot be written (`fault`), or can again (None): pause, go on.
        Called inside the journal's commit: only notes and announces."""
        t = self.table
        notifier = t.services.notifier  # systemctl status shows it
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
            t.hw.panel.buzz("error")
            t.publish(self.fault.to_json())  # kind "journal"
            self._retry_later()

    def gate(self) -> None:
        """Raise the 507 of a journal that still cannot be written (after trying)."""
        if self.fault is not None or self.table.ejections.unjournaled is not None:
            self.retry()
        if self.fault is not None:
            raise Rejected(f"the table waits: {self.fault.message}", status=507)

    def retry(self) -> None:
        """Try to write again; once it works, journal an ejection's end that could not
        be written and go on where the table stopped."""
        t = self.table
        if self.fault is not None and not t.journal.probe():
            self._retry_later()
            return
        try:
            t.ejections.write_unjournaled()
        except JournalUnwritable:
            return  # the fault is back: its retry is scheduled
        t.settle()

    def _retry_later(self) -> None:
        if not self._retry_due:
            self._retry_due = True
            self.table.loop.after(JOURNAL_RETRY_S, JournalRetry())

    def _on_retry(self, _event: JournalRetry) -> None:
        self._retry_due = False
        self.retry()
