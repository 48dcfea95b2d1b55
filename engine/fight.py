"""Handlers of the generic fight commands every ruleset shares: a ruleset action
(``act``), a combatant joining or leaving the running fight, a token's own initiative
dice rolled before it (``roll_initiative``), and the GM's effects.

Like every handler, each is ``(state, command, spatial) -> (state, events)`` and refuses
before changing anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.checks import (
    Result,
    combat_and_ruleset,
    controlled_token,
    require_no_prompts,
    require_turn,
    scene_of,
)
from engine.combat_state import Combat
from engine.commands import (
    GM,
    Act,
    EndEffect,
    JoinCombat,
    LeaveCombat,
    RollInitiative,
    SetEffect,
)
from engine.copies import replace
from engine.effects import end_effect, notify_ended, start_effect
from engine.errors import CommandRejected
from engine.events import (
    CombatantJoined,
    CombatantLeft,
    InitiativeOrder,
    InitiativeRolled,
    TokenPlaced,
)
from engine.hooks import RulesetHooks as Ruleset
from engine.model import Combatant, EncounterState
from engine.params import ParamError, decode_params
from engine.rulesets.base import ActionSpec, Context
from engine.scene_checks import check_scene
from engine.spatial import SpatialCache
from engine.tray import DiceTray
from engine.turns import resume_at, settle


def action_spec(ruleset: Ruleset, name: str) -> ActionSpec[Any]:
    """The ruleset's action ``name``, or an ``unknown_action`` refusal."""
    spec = ruleset.actions.get(name)
    if spec is None:
        known = ", ".join(ruleset.actions) or "none"
        raise CommandRejected(
            "unknown_action", f"{ruleset.title} has no action {name!r} (its actions: {known})"
        )
    return spec


def check_when(combat: Combat, spec: ActionSpec[Any], actor: str, token: Combatant) -> None:
    """Refuse unless ``actor`` may take ``spec`` for ``token`` now, by its ``when``."""
    if spec.when == "gm":
        if actor != GM:
            raise CommandRejected("gm_only", f"only the GM may {spec.name}, not {actor!r}")
        return
    if spec.when == "turn":
        # One taking a readied action need not wait for other readied actions' prompts.
        interjecting = combat.interjection is not None and combat.actor == token.id
        require_no_prompts(combat, ignore="readied_action" if interjecting else None)
        require_turn(combat, token)


def act(state: EncounterState, command: Act, spatial: SpatialCache) -> Result:
    """A ruleset action: who may, the action's own refusal, its params, then its run."""
    token = controlled_token(state, command.actor, command.token)
    combat, ruleset = combat_and_ruleset(state)
    spec = action_spec(ruleset, command.action)
    check_when(combat, spec, command.actor, token)
    try:
        params = decode_params(spec.params, command.params)
    except ParamError as exc:
        raise CommandRejected("bad_params", f"{command.action}: {exc}") from None
    tray = DiceTray(state.seed, state.draws, command.actor)
    ctx = Context(state, ruleset, spatial, tray, command.actor, token)
    reason = spec.refusal(ctx)  # it may raise with a code of its own
    if reason is not None:
        raise CommandRejected(spec.code, reason)
    state, events = spec.run(ctx, params)
    # The action's clock requests (engine.clock) are applied here, by the walk.
    state, events = settle(state, ruleset, events)
    return replace(state, draws=max(state.draws, tray.draws)), events


def join_combat(state: EncounterState, command: JoinCombat, spatial: SpatialCache) -> Result:
    """Bring a new token into the fight at the count its initiative gives it."""
    if command.actor != GM:
        raise CommandRejected("gm_only", "only the GM brings combatants into a fight")
    combat, ruleset = combat_and_ruleset(state)
    scene = scene_of(state)
    newcomer = command.token
    if scene.token(newcomer.id) is not None:
        raise CommandRejected("not_in_combat", f"{newcomer.id!r} is already on the scene")
    placed = replace(scene, tokens=(*scene.tokens, newcomer))
    check_scene(placed)
    ruleset.check_stats(newcomer)
    ruleset.check_combatant(newcomer)
    tray = DiceTray(state.seed, state.draws, command.actor, command.rolls)
    score = ruleset.newcomer(combat, newcomer, tray)
    tokens = {t.id: t for t in placed.tokens}

    def ahead(rival: tuple[str, ...]) -> bool:
        if command.ties == "after":  # a join logged before the tie rules: as it played
            return False
        return ruleset.newcomer_ahead(combat, newcomer, score, [tokens[cid] for cid in rival], tray)

    combat = place(combat, newcomer.id, score, ahead)
    tray.require_supply_used()
    combat = combat.with_state(newcomer.id, ruleset.new_combatant_state(newcomer))
    state = replace(state, scene=placed, combat=combat, draws=tray.draws)
    state, joined = ruleset.joined(state, newcomer.id)
    return state, [
        TokenPlaced(newcomer.id, newcomer.cell),
        *tray.events,
        CombatantJoined(newcomer.id, score, newcomer),
        InitiativeOrder(combat.order, combat.scores),
        *joined,
    ]


#: The most dice one ``roll_initiative`` holds for a token (its roll and rerolls).
MAX_OWN_DICE = 10


def roll_initiative(
    state: EncounterState, command: RollInitiative, spatial: SpatialCache
) -> Result:
    """Before a fight, the one controlling a token rolls its initiative dice itself (the
    bridge's dice policy says whether this table lets it); ``rolls`` None takes them back."""
    token = controlled_token(state, command.actor, command.token)
    if state.combat is not None:
        raise CommandRejected(
            "combat_active",
            "initiative is rolled as the fight starts; a newcomer's with join_combat",
        )
    rolls = command.rolls or ()
    if command.rolls is not None and not 1 <= len(rolls) <= MAX_OWN_DICE:
        raise CommandRejected("bad_rolls", f"roll 1..{MAX_OWN_DICE} dice for a token")
    kept = tuple(entry for entry in state.initiative_dice if entry[0] != token.id)
    if rolls:
        kept = tuple(sorted((*kept, (token.id, command.actor, tuple(rolls)))))
    return replace(state, initiative_dice=kept), [
        InitiativeRolled(token.id, command.actor, tuple(rolls))
    ]


