"""install.sh --kiosk: the autostart entry it writes, screen blanking off, and the page
the kiosk opens: unotable-kiosk's Chromium command line, loaded by Debian's headless
Chromium against `unotable run` on the simulated table."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from firmware.config import DEFAULT_PATH

ROOT = Path(__file__).resolve().parents[2]
STEPS = ROOT / "systemd" / "install-steps.sh"
KIOSK = ROOT / "systemd" / "unotable-kiosk"
TOKEN = "kiosk-Token-0123456789abc"


def sh(commands: str, **env: str) -> str:
    done = subprocess.run(["sh", "-euc", f'. "{STEPS}"\n{commands}'], capture_output=True,
                          text=True, check=True, env={"PATH": "/usr/bin:/bin", **env})
    return done.stdout


def test_the_autostart_entry_starts_the_kiosk_on_the_installed_config():
    entry = sh("kiosk_entry")
    lines = entry.splitlines()
    assert lines[0] == "[Desktop Entry]" and "Type=Application" in lines
    assert "Exec=/opt/unotable/bin/unotable-kiosk /etc/unotable/config.toml" in lines
    text = STEPS.read_text()
    # an XDG autostart entry, which labwc, wayfire and LXDE on Raspberry Pi OS all run; the
    # user's ~/.config/labwc/autostart would replace the system's panel and desktop
    assert '"$home/.config/autostart/unotable-kiosk.desktop"' in text
    assert "> \"$home/.config/labwc/autostart\"" not in text
    # the desktop autologin itself: tests/systemd/test_install_run.py


def test_blanking_goes_off_in_labwc_and_wayfire(tmp_path):
    labwc = tmp_path / ".config" / "labwc" / "autostart"
    labwc.parent.mkdir(parents=True)
    labwc.write_text("kanshi &\nswayidle -w timeout 600 'wlopm --off \\*' resume 'wlopm --on \\*' &\n")
    wayfire = tmp_path / ".config" / "wayfire.ini"
    wayfire.write_text("[core]\nxwayland = true\n[idle]\ndpms_timeout=600\n")
    sh(f'blanking_off "{tmp_path}"')
    assert labwc.read_text() == "kanshi &\n"
    assert "dpms_timeout=-1" in wayfire.read_text() and "600" not in wayfire.read_text()
    wayfire.write_text("[core]\n")
    sh(f'blanking_off "{tmp_path}"')
    assert wayfire.read_text().endswith("[idle]\ndpms_timeout=-1\n")


def kiosk_command(config: Path) -> list[str]:
    done = subprocess.run([sys.executable, str(KIOSK), "--print", str(config)],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_the_kiosk_opens_the_page_of_the_configured_port_with_its_token(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[api]\nhost = "0.0.0.0"\nport = 8123\ntoken = "{TOKEN}"\n')
    command = kiosk_command(config)
    assert command[-1] == f"http://127.0.0.1:8123/#token={TOKEN}"
    assert "--kiosk" in command and "--noerrdialogs" in command
    config.write_text("[api]\n")
    assert kiosk_command(config)[-1] == "http://127.0.0.1:8080/"  # the API's defaults


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def daemon(tmp_path):
    """`unotable run` on the simulated table (the built-in config), with a token."""
    port = free_port()
    text = (DEFAULT_PATH.read_text()
            .replace("port = 8080 ", f"port = {port} ")
            .replace('# token = "at least 16 characters"', f'token = "{TOKEN}"')
            .replace('path = "journal.db"', f'path = "{tmp_path / "journal.db"}"'))
    config = tmp_path / "config.toml"
    config.write_text(text)
    log = tmp_path / "daemon.log"
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config",
                                 str(config)], stdout=subprocess.DEVNULL, stderr=err, text=True)
    # ready when this daemon answers its own token (the page and its socket are served
    # by then), not when something answers on the port
    ours = urllib.request.Request(f"http://127.0.0.1:{port}/api/state",
                                  headers={"Authorization": f"Bearer {TOKEN}"})
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(ours, timeout=2).close()
            break
        except OSError:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the daemon never answered its token"
            time.sleep(0.2)
    yield config, proc, log
    proc.terminate()
    proc.wait(timeout=30)


CONNECTED = 'id="conn" class="conn up"'


def loaded(url: str, profile: Path) -> str:
    """The page's DOM after Debian's headless Chromium (a fresh profile: the page keeps
    the token in its local storage) ran its scripts for a while; on a busy machine the
    socket may not be up yet, so it looks again with more time, up to three times."""
    dom = ""
    for budget_ms in (8000, 16000, 32000, 32000, 32000):
        done = subprocess.run(
            ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
             f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}",
             "--dump-dom", url], capture_output=True, text=True, timeout=120)
        dom = done.stdout
        if CONNECTED in dom:
            break
        time.sleep(1)  # (real time: a busy machine catches up before the next look)
    return dom


def test_chromium_loads_the_table_from_the_kiosk_address(daemon, tmp_path):
    config, proc, log = daemon
    url = kiosk_command(config)[-1]
    dom = loaded(url, tmp_path / "kiosk")
    # connected: the token in the address let it in
    assert CONNECTED in dom, (f"daemon {'running' if proc.poll() is None else 'gone'}: "
                              f"{log.read_text()[-2000:]}\n{dom[:1500]}")
    assert 'data-seat="0"' in dom and "North" in dom  # the table's seats, as the API gives them
    without_token = loaded(url.partition("#")[0], tmp_path / "stranger")
    assert "North" not in without_token and CONNECTED not in without_token
