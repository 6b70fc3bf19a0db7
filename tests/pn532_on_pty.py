"""A PN532 at the far end of a pty pair, answering as NXP's user manual (UM0701-02)
writes: the table opens the pty's device path as it opens a USB-serial adapter, and the
test plays the chip behind it.

Every frame the host sends must be one of the manual's frames below, byte for byte (the
HSU wake-up, SAMConfiguration, GetFirmwareVersion, RFConfiguration, InListPassiveTarget
MaxTg 2 at 106 kbps type A, InDeselect all); any other is kept in `unknown` and gets no
answer. Answers carry the manual's checksums, computed here (`frame`), not by hal.
`silent=True` plays a dead chip: the port opens, nothing ever answers.
"""

from __future__ import annotations

import os
import pty
import select
import threading
import tty

WAKE = b"\x55\x55" + bytes(14)
ACK = bytes.fromhex("00 00 FF 00 FF 00")
NACK = bytes.fromhex("00 00 FF FF 00 00")
# host -> chip (the driver's defaults: max_retries 1)
SAM = bytes.fromhex("00 00 FF 05 FB D4 14 01 14 01 02 00")
FIRMWARE = bytes.fromhex("00 00 FF 02 FE D4 02 2A 00")
MAX_RETRIES = bytes.fromhex("00 00 FF 06 FA D4 32 05 FF 01 01 F4 00")
FIELD_ON = bytes.fromhex("00 00 FF 04 FC D4 32 01 01 F8 00")
FIELD_OFF = bytes.fromhex("00 00 FF 04 FC D4 32 01 00 F9 00")
LIST_TWO = bytes.fromhex("00 00 FF 04 FC D4 4A 02 00 E0 00")
DESELECT_ALL = bytes.fromhex("00 00 FF 03 FD D4 44 00 E8 00")
# chip -> host
SAM_ANSWER = bytes.fromhex("00 00 FF 02 FE D5 15 16 00")
FIRMWARE_ANSWER = bytes.fromhex("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")  # PN532 v1.6
RF_ANSWER = bytes.fromhex("00 00 FF 02 FE D5 33 F8 00")
DESELECT_ANSWER = bytes.fromhex("00 00 FF 03 FD D5 45 00 E6 00")
LISTED_A = bytes.fromhex("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 A1 B2 C3 D4 E5 01 BF 00")


def frame(data: bytes) -> bytes:
    """A normal information frame (UM0701-02 6.2.1.1): preamble, start code, LEN, LCS,
    TFI and data, DCS, postamble."""
    return bytes([0, 0, 0xFF, len(data), -len(data) & 0xFF]) + data + bytes([-sum(data) & 0xFF, 0])


def listed(uids: list[str]) -> bytes:
    """InListPassiveTarget's answer for NFCID1s at 106 kbps type A (Tg, SENS_RES 00 44,
    SEL_RES 00, NFCIDLength, NFCID1: an NTAG213)."""
    data = bytes([0xD5, 0x4B, len(uids)])
    for tg, uid in enumerate(uids, 1):
        nfcid = bytes.fromhex(uid)
        data += bytes([tg, 0x00, 0x44, 0x00, len(nfcid)]) + nfcid
    return frame(data)


class ChipOnPty:
    ANSWERS = {SAM: SAM_ANSWER, FIRMWARE: FIRMWARE_ANSWER, MAX_RETRIES: RF_ANSWER,
               FIELD_ON: RF_ANSWER, FIELD_OFF: RF_ANSWER, DESELECT_ALL: DESELECT_ANSWER}

    def __init__(self, *, silent: bool = False) -> None:
        self.silent = silent
        self.field: list[str] = []  # the tags lying on the reader
        self.received: list[bytes] = []  # every host frame, in order
        self.unknown: list[bytes] = []
        self._halted: set[str] = set()
        self._listed: list[str] = []
        self._last = b""
        self._lock = threading.Lock()
        self._master, self._slave = pty.openpty()
        tty.setraw(self._master)
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="pn532-on-pty", daemon=True)
        self._thread.start()

    # -- the world ---------------------------------------------------------------------
    def lay(self, *uids: str) -> None:
        with self._lock:
            self.field = list(uids)

    def lift(self) -> None:
        self.lay()

    # -- the chip ----------------------------------------------------------------------
    def _serve(self) -> None:
        buf = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self._master, 4096)
            except OSError:
                return
            if self.silent:
                buf = b""
                continue
            while True:
                start = buf.find(b"\x00\xff")
                if start < 0 or len(buf) < start + 5:
                    break
                length = buf[start + 2]
                if (length, buf[start + 3]) in ((0x00, 0xFF), (0xFF, 0x00)):  # ACK, NACK
                    end = start + 5
                else:
                    end = start + 4 + length + 2
                    if len(buf) < end:
                        break
                host, buf = b"\x00" + buf[start:end], buf[end:]
                self._answer(host)

    def _answer(self, host: bytes) -> None:
        with self._lock:
            self.received.append(host)
            if host == ACK:
                return
            if host == NACK:
                out = self._last
            elif host == LIST_TWO:
                new = [uid for uid in self.field if uid not in self._halted][:2]
                self._listed = new
                out = ACK + listed(new)
            elif host in self.ANSWERS:
                if host == DESELECT_ALL:
                    self._halted.update(self._listed)
                elif host in (FIELD_ON, FIELD_OFF):
                    self._halted.clear()
                out = ACK + self.ANSWERS[host]
            else:
                self.unknown.append(host)
                return
            self._last = out[len(ACK):] if out.startswith(ACK) else out
        os.write(self._master, out)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self._slave)
        os.close(self._master)

    def __enter__(self) -> ChipOnPty:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
