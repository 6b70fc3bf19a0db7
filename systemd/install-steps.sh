# The steps of systemd/install.sh that depend on the machine it runs on (sourced by it;
# POSIX sh). Each says what it did, or what it skipped and why, so that install.sh runs
# to the end on a Pi, in a chroot and in an image build, and sums up at the end.

PREFIX=${PREFIX:-/opt/unotable}
CONFIG=${CONFIG:-/etc/unotable/config.toml}
BIN_DIR=${BIN_DIR:-/usr/local/bin}               # on sudo's secure_path and every user's PATH
SYSTEMD_RUNTIME=${SYSTEMD_RUNTIME:-/run/systemd/system}  # exists when systemd runs (sd_booted)
DROPIN_DIR=${DROPIN_DIR:-/etc/systemd/system/unotable.service.d}  # the unit's drop-ins
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
RULES_DIR=${RULES_DIR:-/etc/udev/rules.d}
DT_MODEL=${DT_MODEL:-/proc/device-tree/model}    # the board's name, as the firmware gives it
ALSA_CARDS=${ALSA_CARDS:-/proc/asound/cards}
ALSA_CONF=${ALSA_CONF:-/etc/alsa/conf.d}         # a sound server's plugin becomes the default here
SKIPPED=""
REBOOT=""

skipped() {
    echo "   skipped: $*"
    SKIPPED="$SKIPPED
  - $*"
}

reboot_needed() {
    echo "   $* (takes effect after a reboot)"
    REBOOT="$REBOOT
  - $*"
}

systemd_runs() {
    [ -d "$SYSTEMD_RUNTIME" ]
}

# The package into the venv, built from a copy of the checkout: pip builds a local
# directory in place, and its root-owned unotable.egg-info/ and build/ would then stop
# your own `pip install -e .` in the checkout ("Cannot update time stamp").
install_package() {
    src=$1
    build=$(mktemp -d)
    tar -C "$src" --exclude=./.git --exclude=./.venv --exclude=./build \
        --exclude='./*.egg-info' -cf - . | tar -C "$build" -xf -
    status=0
    "$PREFIX/venv/bin/pip" install -q --upgrade "$build[pi]" || status=$?
    rm -rf "$build"
    return "$status"
}

# `unotable` on the PATH of every user and of sudo (whose secure_path lacks the venv).
link_command() {
    install -d -m 0755 "$BIN_DIR"
    ln -sfn "$PREFIX/venv/bin/unotable" "$BIN_DIR/unotable"
    echo "   $BIN_DIR/unotable -> $PREFIX/venv/bin/unotable"
}

# The person installing reads the config (root:unotable 0640) without sudo: group unotable.
add_to_config_group() {
    user=$1
    if [ -z "$user" ] || [ "$user" = root ]; then
        skipped "adding you to group unotable (no sudo user; name one with --user NAME):" \
            "without it, run the unotable commands with sudo"
        return 0
    fi
    if ! id "$user" >/dev/null 2>&1; then
        skipped "adding $user to group unotable: there is no user $user"
        return 0
    fi
    if id -nG "$user" | tr ' ' '\n' | grep -qx unotable; then
        echo "   $user is in group unotable (reads $CONFIG)"
        return 0
    fi
    usermod -a -G unotable "$user"
    reboot_needed "$user joined group unotable and reads $CONFIG without sudo from the next login"
}

# udevd reloads the rules now where it runs; in a chroot or an image build they apply at boot.
reload_udev() {
    if udevadm control --reload 2>/dev/null; then
        udevadm trigger --subsystem-match=tty --subsystem-match=gpio || true
        echo "   udev rules reloaded"
    else
        skipped "udev reload (udevd is not running here): the reader names appear at the next boot"
    fi
}

# Enabling works without a running systemd (it only makes links); reloading and starting do not.
enable_service() {
    if systemd_runs; then
        systemctl daemon-reload
    fi
    systemctl enable unotable.service
}

start_service() {
    if ! systemd_runs; then
        skipped "starting unotable (systemd is not running here): it starts at the next boot"
        return 0
    fi
    systemctl restart unotable.service
    echo "== unotable is running: journalctl -u unotable -f"
}

# The board's name ("Raspberry Pi 5 Model B Rev 1.0"), or "" off a Pi.
board_model() {
    tr -d '\000' < "$DT_MODEL" 2>/dev/null || true
}

# The UART on GPIO 14/15, where the tower tray's neutral reader sits: /dev/serial0 on
# every Pi before the 5; on a Pi 5 (its Compute Module, the Pi 500) serial0 is the debug
# connector (ttyAMA10) and GPIO 14/15 is ttyAMA0. hal/board.py decides the same way.
gpio_uart() {
    case $(board_model) in
        "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*|"Raspberry Pi 500"*) echo /dev/ttyAMA0 ;;
        *) echo /dev/serial0 ;;
    esac
}

