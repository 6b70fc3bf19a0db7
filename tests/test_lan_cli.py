"""`unotable lan`: host, token and the unit's IPAddressAllow drop-in in one step; and
what `config check` and `selftest` say when phones cannot reach the table."""

from __future__ import annotations

import json
import os
import stat

import pytest
import tomlkit

from firmware.cli import main
from firmware.commands import lan
from firmware.commands.selftest import NOTE, OK, phones_check
from firmware.config import DEFAULT_PATH, check_config, load_config, token_problem

# What `ip -j addr` says on a Pi on a home Wi-Fi with docker installed.
INTERFACES = [
    {"ifname": "lo", "flags": ["LOOPBACK", "UP"], "operstate": "UNKNOWN", "addr_info": [
        {"family": "inet", "local": "127.0.0.1", "prefixlen": 8, "scope": "host"},
        {"family": "inet6", "local": "::1", "prefixlen": 128, "scope": "host"}]},
    {"ifname": "eth0", "flags": ["BROADCAST", "UP"], "operstate": "DOWN", "addr_info": []},
    {"ifname": "wlan0", "flags": ["BROADCAST", "UP"], "operstate": "UP", "addr_info": [
        {"family": "inet", "local": "192.168.1.7", "prefixlen": 24, "scope": "global"},
        {"family": "inet6", "local": "fe80::1", "prefixlen": 64, "scope": "link"}]},
    {"ifname": "docker0", "flags": ["UP"], "operstate": "UP", "addr_info": [
        {"family": "inet", "local": "172.17.0.1", "prefixlen": 16, "scope": "global"}]},
    {"ifname": "eth1", "flags": ["UP"], "operstate": "UP", "addr_info": [
        {"family": "inet", "local": "8.8.4.4", "prefixlen": 24, "scope": "global"}]},
]
UNIT = "[Service]\nIPAddressDeny=any\nIPAddressAllow=localhost\n"


@pytest.fixture
def config(tmp_path):
    """The built-in default (a runnable, simulated table) as the user's config, 0640."""
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_PATH.read_text())
    path.chmod(0o640)
    return path


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """This machine's interfaces, unit file and drop-in directory, as the test sets them."""
    monkeypatch.setattr(lan, "read_interfaces", lambda: INTERFACES)
    monkeypatch.setattr(lan, "UNIT_FILE", tmp_path / "unotable.service")
    monkeypatch.setattr(lan, "DROPIN_DIR", tmp_path / "unotable.service.d")
    monkeypatch.setattr(lan, "UFW_CONF", tmp_path / "ufw.conf")
    monkeypatch.delenv("INVOCATION_ID", raising=False)
    (tmp_path / "unotable.service").write_text(UNIT)
    return tmp_path


def run_lan(config, machine, *extra):
    return main(["lan", "--config", str(config), "--dropin-dir",
                 str(machine / "unotable.service.d"), *extra])


def test_lan_sets_host_token_and_the_drop_in_and_says_the_next_step(config, machine, capsys):
    assert run_lan(config, machine) == 0
    out = capsys.readouterr().out
    api = tomlkit.parse(config.read_text())["api"]
    assert api["host"] == "0.0.0.0" and token_problem(api["token"]) is None
    assert "# any non-loopback address requires a token" in config.read_text()  # comments kept
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert check_config(config) == []
    dropin = machine / "unotable.service.d" / "lan.conf"
    assert "[Service]\nIPAddressAllow=\nIPAddressAllow=localhost 192.168.1.0/24\n" in dropin.read_text()
    assert stat.S_IMODE(dropin.stat().st_mode) == 0o644
    assert "phones on 192.168.1.0/24 reach the table at http://192.168.1.7:8080/" in out
    assert api["token"] not in out
    assert "sudo systemctl daemon-reload && sudo systemctl restart unotable" in out
    assert "hand out the seats: `unotable seats qr N`" in out  # no service installed here
    # and now nothing is missing but what cannot be known: the firewall
    cfg = load_config(config)
    assert lan.phone_problems(cfg.api.host, cfg.api.port, cfg.api.token) == [
        lan.firewall_line(8080)]


