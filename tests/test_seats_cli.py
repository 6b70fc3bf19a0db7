"""`unotable seats`: the seats' phones listed, each seat's QR code scanned back to the link
that claims it, a seat revoked; bad input is one line, exit 2, nothing changed."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import tomlkit

from firmware.cli import CLOSED_PIPE_STATUS, main
from firmware.config import DEFAULT_PATH
from firmware.seat_keys import SeatKeys
from hal.sim.clock import VirtualClock
from tests.firmware.qr_decode import decoded, terminal_modules, write_png

ADDRESS, PORT = "192.168.1.20", 8123
NAMES = ["Ada", "Bo", "Cy", "Di"]
TOKEN = "kT3v9QxL2mWp8ZrB4nYc"
NOBODY = 65534


CLAIMED_AT = 1_796_156_100.0  # 2026-12-01 20:15 UTC


@pytest.fixture
def utc(monkeypatch):
    """The listing shows local time: make it UTC for the test."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def write_config(path: Path, state: Path, *, host: str = ADDRESS) -> Path:
    doc = tomlkit.parse(DEFAULT_PATH.read_text(encoding="utf-8"))
    doc["table"]["names"] = NAMES
    doc["api"]["host"] = host
    doc["api"]["port"] = PORT
    if host != "127.0.0.1":
        doc["api"]["token"] = TOKEN
    doc["journal"]["path"] = str(state / "journal.db")
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def state(tmp_path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def config(tmp_path, state) -> Path:
    return write_config(tmp_path / "unotable.toml", state)


def seats(config: Path, *args: str) -> int:
    return main(["seats", *args, "--config", str(config)])


def qr_of(config: Path, seat: int, capsys) -> tuple[str, list[str]]:
    """`unotable seats qr SEAT`: the URL printed under the code, and what zbar reads in
    the code as the terminal shows it (half blocks of light on a dark background)."""
    assert seats(config, "qr", str(seat)) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    blocks = "\n".join(line for line in lines if line and set(line) <= set(" ▀▄█"))
    return lines[-1], blocks


def test_each_seat_of_a_four_seat_table_gets_a_code_that_scans_to_its_own_link(
        config, state, tmp_path, capsys):
    urls = []
    for seat in range(1, 5):
        url, blocks = qr_of(config, seat, capsys)
        # the link's seat is the API's number, from 0 (the command's seat 1 is its 0)
        assert url.startswith(f"http://{ADDRESS}:{PORT}/seat/{seat - 1}#join=")
        image = write_png(tmp_path / f"seat{seat}.png", terminal_modules(blocks))
        assert decoded(image) == [url]
        urls.append(url)
    assert len({url.split("#join=")[1] for url in urls}) == 4  # a secret of its own each
    keys = SeatKeys(state / "seats.json")
    for seat, url in enumerate(urls, start=1):  # each link claims its free seat
        token = keys.claim(seat - 1, url.split("#join=")[1])
        assert token and keys.who(token) == seat - 1


def test_the_code_is_printed_with_the_seat_and_the_link_under_it(config, capsys):
    assert seats(config, "qr", "2") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("seat 2 (Bo): scan the code with the player's phone")
    assert lines[0] == "█" * len(lines[0])  # the quiet zone first
    assert " ".join(lines).count("#join=") == 1


def test_the_list_shows_each_seats_phone_since_and_invitations(config, state, capsys, utc):
    state.mkdir()
    keys = SeatKeys(state / "seats.json", clock=VirtualClock(epoch=CLAIMED_AT))
    seats(config, "qr", "1")
    seats(config, "qr", "1")
    keys.claim(2, keys.invite(2))  # the API's seat 2: seat 3 to people
    capsys.readouterr()
    assert seats(config) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == f"seats of {state / 'seats.json'}:"
    assert lines[1] == "seat 1 (Ada): no phone; 2 invitations"
    assert lines[2] == "seat 2 (Bo): no phone; 0 invitations"
    assert lines[3] == "seat 3 (Cy): phone since 2026-12-01 20:15; 0 invitations"
    assert lines[4] == "seat 4 (Di): no phone; 0 invitations"
    assert err == ""


def test_a_table_without_seats_file_lists_every_seat_free_and_writes_nothing(
        config, state, capsys):
    assert seats(config) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"seat {n} ({name}): no phone; 0 invitations" for n, name in enumerate(NAMES, 1)]
    assert not state.exists()


