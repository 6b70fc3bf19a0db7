"""Reading QR codes back, as a phone's camera would: zbar's `zbarimg` on raster images.

tests/run installs Debian's zbar-tools when `zbarimg` is missing; without it these
helpers fail the test (a QR code nobody checked is not a QR code that scans).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

# the compact terminal rendering: one character cell holds two modules, (top, bottom),
# True = light (the block is drawn in the terminal's light text colour)
HALF_BLOCKS = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True),
               "\u2588": (True, True)}


def zbarimg() -> str:
    found = shutil.which("zbarimg")
    if found is None:
        pytest.fail("zbarimg is missing: install Debian's zbar-tools (tests/run does)")
    return found


def decoded(image: Path) -> list[str]:
    """Every QR code zbar finds in `image`, one text each (zbar's own order)."""
    done = subprocess.run([zbarimg(), "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                           str(image)], capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 4), done.stderr  # 4: zbar found no symbol
    return done.stdout.splitlines()


def write_png(path: Path, light: list[list[bool]], scale: int = 8) -> Path:
    """A greyscale PNG of a module grid (True = white), each module `scale` pixels square."""
    rows = []
    for row in light:
        line = bytes(255 if cell else 0 for cell in row for _ in range(scale))
        rows.extend([b"\x00" + line] * scale)
    width, height = len(light[0]) * scale, len(light) * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"".join(rows)))
                     + chunk(b"IEND", b""))
    return path


def terminal_modules(text: str) -> list[list[bool]]:
    """The module grid a terminal shows for `qr_text`'s lines (True = light)."""
    grid: list[list[bool]] = []
    for line in text.splitlines():
        halves = [HALF_BLOCKS[char] for char in line]
        grid.append([top for top, _ in halves])
        grid.append([bottom for _, bottom in halves])
    return grid


CHROMIUM = "/usr/bin/chromium"  # Debian's, as the screen's browser tests use (tests/web)


def screenshot(html: str, directory: Path, size: tuple[int, int]) -> Path:
    """What Debian's headless Chromium draws of the page `html`, as a PNG."""
    page, shot = directory / "page.html", directory / "page.png"
    page.write_text(html, encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={directory / 'profile'}", "--hide-scrollbars",
         f"--window-size={size[0]},{size[1]}", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    return shot