def test_dry_run_says_what_it_would_do_and_writes_nothing(config, machine, capsys):
    before = config.read_text()
    assert run_lan(config, machine, "--dry-run") == 0
    out = capsys.readouterr().out
    assert "dry run, nothing written" in out
    assert "would set [api] host = '0.0.0.0'" in out and "would set [api] token" in out
    assert "would write" in out and "IPAddressAllow=localhost 192.168.1.0/24" in out
    assert config.read_text() == before
    assert not (machine / "unotable.service.d").exists()


def test_a_strong_token_is_kept_and_a_weak_one_replaced(config, machine, capsys):
    strong = "Zq8mW3xR_t7LpV2nYc5KbJ9hF4dG6sA1"
    config.write_text(config.read_text().replace('# token = "at least 16 characters"',
                                                 f'token = "{strong}"'))
    assert run_lan(config, machine) == 0
    assert tomlkit.parse(config.read_text())["api"]["token"] == strong
    assert "kept the [api] token (it is strong)" in capsys.readouterr().out
    config.write_text(config.read_text().replace(strong, "password12345678"))
    assert run_lan(config, machine) == 0
    assert tomlkit.parse(config.read_text())["api"]["token"] != "password12345678"
    assert "the old one was weak" in capsys.readouterr().out


def test_without_root_the_config_is_written_and_the_drop_in_said(config, machine, monkeypatch,
                                                                  capsys):
    monkeypatch.setattr(lan, "needs_root", lambda directory: True)
    assert run_lan(config, machine) == 1
    out = capsys.readouterr().out
    assert tomlkit.parse(config.read_text())["api"]["host"] == "0.0.0.0"
    assert not (machine / "unotable.service.d").exists()
    assert "NOT written" in out and "needs root: run `sudo unotable lan`" in out


def test_no_lan_found_is_refused_and_changes_nothing(config, machine, monkeypatch, capsys):
    monkeypatch.setattr(lan, "read_interfaces", lambda: INTERFACES[:2])
    before = config.read_text()
    assert run_lan(config, machine) == 1
    assert "found no private subnet" in capsys.readouterr().err
    assert config.read_text() == before


def test_subnet_names_the_lan_and_a_bad_one_is_refused(config, machine, capsys):
    assert run_lan(config, machine, "--subnet", "10.1.0.0/16", "--subnet", "192.168.1.0/24") == 0
    dropin = (machine / "unotable.service.d" / "lan.conf").read_text()
    assert "IPAddressAllow=localhost 10.1.0.0/16 192.168.1.0/24" in dropin
    before = config.read_text()
    capsys.readouterr()
    assert run_lan(config, machine, "--subnet", "192.168.1.300/24") == 2
    assert "--subnet: '192.168.1.300/24' is not a subnet" in capsys.readouterr().err
    assert run_lan(config, machine, "--subnet", "0.0.0.0/0") == 2
    assert config.read_text() == before


def test_a_loopback_host_option_is_refused(config, machine, capsys):
    assert run_lan(config, machine, "--host", "127.0.0.1") == 2
    assert "--host must be 0.0.0.0 or this machine's LAN address" in capsys.readouterr().err


def test_lan_networks_keep_the_rooms_lan_only():
    found = lan.lan_networks(INTERFACES)
    assert [(str(f.address), str(f.network), f.interface) for f in found] == [
        ("192.168.1.7", "192.168.1.0/24", "wlan0")]  # no loopback, docker, public or down


