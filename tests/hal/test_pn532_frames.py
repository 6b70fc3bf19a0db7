"""PN532 host-link framing, byte-exact against the frames in the NXP manual (UM0701-02)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hal.errors import FrameError
from hal.pn532.driver import parse_type_a_targets
from hal.pn532.frames import ACK, NACK, FrameDecoder, FrameKind, encode_frame

GET_FIRMWARE_VERSION = bytes.fromhex("00 00 FF 02 FE D4 02 2A 00")
FIRMWARE_ANSWER = bytes.fromhex("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
ERROR = bytes.fromhex("00 00 FF 01 FF 7F 81 00")


def test_get_firmware_version_request_is_the_manuals_frame():
    assert encode_frame(b"\x02") == GET_FIRMWARE_VERSION


def test_sam_configuration_request_bytes():
    # LEN 5, LCS FB, D4 14 01 14 01, DCS 02
    assert encode_frame(b"\x14\x01\x14\x01") == bytes.fromhex("00 00 FF 05 FB D4 14 01 14 01 02 00")


def test_ack_nack_and_error_frames_decode():
    frames = FrameDecoder().feed(ACK + NACK + ERROR)
    assert [f.kind for f in frames] == [FrameKind.ACK, FrameKind.NACK, FrameKind.ERROR]
    assert bytes.fromhex("00 00 FF 00 FF 00") == ACK
    assert bytes.fromhex("00 00 FF FF 00 00") == NACK


def test_firmware_answer_decodes_to_its_payload():
    (frame,) = FrameDecoder().feed(FIRMWARE_ANSWER)
    assert frame.kind is FrameKind.INFO
    assert frame.tfi == 0xD5
    assert frame.code == 0x03
    assert frame.data == bytes.fromhex("03 32 01 06 07")


def test_frames_split_into_single_bytes_decode_the_same():
    decoder = FrameDecoder()
    frames = []
    for b in ACK + FIRMWARE_ANSWER:
        frames += decoder.feed(bytes([b]))
    assert [f.kind for f in frames] == [FrameKind.ACK, FrameKind.INFO]
    assert frames[1].data == bytes.fromhex("03 32 01 06 07")
    assert decoder.garbage_bytes == 0


def test_garbage_before_a_frame_is_skipped_and_counted():
    decoder = FrameDecoder()
    frames = decoder.feed(b"\x13\x37\xfe\x55" + bytes(5) + FIRMWARE_ANSWER)
    assert [f.kind for f in frames] == [FrameKind.INFO]
    assert decoder.garbage_bytes == 4


def test_bad_length_checksum_is_reported_and_the_next_frame_still_decodes():
    broken = bytearray(FIRMWARE_ANSWER)
    broken[4] ^= 0x01  # LCS
    frames = FrameDecoder().feed(bytes(broken) + ACK)
    assert frames[0].kind is FrameKind.BROKEN
    assert "length checksum" in frames[0].reason
    assert frames[-1].kind is FrameKind.ACK


def test_bad_data_checksum_is_reported_and_the_next_frame_still_decodes():
    broken = bytearray(FIRMWARE_ANSWER)
    broken[-2] ^= 0xFF  # DCS
    frames = FrameDecoder().feed(bytes(broken) + FIRMWARE_ANSWER)
    assert [f.kind for f in frames] == [FrameKind.BROKEN, FrameKind.INFO]
    assert "data checksum" in frames[0].reason


def test_extended_frame_header_and_round_trip():
    payload = bytes([0x40]) + bytes(range(256)) + bytes(43)  # 300 bytes + TFI = 301 = 0x012D
    frame = encode_frame(payload)
    assert frame[:8] == bytes.fromhex("00 00 FF FF FF 01 2D D2")
    (decoded,) = FrameDecoder().feed(frame)
    assert decoded.extended and decoded.data == payload


def test_incomplete_frame_waits_for_the_rest_and_reset_forgets_it():
    decoder = FrameDecoder()
    assert decoder.feed(FIRMWARE_ANSWER[:7]) == []
    assert decoder.pending > 0
    decoder.reset()
    assert decoder.feed(FIRMWARE_ANSWER[7:]) == []


@given(
    payloads=st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=4),
    cut=st.integers(min_value=1, max_value=40),
)
def test_any_payloads_survive_any_chunking(payloads, cut):
    stream = b"".join(encode_frame(p, tfi=0xD5) for p in payloads)
    decoder = FrameDecoder()
    frames = []
    for i in range(0, len(stream), cut):
        frames += decoder.feed(stream[i : i + cut])
    assert [f.data for f in frames] == payloads


def test_type_a_target_list_with_two_tags():
    payload = bytes.fromhex(
        "02"  # NbTg
        "01 00 44 00 07 04 A1 B2 C3 D4 E5 01"  # Tg 1, SENS_RES, SEL_RES, 7-byte UID
        "02 00 04 08 04 DE AD BE EF"  # Tg 2, 4-byte UID (MIFARE Classic)
    )
    assert parse_type_a_targets(payload) == ["04A1B2C3D4E501", "DEADBEEF"]


def test_type_a_target_with_ats_is_skipped_correctly():
    payload = bytes.fromhex(
        "02 01 00 44 20 07 04 11 22 33 44 55 66 05 78 80 70 02 02 00 04 08 04 01 02 03 04"
    )
    assert parse_type_a_targets(payload) == ["04112233445566", "01020304"]


def test_truncated_target_list_is_a_frame_error():
    with pytest.raises(FrameError, match="truncated"):
        parse_type_a_targets(bytes.fromhex("01 01 00 44 00 07 04 A1"))
