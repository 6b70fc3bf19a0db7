"""How the voice says the words espeak-ng's rules of a language misread: the card names
the German sheets keep in English ("Hit", "Wild", "Attack") and "UNO", written as a
German reader would say them. Only what goes to espeak-ng changes; the screen and the
messages keep the printed names (docs/voice.md, "Pronunciation")."""

from __future__ import annotations

import re
from collections.abc import Mapping

# word -> the spelling espeak-ng's German voice says right (checked with its phonemes,
# `espeak-ng -v de -x -q`: "Hit" is h'i:t "hiet", "Hitt" is h'It)
PRONUNCIATIONS: dict[str, Mapping[str, str]] = {
    "en": {},
    "de": {
        "Hit": "Hitt",  # 001 Hit 2, Wild Hit 4: English "hit", not „hiet"
        "Wild": "Waild",  # 001 Wild ...: English "wild", not the German noun „Wild"
        "Attack": "Ättäck",  # 001 Wild Attack-Attack
        "Fire": "Feier",  # 001 Wild Hit Fire
        "All": "Ol",  # 001 Wild All Hit
        "UNO": "Uhno",  # spelt out „U-N-O" otherwise
        "Uno": "Uhno",
        "Retour": "Retur",  # 002 «Retour»: stressed on its last syllable
    },
}
_WORDS = {lang: re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")
          for lang, words in PRONUNCIATIONS.items() if words}


def spoken(text: str, lang: str) -> str:
    """`text` as it goes to espeak-ng's voice of `lang` (the table's language)."""
    words = _WORDS.get(lang)
    if words is None:
        return text
    return words.sub(lambda m: PRONUNCIATIONS[lang][m.group(1)], text)
