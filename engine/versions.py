"""The rules version, and the steps that carry an older release's state forward.

A table's log says, row by row, which :data:`RULES_VERSION` wrote it, and each snapshot
says which version its state is in.  Bump :data:`RULES_VERSION` whenever a change of the
engine or a ruleset can make a logged command produce other events or another state
than it did, or changes the fields of a state, command or event dataclass.

Snapshots and logged commands are stored as plain values (:func:`engine.to_plain`): a
dict per dataclass, keyed by field name, with no class or module names in them.  So a
class may move to another module (``engine/rulesets/<game>/``) or be renamed without
touching stored data; what breaks an old snapshot is a field renamed, removed, or added
without a default, or a field's type changed.  For those, register a step here::

    @state_upgrade(1)            # turns version-1 plain state into version 2
    def _holds_remember_the_phase(plain: dict[str, Any]) -> dict[str, Any]:
        ...

Steps run in order from the stored version up to :data:`RULES_VERSION`; a version with
no step needs none (its state and commands read as they are).  A step never re-judges
anything: it rewrites the stored form so the current classes can read the same facts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: The version of the rules and of the engine's stored forms this release writes.
#: Version 1: every release up to commit 84cb153 (the ``tests/fixtures/db_v1`` fixture).
#: Version 2 (issue 10): an unnamed Delay asks at the Phase's end instead of being
#: forced; the hampered metre replaces crawling for those who cannot move 1 m; an attack
#: naming no manoeuvre counts as a Strike; a withdraw in darkness exempts no one; aborts
#: must be defensive.  New fields (``rolls``, ``Abort.action``, ``PendingMove.rolls``)
#: all have defaults, so version-1 state and commands read as they are.
#: Version 3 (issue 12): the ruleset seam.  A game's state lives in ``Combat.rules`` /
#: ``per_combatant`` and its actions are ``act`` commands; the Hero supplement registers
#: the steps from version 2 (``engine/rulesets/hero/upgrade.py``).  Nothing plays
#: differently.
#: Version 4 (issue 26): the Hero System 6E Powers read again (seed 002): END on all of a
#: Power's Adders by default, Reduced Endurance and Increased Endurance Cost price END,
#: Only In Alternate Identity, Casual Use never at a character, a Casual escape needs a
#: GM-set Grab or Entangle.  ``engine/rulesets/hero/upgrade.py`` keeps an old table's
#: ``power_options`` as it chose; ``CHANGES.md`` lists what replays differently.
#: Version 5 (a second reading of Cyberpunk RED, and Foundry's direct path): a Cyberpunk
#: RED move that sets off a held action (entering its area, coming into view) pauses on
#: the square that does, where the action is checked and taken; a jump is priced and
#: capped by the squares jumped over only (a gap crossed in any mode is a running jump,
#: capped by ``jump``); ``attack`` is refused when no target can be attacked; a Foundry
#: drag on hexes, or on squares with diagonals illegal, goes through the cells Foundry
#: v13 records.  No stored form changed: version-4 state and commands read as they are,
#: and a logged command that plays differently now is reported as a replay divergence.
#: Version 6: each game's own clock.  The moments events name (``pass_started``, once
#: ``phase_started``, ``combatant_acts`` ...) are ``Clock`` values in the ruleset's
#: units (``engine.timewords``), and ``combat_started`` carries the ruleset's
#: ``TimeWords``.  No stored form of state or commands changed: version-5 state and
#: commands read as they are, and the events they logged upgrade on the wire
#: (``vtt_bridge.event_upgrades``), so nothing replays differently.
#: Version 7: the GM's hands and the table's dice.  A newcomer tied at a score is placed
#: by its game's tie rule (``Ruleset.newcomer_ahead``: Cyberpunk RED rerolls the tie,
#: M&M compares the Initiative modifier then a d20, Hero rolls 1d6 each), not after
#: everyone at its score; ``set_stats``, ``edit_scene`` and ``roll_initiative`` are new,
#: and the state gains ``initiative_dice`` (empty by default: version-6 state reads as
#: it is).  A version-6 log's ``join_combat`` keeps its old placement
#: (:func:`joins_keep_their_ties`).
#: Version 8 (nothing accepted and ignored): ``set_condition`` goes through the ruleset
#: (Mutants & Masterminds' ``flat_footed`` and ``incapacitated`` now set the combatant's
#: own state: Dodge and Parry count 0, the incapacitated are skipped and do nothing); a
#: token statistic its ruleset does not play is refused at ``start_combat`` and
#: ``join_combat``, as are a non-integer Hero ``STR``, a non-boolean Cyberpunk RED
#: ``vehicle`` and a ``hand.<x>`` naming no hand; Hero's and M&M's ``attack`` is refused
#: when no token is within reach or in line of sight.  No stored form changed: version-7
#: state and commands read as they are (a condition an old M&M log set stays recorded in
#: the fight's conditions, where nothing reads it, as before), and a logged command that
#: plays differently now is reported as a replay divergence.
#: Version 9 (gridless scenes): a ``gridless`` grid plays: tokens are discs at points,
#: moves are waypoints priced by length, reach is a ball in three dimensions and
#: attacks of opportunity pause at the exact exit point (``engine.gridless_board``).
#: ``Combatant.x``/``y``, ``Move.path``, ``PendingMove.path`` and ``Prompt.at`` may hold
#: floats there; on a grid they are ints as before.  ``Move.elevations`` and
#: ``PendingMove.heights`` (a flight, on any scene: ``engine.grid_flight`` on a grid;
#: the ruleset's ``check_flight`` says who may) are written only when given, so
#: version-8 state and commands read, hash and replay the same (no step needed).  A
#: token wholly above or below another passes it on a grid too, and terrain prices only
#: the part of a move on the ground: a version-8 log has no flights, and a level move of
#: an elevated token over another that version 8 refused plays now (a replay
#: divergence, as for any refusal that became a move).
RULES_VERSION = 9

Plain = dict[str, Any]
Upgrade = Callable[[Plain], Plain]

#: ``STATE_UPGRADES[v]`` turns the plain state (``to_plain(EncounterState)``) of version
#: ``v`` into that of version ``v + 1``.
STATE_UPGRADES: dict[int, Upgrade] = {}
#: ``COMMAND_UPGRADES[v]`` does the same for a logged command (``command_to_plain``).
COMMAND_UPGRADES: dict[int, Upgrade] = {}


class NewerVersion(ValueError):
    """Stored data written by a newer release than this one: it cannot be read back."""


def state_upgrade(version: int) -> Callable[[Upgrade], Upgrade]:
    """Register the step from plain state of ``version`` to ``version + 1``."""
    return _register(STATE_UPGRADES, version)


def command_upgrade(version: int) -> Callable[[Upgrade], Upgrade]:
    """Register the step from a plain command of ``version`` to ``version + 1``."""
    return _register(COMMAND_UPGRADES, version)


def upgrade_state(plain: Plain, version: int) -> Plain:
    """The plain state of ``version`` in the form of :data:`RULES_VERSION`."""
    return _upgrade(STATE_UPGRADES, plain, version, "state")


def upgrade_command(plain: Plain, version: int) -> Plain:
    """The plain command of ``version`` in the form of :data:`RULES_VERSION`."""
    return _upgrade(COMMAND_UPGRADES, plain, version, "command")


def _register(steps: dict[int, Upgrade], version: int) -> Callable[[Upgrade], Upgrade]:
    def add(step: Upgrade) -> Upgrade:
        if version in steps:
            raise ValueError(f"an upgrade step from version {version} is already registered")
        steps[version] = step
        return step

    return add


def _upgrade(steps: dict[int, Upgrade], plain: Plain, version: int, what: str) -> Plain:
    # A ruleset registers the steps for its own stored forms when it is imported.
    from engine.rulesets.base import load_all

    load_all()
    if version > RULES_VERSION:
        raise NewerVersion(
            f"{what} written under rules version {version}; this release knows up to "
            f"{RULES_VERSION}"
        )
    for step in range(version, RULES_VERSION):
        if step in steps:
            plain = steps[step](plain)
    return plain


@command_upgrade(6)
def joins_keep_their_ties(plain: Plain) -> Plain:
    """A rules-version-6 ``join_combat`` placed a newcomer tied at a score after everyone
    already at it, rolling nothing; the logged join keeps that (``ties: "after"``), so
    an old table's log replays as it was played."""
    if plain.get("type") != "join_combat" or "ties" in plain:
        return plain
    return {**plain, "ties": "after"}
