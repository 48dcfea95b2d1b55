"""What one inbound message costs its connection's rate limit.

Every connection has a token bucket (``--rate-limit`` tokens a second, ``--rate-burst``
at most).  A frame takes :func:`frame_cost` tokens before it is decoded: one, plus one
per :data:`BYTES_PER_TOKEN` bytes, because decoding and validating is the work every
message does and it grows with the frame.  Once decoded, a message whose answer is
more work than a command's takes :data:`EXTRA_COST` more.  The costs are set so that a
connection spending its whole bucket on its most expensive messages takes a small share
of the server's one event-loop thread (figures in the README's Operations section,
measured by ``python -m bench.neighbour``).

An empty bucket refuses the message with ``rate_limited`` (the reply says what the
limit is and what the message cost) and then closes the connection (1008).
"""

from __future__ import annotations

from typing import Final

import protocol
from protocol.threat import AskExits, AskThreat

#: A frame costs one token more per this many bytes (a 64 KiB scene: 33 tokens).
BYTES_PER_TOKEN: Final = 2048

#: Tokens a decoded message takes on top of its frame's, by message class.
#: ``ask_path`` runs a path search (up to ``engine.options.MAX_EXPANSIONS`` positions),
#: ``resync`` re-sends up to the whole catch-up window, ``ask_options`` checks every
#: action against the rules, ``ask_threat`` merges the reach area's cells into an
#: outline, ``ask_exits`` resolves a path as a move would.  Everything else, ``ping``
#: and commands included, costs only its frame.
EXTRA_COST: Final[dict[type, int]] = {
    protocol.AskPath: 9,
    protocol.Resync: 9,
    protocol.AskOptions: 1,
    AskThreat: 2,
    AskExits: 2,
}


def frame_cost(size: int) -> int:
    """Tokens a frame of ``size`` bytes takes before it is decoded."""
    return 1 + size // BYTES_PER_TOKEN


def extra_cost(message: protocol.ClientMessage) -> int:
    """Tokens ``message`` takes beyond its frame's (0 for most)."""
    return EXTRA_COST.get(type(message), 0)
