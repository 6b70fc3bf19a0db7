"""`unotable tags`: one reader scanned, plain and JSON output, clear errors."""

import json

import pytest

from firmware.cli import main
from hal.sim.pn532 import SimPN532
from hal.sim.rdm6300 import SimRDM6300
from tests.held_port import held_port


def run(capsys, *argv):
    status = main(["tags", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_for_a_pn532_with_three_tags(capsys):
    with SimPN532(["04AA000000000C", "DEADBEEF", "04AA000000000B"]) as chip:
        status, out, _ = run(capsys, "--port", chip.port, "--json", "--timeout", "0.2")
    assert status == 0
    doc = json.loads(out)
    assert doc["port"] == chip.port and doc["driver"] == "pn532"
    assert doc["firmware"] == "PN532 v1.6"
    assert sorted(doc["tags"]) == ["04AA000000000B", "04AA000000000C", "DEADBEEF"]


def test_json_for_an_rdm6300_has_no_firmware(capsys):
    with SimRDM6300(["0A00112233"], repeat_s=0.02) as module:
        status, out, _ = run(capsys, "--port", module.port, "--driver", "rdm6300", "--json")
    assert status == 0
    assert json.loads(out) == {
        "port": module.port,
        "driver": "rdm6300",
        "firmware": None,
        "tags": ["0A00112233"],
    }


def test_plain_output_lists_each_uid(capsys):
    status, out, _ = run(capsys, "--port", "sim:04AB000000000A,CAFEBABE")
    assert status == 0
    assert "2 tags" in out and "firmware PN532 v1.6" in out
    assert "  04AB000000000A" in out.splitlines() and "  CAFEBABE" in out.splitlines()


def test_sim_port_holds_the_four_demo_towers(capsys):
    status, out, _ = run(capsys, "--port", "sim", "--json")
    assert status == 0
    assert len(json.loads(out)["tags"]) == 4


def test_watch_prints_changes_only(capsys):
    status, out, _ = run(
        capsys, "--port", "sim:DEADBEEF", "--watch", "--scans", "3", "--json", "--interval", "0"
    )
    assert status == 0
    assert len(out.splitlines()) == 1  # the same tag three times: printed once


def test_a_port_that_cannot_be_opened_is_exit_1_naming_it(capsys):
    status, out, err = run(capsys, "--port", "/dev/does-not-exist-7", "--timeout", "0.1")
    assert status == 1
    assert "cannot open port /dev/does-not-exist-7" in err
    assert out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", ""], "--port"),
        (["--port", "sim:nothex"], "hex"),
        (["--port", "sim:04AABBCCDDEEFF", "--driver", "rdm6300"], "10 hex digits"),
        (["--port", "sim", "--watch", "--scans", "0"], "--scans"),
        (["--port", "sim", "--timeout", "0"], "--timeout"),
    ],
)
def test_bad_arguments_are_exit_2(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err


def test_unknown_driver_is_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tags", "--port", "sim", "--driver", "acr122"])
    assert exc.value.code == 2
    assert "acr122" in capsys.readouterr().err


def test_a_busy_port_is_one_line_naming_it_and_port(capsys):
    with held_port() as busy_port:
        status, out, err = run(capsys, "--port", busy_port, "--timeout", "0.2")
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"port {busy_port} is busy" in err and "--port" in err
