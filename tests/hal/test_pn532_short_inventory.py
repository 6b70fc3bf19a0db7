"""A PN532 listing that finds fewer tags than it may (MaxTg 2) found every tag in the
field: the driver lists no more, so a card on the pad costs three commands on the line."""

from hal.pn532 import PN532
from hal.sim.pn532 import SimPN532

FAST = {"ack_timeout_s": 0.15, "response_timeout_s": 0.15, "backoff_min_s": 0.0}
FIELD, LIST, DESELECT = 0x32, 0x4A, 0x44
ONE, TWO, THREE = "04A1B2C3D4E501", "04A1B2C3D4E502", "04A1B2C3D4E503"


def turn(chip, reader):
    """The commands of one inventory (after the bring-up), and the tags it found."""
    before = len(chip.commands)
    found = reader.read_tags()
    return list(chip.commands)[before:], found


def test_one_tag_is_read_with_the_field_on_one_listing_and_the_field_off():
    with SimPN532([ONE]) as chip, PN532(chip.port, **FAST) as reader:
        reader.open()
        assert turn(chip, reader) == ([FIELD, LIST, FIELD], [ONE])


def test_two_tags_fill_a_listing_so_the_driver_halts_them_and_lists_again():
    with SimPN532([ONE, TWO, THREE]) as chip, PN532(chip.port, **FAST) as reader:
        reader.open()
        commands, found = turn(chip, reader)
        assert sorted(found) == [ONE, TWO, THREE]
        assert commands == [FIELD, LIST, DESELECT, LIST, FIELD]
