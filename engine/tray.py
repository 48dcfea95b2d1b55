"""The dice tray: draws or accepts dice for one command and records each roll as an event."""

from __future__ import annotations

from engine import dice
from engine.errors import CommandRejected
from engine.events import DiceRolled


class DiceTray:
    """Rolls dice for one command.

    Dice come from the encounter's seed, starting at draw ``draws``, unless the table
    supplied its own; every roll is appended to ``events`` as :class:`DiceRolled`, and
    ``draws`` tells the encounter how far the seeded sequence has advanced.
    """

    def __init__(self, seed: int, draws: int, by: str) -> None:
        self.seed = seed
        self.draws = draws
        self.by = by
        self.events: list[DiceRolled] = []

    def roll(
        self, purpose: str, count: int, sides: int, supplied: tuple[int, ...] | None = None
    ) -> tuple[int, ...]:
        """Roll ``count`` d``sides`` for ``purpose``, or check and use the ``supplied`` dice."""
        if supplied is not None:
            if len(supplied) != count or any(not 1 <= d <= sides for d in supplied):
                raise CommandRejected(
                    "bad_rolls",
                    f"{purpose} needs {count}d{sides}, each 1..{sides}; got {list(supplied)}",
                )
            results, source = supplied, "table"
        else:
            results, source = dice.roll(self.seed, self.draws, count, sides), "seeded"
            self.draws += count
        self.events.append(DiceRolled(purpose, sides, results, source, self.by))
        return results
