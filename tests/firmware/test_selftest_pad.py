"""`unotable selftest` checks the card pad when the config has [pad]: its firmware answers
and one read of what lies on it, on the twin's pad and, with [sim] enabled, on a real one
(a pty whose far end plays a PN532 byte for byte, or says nothing at all)."""

from __future__ import annotations

import json

from firmware.cli import main
from firmware.commands.selftest import FAIL, OK, SKIP
from firmware.config import DEFAULT_PATH
from tests.pn532_on_pty import ChipOnPty


def selftest(capsys, tmp_path, pad: str | None):
    """`unotable selftest --yes --json` on the built-in config ([sim] enabled) with `pad`
    appended; the exit status and the card pad's check."""
    config = tmp_path / "unotable.toml"
    config.write_text(DEFAULT_PATH.read_text(encoding="utf-8") + (pad or ""), encoding="utf-8")
    status = main(["selftest", "--yes", "--json", "--config", str(config)])
    report = json.loads(capsys.readouterr().out)
    assert report["simulated"] is True
    return status, next(c for c in report["checks"] if c["name"] == "card pad")


def test_the_twins_pad_answers(tmp_path, capsys):
    status, pad = selftest(capsys, tmp_path, '\n[pad]\nport = "/dev/unotable-pad"\n')
    assert status == 0 and pad["outcome"] == OK
    assert pad["detail"].startswith("the twin's pad: firmware PN532 v1.6, 0 tags on the pad")


def test_without_a_pad_section_the_pad_is_skipped(tmp_path, capsys):
    status, pad = selftest(capsys, tmp_path, None)
    assert status == 0 and (pad["outcome"], pad["detail"]) == (SKIP, "no [pad] section")


def test_a_real_pad_on_a_pc_is_tested_for_real(tmp_path, capsys):
    with ChipOnPty() as chip:
        chip.lay("04A1B2C3D4E501")
        status, pad = selftest(capsys, tmp_path, f'\n[pad]\nport = "{chip.port}"\n'
                               '[pad.cards]\n04A1B2C3D4E501 = "R7"\n')
        assert chip.unknown == []
    assert status == 0 and pad["outcome"] == OK
    assert pad["detail"] == (f"[pad] port = '{chip.port}': firmware PN532 v1.6, 1 tag on the "
                             "pad; 1 card and 0 colour chips enrolled")


def test_a_silent_pad_fails_naming_its_port(tmp_path, capsys):
    with ChipOnPty(silent=True) as chip:
        status, pad = selftest(capsys, tmp_path, f'\n[pad]\nport = "{chip.port}"\n'
                               'ack_timeout_s = 0.1\nresponse_timeout_s = 0.1\n')
    assert status == 1 and pad["outcome"] == FAIL
    assert pad["detail"].startswith(f"[pad] port = '{chip.port}': ")
    assert "no ACK to command 0x14" in pad["detail"]  # SAMConfiguration, the first command


def test_a_pad_with_no_device_behind_its_port_fails_naming_it(tmp_path, capsys):
    missing = tmp_path / "ttyUSB9"
    status, pad = selftest(capsys, tmp_path, f'\n[pad]\nport = "{missing}"\n')
    assert status == 1 and pad["outcome"] == FAIL
    assert pad["detail"].startswith(f"[pad] port = '{missing}': ")
    assert "No such file or directory" in pad["detail"]
