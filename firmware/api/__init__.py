"""The table's local API: HTTP + WebSocket, JSON (docs/api.md)."""

from firmware.api.requests import (
    Admin,
    CallUno,
    Catch,
    Challenge,
    Decide,
    Hands,
    NextRound,
    Play,
    Request,
    Reveal,
    Table,
    Undo,
)
from firmware.api.server import ApiServer

__all__ = ["Admin", "ApiServer", "CallUno", "Catch", "Challenge", "Decide", "Hands", "NextRound", "Play",
           "Request",
           "Reveal", "Table", "Undo"]