# raspi-config's non-interactive mode; with no terminal, a question it cannot ask fails.
raspi() {
    raspi-config nonint "$@" </dev/null
}

# Switch the UART on and the serial console (a login prompt on the same pins) off, as
# `raspi-config` does (0 = on, 1 = off in its non-interactive mode).
enable_uart() {
    port=$(gpio_uart)
    model=$(board_model)
    echo "   the reader's UART on GPIO 14/15 is $port (${model:-not a Raspberry Pi})"
    if ! command -v raspi-config >/dev/null 2>&1; then
        skipped "the UART (no raspi-config: not Raspberry Pi OS): set enable_uart=1 in" \
            "config.txt and remove console=serial0,... from cmdline.txt yourself"
        return 0
    fi
    if ! hw=$(raspi get_serial_hw) || ! cons=$(raspi get_serial_cons); then
        skipped "the UART (raspi-config cannot read the serial settings here): sudo raspi-config," \
            "Interface Options, Serial Port"
        return 0
    fi
    if [ "$hw" = 0 ]; then
        echo "   the UART on GPIO 14/15 is on"
    elif raspi do_serial_hw 0; then
        reboot_needed "the UART on GPIO 14/15 ($port) is switched on"
    else
        skipped "the UART (raspi-config could not switch it on): sudo raspi-config," \
            "Interface Options, Serial Port"
        return 0
    fi
    if [ "$cons" != 0 ]; then
        echo "   no serial console on GPIO 14/15"
    elif raspi do_serial_cons 1; then
        reboot_needed "the serial console on GPIO 14/15 is switched off"
    else
        skipped "switching the serial console off (raspi-config failed): sudo raspi-config," \
            "Interface Options, Serial Port, no login shell"
    fi
}

# A config that names /dev/serial0 on a Pi 5 reads the debug connector, not GPIO 14/15.
check_reader_port() {
    port=$(gpio_uart)
    if [ "$port" != /dev/serial0 ] && grep -q '"/dev/serial0"' "$CONFIG" 2>/dev/null; then
        echo "   note: $CONFIG names /dev/serial0, which on this $(board_model) is the debug" \
            "connector: set the neutral reader's port = \"$port\" (sudoedit $CONFIG)"
    fi
}

# --kiosk: the 7-inch screen opens the table's page at boot. An XDG autostart entry starts
# unotable-kiosk (it waits for the page, then runs Chromium in kiosk mode): Raspberry Pi
# OS's labwc session (/etc/xdg/labwc/autostart), wayfire's and LXDE's run these entries
# through lxsession-xdg-autostart. ~/.config/labwc/autostart is left alone: it would
# replace the system's (panel, desktop, kanshi). Blanking goes off where the desktop keeps
# it: labwc's swayidle line (what raspi-config's do_blanking writes) and wayfire's dpms_timeout.
kiosk_entry() {
    cat <<EOF
[Desktop Entry]
Type=Application
Name=unotable kiosk
Comment=The table's page full screen on the table's screen (systemd/install.sh --kiosk)
Exec=$PREFIX/bin/unotable-kiosk $CONFIG
X-GNOME-Autostart-enabled=true
EOF
}

blanking_off() {
    home=$1
    labwc="$home/.config/labwc/autostart"
    if [ -f "$labwc" ] && grep -q swayidle "$labwc"; then
        sed -i '/swayidle/d' "$labwc"
        echo "   screen blanking off in $labwc"
    fi
    wayfire="$home/.config/wayfire.ini"
    if [ -f "$wayfire" ]; then
        if grep -q '^dpms_timeout' "$wayfire"; then
            sed -i 's/^dpms_timeout.*/dpms_timeout=-1/' "$wayfire"
        elif grep -q '^\[idle\]' "$wayfire"; then
            sed -i 's/^\[idle\]/[idle]\ndpms_timeout=-1/' "$wayfire"
        else
            printf '\n[idle]\ndpms_timeout=-1\n' >> "$wayfire"
        fi
        echo "   screen blanking off in $wayfire"
    fi
}

# The desktop's display manager (Raspberry Pi OS: lightdm; plain Debian: gdm3 or sddm).
has_desktop() {
    for manager in lightdm gdm3 sddm; do
        command -v "$manager" >/dev/null 2>&1 && return 0
    done
    return 1
}

# The name this system's apt knows Chromium by: Debian's chromium, or chromium-browser.
chromium_package() {
    for name in chromium chromium-browser; do
        if apt-cache policy "$name" 2>/dev/null | grep -q 'Candidate: [^(]'; then
            echo "$name"
            return 0
        fi
    done
    echo chromium
}

