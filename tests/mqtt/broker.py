"""A real mosquitto for the tests: its own config file, a free loopback port, its own
persistence directory, so it can be stopped, killed and started again with its sessions.

`Broker.plain(dir)`, `Broker.with_password(dir, user, password)` and `Broker.with_tls(dir)`
(a test CA made here with the openssl CLI) build one; `start()`, `stop()` (SIGTERM:
mosquitto saves its sessions), `kill()` (SIGKILL) and `restart()` drive it.
"""

from __future__ import annotations

import getpass
import os
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

MOSQUITTO = "/usr/sbin/mosquitto"
READY_WITHIN_S = 10.0  # a loaded machine's mosquitto takes a while to listen


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_test_ca(directory: Path) -> tuple[Path, Path, Path]:
    """A CA and a server certificate for localhost and 127.0.0.1 signed by it:
    (ca.crt, server.crt, server.key). EC keys: quick to make."""
    ca_key, ca_crt = directory / "ca.key", directory / "ca.crt"
    key, csr, crt = directory / "server.key", directory / "server.csr", directory / "server.crt"
    ext = directory / "san.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = ["openssl"]
    subprocess.run([*run, "req", "-x509", *ec, "-keyout", ca_key, "-out", ca_crt, "-days", "2",
                    "-subj", "/CN=unotable test CA"], check=True, capture_output=True)
    subprocess.run([*run, "req", *ec, "-keyout", key, "-out", csr, "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    subprocess.run([*run, "x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key,
                    "-CAcreateserial", "-out", crt, "-days", "2", "-extfile", ext],
                   check=True, capture_output=True)
    key.chmod(0o644)  # mosquitto may run as another user than the test's files' owner
    return ca_crt, crt, key


@dataclass
class Broker:
    directory: Path
    port: int = field(default_factory=free_port)
    lines: list[str] = field(default_factory=list)  # extra lines of the listener's config
    tls: bool = False
    ca_file: Path | None = None
    username: str | None = None
    password: str | None = None
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def plain(cls, directory: Path) -> Broker:
        return cls(directory, lines=["allow_anonymous true"])

    @classmethod
    def with_password(cls, directory: Path, username: str, password: str) -> Broker:
        directory.mkdir(parents=True, exist_ok=True)
        passwords = directory / "passwords"
        subprocess.run(["mosquitto_passwd", "-b", "-c", passwords, username, password],
                       check=True, capture_output=True)
        passwords.chmod(0o644)
        return cls(directory, lines=["allow_anonymous false", f"password_file {passwords}"],
                   username=username, password=password)

    @classmethod
    def with_tls(cls, directory: Path) -> Broker:
        directory.mkdir(parents=True, exist_ok=True)
        ca, crt, key = make_test_ca(directory)
        return cls(directory, lines=["allow_anonymous true", f"certfile {crt}",
                                     f"keyfile {key}"], tls=True, ca_file=ca)

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.directory / "mosquitto.log"

    def write_config(self) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "data").mkdir(exist_ok=True)
        config = self.directory / "mosquitto.conf"
        config.write_text("\n".join([
            f"user {getpass.getuser()}",  # as root, mosquitto would switch to 'mosquitto'
            "persistence true",
            f"persistence_location {self.directory / 'data'}/",
            f"log_dest file {self.log}",
            "log_type all",
            "per_listener_settings false",
            f"listener {self.port} 127.0.0.1",
            *self.lines,
            "",
        ]))
        return config

    def start(self) -> Broker:
        config = self.write_config()
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + READY_WITHIN_S
        while not self._listening():
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err}{self._log_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto not listening on {self.port}: {self._log_text()}")
            time.sleep(0.02)
        return self

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def _log_text(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    def stop(self) -> None:
        """SIGTERM: mosquitto writes its persistent sessions and exits."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        self._end(signal.SIGKILL)

    def _end(self, sig: int) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, sig)
        self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()

    def restart(self) -> None:
        self.stop()
        self.start()

    def client_tls_context(self) -> ssl.SSLContext | None:
        return ssl.create_default_context(cafile=str(self.ca_file)) if self.tls else None
