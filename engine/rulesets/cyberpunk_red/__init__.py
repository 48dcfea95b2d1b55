"""Cyberpunk RED (seed 001): the turn and its actions, as one ruleset folder.

========================  ===========================================================
module                    what it holds
========================  ===========================================================
:mod:`.state`             a combatant's state and the token statistics it reads
:mod:`.stats`             reading a token into a :class:`~.state.Fighter`
:mod:`.initiative`        REF + d10, ties rerolled, the fixed queue, drivers, newcomers
:mod:`.economy`           1 Move Action + 1 Action, Run, ROF 2
:mod:`.movement`          MOVE x 2 m, the cost table, jumps, prone, what lowers MOVE
:mod:`.ground`            a move's squares from the scene: metres, terrain, gaps
:mod:`.actions`           the list of Actions, each with what it needs
:mod:`.holding`           Hold Action: declared, fired, lost at the end of the Round
:mod:`.rules`             the one check behind both "may I" and "do it"
:mod:`.world`             reach and line of sight from the scene's geometry
:mod:`.events`            what the actions report
:mod:`.ruleset`           the engine's hooks over all of the above
========================  ===========================================================

Each module quotes the text it implements and states each choice made where the text
is silent; the folder's README.md is the table of them.
"""

from engine.rulesets.cyberpunk_red.ruleset import CprFight, CyberpunkRed

__all__ = ["CprFight", "CyberpunkRed"]