install_kiosk() {
    user=$1
    if [ -z "$user" ] || [ "$user" = root ] || ! id "$user" >/dev/null 2>&1; then
        skipped "--kiosk: no desktop user (run with sudo from that user, or --user NAME)"
        return 0
    fi
    if ! has_desktop; then
        skipped "--kiosk: no desktop here (no lightdm, gdm3 or sddm: Raspberry Pi OS Lite?):" \
            "install one, then run install.sh --kiosk again"
        return 0
    fi
    home=$(getent passwd "$user" | cut -d: -f6)
    group=$(id -gn "$user")
    install -m 0755 "$SRC/systemd/unotable-kiosk" "$PREFIX/bin/unotable-kiosk"
    for dir in "$home/.config" "$home/.config/autostart"; do  # existing ones keep their mode
        [ -d "$dir" ] || { install -d -m 0755 "$dir" && chown "$user:$group" "$dir"; }
    done
    kiosk_entry > "$home/.config/autostart/unotable-kiosk.desktop"
    chown "$user:$group" "$home/.config/autostart/unotable-kiosk.desktop"
    echo "   $home/.config/autostart/unotable-kiosk.desktop starts $PREFIX/bin/unotable-kiosk"
    blanking_off "$home"
    if ! command -v chromium-browser >/dev/null 2>&1 && ! command -v chromium >/dev/null 2>&1; then
        skipped "Chromium is not installed: sudo apt-get install $(chromium_package)"
    fi
    if ! command -v raspi-config >/dev/null 2>&1; then
        skipped "--kiosk autologin (no raspi-config): make the desktop log $user in at boot"
    # B4: the desktop, logged in as $user without a password (raspi-config's own words)
    elif SUDO_USER=$user raspi do_boot_behaviour B4 >/dev/null 2>&1; then
        reboot_needed "the desktop logs $user in at boot and opens the table's page full screen"
    else
        skipped "--kiosk autologin (raspi-config could not set it): sudo raspi-config," \
            "System Options, Boot / Auto Login, Desktop Autologin"
    fi
}

# --lan: phones on the local network reach the table. `unotable lan` sets [api] host and
# a generated token in the config (a strong token is kept) and writes the drop-in
# lan.conf that lets the interfaces' private subnets through the unit's IPAddressAllow;
# enable_service's daemon-reload and the restart then apply it.
open_to_lan() {
    if "$PREFIX/venv/bin/unotable" lan --config "$CONFIG" --dropin-dir "$DROPIN_DIR"; then
        return 0
    fi
    skipped "--lan: unotable lan did not finish (said above): fix that, then sudo unotable lan"
}

# The voice (espeak-ng, and aplay for [voice] device) as the service hears it. With the
# desktop, PipeWire (or PulseAudio) owns ALSA's default device and serves the desktop
# user only: the service's voice needs [voice] device to name a card; selftest names one.
check_sound() {
    if ! command -v espeak-ng >/dev/null 2>&1 || ! command -v aplay >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q espeak-ng alsa-utils >/dev/null 2>&1 ||
            true
    fi
    if ! command -v espeak-ng >/dev/null 2>&1 || ! command -v aplay >/dev/null 2>&1; then
        skipped "the voice (espeak-ng or aplay missing, apt-get could not install them):" \
            "sudo apt-get install espeak-ng alsa-utils"
        return 0
    fi
    cards=$(sed -n 's/^ *[0-9][0-9]* \[\([^] ]*\) *\]:.*/\1/p' "$ALSA_CARDS" 2>/dev/null |
        tr '\n' ' ')
    server=""
    [ ! -e "$ALSA_CONF/99-pulse.conf" ] || server=PulseAudio
    [ ! -e "$ALSA_CONF/99-pipewire-default.conf" ] || server=PipeWire
    if [ -z "$cards" ]; then
        skipped "the voice's sound device: $ALSA_CARDS lists no sound card"
    elif [ -n "$server" ] && ! grep -q '^device *= *"[^"]' "$CONFIG" 2>/dev/null; then
        skipped "the voice's sound device: $server serves the desktop user only; set [voice]" \
            "device = \"plughw:CARD=...\" in $CONFIG (cards here: ${cards% }; unotable selftest" \
            "names one)"
    else
        echo "   the voice can reach a sound card (${cards% })"
    fi
}

summary() {
    if [ -n "$SKIPPED" ]; then
        echo "== skipped here:$SKIPPED"
    fi
    if [ -n "$REBOOT" ]; then
        echo "== reboot needed (sudo reboot):$REBOOT"
    else
        echo "== no reboot needed"
    fi
}
