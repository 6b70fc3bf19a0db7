"""RDM6300 125 kHz reader (EM4100 tags), 9600 8N1, transmit only.

Frame (14 bytes): ``02``, 10 ASCII hex digits (version byte + 4-byte tag id),
2 ASCII hex digits of checksum (XOR of the 5 decoded bytes), ``03``. The module
repeats the frame while a tag stays in the field and sends nothing when it
leaves, so a tag counts as gone once it has not been seen for `removal_s`
(measured on the injected clock).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import xor
from typing import Any

import serial

from hal.clock import REAL_TIME, Clock
from hal.errors import ReaderDisconnected
from hal.serialport import SerialReader

STX, ETX = 0x02, 0x03
FRAME_LEN = 14
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def encode_frame(uid: str) -> bytes:
    """The 14 bytes an RDM6300 sends for a 5-byte (10 hex digit) tag."""
    raw = bytes.fromhex(uid)
    if len(raw) != 5:
        raise ValueError(f"an EM4100 tag id is 5 bytes (10 hex digits), not {uid!r}")
    return bytes([STX]) + (raw.hex().upper() + f"{reduce(xor, raw):02X}").encode() + bytes([ETX])


class RDM6300Decoder:
    """Pure framing: `feed(bytes) -> list[str]` of tag UIDs (uppercase hex)."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.frames_ok = 0
        self.frames_bad = 0

    def reset(self) -> None:
        self._buf.clear()

    def feed(self, chunk: bytes) -> list[str]:
        self._buf += chunk
        uids: list[str] = []
        while True:
            start = self._buf.find(STX)
            if start < 0:
                self._buf.clear()
                return uids
            del self._buf[:start]
            if len(self._buf) < FRAME_LEN:
                return uids
            frame = bytes(self._buf[:FRAME_LEN])
            uid = self._decode(frame)
            if uid is None:
                self.frames_bad += 1
                del self._buf[:1]  # resynchronise at the next STX
            else:
                self.frames_ok += 1
                uids.append(uid)
                del self._buf[:FRAME_LEN]

    @staticmethod
    def _decode(frame: bytes) -> str | None:
        digits = frame[1:13]
        if frame[13] != ETX or not set(digits) <= _HEX:
            return None
        raw = bytes.fromhex(digits.decode())
        if reduce(xor, raw[:5]) != raw[5]:
            return None
        return raw[:5].hex().upper()


class RDM6300(SerialReader):
    driver = "rdm6300"
    firmware = None

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 9600,
        removal_s: float = 0.5,
        listen_s: float = 0.12,
        backoff_min_s: float = 0.5,
        backoff_max_s: float = 10.0,
        clock: Clock = REAL_TIME,
        open_port: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        super().__init__(port, baudrate=baudrate, backoff_min_s=backoff_min_s,
                         backoff_max_s=backoff_max_s, clock=clock, open_port=open_port)
        self.removal_s = removal_s
        self.listen_s = listen_s
        self._decoder = RDM6300Decoder()
        self._seen: dict[str, float] = {}

    def open(self) -> None:
        try:
            if self._link.open():
                self._decoder.reset()
                self._seen.clear()
                self._link.discard_input()  # bytes queued before we listened are stale
        except ReaderDisconnected as exc:
            self.last_error = str(exc)
            raise

    def read_tags(self) -> list[str]:
        """Tags seen within the last `removal_s`, after listening for `listen_s`."""
        self.open()
        try:
            deadline = self._clock.now() + self.listen_s
            while True:
                for uid in self._decoder.feed(self._link.read()):
                    self._seen[uid] = self.last_seen = self._clock.now()
                if self._clock.now() >= deadline:
                    break
        except ReaderDisconnected as exc:
            self.last_error = str(exc)
            self._seen.clear()
            raise
        return self.present()

    def present(self) -> list[str]:
        now = self._clock.now()
        self._seen = {uid: t for uid, t in self._seen.items() if now - t <= self.removal_s}
        return sorted(self._seen)

    def get_status(self) -> dict[str, Any]:
        return self._status(firmware=None, frames_ok=self._decoder.frames_ok,
                            frames_bad=self._decoder.frames_bad)

    def __repr__(self) -> str:
        state = "connected" if self._link.connected else "disconnected"
        return f"<RDM6300 {self.port} {state} tags={sorted(self._seen)}>"
