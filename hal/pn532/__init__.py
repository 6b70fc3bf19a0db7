"""NXP PN532 NFC reader over UART (HSU): pure framing (`frames`) and the driver (`driver`)."""

from hal.pn532.driver import PN532
from hal.pn532.frames import ACK, NACK, Frame, FrameDecoder, FrameKind, encode_frame

__all__ = ["ACK", "NACK", "PN532", "Frame", "FrameDecoder", "FrameKind", "encode_frame"]
