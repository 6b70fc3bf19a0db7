#!/bin/sh
# Install unotable as a service on Raspberry Pi OS (bookworm or later). Run as root
# from a checkout:  sudo systemd/install.sh [--kiosk] [--user NAME] [--no-uart] [--lan]
#   - creates the system user "unotable" (groups gpio, dialout, audio)
#   - installs the package into a venv in /opt/unotable/venv, and the `unotable` command
#     into /usr/local/bin (on every user's PATH and on sudo's)
#   - installs the unit, the motor safety helper, the udev rules and, if there is none
#     yet, /etc/unotable/config.toml (the built-in default with the simulation off)
#   - adds you (the sudo user, or --user NAME) to group unotable: the config is
#     root:unotable 0640, and you read it without sudo from your next login
#   - switches the Pi's UART on and its serial console off (raspi-config; not with --no-uart)
#   - makes sure the helper can drive pins: pinctrl or gpioset, else Debian's gpiod
#   - the voice: espeak-ng and aplay, and whether the service reaches a sound card (with
#     the desktop's PipeWire it needs [voice] device, said with this Pi's cards)
#   - with a config it just wrote: leaves the service off until you set your pins
#     (`sudo systemctl enable --now unotable`); with your existing config: enables the
#     service and restarts it when the config passes `unotable config check`
#   - --kiosk: the screen opens the table's page at boot (desktop autologin of that user,
#     Chromium in kiosk mode, screen blanking off); docs/operations.md, "The table's screen"
#   - --lan: phones on the local network reach the table (`unotable lan`: [api] host
#     0.0.0.0, a generated token unless a strong one is there, and the unit's drop-in
#     IPAddressAllow=localhost + the LAN's subnets); then hand out seats as the table's user
#     (`sudo -u unotable unotable seats qr N`)
# Where udevd or systemd does not run (a chroot, an image build) it skips what needs them,
# says so, and runs to the end; so does every optional step (UART, kiosk, LAN, sound) the
# system lacks what for. It ends by saying whether a reboot is needed. A required step
# that fails stops it with that step's name: run it again once fixed, a second run is safe.
set -eu

SRC=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
. "$SRC/systemd/install-steps.sh"

usage() {
    echo "usage: sudo $0 [--kiosk] [--user NAME] [--no-uart] [--lan]" >&2
    exit 2
}

KIOSK=no
LAN=no
UART=yes
INSTALLER=${SUDO_USER:-}
while [ $# -gt 0 ]; do
    case $1 in
        --kiosk) KIOSK=yes ;;
        --lan) LAN=yes ;;
        --no-uart) UART=no ;;
        --user) [ $# -ge 2 ] || usage; INSTALLER=$2; shift ;;
        -h|--help) usage ;;
        *) echo "install.sh: unknown option $1" >&2; usage ;;
    esac
    shift
done

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

# Every heading names the step that runs; a failure in it is then said by name.
STEP="checking the system"
step() {
    STEP=$*
    echo "== $*"
}
stopped() {
    echo "install.sh: stopped at the step \"$STEP\" (exit status $1; the reason is above)." \
        "Fix that and run install.sh again: a second run is safe, it keeps what is done." >&2
}
trap 'status=$?; [ "$status" -eq 0 ] || stopped "$status"' EXIT
for tool in python3 systemctl; do
    command -v "$tool" >/dev/null || { echo "install.sh: $tool is missing" >&2; exit 1; }
done
has_venv() {
    python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}
if ! has_venv; then  # a plain Debian lacks python3-venv (Raspberry Pi OS has it)
    step "installing python3-venv"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv || true
fi
has_venv || {
    echo "install.sh: needs Python >= 3.11 with venv (sudo apt-get install python3-venv)" >&2
    exit 1
}

step "user and groups"
for group in gpio dialout audio; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id unotable >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/unotable --no-create-home \
        --shell /usr/sbin/nologin --user-group unotable
fi
usermod -a -G gpio,dialout,audio unotable
add_to_config_group "$INSTALLER"

step "package into $PREFIX/venv"
install -d -m 0755 "$PREFIX" "$PREFIX/bin"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
install_package "$SRC"
install -m 0755 "$SRC/systemd/unotable-safe-pins" "$PREFIX/bin/unotable-safe-pins"
link_command

step "config $CONFIG"
install -d -m 0755 "$(dirname "$CONFIG")"
FRESH_CONFIG=no
UART_PORT=$(gpio_uart)
if [ ! -e "$CONFIG" ]; then
    sed -e 's/^enabled = true /enabled = false/' -e "s|\"/dev/serial0\"|\"$UART_PORT\"|" \
        "$SRC/firmware/default_config.toml" > "$CONFIG.new"
    chown root:unotable "$CONFIG.new"
    chmod 0640 "$CONFIG.new"
    mv "$CONFIG.new" "$CONFIG"
    FRESH_CONFIG=yes
    echo "   wrote $CONFIG: set your pins and reader ports there (the neutral reader: $UART_PORT)"
fi
check_reader_port

step "motor safety helper"
ensure_pin_tool || exit 1
python3 "$PREFIX/bin/unotable-safe-pins" --check "$CONFIG" || true  # which tool, which commands

step "the UART on GPIO 14/15 for the tower tray's neutral reader"
if [ "$UART" = yes ]; then
    enable_uart
else
    skipped "the UART (--no-uart)"
fi

step "the voice's sound device"
check_sound

if [ "$KIOSK" = yes ]; then
    step "the screen opens the table's page at boot (--kiosk)"
    install_kiosk "$INSTALLER"
fi

step "systemd unit and udev rules"
install -D -m 0644 "$SRC/systemd/unotable.service" "$UNIT_DIR/unotable.service"
install -D -m 0644 "$SRC/systemd/99-unotable.rules" "$RULES_DIR/99-unotable.rules"
reload_udev

if [ "$LAN" = yes ]; then
    step "phones on the local network reach the table (--lan)"
    open_to_lan
fi

if [ "$FRESH_CONFIG" = yes ]; then
    # Not enabled yet: at the next boot it would hold the pins and readers that
    # `enroll` and `selftest` need, on pins nobody has set yet.
    "$PREFIX/venv/bin/unotable" config check "$CONFIG" || true
    echo "== set your pins and readers (sudoedit $CONFIG), run unotable selftest, then:" \
        "sudo systemctl enable --now unotable"
elif ! "$PREFIX/venv/bin/unotable" config check "$CONFIG"; then
    enable_service
    echo "== fix $CONFIG, then: sudo systemctl restart unotable" >&2
else
    enable_service
    start_service
fi
summary
