"""Checks every handler shares: who controls a token, whose action it is, what waits."""

from __future__ import annotations

from typing import Any

from engine.combat_state import Combat
from engine.commands import GM
from engine.errors import CommandRejected
from engine.model import Combatant, EncounterState, Scene
from engine.rulesets import find_ruleset
from engine.turns import Ruleset

Result = tuple[EncounterState, list[Any]]


def scene_of(state: EncounterState) -> Scene:
    """The loaded scene, or a ``no_scene`` refusal."""
    if not isinstance(state.scene, Scene):
        raise CommandRejected("no_scene", "no scene is loaded")
    return state.scene


def controlled_token(state: EncounterState, actor: str, token_id: str) -> Combatant:
    """The token ``token_id`` if ``actor`` controls it (its owner, or the GM)."""
    token = scene_of(state).token(token_id)
    if token is None:
        raise CommandRejected("unknown_token", f"no token {token_id!r} on the scene")
    if actor not in (GM, token.owner):
        raise CommandRejected("not_your_token", f"{actor!r} does not control token {token_id!r}")
    return token


def combat_and_ruleset(state: EncounterState) -> tuple[Combat, Ruleset]:
    """The running combat and its ruleset, or a ``no_combat`` refusal."""
    if state.combat is None:
        raise CommandRejected("no_combat", "no combat is running")
    return state.combat, find_ruleset(state.combat.ruleset)


def require_turn(combat: Combat, token: Combatant) -> None:
    """Refuse unless it is ``token``'s action (its INIT, or its readied action firing)."""
    if combat.actor != token.id:
        raise CommandRejected("not_your_turn", f"{whose_action(combat)}, not {token.id!r}'s")


def whose_action(combat: Combat) -> str:
    """Whose action it is, and when, in the fight's game's words ("it is 'gina''s Turn
    (Round 2)", "it is 'elf''s Phase (Turn 1, Phase 3)")."""
    words = find_ruleset(combat.ruleset).time_words
    return f"it is {combat.actor!r}'s {words.action} ({words.label(combat.turn, combat.phase)})"


def require_no_prompts(combat: Combat, ignore: str | None = None) -> None:
    """Refuse while a prompt (other than of kind ``ignore``) waits for an answer."""
    blocking = [p for p in combat.prompts if p.kind != ignore]
    if blocking:
        waiting = ", ".join(f"{p.id} ({p.controller})" for p in blocking)
        raise CommandRejected("prompt_pending", f"waiting for prompt answers: {waiting}")


def acting_token(
    state: EncounterState, actor: str, token_id: str
) -> tuple[Combatant, Combat, Ruleset]:
    """The token ``actor`` acts with now, its combat and ruleset: ``actor`` controls it,
    it is its action, and no prompt waits (every combat action's common checks)."""
    token = controlled_token(state, actor, token_id)
    combat, ruleset = combat_and_ruleset(state)
    # Someone taking a readied action need not wait for other readied actions' prompts
    # (they are asked in turn once it is done); anything else waits for every prompt.
    interjecting = combat.interjection is not None and combat.actor == token.id
    require_no_prompts(combat, ignore="readied_action" if interjecting else None)
    require_turn(combat, token)
    return token, combat, ruleset
