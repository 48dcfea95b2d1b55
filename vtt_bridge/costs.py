"""What one inbound message costs its connection's rate limit.

Every connection has a token bucket (``--rate-limit`` tokens a second, ``--rate-burst``
at most).  A frame takes :func:`frame_cost` tokens before it is decoded: one, plus one
per :data:`BYTES_PER_TOKEN` bytes, because decoding and validating is the work every
message does and it grows with the frame.  Once decoded, a message whose answer is more
work than a command's takes its row's ``cost`` more (:mod:`vtt_bridge.rows`), and a
``load_scene`` one more per :data:`SCENE_TOKENS_PER_TOKEN` tokens and
:data:`SCENE_WALLS_PER_TOKEN` walls or terrain regions of its scene
(:func:`scene_cost`): replacing a scene is the one command whose work grows with what
it carries well beyond its decoding, in validating it, logging and broadcasting it, and
indexing it again as it is used.  The costs are set so that a connection spending its
whole bucket on its most expensive messages takes a small share of the server's one
event-loop thread (figures in the README's Operations section, measured by
``python -m bench.neighbour``).

An empty bucket refuses the message with ``rate_limited`` (the reply says what the
limit is and what the message cost) and then closes the connection (1008).
"""

from __future__ import annotations

from typing import Final

import protocol
from vtt_bridge.registry import ROWS

#: A frame costs one token more per this many bytes (a 64 KiB scene: 33 tokens).
BYTES_PER_TOKEN: Final = 2048

#: A scene load costs one token more per this many of its tokens (507: 31 more).
SCENE_TOKENS_PER_TOKEN: Final = 16

#: ... and one more per this many walls and terrain regions (104 walls: 13 more).
SCENE_WALLS_PER_TOKEN: Final = 8


def frame_cost(size: int) -> int:
    """Tokens a frame of ``size`` bytes takes before it is decoded."""
    return 1 + size // BYTES_PER_TOKEN


def scene_cost(scene: protocol.SceneSpec) -> int:
    """Tokens a ``load_scene`` of ``scene`` takes beyond its frame's."""
    walls = len(scene.walls) + len(scene.terrain)
    return len(scene.tokens) // SCENE_TOKENS_PER_TOKEN + walls // SCENE_WALLS_PER_TOKEN


def extra_cost(message: protocol.ClientMessage) -> int:
    """Tokens ``message`` takes beyond its frame's (0 for most): its row's ``cost``
    (:mod:`vtt_bridge.rows` says what each costs, and why)."""
    row = ROWS.get(type(message))
    return 0 if row is None else row.price(message)