def place(
    combat: Combat,
    cid: str,
    score: int,
    ahead: Callable[[tuple[str, ...]], bool] = lambda rival: False,
) -> Combat:
    """``combat`` with ``cid`` in the order at ``score``: after everyone scoring more,
    and among those at ``score`` before the first rival ``ahead`` says it beats (each
    rival one combatant, or a GM's group as one), asked down the order; those already
    placed keep their order.  ``acting`` keeps pointing at the same one."""
    at = next((i for i, (_, s) in enumerate(combat.scores) if s <= score), len(combat.order))
    while at < len(combat.order) and combat.scores[at][1] == score:
        rival = _unit_at(combat, at)
        if ahead(rival):
            break
        at += len(rival)
    order = (*combat.order[:at], cid, *combat.order[at:])
    scores = (*combat.scores[:at], (cid, score), *combat.scores[at:])
    acting = combat.acting + 1 if at <= combat.acting else combat.acting
    return replace(combat, order=order, scores=scores, acting=acting)


def _unit_at(combat: Combat, at: int) -> tuple[str, ...]:
    """The combatant at ``at`` in the order, with the rest of its group that follows it
    at the same count (a group is tied as one)."""
    first = combat.order[at]
    group = next((g for g in combat.groups if first in g), (first,))
    unit = [first]
    for cid, s in combat.scores[at + 1 :]:
        if cid not in group or s != combat.scores[at][1]:
            break
        unit.append(cid)
    return tuple(unit)


def leave_combat(state: EncounterState, command: LeaveCombat, spatial: SpatialCache) -> Result:
    """Take a combatant out of the fight (and off the scene with ``remove``)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", "only the GM takes combatants out of a fight")
    combat, ruleset = combat_and_ruleset(state)
    require_no_prompts(combat)
    cid = command.token
    if cid not in combat.order:
        raise CommandRejected("not_in_combat", f"{cid!r} is not in the fight")
    if len(combat.order) == 1:
        raise CommandRejected("not_in_combat", f"{cid!r} is the last combatant: end the fight")
    if combat.pending_move is not None and combat.pending_move.token == cid:
        raise CommandRejected("illegal_action", f"{cid!r} is moving")
    if combat.interjection is not None and combat.interjection.combatant == cid:
        raise CommandRejected("illegal_action", f"{cid!r} is acting out of turn")
    was_acting = combat.order[combat.acting] == cid
    index = combat.order.index(cid)
    order = tuple(c for c in combat.order if c != cid)
    acting = combat.acting - 1 if index < combat.acting else combat.acting
    events: list[Any] = [CombatantLeft(cid, command.remove)]
    combat = replace(
        combat,
        order=order,
        scores=tuple(p for p in combat.scores if p[0] != cid),
        aware=tuple(c for c in combat.aware if c != cid),
        groups=tuple(g2 for g in combat.groups if len(g2 := tuple(c for c in g if c != cid)) > 1),
        per_combatant=tuple(p for p in combat.per_combatant if p[0] != cid),
        triggers=tuple(t for t in combat.triggers if cid not in (t.owner, t.by)),
    )
    for effect in [e for e in combat.effects if e.token == cid]:
        combat, ended = end_effect(combat, effect.id, "left")
        events.append(ended)
    scene = scene_of(state)
    if command.remove:
        scene = replace(scene, tokens=tuple(t for t in scene.tokens if t.id != cid))
    events.append(InitiativeOrder(combat.order, combat.scores))
    if was_acting:
        # Its action ends with it: whoever is next in the order acts now.
        state = replace(state, scene=scene, combat=combat)
        state, more = resume_at(state, ruleset, index)
        return state, events + more
    combat = replace(combat, acting=acting)
    return replace(state, scene=scene, combat=combat), events


def set_effect(state: EncounterState, command: SetEffect, spatial: SpatialCache) -> Result:
    """The GM starts an effect on a token (or the scene) for some Turns, or until ended."""
    if command.actor != GM:
        raise CommandRejected("gm_only", "only the GM sets effects")
    combat, ruleset = combat_and_ruleset(state)
    if command.token is not None and scene_of(state).token(command.token) is None:
        raise CommandRejected("unknown_token", f"no token {command.token!r} on the scene")
    if not command.name or len(command.name) > 64:
        raise CommandRejected("illegal_action", "an effect is named by 1..64 characters")
    if command.rounds is not None and command.rounds < 1:
        raise CommandRejected("illegal_action", "an effect lasts at least 1 round")
    combat, started = start_effect(
        combat, command.name, command.token, GM, command.rounds, ruleset.time_words
    )
    return replace(state, combat=combat), [started]


def end_effect_now(state: EncounterState, command: EndEffect, spatial: SpatialCache) -> Result:
    """The GM ends an effect early."""
    if command.actor != GM:
        raise CommandRejected("gm_only", "only the GM ends effects")
    combat, ruleset = combat_and_ruleset(state)
    effect = next((e for e in combat.effects if e.id == command.effect), None)
    combat, ended = end_effect(combat, command.effect, "ended")
    if effect is None or ended is None:
        raise CommandRejected("unknown_effect", f"no effect {command.effect!r} is running")
    state, more = notify_ended(replace(state, combat=combat), ruleset, effect)
    return state, [ended, *more]
