"""docs/wiring.md's level shifting for a 5 V reader: the divider it draws brings the
RDM6300's 5 V TX into the Pi's 3.3 V RXD safely (above the Pi's high threshold, never
above 3.3 V + 10 %), and the warning stands next to the reader it is about."""

from __future__ import annotations

import re
from pathlib import Path

WIRING = Path(__file__).resolve().parents[2] / "docs" / "wiring.md"
PI_HIGH_MIN_V, PI_MAX_V = 2.0, 3.6  # a 3.3 V GPIO input: reads high above ~2 V; no more than 3.6 V


def kiloohms(text: str) -> float:
    return float(text.replace(" kΩ", ""))


def test_the_divider_drawn_for_a_5_volt_tx_stays_within_the_pis_input():
    text = WIRING.read_text(encoding="utf-8")
    section = text[text.index("### Level shifting for a 5 V reader"):]
    drawing = section[section.index("```"):section.index("```", section.index("```") + 3)]
    top = re.search(r"\[R1\].*\n\s*([\d.]+ kΩ)", drawing)
    bottom = re.search(r"\[R2\] ([\d.]+ kΩ)", drawing)
    assert top and bottom, drawing
    r1, r2 = kiloohms(top.group(1)), kiloohms(bottom.group(1))
    volts = 5.0 * r2 / (r1 + r2)
    assert PI_HIGH_MIN_V < volts <= PI_MAX_V
    assert f"{volts:.1f} V" in drawing  # the figure the drawing prints is the divider's
    for pair in re.findall(r"\(([\d.]+) kΩ / ([\d.]+) kΩ gives ([\d.]+) V\)", drawing):
        a, b, said = map(float, pair)
        assert PI_HIGH_MIN_V < 5.0 * b / (a + b) <= PI_MAX_V and abs(5.0 * b / (a + b) - said) < 0.05
    assert "GPIO 15" in drawing and "RXD" in drawing
    assert "never wire a 5 V TX straight to the Pi's RXD" in section
    rdm = text[text.index("**RDM6300"):text.index("### Level shifting")]
    assert "level shift" in rdm  # the reader's own paragraph points at it


def test_the_doc_says_where_the_uart_on_gpio_14_15_is_on_a_pi_5():
    from hal.board import PI5_GPIO_UART, SERIAL0

    text = " ".join(WIRING.read_text(encoding="utf-8").split())
    assert (f"is `{SERIAL0}` on every Pi before the 5. **On a Pi 5 (and the Pi 500, the "
            f"Compute Module 5) it is `{PI5_GPIO_UART}`**") in text
    assert "debug connector" in text
