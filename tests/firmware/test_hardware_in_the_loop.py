"""Hardware in the loop: with [sim] enabled, a [pad] or [[tray.readers]] port that names a
device on this machine (here a pty whose far end plays a PN532 byte for byte, as a real
one on a USB-serial adapter would) is read by the real driver, while the pins and the
other readers stay the twin's. The table's own names (/dev/unotable-..., the Pi's UART)
stay the twin's, so a table's config runs on the twin unchanged."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

import pytest

import uno_core as U
from firmware.cli import main
from firmware.config import load_config
from firmware.sim.demo import sim_config
from firmware.sim.hil import is_twin_port, real_readers
from firmware.sim.testbed import SimTable
from firmware.sim.world import World, pad_deck
from hal.pad import parse_config as parse_pad_config
from hal.sim.pad import chip_tags, deck_tags
from hal.tray import NEUTRAL, TowerPlaced
from tests.firmware.pad_taps import twin_daemon
from tests.pn532_on_pty import ChipOnPty

# the maker's own towers, enrolled with `unotable enroll`: not the twin's demo tags
TOWERS = {"U": "04C0FFEE000001", "N": "04C0FFEE000002", "O": "04C0FFEE000003",
          "!": "04C0FFEE000004"}


def real_pad(port: str, **options):
    """A maker's [pad] on `port`, every card enrolled (with the twin's UIDs, so the test
    knows which tag is which card), polled briskly."""
    return parse_pad_config({"driver": "pn532", "port": port,
                             "cards": deck_tags("classic", pad_deck("classic")),
                             "chips": chip_tags(), "poll_interval_s": 0.01,
                             "idle_poll_interval_s": 0.05, "same_tap_s": 0.0, **options},
                            path="pad")


def tag_of(code: str) -> str:
    return next(uid for uid, c in deck_tags("classic", pad_deck("classic")).items() if c == code)


def fitting_number(table, seat: int) -> str | None:
    """A number card `seat` holds that the engine takes now (checked on a copy)."""
    def fits(code: str) -> bool:
        try:
            U.apply(table.controller.state.clone(), U.Play(seat, U.parse_card(code)))
        except U.IllegalAction:
            return False
        return True
    return table.call(lambda: next((c for c in table.world.hands[seat]
                                    if U.parse_card(c).kind == "#" and fits(c)), None))


@pytest.mark.parametrize("port", ["/dev/unotable-reader-1", "/dev/unotable-pad",
                                  "/dev/serial0", "/dev/ttyAMA0", "sim"])
def test_the_tables_own_names_are_the_twins(port):
    assert is_twin_port(port)


@pytest.mark.parametrize("port", ["/dev/ttyUSB0", "/dev/serial/by-id/usb-1a86_USB_Serial-if00",
                                  "/dev/pts/7", "socket://192.168.1.9:7000",
                                  "rfc2217://pad.local:4000"])
def test_any_other_port_names_a_real_reader(port):
    assert not is_twin_port(port)


def test_the_built_in_config_runs_wholly_on_the_twin():
    assert real_readers(load_config().hardware) == []


def test_a_card_tapped_on_a_real_pad_is_the_seat_to_acts_play_on_simulated_pins(tmp_path):
    with ChipOnPty() as chip, SimTable(tmp_path, "classic", pad=real_pad(chip.port)) as table:
        assert table.world.pad_sim is None  # no twin pad: the one on the pty is read
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                              and fitting_number(table, st["waiting"]["seat"]) is not None)
        seat = st["waiting"]["seat"]
        card = fitting_number(table, seat)
        since = len(table.events)
        table.world.lay(seat, [card])  # the person lays the card they tap on the pile
        chip.lay(tag_of(card))
        said = table.wait_for_event(lambda e: e.get("kind") in ("action", "refused"),
                                    since=since)
        chip.lift()
        table.settle()
        assert said["kind"] == "action" and said["action"]["card"] == card
        assert said["action"]["seat"] == seat
        entry = [e for e in table.controller.journal.entries() if e.kind == "action"][-1]
        assert entry.payload["by"] == {"role": "seat", "seat": seat, "via": "pad",
                                       "tags": [tag_of(card)]}
        health = table.controller.health()
        assert health["pad"]["port"] == chip.port and health["pad"]["firmware"] == "PN532 v1.6"
        assert chip.unknown == []  # every frame the driver sent was the manual's
        # the launcher, the hands and the pile are the twin's, and agree with the referee
        assert table.world.check(table.state()) == []
        # the tray's readers are the twin's, every one
        twins = {str(slot): dev.port for slot, dev in table.world.tray_sim.readers.items()}
        assert {slot: r["port"] for slot, r in health["tray"]["readers"].items()} == twins


def test_a_real_pad_that_cannot_be_opened_is_named_said_once_and_play_goes_on(tmp_path,
                                                                               caplog):
    missing = str(tmp_path / "ttyUSB9")
    caplog.set_level(logging.INFO, logger="firmware.sim.world")
    with SimTable(tmp_path, "classic", pad=real_pad(missing)) as table:
        down = table.wait_for_event(lambda e: e.get("kind") == "pad")
        assert down["ok"] is False and missing in down["reason"]
        st = table.play_until(lambda st: st["step"] > 10)  # the bots declare by the API
        assert st["step"] > 10
        assert [e for e in table.events if e.get("kind") == "pad"] == [down]
    assert f"pad.port = '{missing}': no such device now" in caplog.text


def test_unotable_runs_twin_opens_a_real_pad_from_the_config_file(tmp_path):
    """`unotable run` with [sim] enabled: the file's [pad] port on a pty is the real pad."""
    with ChipOnPty() as chip:
        path = tmp_path / "unotable.toml"
        path.write_text(load_config().path.read_text(encoding="utf-8")
                        + f'\n[pad]\nport = "{chip.port}"\n', encoding="utf-8")
        config = load_config(path)
        config = replace(config, journal=replace(config.journal,
                                                 path=str(tmp_path / "journal.db")),
                         api=replace(config.api, port=0))
        with twin_daemon(config) as health:
            deadline = time.monotonic() + 20
            while True:
                status = health()
                if status["pad"]["firmware"] is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert status["pad"]["port"] == chip.port and status["pad"]["ok"]
            assert status["pad"]["firmware"] == "PN532 v1.6"


