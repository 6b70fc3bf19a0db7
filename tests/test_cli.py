import subprocess
import sys

from firmware.cli import main


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_unknown_command_is_rejected():
    proc = subprocess.run(
        [sys.executable, "-m", "firmware", "no-such-command"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "no-such-command" in proc.stderr
