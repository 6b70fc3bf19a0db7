"""PN532 host-link frames (UM0701-02 §6.2), as a pure bytes-in / frames-out class.

Normal information frame::

    00 00 FF LEN LCS TFI PD0..PDn DCS 00       LEN = len(TFI + PD), LEN + LCS = 0,
                                               TFI + PD0 + .. + PDn + DCS = 0 (mod 256)
Extended information frame (more than 255 bytes of TFI + PD)::

    00 00 FF FF FF LENM LENL LCS TFI PD0..PDn DCS 00      LENM + LENL + LCS = 0

ACK ``00 00 FF 00 FF 00``, NACK ``00 00 FF FF 00 00``, error frame
``00 00 FF 01 FF 7F 81 00`` (a syntax error at application level).
TFI is D4 host -> chip and D5 chip -> host. Any number of 00 may precede a frame;
whatever precedes a start code ``00 FF`` that is not a frame is garbage and skipped.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

HOST_TO_CHIP = 0xD4
CHIP_TO_HOST = 0xD5
ERROR_TFI = 0x7F
START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
MAX_NORMAL = 255
MAX_EXTENDED = 0xFFFF


class FrameKind(enum.Enum):
    ACK = "ack"
    NACK = "nack"
    ERROR = "error"
    INFO = "info"
    BROKEN = "broken"  # a start code followed by a bad length or data checksum


@dataclass(frozen=True)
class Frame:
    kind: FrameKind
    tfi: int | None = None
    data: bytes = b""  # PD0..PDn (command/response code first)
    extended: bool = False
    reason: str = ""  # why a BROKEN frame was rejected

    @property
    def code(self) -> int | None:
        """The command (D4) or response (D5) code, PD0."""
        return self.data[0] if self.kind is FrameKind.INFO and self.data else None

    def __repr__(self) -> str:
        if self.kind is FrameKind.INFO:
            return f"<Frame info tfi={self.tfi:02X} data={self.data.hex(' ').upper()}>"
        if self.kind is FrameKind.BROKEN:
            return f"<Frame broken: {self.reason}>"
        return f"<Frame {self.kind.value}>"


def checksum(data: bytes) -> int:
    """The byte that makes ``sum(data) + checksum`` a multiple of 256."""
    return -sum(data) & 0xFF


def encode_frame(data: bytes, *, tfi: int = HOST_TO_CHIP) -> bytes:
    """One information frame carrying ``data`` (PD0..PDn), normal or extended by size."""
    body = bytes([tfi]) + bytes(data)
    n = len(body)
    if n > MAX_EXTENDED:
        raise ValueError(f"frame body of {n} bytes is longer than {MAX_EXTENDED}")
    if n <= MAX_NORMAL:
        head = bytes([n, checksum(bytes([n]))])
    else:
        lenm, lenl = n >> 8, n & 0xFF
        head = bytes([0xFF, 0xFF, lenm, lenl, checksum(bytes([lenm, lenl]))])
    return b"\x00" + START + head + body + bytes([checksum(body)]) + b"\x00"


class FrameDecoder:
    """Feed it whatever the port delivered; it returns the complete frames in order.

    It keeps an incomplete frame until the rest arrives, skips garbage, and after a
    bad length checksum resynchronises at the next start code.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.garbage_bytes = 0

    def reset(self) -> None:
        """Forget a half-received frame (after a timeout, or before a new command)."""
        self._buf.clear()

    @property
    def pending(self) -> int:
        return len(self._buf)

    def feed(self, chunk: bytes) -> list[Frame]:
        self._buf += chunk
        frames: list[Frame] = []
        while True:
            frame = self._next()
            if frame is None:
                return frames
            frames.append(frame)

    def _skip(self, n: int) -> None:
        del self._buf[:n]

    def _next(self) -> Frame | None:
        buf = self._buf
        start = buf.find(START)
        if start < 0:
            # Keep a trailing 00: it may be the first half of a start code.
            keep = 1 if buf.endswith(b"\x00") else 0
            self.garbage_bytes += sum(1 for b in buf[: len(buf) - keep] if b != 0)
            self._skip(len(buf) - keep)
            return None
        self.garbage_bytes += sum(1 for b in buf[:start] if b != 0)
        self._skip(start)
        if len(buf) < 4:
            return None
        length, lcs = buf[2], buf[3]
        if (length, lcs) == (0x00, 0xFF):
            self._skip(self._with_postamble(4))
            return Frame(FrameKind.ACK)
        if (length, lcs) == (0xFF, 0x00):
            self._skip(self._with_postamble(4))
            return Frame(FrameKind.NACK)
        extended = (length, lcs) == (0xFF, 0xFF)
        if extended:
            if len(buf) < 7:
                return None
            lenm, lenl, lcs = buf[4], buf[5], buf[6]
            if (lenm + lenl + lcs) & 0xFF:
                self._skip(2)
                return Frame(FrameKind.BROKEN, reason="bad extended length checksum")
            length, head = (lenm << 8) | lenl, 7
        else:
            if (length + lcs) & 0xFF:
                self._skip(2)
                return Frame(FrameKind.BROKEN, reason="bad length checksum")
            head = 4
        if length == 0:
            self._skip(2)
            return Frame(FrameKind.BROKEN, reason="empty information frame")
        end = head + length + 1  # body + DCS
        if len(buf) < end:
            return None
        body = bytes(buf[head : head + length])
        dcs = buf[head + length]
        self._skip(self._with_postamble(end))
        if (sum(body) + dcs) & 0xFF:
            return Frame(FrameKind.BROKEN, reason="bad data checksum")
        tfi, data = body[0], body[1:]
        if tfi == ERROR_TFI and not data:
            return Frame(FrameKind.ERROR, tfi=tfi)
        return Frame(FrameKind.INFO, tfi=tfi, data=data, extended=extended)

    def _with_postamble(self, n: int) -> int:
        """Length to consume: the frame, plus its postamble 00 when it has arrived."""
        return n + 1 if len(self._buf) > n and self._buf[n] == 0 else n