def test_revoke_refuses_the_phone_at_its_next_request_and_voids_the_invitations(
        config, state, capsys):
    url, _ = qr_of(config, 2, capsys)
    daemons = SeatKeys(state / "seats.json")  # opened before, as the running daemon's
    token = daemons.claim(1, url.split("#join=")[1])
    seats(config, "qr", "2")  # one more invitation, for another phone
    assert daemons.who(token) == 1
    capsys.readouterr()
    assert seats(config, "revoke", "2") == 0
    assert capsys.readouterr().out == ("seat 2 (Bo): revoked; its phone is refused (401) "
                                       "from its next request on, its invitations no longer "
                                       "work, and every phone waiting for it is refused\n")
    assert daemons.who(token) is None
    entry = next(e for e in SeatKeys(state / "seats.json").status() if e["seat"] == 1)
    assert (entry["claimed"], entry["invitations"]) == (False, 0)
    capsys.readouterr()
    seats(config)
    assert "seat 2 (Bo): no phone; 0 invitations" in capsys.readouterr().out.splitlines()


def test_revoking_a_free_seat_says_so_and_changes_nothing(config, state, capsys):
    assert seats(config, "revoke", "4") == 0
    assert "nothing changed" in capsys.readouterr().out
    assert not state.exists()


def snapshot(directory: Path) -> dict[str, bytes]:
    if not directory.exists():
        return {}
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("args", [["qr", "0"], ["qr", "5"], ["qr", "two"], ["revoke", "5"],
                                  ["revoke", "-1"]], ids=" ".join)
def test_a_seat_out_of_range_is_one_line_exit_2_and_changes_nothing(
        config, state, capsys, args):
    seats(config, "qr", "1")
    before = snapshot(state)
    capsys.readouterr()
    assert seats(config, *args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"unotable seats: error: no seat {args[1]!r}: this table has seats 1 to 4 "
                   f"([table] seats in {config})\n")
    assert snapshot(state) == before


@pytest.mark.parametrize("args", [[], ["qr", "1"], ["revoke", "1"]], ids=repr)
def test_no_config_is_one_line_exit_2(tmp_path, capsys, args):
    missing = tmp_path / "nowhere.toml"
    assert seats(missing, *args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"unotable seats: error: {missing}: file: cannot read")
    assert list(tmp_path.iterdir()) == []


def test_a_loopback_table_says_phones_cannot_reach_it_and_how_to_fix_it(
        tmp_path, state, capsys):
    config = write_config(tmp_path / "unotable.toml", state, host="127.0.0.1")
    assert seats(config, "qr", "1") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("unotable seats: error: phones cannot reach the table: [api] host is "
                   f"127.0.0.1 (this machine only) in {config}; `unotable lan` serves it on "
                   "the local network\n")
    assert not state.exists()  # no invitation nobody could use
    assert seats(config) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 5 and err.startswith("phones cannot reach the table")


