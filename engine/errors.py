"""Errors the engine raises.  Every refusal names the command and the state it met.

``CommandRejected`` is the caller's fault (a command that is not legal now): the
encounter is left exactly as it was.  ``codes`` lists every code a client can see.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every engine error."""


class CommandRejected(EngineError):
    """A command that is not legal in the current state; nothing was changed.

    ``code`` is a stable machine-readable reason (one of :data:`REJECTION_CODES`),
    the message says what was wrong in words a player can read.
    """

    def __init__(self, code: str, message: str) -> None:
        if code not in REJECTION_CODES:
            raise ValueError(f"unknown rejection code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message


class UnsupportedRuleset(EngineError):
    """``find_ruleset`` was asked for a name no ruleset registered."""


REJECTION_CODES = frozenset(
    {
        "bad_scene",  # a scene that cannot be played: duplicate ids, bad stats, overlaps
        "no_scene",  # combat or movement before any scene is loaded
        "combat_active",  # loading a scene or starting combat while a fight runs
        "no_combat",  # a combat command outside combat
        "unknown_ruleset",  # start_combat naming a ruleset nobody registered
        "unknown_token",  # a token id the scene does not have
        "not_your_token",  # acting for a token the actor does not control
        "not_your_turn",  # acting out of initiative order
        "prompt_pending",  # the encounter waits for a prompt's answer first
        "illegal_move",  # a path that is off the grid, not contiguous, or blocked
        "over_budget",  # more than the action's share of actions or movement allows
        "unknown_prompt",  # answering a prompt that is not open
        "not_your_prompt",  # answering a prompt addressed to someone else
        "bad_rolls",  # table-supplied dice of the wrong count or range
        "gm_only",  # a command only the GM may give
        "unknown_door",  # opening or closing a wall that is not a door
        "illegal_action",  # an action the rules do not allow now (with the rule in the message)
        "out_of_reach",  # a melee attack on a target outside reach, or a ranged one out of sight
        "no_hold",  # taking a delayed or readied action that was never declared
        "cannot_abort",  # aborting when the rules forbid it
        "unknown_action",  # act naming an action the fight's ruleset does not have
        "unknown_stat",  # set_stats naming a statistic the ruleset does not change mid-fight
        "bad_params",  # act params that break the action's declaration (library callers)
        "unknown_effect",  # ending an effect that is not running
        "not_in_combat",  # a combatant that is not (or already) in the fight's order
    }
)
