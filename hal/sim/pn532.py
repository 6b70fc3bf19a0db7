"""A simulated PN532 on a pty that speaks the real HSU byte protocol, and is no kinder.

What the chip does, and so does this twin:

- After power-up it sleeps (LowVbat): bytes are ignored until a 0x55 wakes the
  HSU, and SAMConfiguration (0x14) must then be the first command: any other
  command before it is ignored (no ACK, no answer).
- Every well-formed command is ACKed (after its wire time), then answered with
  code + 1; a malformed command gets the error frame. A frame with a bad checksum
  is ignored. A NACK from the host repeats the last answer; an ACK from the host
  aborts the running command.
- MaxRetries for passive activation is infinite (0xFF) after power-up: an
  InListPassiveTarget with no tag in the field is never answered until a tag
  arrives (or the host aborts). With finite retries it answers NbTg = 0 after
  retries + 1 attempts.
- One InListPassiveTarget activates at most two ISO14443-A targets (MaxTg <= 2),
  chosen in anticollision (UID) order among tags that answer REQA: tags already
  activated, and tags halted by InRelease / InDeselect, stay silent until the RF
  field is switched off and on again (RFConfiguration item 0x01), which resets
  them. With the field off no tag is powered and none answers.

Faults for tests: `inject(kind, count)` with kind one of FAULTS (line damage to
the next answer: garbage, bitflip, bad_checksum, drop; or the next command is
answered with a NACK, with the error frame, or not at all: nack, error, silence);
`first_ack_delay_s` delays the first ACK after power-up (USB-serial adapters on a
Pi can take up to ~1 s); `unplug()` / `replug()` (the replugged chip is asleep
again, as after a power cycle).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from hal.pn532.frames import (
    ACK,
    CHIP_TO_HOST,
    ERROR_FRAME,
    HOST_TO_CHIP,
    NACK,
    FrameDecoder,
    FrameKind,
    encode_frame,
)
from hal.sim.ptydevice import PtyDevice
from hal.sim.records import LOG_ENTRIES, RecentLog

FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # IC PN532, version 1.6, supports A, B, ISO18092
FAULTS = ("garbage", "bitflip", "bad_checksum", "drop", "nack", "silence", "error")
WAKE_BYTE = 0x55

SAM_CONFIGURATION = 0x14
GET_FIRMWARE_VERSION = 0x02
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
IN_RELEASE = 0x52
IN_DESELECT = 0x44

_IDLE, _ACTIVE, _HALT = "idle", "active", "halt"


@dataclass
class _Tag:
    uid: bytes
    state: str = _IDLE

    def target_data(self, tg: int) -> bytes:
        # SENS_RES 00 44 (double-size UID) / 00 04 (single); SEL_RES 00: not ISO14443-4, no ATS
        sens_res = b"\x00\x44" if len(self.uid) > 4 else b"\x00\x04"
        return bytes([tg]) + sens_res + b"\x00" + bytes([len(self.uid)]) + self.uid


class SimPN532(PtyDevice):
    faults = FAULTS

    def __init__(
        self,
        tags: list[str] | tuple[str, ...] = (),
        *,
        baud: int | None = 115200,
        activation_attempt_s: float = 0.002,
        first_ack_delay_s: float = 0.0,
        seed: int = 0,
    ) -> None:
        self._tags: dict[bytes, _Tag] = {}
        self._rng = random.Random(seed)
        self.activation_attempt_s = activation_attempt_s
        self.first_ack_delay_s = first_ack_delay_s
        # Command codes executed, for tests: the last LOG_ENTRIES (a tray polls for days).
        self.commands: RecentLog[int] = RecentLog(maxlen=LOG_ENTRIES)
        super().__init__(baud=baud, name="ttyPN532")
        for uid in tags:
            self.place(uid)

    # -- the world ---------------------------------------------------------------
    def place(self, uid: str) -> None:
        key = bytes.fromhex(uid)
        with self.lock:
            self._tags[key] = _Tag(key, _IDLE)
        self.wake()

    def lift(self, uid: str) -> None:
        with self.lock:
            self._tags.pop(bytes.fromhex(uid), None)
        self.wake()

    @property
    def tags(self) -> list[str]:
        with self.lock:
            return sorted(uid.hex().upper() for uid in self._tags)

    @property
    def awake(self) -> bool:
        return self._awake

    @property
    def field_on(self) -> bool:
        return self._field

    # -- power-up state ----------------------------------------------------------
    def power_on(self) -> None:
        self._decoder = FrameDecoder()
        self._awake = False
        self._sam_done = False
        self._field = False
        self._max_retries = 0xFF
        self._last_answer: bytes | None = None
        self._pending: tuple[int, float, float | None] | None = None  # max_tg, next try, give-up
        self._listed: dict[int, _Tag] = {}
        for tag in self._tags.values():
            tag.state = _IDLE
        self._faults.clear()
        self._first_ack_pending = True

    # -- bytes from the host -------------------------------------------------------
    def received(self, data: bytes) -> None:
        if not self._awake:
            at = data.find(bytes([WAKE_BYTE]))
            if at < 0:
                return
            self._awake = True
            data = data[at:]
        for frame in self._decoder.feed(data):
            if frame.kind is FrameKind.ACK:
                self._pending = None  # the host aborts the running command
            elif frame.kind is FrameKind.NACK:
                if self._last_answer is not None:
                    self.send(self._last_answer)
            elif frame.kind is FrameKind.INFO and frame.tfi == HOST_TO_CHIP:
                self.spend_wire_time(len(frame.data) + 8)
                self._command(frame.data)
            # broken frames and frames with a foreign TFI are ignored, as by the chip

    def _command(self, data: bytes) -> None:
        fault = self._faults[0] if self._faults else None
        if fault == "silence":
            self._faults.popleft()
            return
        if fault == "nack":
            self._faults.popleft()
            self.send(NACK)
            return
        if fault == "error":
            self._faults.popleft()
            self.send(ACK)
            self._answer_raw(ERROR_FRAME)
            return
        code, params = data[0], data[1:]
        if not self._sam_done and code != SAM_CONFIGURATION:
            return  # still in LowVbat: SAMConfiguration must come first
        if self._first_ack_pending:
            self._first_ack_pending = False
            time.sleep(self.first_ack_delay_s)  # a USB-serial adapter waking up
        self.send(ACK)
        self.commands.append(code)
        self._pending = None
        handler = {
            SAM_CONFIGURATION: self._sam_configuration,
            GET_FIRMWARE_VERSION: self._get_firmware_version,
            RF_CONFIGURATION: self._rf_configuration,
            IN_LIST_PASSIVE_TARGET: self._in_list_passive_target,
            IN_RELEASE: self._in_release,
            IN_DESELECT: self._in_release,
        }.get(code)
        if handler is None or not handler(code, params):
            self._answer_raw(ERROR_FRAME)

    def _answer(self, code: int, payload: bytes = b"") -> bool:
        self._answer_raw(encode_frame(bytes([code + 1]) + payload, tfi=CHIP_TO_HOST))
        return True

    def _answer_raw(self, frame: bytes) -> None:
        self._last_answer = frame
        self.send(self._damage(frame))

    def _damage(self, frame: bytes) -> bytes:
        """Apply the next queued line fault to an answer (the chip keeps the good copy)."""
        if not self._faults or self._faults[0] in ("silence", "nack", "error"):
            return frame
        kind = self._faults.popleft()
        body = len(frame) - 3  # index of a byte inside TFI..data (never the start code)
        if kind == "garbage":
            junk = bytes(self._rng.randrange(1, 256) for _ in range(7))
            return junk.replace(b"\xff", b"\xfe") + frame
        if kind == "bitflip":
            damaged = bytearray(frame)
            damaged[body] ^= 1 << self._rng.randrange(8)
            return bytes(damaged)
        if kind == "bad_checksum":
            damaged = bytearray(frame)
            damaged[-2] ^= 0x5A  # DCS
            return bytes(damaged)
        return frame[:body] + frame[body + 1 :]  # drop

    # -- commands ------------------------------------------------------------------
    def _sam_configuration(self, code: int, params: bytes) -> bool:
        if not 1 <= len(params) <= 3 or params[0] not in (1, 2, 3, 4):
            return False
        self._sam_done = True
        return self._answer(code)

    def _get_firmware_version(self, code: int, params: bytes) -> bool:
        return not params and self._answer(code, FIRMWARE)

    def _rf_configuration(self, code: int, params: bytes) -> bool:
        sizes = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3}
        if not params or sizes.get(params[0]) != len(params) - 1:
            return False
        item, values = params[0], params[1:]
        if item == 0x01:
            on = bool(values[0] & 0x01)
            if on and not self._field:
                for tag in self._tags.values():
                    tag.state = _IDLE  # freshly powered tags answer REQA again
            self._field = on
            if not on:
                self._listed.clear()
        elif item == 0x05:
            self._max_retries = values[2]  # MxRtyPassiveActivation
        return self._answer(code)

    def _in_list_passive_target(self, code: int, params: bytes) -> bool:
        if len(params) < 2 or params[0] not in (1, 2):
            return False
        max_tg, brty = params[0], params[1]
        self._listed.clear()
        if brty != 0x00:
            return self._answer(code, b"\x00")  # no tag of another kind in this world
        give_up = None
        if self._max_retries != 0xFF:
            give_up = (self._max_retries + 1) * self.activation_attempt_s
        now = time.monotonic()
        deadline = None if give_up is None else now + give_up
        self._pending = (max_tg, now + self.activation_attempt_s, deadline)
        return True

    def _answering(self) -> list[_Tag]:
        """Tags that answer REQA now, in anticollision (UID) order."""
        if not self._field:
            return []
        return sorted((t for t in self._tags.values() if t.state == _IDLE), key=lambda t: t.uid)

    def tick(self, now: float) -> float | None:
        if self._pending is None:
            return None
        max_tg, next_try, give_up = self._pending
        if now >= next_try:
            answering = self._answering()
            if answering:
                self._pending = None
                payload = bytearray([min(max_tg, len(answering))])
                for tg, tag in enumerate(answering[:max_tg], start=1):
                    tag.state = _ACTIVE
                    self._listed[tg] = tag
                    payload += tag.target_data(tg)
                self._answer(IN_LIST_PASSIVE_TARGET, bytes(payload))
                return None
            if give_up is not None and now >= give_up:
                self._pending = None
                self._answer(IN_LIST_PASSIVE_TARGET, b"\x00")
                return None
            next_try = now + self.activation_attempt_s
            self._pending = (max_tg, next_try, give_up)
        # Attempts with no tag in the field change nothing: sleep until one could answer
        # (place() wakes us), or until the command gives up.
        return next_try if self._answering() else give_up

    def _in_release(self, code: int, params: bytes) -> bool:
        if len(params) != 1:
            return False
        tg = params[0]
        chosen = list(self._listed) if tg == 0 else [tg] if tg in self._listed else []
        if not chosen:
            return self._answer(code, b"\x27")  # improper command in this context
        for key in chosen:
            tag = self._listed.pop(key)
            if tag.state == _ACTIVE:
                tag.state = _HALT  # HLTA: silent to REQA until the field is cycled
        return self._answer(code, b"\x00")

    def __repr__(self) -> str:
        state = "awake" if self._awake else "asleep"
        plug = "plugged" if self.plugged else "unplugged"
        return f"<SimPN532 {self.port} {plug} {state} field={'on' if self._field else 'off'} tags={self.tags}>"
