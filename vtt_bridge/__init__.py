"""The bridge: an aiohttp WebSocket server in front of the engine, with an SQLite event log.

``create_app(Config())`` builds the application; ``vtt-bridge serve`` runs it.
"""

from vtt_bridge.app import create_app
from vtt_bridge.config import Config
from vtt_bridge.hub import Hub

__all__ = ["Config", "Hub", "create_app"]
