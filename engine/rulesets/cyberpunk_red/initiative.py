"""The Initiative Queue (seed 001, *Initiative: who goes first*).

"At the start of combat each combatant rolls Initiative once: Initiative = REF + d10.
Everyone lines up in an Initiative Queue from highest to lowest.  Ties reroll until
someone comes out on top.  After that the order doesn't change: when it reaches the end,
a new Round starts from the top again.  The queue shifts in only two cases: a driver who
starts a vehicle moves to its front ..., and newcomers who join the fight later roll
Initiative and take their place."

Choices where the text is silent:

- A tie is rerolled as Initiative again (REF + d10) by the tied combatants only; the
  reroll orders them among themselves and their queue score stays the first roll.  Those
  still tied after a reroll roll again, as long as it takes.
- A newcomer who ties with combatants already in the queue rerolls against them, one
  at a time down the queue ("ties reroll until someone comes out on top"; only the tied
  reroll): newcomer and rival each roll Initiative again (REF + d10), again while they
  tie; the newcomer goes in front of the first it beats, else after them all.  Those
  already placed keep their order ("after that the order doesn't change").
- A driver who starts a vehicle goes to the very front; everyone else keeps their order.

Every die is a ``DiceRolled`` event from the :class:`~engine.tray.DiceTray`, drawn from
the encounter's seed or supplied by the table: ``supplied`` maps a combatant to the d10s
it rolled, used in order (its Initiative first, then any rerolls), as do the dice a
player rolled for its own token before the fight (``roll_initiative``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.errors import CommandRejected
from engine.tray import DiceTray

Queue = tuple[str, ...]
Scores = tuple[tuple[str, int], ...]


class InitiativeDice:
    """Rolls Initiative on ``tray``, taking each combatant's table-supplied d10s first."""

    def __init__(self, tray: DiceTray, supplied: Mapping[str, Sequence[int]] | None = None):
        self.tray = tray
        self._supplied = {cid: list(dice) for cid, dice in (supplied or {}).items()}

    def d10(self, combatant: str, purpose: str) -> int:
        """One d10 for ``combatant``: its next supplied die, or a seeded one."""
        if combatant in self._supplied:
            left = self._supplied[combatant]
            if not left:
                raise CommandRejected(
                    "bad_rolls", f"{purpose}: the table supplied no more d10s for {combatant!r}"
                )
            (die,) = self.tray.roll(purpose, 1, 10, (left.pop(0),))
            return die
        (die,) = self.tray.roll_for(combatant, purpose, 1, 10)  # a player's own first
        return die

    def unused(self) -> dict[str, list[int]]:
        """Supplied dice nobody needed (the caller refuses them: a table rolls no extras)."""
        return {cid: dice for cid, dice in self._supplied.items() if dice}

    def initiative(self, combatant: str, ref: int, purpose: str) -> int:
        """``combatant``'s Initiative: REF + d10."""
        return ref + self.d10(combatant, f"{purpose}: {combatant} REF {ref} + d10")


def roll_queue(refs: Sequence[tuple[str, int]], dice: InitiativeDice) -> tuple[Queue, Scores]:
    """Everyone's Initiative and the queue, highest first, ties rerolled among the tied."""
    scores = {cid: dice.initiative(cid, ref, "initiative") for cid, ref in refs}
    ref_of = dict(refs)
    order: list[str] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [cid for cid, _ in refs if scores[cid] == score]
        order.extend(break_tie(tied, ref_of, dice, f"tie at {score}"))
    return tuple(order), tuple((cid, scores[cid]) for cid in order)


def break_tie(
    tied: Sequence[str], ref_of: Mapping[str, int], dice: InitiativeDice, why: str
) -> list[str]:
    """``tied`` in the order their rerolls put them ("ties reroll until someone comes out
    on top"), rerolling again among any still tied."""
    if len(tied) < 2:
        return list(tied)
    rerolls = {cid: dice.initiative(cid, ref_of[cid], f"initiative reroll, {why}") for cid in tied}
    order: list[str] = []
    for value in sorted(set(rerolls.values()), reverse=True):
        again = [cid for cid in tied if rerolls[cid] == value]
        order.extend(break_tie(again, ref_of, dice, why))
    return order


def newcomer_score(newcomer: str, ref: int, dice: InitiativeDice) -> int:
    """A newcomer's Initiative ("newcomers who join the fight later roll Initiative and
    take their place"): REF + d10, one roll."""
    return dice.initiative(newcomer, ref, "initiative (joins)")


def newcomer_beats(
    newcomer: str, ref: int, rival: str, rival_ref: int, dice: InitiativeDice, score: int
) -> bool:
    """Whether ``newcomer``, tied at ``score`` with ``rival`` already in the queue, comes
    out on top of it: both reroll Initiative (the newcomer first) until one is higher."""
    why = f"initiative reroll, {newcomer} joins tied with {rival} at {score}"
    while True:
        mine = dice.initiative(newcomer, ref, why)
        theirs = dice.initiative(rival, rival_ref, why)
        if mine != theirs:
            return mine > theirs


def to_front(queue: Queue, driver: str) -> Queue:
    """The queue with ``driver`` at its front ("a driver who starts a vehicle moves to its
    front"); everyone else keeps their order."""
    if driver not in queue:
        raise ValueError(f"{driver!r} is not in the Initiative Queue")
    return (driver, *(cid for cid in queue if cid != driver))


def next_in_round(queue: Queue, current: str | None, acted: Sequence[str]) -> str | None:
    """Who acts after ``current`` this Round: the next one down the queue that has not
    acted yet, or None when the Round is over ("when it reaches the end, a new Round
    starts from the top").  A driver who jumped to the front does not act twice, and a
    newcomer placed above the current turn waits for the next Round."""
    start = 0 if current is None else queue.index(current) + 1
    return next((cid for cid in queue[start:] if cid not in acted), None)
