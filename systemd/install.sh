#!/bin/sh
# Install unotable as a service on Raspberry Pi OS (bookworm or later). Run as root
# from a checkout:  sudo systemd/install.sh
#   - creates the system user "unotable" (groups gpio, dialout)
#   - installs the package into a venv in /opt/unotable/venv
#   - installs the unit, the motor safety helper, the udev rules and, if there is none
#     yet, /etc/unotable/config.toml (the built-in default with the simulation off)
#   - makes sure the helper can drive pins: pinctrl or gpioset, else Debian's gpiod
#   - enables the service; starts it when the config passes `unotable config check`
set -eu

PREFIX=/opt/unotable
CONFIG=/etc/unotable/config.toml
SRC=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)

# The motor safety helper (ExecStopPost) drives the motor pins low with pinctrl
# (Raspberry Pi OS) or libgpiod's gpioset; without either, a crash leaves the motor running.
ensure_pin_tool() {
    if command -v pinctrl >/dev/null 2>&1 || command -v gpioset >/dev/null 2>&1; then
        return 0
    fi
    echo "   neither pinctrl nor gpioset: installing Debian's gpiod"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q gpiod ||
        { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gpiod; } ||
        true
    if ! command -v gpioset >/dev/null 2>&1; then
        echo "install.sh: could not install gpiod; without pinctrl or gpioset the motor" \
            "keeps running after a crash. Install one (apt-get install gpiod), then rerun." >&2
        return 1
    fi
}

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi
for tool in python3 systemctl udevadm; do
    command -v "$tool" >/dev/null || { echo "install.sh: $tool is missing" >&2; exit 1; }
done
python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || {
    echo "install.sh: needs Python >= 3.11 with venv (apt install python3-venv)" >&2
    exit 1
}

echo "== user and groups"
getent group gpio >/dev/null || groupadd --system gpio
getent group dialout >/dev/null || groupadd --system dialout
if ! id unotable >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/unotable --no-create-home \
        --shell /usr/sbin/nologin --user-group unotable
fi
usermod -a -G gpio,dialout unotable

echo "== package into $PREFIX/venv"
install -d -m 0755 "$PREFIX" "$PREFIX/bin"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --upgrade "$SRC[pi]"
install -m 0755 "$SRC/systemd/unotable-safe-pins" "$PREFIX/bin/unotable-safe-pins"

echo "== config $CONFIG"
install -d -m 0755 /etc/unotable
if [ ! -e "$CONFIG" ]; then
    sed 's/^enabled = true /enabled = false/' "$SRC/firmware/default_config.toml" > "$CONFIG.new"
    chown root:unotable "$CONFIG.new"
    chmod 0640 "$CONFIG.new"
    mv "$CONFIG.new" "$CONFIG"
    echo "   wrote $CONFIG: set your pins and reader ports there"
fi

echo "== motor safety helper"
ensure_pin_tool || exit 1
python3 "$PREFIX/bin/unotable-safe-pins" --check "$CONFIG" || true  # which tool, which commands

echo "== systemd unit and udev rules"
install -m 0644 "$SRC/systemd/unotable.service" /etc/systemd/system/unotable.service
install -m 0644 "$SRC/systemd/99-unotable.rules" /etc/udev/rules.d/99-unotable.rules
udevadm control --reload
udevadm trigger --subsystem-match=tty || true
systemctl daemon-reload
systemctl enable unotable.service

if "$PREFIX/venv/bin/unotable" config check "$CONFIG"; then
    systemctl restart unotable.service
    echo "== unotable is running: journalctl -u unotable -f"
else
    echo "== fix $CONFIG, then: sudo systemctl start unotable" >&2
fi
