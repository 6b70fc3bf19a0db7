"""systemd/99-unotable.rules through udev's own matcher: every supported USB-serial
adapter on every USB port named in the rules gets its /dev/unotable-reader-N, group
dialout and mode 0660; a serial port that is not a reader gets no reader name; a GPIO chip
goes to group gpio, which plain Debian does not do (Raspberry Pi OS does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systemd.udev_matcher import platform_device, run_rules, usb_serial

RULES = Path(__file__).resolve().parents[2] / "systemd" / "99-unotable.rules"
# The USB controller of a Raspberry Pi 4 (VL805 behind PCIe, its hub on root port 1).
PI4_USB = "/devices/platform/scb/fd500000.pcie"
# vendor, product, interface driver, usb-serial driver
ADAPTERS = {
    "CH340": ("1a86", "7523", "ch341", "ch341-uart"),
    "CP210x": ("10c4", "ea60", "cp210x", "cp210x"),
    "FTDI": ("0403", "6001", "ftdi_sio", "ftdi_sio"),
    "PL2303": ("067b", "2303", "pl2303", "pl2303"),
}
PORTS = {"1.1": 1, "1.2": 2, "1.3": 3, "1.4": 4}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_each_adapter_on_each_port_gets_its_reader_name_and_mode(adapter, tmp_path):
    vendor, product, driver, serial_driver = ADAPTERS[adapter]
    devices = [usb_serial(PI4_USB, port, vendor, product, driver, serial_driver,
                          f"ttyUSB{minor}", minor) for minor, port in enumerate(PORTS)]
    outcomes = run_rules(RULES, devices, tmp_path)
    for minor, (port, reader) in enumerate(PORTS.items()):
        got = outcomes[f"ttyUSB{minor}"]
        assert got.links == (f"unotable-reader-{reader}",), f"{adapter} on USB port {port}"
        assert (got.mode, got.group) == ("660", "dialout"), f"{adapter} on USB port {port}"


def test_a_serial_port_that_is_no_reader_gets_no_reader_name(tmp_path):
    arduino = usb_serial(PI4_USB, "1.2", "2341", "0043", "cdc_acm", "cdc_acm", "ttyUSB0", 0)
    uart = platform_device("/devices/platform/soc/fe201000.serial",
                           "/devices/platform/soc/fe201000.serial/tty/ttyAMA0", "tty",
                           "ttyAMA0", 204, 64)
    outcomes = run_rules(RULES, [arduino, uart], tmp_path)
    assert outcomes["ttyUSB0"].links == () and outcomes["ttyAMA0"].links == ()


def test_every_gpio_chip_goes_to_group_gpio(tmp_path):
    chips = [platform_device(parent, f"{parent}/gpiochip{n}", "gpio", f"gpiochip{n}", 254, n)
             for n, parent in enumerate(("/devices/platform/soc/fe200000.gpio",
                                         "/devices/platform/soc/soc:firmware/soc:firmware:gpio"))]
    outcomes = run_rules(RULES, chips, tmp_path)
    for n in range(2):
        assert (outcomes[f"gpiochip{n}"].mode, outcomes[f"gpiochip{n}"].group) == ("660", "gpio")
