"""How a game reads in words: the declarations a ruleset's description is made of.

A ruleset sets ``wording`` (a :class:`Wording`) next to its events, in its own
``words.py``: a template per event kind (the language of :mod:`engine.templates`), the
words of each prompt kind it opens and of each answer, the statistics a token needs,
the trigger kinds of its held actions and the events and fields that follow them
(:class:`HoldWords`) (its clock's words are its ``time_words``,
:mod:`engine.timewords`).  The core's own events and
prompts are worded here (:data:`CORE_EVENTS`, :data:`CORE_PROMPTS`).  The rest of a
description (actions and their params, move modes, conditions) is read from the
ruleset's other declarations by :mod:`engine.describe`, never written twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

StatType = Literal["integer", "number", "flag", "text"]


@dataclass(frozen=True, slots=True)
class PromptWords:
    """A prompt kind in words: ``question`` (a template over the prompt's ``attacker``,
    ``target`` and ``at``), what answering ``accept`` and ``decline`` each mean (button
    labels, worded so that neither can be mistaken), and what happens when nobody
    answers in time (``expired``)."""

    kind: str
    question: str
    accept: str
    decline: str
    expired: str


@dataclass(frozen=True, slots=True)
class StatWords:
    """A statistic a token may carry for this game: its ``type``, whether the fight
    refuses a token without it (``required``), and what it is."""

    name: str
    type: StatType
    required: bool = False
    doc: str = ""


@dataclass(frozen=True, slots=True)
class HoldFields:
    """Where each part of a held action is in one record of it (an event's data, or an
    entry of the state's list): a field's name, a dotted path into a nested record
    (``trigger.area``), or None where the record has no such part.  ``holder`` names
    who holds it; ``kind`` the ruleset's word for the hold (``delay``, ``ready``);
    ``before`` whom a delay waits for; ``action`` the action held; ``trigger`` the
    trigger's word (:attr:`Wording.triggers`); ``trigger_by`` the token that sets it
    off; ``area`` the cells that do."""

    holder: str
    kind: str | None = None
    before: str | None = None
    action: str | None = None
    trigger: str | None = None
    trigger_by: str | None = None
    area: str | None = None


@dataclass(frozen=True, slots=True)
class HoldWords:
    """A ruleset's held (delayed, readied) actions, as a client follows them: the event
    class that ``declared`` one (its parts where ``event`` says), the one whose holder
    acts now because it ``fired`` (None: it never interjects), those that end one
    otherwise (``dropped``), each naming the holder in ``event.holder``; ``listed``,
    the path in the state's ``combat`` of the list of holds under way, each entry of
    type ``entry_type`` with its parts where ``entry`` says; and ``kind``, the word for
    a hold whose records name no kind.  ``engine.describe`` checks every path against
    those classes."""

    declared: type[Any]
    event: HoldFields
    listed: str
    entry_type: type[Any]
    entry: HoldFields
    fired: type[Any] | None = None
    dropped: tuple[type[Any], ...] = ()
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Wording:
    """Everything a ruleset says in words (see the module docstring).  ``events``: kind
    -> template; ``triggers``: a held action's trigger word -> what sets it off;
    ``holds``: how its held actions are followed (None: it has none)."""

    events: Mapping[str, str] = field(default_factory=dict)
    prompts: tuple[PromptWords, ...] = ()
    stats: tuple[StatWords, ...] = ()
    triggers: Mapping[str, str] = field(default_factory=dict)
    holds: HoldWords | None = None


def stat_words(
    required: tuple[str, ...] = (),
    integers: tuple[str, ...] = (),
    flags: tuple[str, ...] = (),
    docs: Mapping[str, str] | None = None,
) -> tuple[StatWords, ...]:
    """The stats of a game that checks them by these lists (the ones its
    ``check_combatant`` reads): ``required`` integers, optional ``integers``, ``flags``."""
    docs = docs or {}
    return (
        *(StatWords(n, "integer", True, docs.get(n, "")) for n in required),
        *(StatWords(n, "integer", False, docs.get(n, "")) for n in integers),
        *(StatWords(n, "flag", False, docs.get(n, "")) for n in flags),
    )


#: The fields a prompt's ``question`` may name (those of the ``prompt`` message).
PROMPT_FIELDS: Mapping[str, str] = {
    "prompt": "str",
    "kind": "str",
    "attacker": "str",
    "target": "str",
    "at": "tuple[int, int]",
}

#: The core's events in words.
CORE_EVENTS: Mapping[str, str] = {
    "scene_loaded": "The scene was loaded",
    "combat_started": "The fight begins ({ruleset})[; aware: {aware:tokens}]",
    "dice_rolled": "Dice for {purpose}: {results:count}d{sides} {results} = "
    "{results:sum} ({source}, {by})",
    "initiative_order": "Order: {order:tokens}",
    "pass_started": "{clock} begins",
    "combatant_acts": "{combatant:token} acts (movement {movement}){limited? (limited)|}",
    "combatant_done": "{combatant:token} is done",
    "move_started": "{token:token} sets out from {start:cell} ({mode:word}, {path:count} steps)",
    "move_interrupted": "{token:token} stops on {at:cell} because of {by:token}",
    "prompt_opened": "{controller} is asked: {prompt_kind:word} by {attacker:token} "
    "on {target:token}",
    "prompt_closed": "The question was {outcome} by {by}",
    "move_completed": "{token:token} arrives on {at:cell} (cost {cost}, {movement_left} left)",
    "token_placed": "{token:token} is placed on {at:cell}",
    "door_changed": "Door {wall} is {open?opened|closed}",
    "combatant_skipped": "{combatant:token} is skipped: {reason}",
    "interjection_ended": "{combatant:token} is done acting out of turn",
    "condition_changed": "{combatant:token} is {on?now|no longer} {condition:word}",
    "move_stopped": "{token:token} stops on {at:cell}: {reason}",
    "effect_started": "{name:word} begins[ on {token:token}], set by {source:token}"
    "[, until {ends}]",
    "effect_ended": "{name:word} ends[ on {token:token}] ({reason})",
    "combatant_joined": "{combatant:token} joins the fight at {score}",
    "combatant_left": "{combatant:token} leaves the fight{removed? and the scene|}",
    "combat_ended": "The fight is over[: {reason}]",
    "initiative_rolled": "{by} {rolls?rolls|takes back} {token:token}'s initiative dice[: {rolls}]",
    "scene_edited": "The GM edits the scene[: {walls:count} walls]"
    "[; {terrain:count} terrain areas]",
    "stats_changed": "{combatant:token}'s statistics are now {stats}"
    "{order_kept?; the order stands|}",
}

#: The prompts the core opens, in words.
CORE_PROMPTS: tuple[PromptWords, ...] = (
    PromptWords(
        "attack_of_opportunity",
        "{attacker:token} may attack {target:token}, who is leaving its reach",
        accept="Attack",
        decline="Let them pass",
        expired="they pass unattacked",
    ),
    PromptWords(
        "readied_action",
        "{attacker:token}'s held action is set off by {target:token}: take it now?",
        accept="Take the held action now",
        decline="Do not act now",
        expired="the held action is not taken now",
    ),
    PromptWords(
        "continue_after_hit",
        "{attacker:token} hit {target:token}: can {target:token} finish its move?",
        accept="Let them finish the move",
        decline="Stop them here",
        expired="they finish the move",
    ),
)

#: The trigger kinds the core watches for a held action (``engine.combat_state.Trigger``).
CORE_TRIGGERS = ("action", "enter", "sight")
