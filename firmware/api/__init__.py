"""The table's local API: HTTP + WebSocket, JSON (docs/api.md)."""

from firmware.api.requests import (
    Admin,
    CallUno,
    Catch,
    Challenge,
    Hands,
    Play,
    Request,
    Table,
    Undo,
)
from firmware.api.server import ApiServer

__all__ = ["Admin", "ApiServer", "CallUno", "Catch", "Challenge", "Hands", "Play", "Request", "Table", "Undo"]
