"""Dice as a counter-based generator: the roll is a pure function of (seed, draw number).

OpenSpiel treats chance as an input; so do we.  A die is either drawn here, from the
encounter's logged seed and the number of dice drawn before it, or supplied by the table
(a VTT that rolled its own).  Either way the roll becomes a ``DiceRolled`` event, and a
replay reproduces it exactly.  The state needs only two integers, so it hashes and
snapshots like any other value, and the result does not depend on the Python version
(``random.Random`` makes no such promise across releases).
"""

from __future__ import annotations

import hashlib

MAX_SEED = 2**63 - 1


def draw(seed: int, counter: int, sides: int) -> int:
    """Roll one die with ``sides`` faces: the ``counter``-th draw from ``seed``, 1..sides.

    Rejection sampling over 64-bit blocks keeps every face exactly equally likely.
    """
    if sides < 1:
        raise ValueError(f"a die needs at least one side, got {sides}")
    limit = (2**64 // sides) * sides
    attempt = 0
    while True:
        digest = hashlib.blake2b(f"{seed}:{counter}:{attempt}".encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % sides + 1
        attempt += 1  # pragma: no cover - happens with probability < 2**-32 per die


def roll(seed: int, counter: int, count: int, sides: int) -> tuple[int, ...]:
    """Roll ``count`` dice, draws ``counter`` .. ``counter + count - 1``."""
    return tuple(draw(seed, counter + i, sides) for i in range(count))
