"""The ``web.AppKey`` of every object the application shares between its handlers.

In a module of their own so that :mod:`vtt_bridge.app` and
:mod:`vtt_bridge.connection` both read them without importing each other.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from vtt_bridge.config import Config
from vtt_bridge.hub import Hub
from vtt_bridge.outbound import Limits, Outbound
from vtt_bridge.recording import FileRecorder

__all__ = ["CONFIG", "CONNECTIONS", "HUB", "LIMITS", "RECORDERS", "TASKS", "TIMERS"]

CONFIG = web.AppKey("config", Config)
HUB = web.AppKey("hub", Hub)
CONNECTIONS: web.AppKey[set[Outbound]] = web.AppKey("connections")
TIMERS = web.AppKey("timers", set[asyncio.TimerHandle])
TASKS = web.AppKey("tasks", set[asyncio.Task[None]])
RECORDERS = web.AppKey("recorders", list[FileRecorder])
LIMITS = web.AppKey("limits", Limits)
