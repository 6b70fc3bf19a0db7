"""A simulated tower tray: towers with tags, placed on and lifted from reader slots.

Each slot is backed by a simulated reader on its own pty (`SimPN532` by default,
or `SimRDM6300`), so the real `hal.tray.Tray` built from `config()` polls them
through the same drivers and byte protocol as on the table::

    with SimTray() as sim, Tray.from_config(sim.config()) as tray:
        sim.place("U", 2)
        tray.scan(); tray.scan()        # -> [TowerPlaced(tower='U', slot=2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hal.safety import ClosedOnExit
from hal.sim.pn532 import SimPN532
from hal.sim.rdm6300 import SimRDM6300
from hal.tray import NEUTRAL, TOWERS, Slot, TrayConfig, parse_config

# Demo tags: 7-byte NTAG-style UIDs for PN532 slots, 5-byte EM4100 ids for RDM6300.
DEMO_UIDS = {
    "pn532": {
        "U": "04A1B2C3D4E501",
        "N": "04A1B2C3D4E502",
        "O": "04A1B2C3D4E503",
        "!": "04A1B2C3D4E504",
    },
    "rdm6300": {"U": "0A00C0FF01", "N": "0A00C0FF02", "O": "0A00C0FF03", "!": "0A00C0FF04"},
}
DEFAULT_SLOTS: tuple[Slot, ...] = (NEUTRAL, 0, 1, 2, 3, 4, 5)


class SimTray(ClosedOnExit):
    def __init__(
        self,
        slots: Iterable[Slot] = DEFAULT_SLOTS,
        *,
        driver: str = "pn532",
        towers: Mapping[str, str] | None = None,
        paced: bool = True,
    ) -> None:
        """`paced`: every byte takes its wire time at the reader's real baud rate."""
        if driver not in DEMO_UIDS:
            raise ValueError(f"driver must be 'pn532' or 'rdm6300', not {driver!r}")
        self.driver = driver
        self.towers = dict(DEMO_UIDS[driver] if towers is None else towers)
        unknown = set(self.towers) - set(TOWERS)
        if unknown:
            raise ValueError(f"towers are {', '.join(TOWERS)}; not {sorted(unknown)}")
        self._where: dict[str, Slot] = {}  # tag UID -> slot
        self.readers: dict[Slot, SimPN532 | SimRDM6300] = {}
        try:
            for slot in slots:
                if slot in self.readers:
                    raise ValueError(f"slot {slot!r} given twice")
                if driver == "pn532":
                    self.readers[slot] = SimPN532(baud=115200 if paced else None)
                else:
                    self.readers[slot] = SimRDM6300(baud=9600 if paced else None)
        except BaseException:
            self.close()
            raise

    # -- the world ----------------------------------------------------------------------
    def _uid(self, tower_or_uid: str) -> str:
        return self.towers.get(tower_or_uid, tower_or_uid).upper()

    def place(self, tower_or_uid: str, slot: Slot) -> None:
        """Put a tower (by name) or any tag (by UID) on a slot, lifting it from where it was."""
        if slot not in self.readers:
            raise ValueError(f"no reader at slot {slot!r}; slots are {list(self.readers)}")
        self.lift(tower_or_uid)
        uid = self._uid(tower_or_uid)
        self.readers[slot].place(uid)
        self._where[uid] = slot

    def lift(self, tower_or_uid: str) -> None:
        uid = self._uid(tower_or_uid)
        slot = self._where.pop(uid, None)
        if slot is not None:
            self.readers[slot].lift(uid)

    def where(self, tower_or_uid: str) -> Slot | None:
        return self._where.get(self._uid(tower_or_uid))

    def reader(self, slot: Slot) -> SimPN532 | SimRDM6300:
        return self.readers[slot]

    # -- what the real Tray is built from -----------------------------------------------
    def config_mapping(self, **options: Any) -> dict[str, Any]:
        """The `[tray]` table (as parsed TOML) pointing at the simulated ports."""
        return {
            "readers": [
                {"slot": slot, "driver": self.driver, "port": dev.port}
                for slot, dev in self.readers.items()
            ],
            "towers": dict(self.towers),
            **options,
        }

    def config(self, **options: Any) -> TrayConfig:
        return parse_config(self.config_mapping(**options), path="tray")

    def close(self) -> None:
        for dev in self.readers.values():
            dev.close()


    def __repr__(self) -> str:
        on = ", ".join(f"{uid}@{slot}" for uid, slot in self._where.items())
        return f"<SimTray {self.driver} slots={list(self.readers)} tags=[{on}]>"
