"""A seat's QR code, drawn on the table itself (segno: pure Python, no internet).

`qr_svg` is what the table's screen shows (and GET /api/seats carries); `qr_text` is
what `unotable seats qr N` prints in a terminal. Both draw the same symbol of the
same URL, with the quiet zone of four modules that scanners need.
"""

from __future__ import annotations

import io

import segno

ERROR_LEVEL = "m"  # 15 % of the symbol may be lost (glare on the screen, a smudge)
QUIET_ZONE = 4  # modules of light around the symbol: what the QR standard asks


def qr_code(url: str) -> segno.QRCode:
    """The QR symbol of `url` (the one both renderings draw)."""
    if not isinstance(url, str) or not url:
        raise ValueError(f"a QR code needs a URL, not {url!r}")
    # boost_error: a higher error level when it fits in the same version (size)
    return segno.make(url, error=ERROR_LEVEL, boost_error=True, micro=False)


def qr_svg(url: str) -> str:
    """SVG text of `url`'s QR code: dark modules on white with the quiet zone, a
    viewBox and no fixed size (the screen scales it), no XML declaration (it goes
    inline into a page), the SVG namespace kept (it also works as a file or an image)."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", xmldecl=False, svgns=True, nl=False,
                      omitsize=True, border=QUIET_ZONE, dark="#000", light="#fff",
                      svgclass="qr", lineclass=None)
    return out.getvalue().decode("utf-8")


def qr_text(url: str) -> str:
    """`url`'s QR code as lines of Unicode half blocks for a terminal (two modules a
    character cell, upright). Light modules are drawn as blocks and dark ones as
    blanks, so it scans on a terminal with light text on a dark background."""
    out = io.StringIO()
    qr_code(url).terminal(out=out, compact=True, border=QUIET_ZONE)
    return out.getvalue()
