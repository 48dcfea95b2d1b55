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

    def __init__(
        self,
        seed: int,
        draws: int,
        by: str,
        supply: tuple[int, ...] | None = None,
        own: tuple[tuple[str, str, tuple[int, ...]], ...] = (),
    ) -> None:
        self.seed = seed
        self.draws = draws
        self.by = by
        self.events: list[DiceRolled] = []
        # The table's own dice for a command that may roll several times (initiative
        # ties): each roll takes the next ones in order.  None: the seed rolls.
        self.supply = None if supply is None else list(supply)
        # Dice a participant rolled for one token (``roll_initiative``): that token's
        # rolls (:meth:`roll_for`) take them first, in order, in that participant's name.
        self.own = {token: (who, list(dice)) for token, who, dice in own}

    def has_own(self, token: str) -> bool:
        """Whether dice a participant rolled for ``token`` are still to be used."""
        return bool(self.own.get(token, ("", []))[1])

    def roll_for(self, token: str, purpose: str, count: int, sides: int) -> tuple[int, ...]:
        """A roll for ``token``: the dice rolled for it (``own``) first, else :meth:`roll`."""
        if not self.has_own(token):
            return self.roll(purpose, count, sides)
        who, left = self.own[token]
        if len(left) < count:
            raise CommandRejected(
                "bad_rolls", f"{purpose} needs {count}d{sides}; {who!r} rolled {len(left)} more"
            )
        dice, self.own[token] = tuple(left[:count]), (who, left[count:])
        by, self.by = self.by, who
        try:
            return self.roll(purpose, count, sides, dice)
        finally:
            self.by = by

    def require_own_used(self) -> None:
        """Refuse a command that left dice a participant rolled for a token unused."""
        unused = {token: dice for token, (_, dice) in self.own.items() if dice}
        if unused:
            raise CommandRejected(
                "bad_rolls",
                f"initiative dice rolled for {unused} were not needed by this fight's rolls; "
                "roll_initiative with no rolls takes them back",
            )

    def roll(
        self, purpose: str, count: int, sides: int, supplied: tuple[int, ...] | None = None
    ) -> tuple[int, ...]:
        """Roll ``count`` d``sides`` for ``purpose``, or check and use the ``supplied`` dice
        (or, if the table supplied the command's dice, the next ``count`` of them)."""
        if supplied is None and self.supply is not None:
            if len(self.supply) < count:
                raise CommandRejected(
                    "bad_rolls",
                    f"{purpose} needs {count}d{sides}, but only {len(self.supply)} of the "
                    "table's dice are left: supply one die per roll the command makes",
                )
            supplied, self.supply = tuple(self.supply[:count]), self.supply[count:]
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

    def require_supply_used(self) -> None:
        """Refuse a command the table supplied more dice for than it rolled."""
        if self.supply:
            raise CommandRejected(
                "bad_rolls",
                f"{len(self.supply)} of the table's dice were not needed: {self.supply}",
            )