def test_a_tray_reader_on_a_real_device_sees_real_towers_and_the_other_slots_stay_twins(
        tmp_path, mock_factory):
    base = sim_config("power", 4, 1, tmp_path / "journal.db")
    with ChipOnPty() as chip:
        default = base.hardware["tray"]
        readers = tuple(replace(r, port=chip.port) if r.slot == 2 else r
                        for r in default.readers)
        tray = replace(default, readers=readers, towers=TOWERS)
        world = World("power", 4, 1, launcher=base.hardware["launcher"],
                      panel=base.hardware["seats"], factory=mock_factory, tray=tray)
        hardware = world.hardware()
        try:
            ports = {r.slot: r.port for r in hardware.tray.config.readers}
            assert ports[2] == chip.port
            assert all(ports[s] == dev.port for s, dev in world.tray_sim.readers.items() if s != 2)
            world.tray_sim.lift("U")  # the twin's U is off: the maker's own stands on the
            chip.lay(TOWERS["U"])     # real reader
            world.move_tower("N", 1)  # the twin's N, carrying the maker's tag
            seen = [e for _ in range(3) for e in hardware.tray.scan()]
            assert TowerPlaced("U", 2) in seen and TowerPlaced("N", 1) in seen
            assert TowerPlaced("O", NEUTRAL) in seen  # where the twin put it at the start
            assert hardware.tray.get_status()["readers"]["2"]["firmware"] == "PN532 v1.6"
            assert chip.unknown == []
        finally:
            hardware.close()
            world.close()


def test_cards_enroll_on_a_simulated_table_reads_a_real_pad(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    missing = tmp_path / "ttyUSB9"  # the adapter not plugged in: said before the first card
    config.write_text(f'[table]\nedition = "classic"\nseats = 4\n[sim]\nenabled = true\n'
                      f'[pad]\nport = "{missing}"\n', encoding="utf-8")
    assert main(["cards", "enroll", "--config", str(config)]) == 1
    out = capsys.readouterr()
    assert out.out.startswith(f"Enrolling from the real pad at [pad] port = '{missing}'")
    assert f"cannot open port {missing}" in out.err and "Card 1" not in out.out


def test_enroll_on_a_simulated_table_reads_a_real_tray_reader(tmp_path, capsys):
    config = tmp_path / "unotable.toml"
    missing = tmp_path / "ttyUSB8"
    config.write_text('[sim]\nenabled = true\n[[tray.readers]]\nslot = "neutral"\n'
                      'port = "/dev/unotable-reader-5"\n[[tray.readers]]\nslot = 1\n'
                      f'port = "{missing}"\n', encoding="utf-8")
    assert main(["enroll", "--config", str(config)]) == 1
    out = capsys.readouterr()
    assert out.out.startswith(f"Reading from {missing}.")
    assert str(missing) in out.err


def test_a_real_tray_reader_with_no_device_is_named_by_its_config_key(tmp_path, mock_factory,
                                                                      caplog):
    base = sim_config("power", 4, 1, tmp_path / "journal.db")
    default = base.hardware["tray"]
    missing = str(tmp_path / "ttyUSB8")
    readers = tuple(replace(r, port=missing) if r.slot == 1 else r for r in default.readers)
    caplog.set_level(logging.INFO, logger="firmware.sim.world")
    world = World("power", 4, 1, launcher=base.hardware["launcher"],
                  panel=base.hardware["seats"], factory=mock_factory,
                  tray=replace(default, readers=readers))
    world.close()
    index = next(i for i, r in enumerate(readers) if r.slot == 1)
    assert f"tray.readers[{index}].port = '{missing}': no such device now" in caplog.text