@pytest.fixture
def table_folder():
    """A folder others may enter (pytest's tmp_path lies under a root-only one)."""
    folder = Path(tempfile.mkdtemp(prefix="unotable-seats-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def refusal(state: Path, owner: str, action: str) -> str:
    return (f"unotable seats: error: cannot write the seats' keys to {state / 'seats.json'}: "
            f"the state directory {state} belongs to {owner}, the table's user; run the "
            f"command as {owner}: `sudo -u {owner} unotable {action}`\n")


def test_a_state_directory_of_another_user_is_one_line_exit_2_and_changes_nothing(
        table_folder, capsys, monkeypatch):
    """The table's state directory belongs to the daemon's user and another one runs
    the command (root, say: a file root wrote would lock the daemon out of its own
    keys). The command compares the directory's owner with its effective user, so that
    user is what the test changes, on any machine."""
    state = table_folder / "state"
    state.mkdir(mode=0o755)
    config = write_config(table_folder / "unotable.toml", state)
    SeatKeys(state / "seats.json").invite(0)  # something to revoke: seat 1's invitation
    me = os.geteuid()
    owner = pwd.getpwuid(me).pw_name
    monkeypatch.setattr(os, "geteuid", lambda: NOBODY if me == 0 else 0)
    for args in (["qr", "1"], ["revoke", "1"]):
        before = snapshot(state)
        status = seats(config, *args)
        out, err = capsys.readouterr()
        assert (status, out, err) == (2, "", refusal(state, owner, f"seats {' '.join(args)}"))
        assert snapshot(state) == before
    assert seats(config) == 0  # reading is fine for anyone who can read
    assert "seat 1 (Ada): no phone; 1 invitation" in capsys.readouterr().out


def test_typed_in_a_shell_the_seats_are_the_services_own(tmp_path, monkeypatch, capsys):
    """No $STATE_DIRECTORY (systemd sets it only for the service) and the service
    installed: a relative [journal] path is in the service's state directory, where the
    daemon reads seats.json; $STATE_DIRECTORY, when set, wins."""
    service = tmp_path / "var-lib-unotable"
    service.mkdir()
    monkeypatch.setattr("firmware.commands.seats.SERVICE_STATE", service)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    config = write_config(tmp_path / "unotable.toml", tmp_path)
    doc = tomlkit.parse(config.read_text())
    doc["journal"]["path"] = "journal.db"
    config.write_text(tomlkit.dumps(doc))
    assert seats(str(config), "qr", "1") == 0
    assert (service / "seats.json").is_file()
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.setenv("STATE_DIRECTORY", str(other))
    assert seats(str(config), "qr", "1") == 0
    assert (other / "seats.json").is_file()


def test_a_state_directory_that_cannot_be_made_is_one_line_exit_2(tmp_path, capsys):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state directory should be")
    config = write_config(tmp_path / "unotable.toml", blocker / "inside")
    assert seats(config, "qr", "1") == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("unotable seats: error: cannot ")
    assert blocker.read_text() == "a file where the state directory should be"


RUN = "import sys; from firmware.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.mark.parametrize("args", [[], ["qr", "3"]], ids=repr)
def test_piped_into_a_reader_gone_away_the_command_ends_quietly(config, args):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-c", RUN, "seats", *args, "--config",
                               str(config)], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=60, cwd=Path(__file__).parent.parent)
    finally:
        os.close(write_end)
    assert (done.stderr, done.returncode) == ("", CLOSED_PIPE_STATUS)


def test_piped_into_head_the_first_lines_arrive(config):
    done = subprocess.run(f"{sys.executable} -c '{RUN}' seats qr 1 --config {config} | head -2",
                          shell=True, capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0 and done.stderr == ""
    first, second = done.stdout.splitlines()
    assert first == second == "█" * len(first)  # the quiet zone's top


def test_a_table_serving_every_address_puts_its_lan_address_in_the_link(
        tmp_path, state, monkeypatch, capsys):
    """[api] host 0.0.0.0: the link holds the address phones reach the table on (the
    machine's own route, stood in for here), never 0.0.0.0; with no network at all the
    command says so and makes no invitation."""
    config = write_config(tmp_path / "unotable.toml", state, host="0.0.0.0")
    monkeypatch.setattr("firmware.seat_keys.lan_address", lambda host: "10.1.2.3")
    url, _ = qr_of(config, 4, capsys)
    assert url.startswith(f"http://10.1.2.3:{PORT}/seat/3#join=")
    before = snapshot(state)
    monkeypatch.setattr("firmware.seat_keys.lan_address", lambda host: "127.0.0.1")
    assert seats(config, "qr", "4") == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "unotable seats: error: phones cannot reach the table: [api] host is 0.0.0.0, but "
        "this machine has no address on a network; connect it to the phones' network "
        "(Wi-Fi or cable) first\n")
    assert snapshot(state) == before