# -- what config check and selftest say -----------------------------------------------
def test_config_check_names_each_thing_phones_lack(config, machine, capsys):
    assert main(["config", "check", str(config)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"{config}: ok\n"
    notes = [line.partition(": note: ")[2] for line in captured.err.splitlines()]
    assert notes == [
        "phones cannot reach a table on 127.0.0.1: run `unotable lan`",
        "phones need an [api] token on the table, and there is none: run `unotable lan`",
        "phones' packets are dropped by systemd: the unit's IPAddressAllow (localhost) has no "
        "LAN (192.168.1.0/24): run `sudo unotable lan`, then `sudo systemctl daemon-reload && "
        "sudo systemctl restart unotable`",
        "phones may meet a firewall: unknown here (no ufw; nftables or iptables rules are not "
        "read): let TCP port 8080 in from the LAN",
    ]


def test_a_drop_in_that_covers_the_lan_silences_the_unit_line(machine):
    dropins = machine / "unotable.service.d"
    dropins.mkdir()
    (dropins / "override.conf").write_text("[Service]\nIPAddressAllow=192.168.0.0/16\n")
    token = "Zq8mW3xR_t7LpV2nYc5KbJ9hF4dG6sA1"
    assert lan.phone_problems("0.0.0.0", 8080, token) == [lan.firewall_line(8080)]
    (dropins / "z-reset.conf").write_text("[Service]\nIPAddressAllow=\nIPAddressAllow=localhost\n")
    [unit, _firewall] = lan.phone_problems("0.0.0.0", 8080, token)
    assert "IPAddressAllow (localhost) has no LAN (192.168.1.0/24)" in unit


def test_unknown_interfaces_still_judge_a_unit_that_lets_only_localhost_in(machine):
    token = "Zq8mW3xR_t7LpV2nYc5KbJ9hF4dG6sA1"
    [unit, _firewall] = lan.phone_problems("0.0.0.0", 8080, token, interfaces=None)
    assert "IPAddressAllow (localhost) has no LAN (the LAN)" in unit


def test_ufw_switched_on_is_named_with_the_command_that_opens_the_port(machine):
    (machine / "ufw.conf").write_text("# /etc/ufw/ufw.conf\nENABLED=yes\nLOGLEVEL=low\n")
    assert lan.phone_problems("0.0.0.0", 8123, "Zq8mW3xR_t7LpV2nYc5KbJ9hF4dG6sA1")[-1] == (
        "phones get no answer while ufw (on here) keeps TCP port 8123 shut: "
        "sudo ufw allow 8123/tcp")


def test_under_systemd_config_check_says_nothing_of_phones(config, machine, monkeypatch, capsys):
    monkeypatch.setenv("INVOCATION_ID", "0123abcd")
    assert main(["config", "check", str(config)]) == 0
    assert capsys.readouterr().err == ""


def test_selftest_notes_what_phones_lack_without_failing(config, machine):
    checks = phones_check(load_config(config))
    assert [(name, outcome) for name, outcome, _ in checks] == [
        ("phones", NOTE), ("phones", NOTE), ("phones", NOTE), ("firewall", NOTE)]
    assert main(["lan", "--config", str(config), "--dropin-dir",
                 str(machine / "unotable.service.d")]) == 0
    checks = phones_check(load_config(config))
    assert [(name, outcome) for name, outcome, _ in checks] == [("phones", OK), ("firewall", NOTE)]


def test_selftest_json_carries_the_phone_notes(config, machine, capsys):
    assert main(["selftest", "--yes", "--json", "--config", str(config)]) == 0
    checks = json.loads(capsys.readouterr().out)["checks"]
    phones = [c["detail"] for c in checks if c["name"] == "phones"]
    assert phones[0] == "phones cannot reach a table on 127.0.0.1: run `unotable lan`"
    assert all(c["outcome"] == NOTE for c in checks if c["name"] in ("phones", "firewall"))


def test_the_closing_hint_names_the_seats_command_that_works_for_this_user(
        config, machine, capsys, monkeypatch):
    """Installed, the seats' keys are the service user's: root (sudo unotable lan) and pi
    both hand out seats through `sudo -u unotable`."""
    service_state = machine / "var-lib-unotable"
    service_state.mkdir()
    os.chown(service_state, 65534, 65534)  # the table's user; nobody stands in for unotable
    monkeypatch.setattr("firmware.commands.table_user.SERVICE_STATE", service_state)
    assert run_lan(config, machine) == 0
    assert "hand out the seats: `sudo -u nobody unotable seats qr N`" in capsys.readouterr().out
