"""`unotable enroll`: scripted answers, a simulated reader, the config edited in place."""

import contextlib
import io
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
import tomlkit

from firmware.cli import command_modules, main
from hal.sim.pn532 import SimPN532
from hal.sim.tray import DEMO_UIDS
from hal.tray import parse_config
from tests.held_port import held_port

CONFIG = """\
# the table in the living room
[table]
seats = 4  # four players

[tray]
seen_polls = 2  # debounce
"""


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "unotable.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def enroll(monkeypatch, *argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["enroll", *argv])


def test_enrolls_all_four_towers_from_a_simulated_reader_keeping_comments(
    monkeypatch, config, capsys
):
    status = enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\n\n\n\n")
    assert status == 0
    text = config.read_text(encoding="utf-8")
    assert "# the table in the living room" in text and "# debounce" in text
    doc = tomlkit.parse(text)
    assert dict(doc["tray"]["towers"]) == DEMO_UIDS["pn532"]
    assert parse_config(doc["tray"], path="tray").towers == DEMO_UIDS["pn532"]
    assert "Saved 4 tower tags" in capsys.readouterr().out


def test_skip_keeps_the_old_entry_and_quit_changes_nothing(monkeypatch, config, capsys):
    config.write_text(CONFIG + '\n[tray.towers]\nO = "04FFFFFFFFFF01"\n', encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\n\ns\n\n") == 0
    towers = tomlkit.parse(config.read_text(encoding="utf-8"))["tray"]["towers"]
    assert towers["O"] == "04FFFFFFFFFF01"
    assert towers["U"] == DEMO_UIDS["pn532"]["U"]
    before = config.read_text(encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\nq\n") == 1
    assert (
        enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\n") == 1
    )  # input ends
    assert config.read_text(encoding="utf-8") == before
    assert "unchanged" in capsys.readouterr().out


def test_two_tags_on_the_reader_or_none_are_refused_until_one_is_left(mocker, config, capsys):
    with SimPN532(["04A1000000000A", "04A1000000000B"]) as chip:
        steps = iter(
            [
                lambda: None,  # two tags: refused
                lambda: (chip.lift("04A1000000000A"), chip.lift("04A1000000000B")),  # none
                lambda: chip.place("04A1000000000A"),  # U
                lambda: (
                    chip.lift("04A1000000000A"),
                    chip.place("04A1000000000A"),
                ),  # same tag: refused
                lambda: (chip.lift("04A1000000000A"), chip.place("04A1000000000B")),  # N
            ]
        )

        def answer(prompt=""):
            step = next(steps, None)
            if step is None:
                return "s"
            step()
            return ""

        mocker.patch("builtins.input", side_effect=answer)
        status = main(["enroll", "--config", str(config), "--port", chip.port, "--timeout", "0.2"])
    out = capsys.readouterr().out
    assert status == 0
    assert "2 tags seen (04A1000000000A, 04A1000000000B): leave only tower U" in out
    assert "No tag seen" in out
    assert "just enrolled as tower U" in out
    towers = tomlkit.parse(config.read_text(encoding="utf-8"))["tray"]["towers"]
    assert dict(towers) == {"U": "04A1000000000A", "N": "04A1000000000B"}


def test_the_configs_neutral_reader_is_used_without_port(monkeypatch, config):
    with SimPN532(["04C0000000000C"]) as chip:
        config.write_text(
            CONFIG
            + '\n[[tray.readers]]\nslot = 1\nport = "/dev/nonexistent"\n'
            + f'\n[[tray.readers]]\nslot = "neutral"\nport = "{chip.port}"\n',
            encoding="utf-8",
        )
        assert enroll(monkeypatch, "--config", str(config), stdin="\ns\ns\ns\n") == 0
    towers = tomlkit.parse(config.read_text(encoding="utf-8"))["tray"]["towers"]
    assert dict(towers) == {"U": "04C0000000000C"}


def test_unopenable_reader_is_exit_1_and_changes_nothing(monkeypatch, config, capsys):
    status = enroll(
        monkeypatch,
        "--config",
        str(config),
        "--port",
        "/dev/nope-3",
        "--timeout",
        "0.1",
        stdin="\n",
    )
    assert status == 1
    assert "cannot open port /dev/nope-3" in capsys.readouterr().err
    assert config.read_text(encoding="utf-8") == CONFIG


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no reader"),
        (["--driver", "rdm6300"], "--driver needs --port"),
    ],
)
def test_bad_arguments_are_exit_2(monkeypatch, config, capsys, argv, message):
    assert enroll(monkeypatch, "--config", str(config), *argv) == 2
    assert message in capsys.readouterr().err
    assert config.read_text(encoding="utf-8") == CONFIG


def test_the_builtin_default_config_is_never_edited(monkeypatch, capsys):
    monkeypatch.delenv("UNOTABLE_CONFIG", raising=False)
    monkeypatch.setattr(
        "firmware.config.SYSTEM_PATH", __import__("pathlib").Path("/nonexistent.toml")
    )
    assert enroll(monkeypatch, "--port", "sim") == 2
    assert "--config" in capsys.readouterr().err


