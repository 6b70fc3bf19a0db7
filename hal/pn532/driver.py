"""PN532 driver over UART (HSU), from the NXP user manual UM0701-02.

Bring-up (again after every reconnect or lost answer): wake the HSU from LowVbat
with ``55 55 00 ..``, SAMConfiguration (normal mode) as the first command,
GetFirmwareVersion, RFConfiguration MaxRetries with a finite passive-activation
count (the default 0xFF would make an empty listing never answer), RF field off.

Inventory (`read_tags`), every tag on the reader even though one
InListPassiveTarget activates at most two:

1. RF field on: every tag in the field is freshly powered and answers REQA.
2. InListPassiveTarget (MaxTg 2, 106 kbps type A) lists up to two tags.
3. InDeselect (Tg 0: all) halts them (HLTA): a halted tag ignores REQA, so the
   next listing finds the others. Repeat 2-3 until a listing finds nothing new
   (libnfc enumerates targets the same way), or fewer than two: then no other tag
   answered its REQA, and a listing more would only cost its time on the line (a
   card on the pad is read with three commands, not five).
4. RF field off: halted tags are reset for the next turn, and the field does not
   disturb the neighbouring readers while they poll (readers take turns).

Line handling: each command waits for the ACK then the answer (code + 1); a NACK
from the chip gets the command resent; a broken answer gets a NACK (the chip
repeats its answer); silence gets one resend, then an ACK to abort and
SerialTimeout; an error frame is FrameError. Any failed exchange marks the chip
for a fresh bring-up at the next call. When the port disappears, `SerialLink`
reopens it with backoff.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import serial

from hal.clock import REAL_TIME, Clock
from hal.errors import FrameError, ReaderDisconnected, SerialTimeout
from hal.pn532.frames import ACK, CHIP_TO_HOST, NACK, FrameDecoder, FrameKind, encode_frame
from hal.serialport import SerialReader

WAKE_UP = b"\x55\x55" + bytes(14)
SAM_CONFIGURATION = 0x14
GET_FIRMWARE_VERSION = 0x02
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
IN_DESELECT = 0x44
RF_ITEM_FIELD = 0x01
RF_ITEM_MAX_RETRIES = 0x05
BRTY_106_TYPE_A = 0x00
MAX_LISTINGS = 8  # 16 tags: far more than the four towers a slot can hold
MAX_TG = 2  # the targets one InListPassiveTarget activates at most (UM0701-02)


def parse_type_a_targets(payload: bytes) -> list[str]:
    """UIDs (uppercase hex) from an InListPassiveTarget answer for 106 kbps type A."""
    if not payload:
        raise FrameError("empty InListPassiveTarget answer")
    count, pos, uids = payload[0], 1, []
    for _ in range(count):
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1..., [ATSLength, ATS...]
        if pos + 5 > len(payload):
            raise FrameError(f"truncated target data: {payload.hex(' ').upper()}")
        sel_res, uid_len = payload[pos + 3], payload[pos + 4]
        start = pos + 5
        if start + uid_len > len(payload):
            raise FrameError(f"truncated UID: {payload.hex(' ').upper()}")
        uids.append(payload[start : start + uid_len].hex().upper())
        pos = start + uid_len
        if sel_res & 0x20:  # ISO14443-4 compliant: ATS follows, its first byte its length
            if pos >= len(payload):
                raise FrameError(f"missing ATS: {payload.hex(' ').upper()}")
            pos += payload[pos]
    return uids


class PN532(SerialReader):
    driver = "pn532"

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        ack_timeout_s: float = 1.0,
        response_timeout_s: float = 1.0,
        max_retries: int = 1,
        backoff_min_s: float = 0.5,
        backoff_max_s: float = 10.0,
        clock: Clock = REAL_TIME,
        open_port: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        if not 0 <= max_retries <= 0xFE:
            raise ValueError(f"max_retries must be 0-254 (255 means forever), not {max_retries}")
        super().__init__(port, baudrate=baudrate, backoff_min_s=backoff_min_s,
                         backoff_max_s=backoff_max_s, clock=clock, open_port=open_port)
        self._decoder = FrameDecoder()
        self._ack_timeout = ack_timeout_s
        self._response_timeout = response_timeout_s
        self._max_retries = max_retries
        self._ready = False
        # A chip that does not come up (adapter present, chip dead) is retried with
        # backoff too, so it does not cost every tray round its full timeouts.
        self._backoff_min, self._backoff_max = backoff_min_s, backoff_max_s
        self._bring_up_backoff = backoff_min_s
        self._bring_up_at = float("-inf")
        self.firmware: str | None = None
        self.frames_ok = 0
        self.frames_bad = 0
        self.nacks_sent = 0
        self.resends = 0
        self.timeouts = 0

    # -- public ----------------------------------------------------------------------
    def open(self) -> None:
        """Connect and bring the chip up now (otherwise the first read does it)."""
        self._ensure_ready()

    def read_tags(self) -> list[str]:
        """One turn: every tag in the field, as uppercase hex UIDs, in the order found."""
        self._ensure_ready()
        try:
            self._rf_field(True)
            found: list[str] = []
            for _ in range(MAX_LISTINGS):
                listed = parse_type_a_targets(
                    self._command(IN_LIST_PASSIVE_TARGET, bytes([MAX_TG, BRTY_106_TYPE_A]))
                )
                new = [uid for uid in listed if uid not in found]
                found += new
                if len(listed) < MAX_TG:
                    break  # every tag in the field answered this listing
                self._command(IN_DESELECT, b"\x00")
                if not new:
                    break  # a tag that ignores HLTA keeps answering: nothing more to learn
            self._rf_field(False)
        except (SerialTimeout, FrameError, ReaderDisconnected) as exc:
            self._failed(exc)
            raise
        return found

    def get_status(self) -> dict[str, Any]:
        return self._status(ready=self._ready, firmware=self.firmware,
                            frames_ok=self.frames_ok, frames_bad=self.frames_bad,
                            nacks_sent=self.nacks_sent, resends=self.resends,
                            timeouts=self.timeouts)

    def close(self) -> None:
        if self._link.connected and self._ready:
            with contextlib.suppress(SerialTimeout, FrameError, ReaderDisconnected):
                self._rf_field(False)
        self._ready = False
        super().close()

    def __repr__(self) -> str:
        state = "ready" if self._ready else "connected" if self._link.connected else "disconnected"
        return f"<PN532 {self.port} {state} firmware={self.firmware} ok={self.frames_ok} bad={self.frames_bad}>"

    # -- bring-up ----------------------------------------------------------------------
    def _failed(self, exc: Exception) -> None:
        self._ready = False
        self.last_error = str(exc)

    def _ensure_ready(self) -> None:
        try:
            if self._link.open():
                self._ready = False
            if not self._ready:
                now = self._clock.now()
                if now < self._bring_up_at:
                    raise SerialTimeout(f"{self.port}: chip not answering ({self.last_error})")
                try:
                    self._bring_up()
                except (SerialTimeout, FrameError):
                    self._bring_up_at = now + self._bring_up_backoff
                    self._bring_up_backoff = min(self._bring_up_backoff * 2, self._backoff_max)
                    raise
                self._bring_up_backoff = self._backoff_min
        except (SerialTimeout, FrameError, ReaderDisconnected) as exc:
            self._failed(exc)
            raise

    def _bring_up(self) -> None:
        self._link.write(WAKE_UP)
        try:
            self._command(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s, use IRQ
        except SerialTimeout:
            self._link.write(WAKE_UP)  # a slow adapter may have eaten the first wake-up
            self._command(SAM_CONFIGURATION, b"\x01\x14\x01")
        version = self._command(GET_FIRMWARE_VERSION)
        if len(version) != 4:
            raise FrameError(f"{self.port}: odd firmware answer {version.hex(' ').upper()}")
        ic, ver, rev = version[0], version[1], version[2]
        self.firmware = f"PN5{ic:02X} v{ver}.{rev}"
        # MxRtyATR, MxRtyPSL (the chip's defaults), MxRtyPassiveActivation: finite
        self._command(RF_CONFIGURATION, bytes([RF_ITEM_MAX_RETRIES, 0xFF, 0x01, self._max_retries]))
        self._rf_field(False)
        self._ready = True

    def _rf_field(self, on: bool) -> None:
        self._command(RF_CONFIGURATION, bytes([RF_ITEM_FIELD, 0x01 if on else 0x00]))

    # -- one exchange ---------------------------------------------------------------------
    def _command(self, code: int, params: bytes = b"") -> bytes:
        """Send a command, return its answer's payload (after the response code)."""
        frame = encode_frame(bytes([code]) + params)
        self._decoder.reset()
        self._link.discard_input()
        self._link.write(frame)
        acked, resent, nacks = False, False, 0
        deadline = self._clock.now() + self._ack_timeout
        while True:
            if self._clock.now() >= deadline:
                if not acked and not resent:
                    resent = True
                    self._resend(frame)
                    deadline = self._clock.now() + self._ack_timeout
                    continue
                self.timeouts += 1
                self._decoder.reset()
                self._link.write(ACK)  # abort whatever the chip may still be doing
                what = "answer" if acked else "ACK"
                raise SerialTimeout(f"{self.port}: no {what} to command 0x{code:02X}")
            for reply in self._decoder.feed(self._link.read()):
                if reply.kind is FrameKind.BROKEN:
                    self.frames_bad += 1
                    if nacks < 3:
                        nacks += 1
                        self.nacks_sent += 1
                        self._link.write(NACK)  # ask the chip to repeat its answer
                        deadline = self._clock.now() + self._response_timeout
                    continue
                if reply.kind is FrameKind.INFO and (
                    reply.tfi != CHIP_TO_HOST or reply.code != code + 1
                ):
                    self.frames_bad += 1  # a stale answer or noise that happened to frame
                    continue
                self.frames_ok += 1
                self.last_seen = self._clock.now()
                if reply.kind is FrameKind.ACK:
                    if not acked:
                        acked = True
                        deadline = self._clock.now() + self._response_timeout
                elif reply.kind is FrameKind.NACK:
                    self._resend(frame)
                    deadline = self._clock.now() + self._ack_timeout
                elif reply.kind is FrameKind.ERROR:
                    raise FrameError(f"{self.port}: the chip reports an error for command 0x{code:02X}")
                else:
                    return reply.data[1:]

    def _resend(self, frame: bytes) -> None:
        self.resends += 1
        self._decoder.reset()
        self._link.write(frame)
