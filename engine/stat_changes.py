"""The GM's hand on a running fight's sheets: ``set_stats`` changes a token's statistics
without ending the fight.

Only what the ruleset plays may change (its ``changeable_stats``); the new token is
checked as a token joining would be, and the ruleset brings what it keeps of the old
values up to date (:meth:`~engine.rulesets.base.Ruleset.stats_changed`).  The order
and scores stand: each of the shipped games makes its initiative once for the fight
(its guide says so and why).  Refused while a prompt is open or a move is under way,
whose checks were made with the old values.
"""

from __future__ import annotations

from engine.checks import Result, combat_and_ruleset, require_no_prompts, scene_of
from engine.commands import GM, SetStats
from engine.copies import replace
from engine.errors import CommandRejected
from engine.events import StatsChanged
from engine.model import EncounterState
from engine.spatial import SpatialCache

#: The most statistics one ``set_stats`` changes.
MAX_CHANGES = 32


def set_stats(state: EncounterState, command: SetStats, spatial: SpatialCache) -> Result:
    """Change ``command.token``'s statistics mid-fight (GM only)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM changes statistics, not {command.actor!r}")
    combat, ruleset = combat_and_ruleset(state)
    scene = scene_of(state)
    token = scene.token(command.token)
    if token is None or command.token not in combat.order:
        raise CommandRejected("not_in_combat", f"{command.token!r} is not in the fight")
    if not command.stats or len(command.stats) > MAX_CHANGES:
        raise CommandRejected("illegal_action", f"change 1..{MAX_CHANGES} statistics at once")
    played = ruleset.changeable_stats
    unplayed = sorted(name for name in command.stats if name not in played)
    if unplayed:
        raise CommandRejected(
            "unknown_stat",
            f"{ruleset.title} does not play {', '.join(map(repr, unplayed))} as a change "
            f"during a fight; it plays {', '.join(played) or 'none'}",
        )
    require_no_prompts(combat)
    if combat.pending_move is not None:
        raise CommandRejected("illegal_action", "a move is under way: change it after")
    stats = dict(token.stats) | command.stats
    changed = replace(token, stats=tuple(sorted(stats.items())))
    ruleset.check_stats(changed)
    ruleset.check_combatant(changed)
    state = state.with_scene(scene.with_token(changed))
    state, more = ruleset.stats_changed(state, changed.id)
    event = StatsChanged(changed.id, tuple(sorted(command.stats.items())))
    return state, [event, *more]