def test_a_broken_config_file_is_exit_1(monkeypatch, tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[tray\n", encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(path), "--port", "sim") == 1
    assert "cannot read" in capsys.readouterr().err


SERVICE_UID, SERVICE_GID = 4321, 4322  # stand-ins for root:unotable on a Pi


def owner_and_mode(path):
    st = path.stat()
    return st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)


def test_enroll_keeps_the_files_owner_group_and_mode(monkeypatch, config):
    # install.sh leaves /etc/unotable/config.toml as root:unotable 0640; the service
    # (user unotable) must still read it after enroll, which runs as root.
    if os.geteuid() == 0:
        os.chown(config, SERVICE_UID, SERVICE_GID)
    config.chmod(0o640)
    before = owner_and_mode(config)
    assert enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\n\n\n\n") == 0
    assert owner_and_mode(config) == before
    assert dict(tomlkit.parse(config.read_text())["tray"]["towers"]) == DEMO_UIDS["pn532"]
    assert [p.name for p in config.parent.iterdir()] == [config.name]  # no temp file left


def test_enroll_through_a_symlink_edits_the_file_and_keeps_the_link(monkeypatch, config):
    link = config.with_name("link.toml")
    link.symlink_to(config.name)
    config.chmod(0o640)
    assert enroll(monkeypatch, "--config", str(link), "--port", "sim", stdin="\n\n\n\n") == 0
    assert link.is_symlink() and owner_and_mode(config)[2] == 0o640
    assert "towers" in tomlkit.parse(config.read_text())["tray"]


@pytest.fixture
def open_folder():
    """A directory anyone may write (pytest's tmp_path lies under a root-only one)."""
    folder = Path(tempfile.mkdtemp(prefix="unotable-enroll-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


@contextlib.contextmanager
def acting_as(uid, gid):
    """Run the next lines with another effective user and group (the real uid stays root).
    The commands are found first, as root: the checkout (a fresh clone in a 0700 temporary
    directory, as CI makes it) need not be readable by that user; an installed package is."""
    command_modules()
    os.setegid(gid)
    os.seteuid(uid)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run enroll as another user")
def test_a_user_who_cannot_keep_the_owner_is_refused_and_nothing_changes(
    monkeypatch, capsys, open_folder
):
    # The file is root:GID 0660 in a directory the user may write: writing would work,
    # but the replaced file would then belong to the user. Enroll refuses instead.
    folder = open_folder
    config = folder / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    os.chown(config, 0, SERVICE_GID)
    config.chmod(0o660)
    with acting_as(SERVICE_UID, SERVICE_GID):
        status = enroll(monkeypatch, "--config", str(config), "--port", "sim", stdin="\n\n\n\n")
    assert status == 1
    err = capsys.readouterr().err
    assert f"cannot write {config}" in err and "only root can keep that" in err
    assert config.read_text(encoding="utf-8") == CONFIG
    assert owner_and_mode(config) == (0, SERVICE_GID, 0o660)
    assert [p.name for p in folder.iterdir()] == ["config.toml"]


def test_sim_enabled_in_the_config_enrolls_from_the_simulated_reader(monkeypatch, config, capsys):
    config.write_text(CONFIG + "\n[sim]\nenabled = true\n", encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(config), stdin="\n\n\n\n") == 0
    out = capsys.readouterr().out
    assert f"Enrolling from a simulated reader: {config} has [sim] enabled = true" in out
    towers = tomlkit.parse(config.read_text(encoding="utf-8"))["tray"]["towers"]
    assert dict(towers) == DEMO_UIDS["pn532"]


def test_sim_disabled_in_the_config_still_needs_a_real_reader(monkeypatch, config, capsys):
    config.write_text(CONFIG + "\n[sim]\nenabled = false\n", encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(config), stdin="\n") == 2
    assert "no reader to enroll with: give --port" in capsys.readouterr().err


def test_help_documents_port_sim(capsys):
    with pytest.raises(SystemExit):
        main(["enroll", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "'sim' for a simulated reader" in text
    assert "(default: 'sim' when the config has [sim] enabled = true" in text


def test_a_busy_port_is_said_before_the_first_question(monkeypatch, config, capsys):
    before = config.read_text(encoding="utf-8")
    with held_port() as port:
        assert enroll(monkeypatch, "--config", str(config), "--port", port, stdin="\n") == 1
    out, err = capsys.readouterr()
    assert "Place tower" not in out
    assert err.count("\n") == 1 and f"port {port} is busy" in err and "--port" in err
    assert config.read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("model", "port"), [("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0"),
                                             ("Raspberry Pi 4 Model B Rev 1.5", "/dev/serial0"),
                                             (None, "/dev/serial0")])
def test_the_configs_serial0_is_the_uart_on_gpio_14_15_of_every_pi(
        monkeypatch, config, capsys, tmp_path, model, port):
    device_tree = tmp_path / "model"
    if model is not None:
        device_tree.write_bytes(model.encode() + b"\0")
    monkeypatch.setattr("hal.board.MODEL", device_tree)
    config.write_text(CONFIG + '\n[[tray.readers]]\nslot = "neutral"\nport = "/dev/serial0"\n',
                      encoding="utf-8")
    assert enroll(monkeypatch, "--config", str(config), "--timeout", "0.1", stdin="\n") == 1
    out, err = capsys.readouterr()
    said = out.splitlines()[0]
    if port == "/dev/ttyAMA0":
        assert said == ("Reading from /dev/ttyAMA0, the UART on GPIO 14/15 of this "
                        f"{model} (its /dev/serial0 is the debug connector).")
    else:
        assert said == "Reading from /dev/serial0."
    assert f"cannot open port {port}" in err  # no UART on the machine running the tests


def test_enroll_says_which_port_it_reads(monkeypatch, config, capsys):
    with SimPN532(["04C0000000000C"]) as chip:
        assert enroll(monkeypatch, "--config", str(config), "--port", chip.port,
                      stdin="q\n") == 1
    assert capsys.readouterr().out.splitlines()[0] == f"Reading from {chip.port}."
