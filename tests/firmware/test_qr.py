"""firmware.qr: every seat's QR code reads back as its exact URL, in each rendering."""

from __future__ import annotations

import random
import string

import pytest

from firmware.qr import QUIET_ZONE, qr_code, qr_svg, qr_text
from tests.firmware.qr_decode import decoded, screenshot, terminal_modules, write_png

SECRET_LETTERS = string.ascii_letters + string.digits + "-_"  # secrets.token_urlsafe's


def seat_urls(seats: int = 4, *, address: str = "192.168.1.20", port: int = 8080,
              seed: int = 1, length: int = 43) -> list[str]:
    """Seat links as the table makes them: the join secret after '#' (32 bytes, urlsafe)."""
    rng = random.Random(seed)
    return [f"http://{address}:{port}/seat/{seat}#join="
            + "".join(rng.choice(SECRET_LETTERS) for _ in range(length))
            for seat in range(1, seats + 1)]


URLS = [*seat_urls(4), *seat_urls(2, address="10.0.0.7", port=65535, seed=2, length=22),
        "http://[fd00::1]:8080/seat/6#join=" + "A" * 43]


def light_grid(url: str) -> list[list[bool]]:
    """segno's own matrix of the symbol with its quiet zone (True = light)."""
    return [[not dark for dark in row]
            for row in qr_code(url).matrix_iter(border=QUIET_ZONE)]


@pytest.mark.parametrize("url", URLS)
def test_segnos_png_of_the_symbol_decodes_to_the_url(url, tmp_path):
    path = tmp_path / "seat.png"
    qr_code(url).save(path, kind="png", scale=6, border=QUIET_ZONE)
    assert decoded(path) == [url]


def test_the_svg_as_the_screen_draws_it_decodes_to_each_seats_url(tmp_path):
    """The four seats' SVGs inline in one page, each scaled to 180 px by Chromium (the
    SVG has no size of its own): zbar reads all four, each its exact URL."""
    urls = seat_urls(4)
    cells = "".join(f'<div style="width:180px;margin:20px">{qr_svg(url)}</div>' for url in urls)
    html = ('<!doctype html><body style="margin:0;background:#777;display:flex;'
            f'flex-wrap:wrap">{cells}</body>')
    shot = screenshot(html, tmp_path, (440, 440))
    assert sorted(decoded(shot)) == sorted(urls)


def test_the_svg_is_the_symbol_with_its_quiet_zone_scalable_and_inline_ready():
    url = URLS[0]
    svg = qr_svg(url)
    side = len(light_grid(url))
    assert side == qr_code(url).symbol_size(border=0)[0] + 2 * QUIET_ZONE
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')  # no <?xml ...?>
    tag = svg[:svg.index(">")]
    assert f'viewBox="0 0 {side} {side}"' in tag
    assert "width=" not in tag and "height=" not in tag  # the page sizes it
    # the light background covers the whole view box (the quiet zone is white)
    assert f'<path fill="#fff" d="M0 0h{side}v{side}h-{side}z"/>' in svg
    assert 'stroke="#000"' in svg


@pytest.mark.parametrize("url", URLS)
def test_the_terminal_rendering_is_the_same_symbol_and_decodes(url, tmp_path):
    """The half blocks read back into modules are segno's matrix (with the quiet zone;
    an odd count of rows ends in a half row of the terminal's dark background), and as a light-on-dark terminal shows them they
    decode to the URL."""
    grid = terminal_modules(qr_text(url))
    expected = light_grid(url)
    if len(expected) % 2:
        expected.append([False] * len(expected[0]))
    assert grid == expected
    assert decoded(write_png(tmp_path / "terminal.png", grid)) == [url]


@pytest.mark.parametrize("bad", ["", None, 42])
def test_no_url_is_a_clear_error(bad):
    for render in (qr_svg, qr_text):
        with pytest.raises(ValueError, match="a QR code needs a URL"):
            render(bad)
