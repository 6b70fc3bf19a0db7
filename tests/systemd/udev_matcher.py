"""Runs udev rules through udev's own matcher: `udevadm test` on a synthetic sysfs made by
umockdev, in a private mount namespace where /etc/udev/rules.d holds only the rules under
test and /dev and /run are empty tmpfs, so the names and modes udev gives are read back
from real nodes and links and the machine's own /dev stays untouched."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Run inside `unshare -m`: every mount below vanishes with the namespace.
NAMESPACE_SCRIPT = r"""
set -eu
work=$1; shift
mount --bind "$work/rules" /etc/udev/rules.d
# the groups the rules name exist here as on a Pi (gpio is Raspberry Pi OS's)
cp /etc/group "$work/group"
grep -q '^gpio:' "$work/group" ||
    awk -F: '$3 < 60000 && $3 > max { max = $3 } END { print "gpio:x:" max + 1 ":" }' \
        "$work/group" >> "$work/group"
mount --bind "$work/group" /etc/group
mkdir "$work/host-dev"
mount --rbind /dev "$work/host-dev"
mount -t tmpfs unotable-test-dev /dev
touch /dev/null
mount --bind "$work/host-dev/null" /dev/null
mount -t tmpfs unotable-test-run /run
while [ $# -gt 0 ]; do
    devpath=$1 node=$2 major=$3 minor=$4; shift 4
    mknod -m 0600 "/dev/$node" c "$major" "$minor"
    umockdev-run -d "$work/sysfs.umockdev" -- \
        udevadm test --action=add "/sys$devpath" >> "$work/udevadm.log" 2>&1
    links=$(find /dev -type l -name 'unotable-*' -lname "$node" -printf '%f ')
    echo "$node|$(stat -c '%a %G' "/dev/$node")|$links"
    find /dev -type l -name 'unotable-*' -delete
    rm -rf /run/udev
done
"""


@dataclass(frozen=True)
class Device:
    """One device in the synthetic sysfs: its ancestors and itself, in umockdev's format."""
    devpath: str       # /devices/... of the device node's own sysfs entry
    node: str          # its name under /dev
    major: int
    minor: int
    records: tuple[str, ...]  # umockdev descriptions of its ancestors and itself


@dataclass(frozen=True)
class Outcome:
    node: str
    mode: str          # octal, as stat prints it
    group: str
    links: tuple[str, ...]


def _entry(path: str, env: dict[str, str], attrs: dict[str, str]) -> str:
    lines = [f"P: {path}"] + [f"E: {k}={v}" for k, v in env.items()]
    lines += [f"A: {k}={v}" for k, v in attrs.items()]
    return "\n".join(lines) + "\n"


def usb_serial(controller: str, port: str, vendor: str, product: str, driver: str,
               serial_driver: str, node: str, minor: int) -> Device:
    """A USB-serial adapter (ttyUSB) on `port` ("1.2": port 2 of the hub on root port 1)
    of the USB controller at `controller` (a /devices/... path)."""
    bus = "usb1"
    hub = "1-" + port.split(".")[0]
    dev = f"1-{port}"
    records = [
        _entry(controller, {"SUBSYSTEM": "platform", "DRIVER": "xhci-hcd"}, {}),
        _entry(f"{controller}/{bus}", {"DEVTYPE": "usb_device", "SUBSYSTEM": "usb",
                                       "DRIVER": "usb"}, {"idVendor": "1d6b", "idProduct": "0002"}),
        _entry(f"{controller}/{bus}/{hub}", {"DEVTYPE": "usb_device", "SUBSYSTEM": "usb",
                                             "DRIVER": "usb"},
               {"idVendor": "2109", "idProduct": "3431"}),
        _entry(f"{controller}/{bus}/{hub}/{dev}",
               {"DEVTYPE": "usb_device", "SUBSYSTEM": "usb", "DRIVER": "usb",
                "PRODUCT": f"{vendor}/{product}/100"},
               {"idVendor": vendor, "idProduct": product, "product": "USB Serial"}),
        _entry(f"{controller}/{bus}/{hub}/{dev}/{dev}:1.0",
               {"DEVTYPE": "usb_interface", "SUBSYSTEM": "usb", "DRIVER": driver},
               {"bInterfaceNumber": "00", "bInterfaceClass": "ff"}),
        _entry(f"{controller}/{bus}/{hub}/{dev}/{dev}:1.0/{node}",
               {"SUBSYSTEM": "usb-serial", "DRIVER": serial_driver}, {"port_number": "0"}),
    ]
    devpath = f"{controller}/{bus}/{hub}/{dev}/{dev}:1.0/{node}/tty/{node}"
    records.append(_entry(devpath, {"SUBSYSTEM": "tty", "DEVNAME": f"/dev/{node}",
                                    "MAJOR": "188", "MINOR": str(minor)},
                          {"dev": f"188:{minor}"}))
    return Device(devpath, node, 188, minor, tuple(records))


def platform_device(parent: str, devpath: str, subsystem: str, node: str, major: int,
                    minor: int) -> Device:
    """A device with no USB ancestor (the Pi's own UART, a GPIO chip) below `parent`."""
    records = (_entry(parent, {"SUBSYSTEM": "platform"}, {}), _entry(
        devpath, {"SUBSYSTEM": subsystem, "DEVNAME": f"/dev/{node}", "MAJOR": str(major),
                  "MINOR": str(minor)}, {"dev": f"{major}:{minor}"}))
    return Device(devpath, node, major, minor, records)


def missing_tools() -> list[str]:
    return [t for t in ("udevadm", "umockdev-run", "unshare", "mount") if not shutil.which(t)]


def run_rules(rules: Path, devices: list[Device], work: Path) -> dict[str, Outcome]:
    """What udev's matcher gives each device under `rules` alone: node -> Outcome."""
    assert not missing_tools(), f"the udev test needs {missing_tools()} (tests/run installs them)"
    (work / "rules").mkdir(parents=True)
    shutil.copy(rules, work / "rules" / rules.name)
    shared = dict.fromkeys(r for d in devices for r in d.records)  # a hub is described once
    (work / "sysfs.umockdev").write_text("\n".join(shared))
    args = [a for d in devices for a in (d.devpath, d.node, str(d.major), str(d.minor))]
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           NAMESPACE_SCRIPT, "sh", str(work), *args],
                          capture_output=True, text=True, timeout=120)
    log = work / "udevadm.log"
    assert done.returncode == 0, (done.stderr + (log.read_text() if log.exists() else ""))[-4000:]
    outcomes = {}
    for line in done.stdout.splitlines():
        node, perms, links = line.split("|")
        mode, group = perms.split()
        outcomes[node] = Outcome(node, mode, group, tuple(sorted(links.split())))
    return outcomes
