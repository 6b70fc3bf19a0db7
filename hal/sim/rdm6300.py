"""A simulated RDM6300 on a pty: repeats the frame of the tag in its field, 9600 baud.

Like the module, it talks only while a tag is present (one at a time: 125 kHz
EM4100 has no anticollision, so with two tags in the field it reads neither) and
ignores whatever the host sends. Faults: `inject("garbage" | "bad_checksum" |
"drop")` damages the next frame; `unplug()` / `replug()`.
"""

from __future__ import annotations

import random

from hal.rdm6300 import encode_frame
from hal.sim.ptydevice import PtyDevice

FAULTS = ("garbage", "bad_checksum", "drop")


class SimRDM6300(PtyDevice):
    faults = FAULTS

    def __init__(
        self,
        tags: list[str] | tuple[str, ...] = (),
        *,
        baud: int | None = 9600,
        repeat_s: float = 0.03,
        seed: int = 0,
    ) -> None:
        self._tags: list[str] = []
        self._rng = random.Random(seed)
        self.repeat_s = repeat_s
        self._next = 0.0
        super().__init__(baud=baud, name="ttyRDM6300")
        for uid in tags:
            self.place(uid)

    def place(self, uid: str) -> None:
        encode_frame(uid)  # validates
        with self.lock:
            if uid.upper() not in self._tags:
                self._tags.append(uid.upper())
        self.wake()

    def lift(self, uid: str) -> None:
        with self.lock:
            if uid.upper() in self._tags:
                self._tags.remove(uid.upper())
        self.wake()

    @property
    def tags(self) -> list[str]:
        with self.lock:
            return sorted(self._tags)

    def power_on(self) -> None:
        self._next = 0.0

    def tick(self, now: float) -> float | None:
        if len(self._tags) != 1:
            return None  # silent until place() / lift() wakes us
        if now < self._next:
            return self._next
        self._next = now + self.repeat_s
        frame = encode_frame(self._tags[0])
        if self._faults:
            kind = self._faults.popleft()
            if kind == "garbage":
                frame = bytes(self._rng.randrange(0x04, 0x100) for _ in range(5)) + frame
            elif kind == "bad_checksum":
                frame = frame[:11] + (b"0" if frame[11:12] != b"0" else b"1") + frame[12:]
            else:
                frame = frame[:5] + frame[6:]
        self.send(frame)
        return self._next

    def __repr__(self) -> str:
        plug = "plugged" if self.plugged else "unplugged"
        return f"<SimRDM6300 {self.port} {plug} tags={self.tags}>"