def test_a_user_who_cannot_read_the_seats_is_told_the_command_that_can(table_folder):
    """As installed: the state directory is the table's user's (mode 0750) and its
    seats.json 0600; the owner runs `unotable seats` as another user, in a real process.
    That user is root without its capabilities: it reads only what its permissions
    allow, like pi, and still reads the checkout wherever it lies (nobody may not)."""
    table_user = pwd.getpwnam("daemon")
    state = table_folder / "state"
    state.mkdir(mode=0o750)
    config = write_config(table_folder / "unotable.toml", state)
    config.chmod(0o644)
    SeatKeys(state / "seats.json").invite(0)
    for path in (state, *state.iterdir()):
        os.chown(path, table_user.pw_uid, table_user.pw_gid)
    for args in ([], ["qr", "1"]):
        done = subprocess.run(
            ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--clear-groups",
             sys.executable, "-c", RUN, "seats", *args, "--config", str(config)],
            capture_output=True, text=True, timeout=60, cwd=Path(__file__).parent.parent)
        action = " ".join(["seats", *args])
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.endswith(f"`sudo -u daemon unotable {action}`\n"), done.stderr
        assert done.stderr.count("\n") == 1


def test_the_command_for_the_seats_names_sudo_u_the_tables_user(tmp_path, monkeypatch):
    from firmware.commands.table_user import as_table_user

    state = tmp_path / "state"
    assert as_table_user("seats qr N", state) == "unotable seats qr N"  # nobody's yet
    state.mkdir()
    os.chown(state, NOBODY, NOBODY)
    assert as_table_user("seats qr N", state) == "sudo -u nobody unotable seats qr N"
    monkeypatch.setattr(os, "geteuid", lambda: NOBODY)
    assert as_table_user("seats qr N", state) == "unotable seats qr N"


def test_a_revoke_in_the_terminal_ends_the_claims_waiting_at_the_running_daemon(tmp_path, capsys):
    from firmware.sim.testbed import SimTable
    from tests.firmware.conftest import request

    with SimTable(tmp_path, "classic", players=2) as table:
        _, listing = request(table.url, "GET", "/api/seats")
        join = listing["seats"][0]["url"].split("#join=")[1]
        assert request(table.url, "POST", "/api/seats/claim", {"seat": 0, "join": join})[0] == 200
        join = request(table.url, "GET", "/api/seats")[1]["seats"][0]["url"].split("#join=")[1]  # a new one
        status, waiting = request(table.url, "POST", "/api/seats/claim", {"seat": 0, "join": join})
        assert status == 202 and request(table.url, "GET", "/api/state")[1]["claims"] == [
            {"seat": 0, "code": waiting["code"]}]
        config = write_config(tmp_path / "config.toml", tmp_path, host="127.0.0.1")
        assert seats(config, "revoke", "1") == 0
        assert "every phone waiting for it is refused" in capsys.readouterr().out
        poll = {"seat": 0, "join": join, "claim": waiting["claim"]}
        status, told = request(table.url, "POST", "/api/seats/claim", poll)
        assert (status, told["key"]) == (403, "claim.invitation_gone"), told
        assert request(table.url, "GET", "/api/state")[1]["claims"] == []
        status, _ = request(table.url, "POST", "/api/seats/approve", {"seat": 0, "code": waiting["code"]})
        assert status == 409
