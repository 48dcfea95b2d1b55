"""A Mutants & Masterminds combatant: the statistics read from its token and its turn state.

Token statistics (``stats`` on the scene's token), each an integer unless said:

=======================  ========  ==========================================================
statistic                needed    what it is
=======================  ========  ==========================================================
``dexterity``            yes       the initiative check's ability ("a Dexterity check")
``dodge``                yes       Dodge defence rank (ranged attacks are checked against it)
``parry``                yes       Parry defence rank (close attacks are checked against it)
``improved_initiative``  no (0)    ranks of Improved Initiative: +4 each (M&M 3e's figure)
``initiative_bonus``     no (0)    any other initiative modifier the table applies
``uncanny_dodge``        no        true: keeps Dodge and Parry while flat-footed
``close_attack``         no (0)    attack bonus of a close attack when ``attack`` names none
``ranged_attack``        no (0)    attack bonus of a ranged attack when ``attack`` names none
``move_by_action``       no        true: may move both before and after the standard action
=======================  ========  ==========================================================

``movement`` on the token is how far one move action carries it (its ground speed, in
the scene's unit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import CommandRejected
from engine.model import Combatant

#: +4 per rank of Improved Initiative (the text says only "Improved Initiative and the
#: like"; this is the M&M 3e rulebook's figure).
IMPROVED_INITIATIVE = 4
#: Statistics a token must have to fight.
REQUIRED = ("dexterity", "dodge", "parry")
#: Integer statistics a token may have.
OPTIONAL = ("improved_initiative", "initiative_bonus", "close_attack", "ranged_attack")
#: Integer statistics of movement effects, set with the scene (not changed mid-fight).
MOVEMENT = ("flight",)
#: True-or-false statistics a token may have (advantages).
FLAGS = ("uncanny_dodge", "move_by_action")


@dataclass(frozen=True, slots=True)
class Character:
    """One combatant's M&M state.

    ``flat_footed`` until its first regular turn (seed 003, *Flat-Footed*); this turn's
    spending: ``standard`` (the standard action is taken), ``traded`` (it was traded
    down for a second move action), ``moved`` (distance moved this turn) and
    ``move_closed`` (a standard action came after part of a move action, which ends that
    move action); ``incapacitated`` (the GM's condition: it is skipped, does nothing and
    is defenceless).
    """

    flat_footed: bool = True
    standard: bool = False
    traded: bool = False
    moved: float = 0.0
    move_closed: bool = False
    incapacitated: bool = False

    def with_condition(self, condition: str, on: bool) -> Character:
        """This combatant with the GM's ``flat_footed`` or ``incapacitated`` set or
        cleared.  Flat-footed set by the GM lasts, like the fight's first, until the
        start of its next regular turn."""
        if condition == "flat_footed":
            return replace(self, flat_footed=on)
        assert condition == "incapacitated", condition
        return replace(self, incapacitated=on)

    def defenceless(self, token: Combatant) -> bool:
        """Whether its Dodge and Parry count 0 against an attack: flat-footed without
        Uncanny Dodge (seed 003: "You can't use your Dodge or Parry ... while
        flat-footed"), or incapacitated (M&M 3e: incapacitated is defenceless, and
        Uncanny Dodge does not help one who cannot act)."""
        return self.incapacitated or (self.flat_footed and not uncanny(token))

    def fresh_turn(self) -> Character:
        """This combatant at the start of one of its turns: nothing spent."""
        return Character(flat_footed=self.flat_footed, incapacitated=self.incapacitated)


def number(token: Combatant, name: str, default: int = 0) -> int:
    """The integer statistic ``name`` of ``token`` (``default`` when it has none)."""
    value = token.stat(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandRejected("bad_scene", f"{token.id}: {name} must be an integer, not {value!r}")
    return value


def check_token(token: Combatant) -> None:
    """Refuse a token that lacks a statistic the fight needs, or has one of a wrong type."""
    for name in REQUIRED:
        if token.stat(name) is None:
            raise CommandRejected(
                "bad_scene", f"{token.id}: a Mutants & Masterminds combatant needs {name}"
            )
        number(token, name)
    for name in (*OPTIONAL, *MOVEMENT):
        number(token, name)
    for name in FLAGS:
        if not isinstance(token.stat(name, False), bool):
            raise CommandRejected("bad_scene", f"{token.id}: {name} must be true or false")


def initiative_modifier(token: Combatant) -> int:
    """Dexterity + 4 per rank of Improved Initiative + other modifiers ("Initiative Check =
    d20 + Dexterity + Miscellaneous Modifiers")."""
    return (
        number(token, "dexterity")
        + IMPROVED_INITIATIVE * number(token, "improved_initiative")
        + number(token, "initiative_bonus")
    )


def uncanny(token: Combatant) -> bool:
    """Whether ``token`` has Uncanny Dodge ("retain your Dodge or Parry while flat-footed")."""
    return token.stat("uncanny_dodge", False) is True
