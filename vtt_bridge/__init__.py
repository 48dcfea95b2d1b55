"""The bridge: an aiohttp WebSocket server in front of the engine, with an SQLite event log.

``create_app(Config())`` builds the application; ``vtt-bridge serve`` runs it.
"""

from vtt_bridge.app import create_app
from vtt_bridge.config import Config
from vtt_bridge.event_types import register_event_bodies
from vtt_bridge.hub import Hub

# Every event kind the bridge sends decodes typed (protocol.decode_server) once imported.
register_event_bodies()

__all__ = ["Config", "Hub", "create_app", "register_event_bodies"]
