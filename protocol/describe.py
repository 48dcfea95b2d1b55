"""``list_rulesets`` -> ``rulesets`` and ``describe_ruleset`` -> ``ruleset``: which games
the server plays, and everything a client needs to play one without knowing it.

A description carries a game's name and title, its clock's words, its actions (when each
may be taken, each param's shape: type, choices, range, default, whether it holds the
table's dice; whether the action names a target, an area or one of several choices), its
move modes, conditions, the stats a token carries, its held actions' trigger words and
the events and fields that follow them, the words of each prompt kind and its answers,
and a template per event kind (``engine.templates`` is the language; a client renders an
event's ``data`` with it).  The engine builds it from the ruleset's declarations
(``engine.describe``); these structs are its wire shape.  A member that joins with
``describe`` gets ``rulesets`` and, while a fight runs, that fight's ``ruleset`` right
after its ``welcome`` (``ref`` null); any member may ask for any shipped ruleset's at
any time.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from msgspec import Meta

from protocol.wire import ClientWire, Label, LongName, Name, Prose, Seq, ServerWire, Wire

#: The most of anything a description lists (actions, params, templates ...).
MAX_ITEMS: Final = 256

ParamType = Literal[
    "boolean", "integer", "number", "string", "token", "cell", "choice", "list", "map"
]
StatType = Literal["integer", "number", "flag", "text"]
When = Literal["turn", "any", "gm"]
Names = Annotated[tuple[Name, ...], Meta(max_length=MAX_ITEMS)]


class ListRulesets(ClientWire, frozen=True, kw_only=True):
    """Ask which rulesets the server plays; answered with ``rulesets``."""

    TYPE = "list_rulesets"


#: A field of a record, or a dotted path into a nested one (``trigger.area``).
FieldPath = Annotated[
    str, Meta(min_length=1, max_length=128, pattern=r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")
]


class HoldFieldsDescription(Wire, frozen=True, kw_only=True):
    """Where each part of a held action is in one record of it (an event's ``data``, or
    an entry of the state's list), each a field path, null where the record has none:
    who holds it, the ruleset's word for its ``kind``, whom a delay waits for
    (``before``), the ``action`` held, the ``trigger`` word, the token that sets it off
    (``trigger_by``) and the cells that do (``area``)."""

    holder: FieldPath
    kind: FieldPath | None
    before: FieldPath | None
    action: FieldPath | None
    trigger: FieldPath | None
    trigger_by: FieldPath | None
    area: FieldPath | None


class HoldsDescription(Wire, frozen=True, kw_only=True):
    """How a client follows a game's held actions: the event kind that ``declared``
    one (its parts where ``event`` says), the one whose holder acts now, out of turn
    (``fired``; null: none), those that end one otherwise (``dropped``), each naming
    the holder at ``event.holder``; the path in a state's ``combat`` of the list of
    those under way (``listed``), the parts of each entry (``entry``); and the word for
    a hold whose records name no kind (``kind``)."""

    declared: Name
    fired: Name | None
    dropped: Names
    event: HoldFieldsDescription
    listed: FieldPath
    entry: HoldFieldsDescription
    kind: Name | None


class RulesetName(Wire, frozen=True, kw_only=True):
    """A ruleset's ``name`` (what ``start_combat`` takes), ``title`` (for people), and
    how its held actions are followed (``holds``; null: it has none), so a client can
    fold any fight's events from the first."""

    name: Name
    title: LongName
    holds: HoldsDescription | None = None


class DescribeRuleset(ClientWire, frozen=True, kw_only=True):
    """Ask for ``ruleset``'s description; answered with ``ruleset``
    (``unsupported_ruleset`` for a name the server does not play)."""

    TYPE = "describe_ruleset"
    ruleset: Name


class ParamShape(Wire, frozen=True, kw_only=True):
    """One param of an action (or a list's item, a map's field): its ``type``, whether
    it is ``required``, its ``default`` (as the wire spells it), whether it may be null
    (``nullable``), a ``choice``'s ``choices``, a number's bounds or a string's length
    (``min``, ``max``), whether it holds the table's own ``dice``, a list's ``items``
    and a map's ``fields``."""

    name: Name
    type: ParamType
    required: bool
    default: Any
    nullable: bool
    choices: Names
    min: float | None
    max: float | None
    dice: bool
    items: ParamShape | None
    fields: Annotated[tuple[ParamShape, ...], Meta(max_length=MAX_ITEMS)]
    doc: Prose


class ActionDescription(Wire, frozen=True, kw_only=True):
    """One action ``act`` may name: ``when`` (``turn``: on the token's own action;
    ``any``: also out of turn, a reaction; ``gm``: the GM's tool), its ``params`` and
    whether it names a ``target`` (a token param), an ``area`` (a list of cells), the
    table's ``dice`` (those params' names) or one of several ``choices`` (listed by
    ``options`` as ``action:choice``)."""

    name: Name
    when: When
    doc: Prose
    params: Annotated[tuple[ParamShape, ...], Meta(max_length=MAX_ITEMS)]
    target: bool
    area: bool
    dice: Names
    choices: bool


class TimeUnitDescription(Wire, frozen=True, kw_only=True):
    """One unit of the game's time: its ``key`` in a clock's ``at`` (``round``), its
    ``name`` as the game spells it, how many ``seconds`` it lasts, and ``also`` the other
    names the game's texts give it."""

    key: Name
    name: Label
    seconds: Annotated[int, Meta(ge=1, le=86_400)]
    also: Annotated[tuple[Label, ...], Meta(max_length=MAX_ITEMS)] = ()


class TimeDescription(Wire, frozen=True, kw_only=True):
    """The game's clock in words: its ``units``, largest first (one Round; or Hero's
    Turn of Phases), its name for a ``surprise`` pass, and the word for one combatant's
    share of a pass (``action``: what "End Gina's Turn" says)."""

    units: Annotated[tuple[TimeUnitDescription, ...], Meta(min_length=1, max_length=2)]
    surprise: Label
    action: Label


class StatDescription(Wire, frozen=True, kw_only=True):
    """A token statistic the game reads: its ``type``, whether a token without it is
    refused (``required``) and what it is (``<name>`` in a name: any word there)."""

    name: Name
    type: StatType
    required: bool
    doc: Prose


class TriggerDescription(Wire, frozen=True, kw_only=True):
    """A held action's trigger word and what sets it off."""

    name: Name
    doc: Prose


class PromptDescription(Wire, frozen=True, kw_only=True):
    """A prompt ``kind`` in words: its ``question`` (a template over the prompt's
    ``attacker``, ``target`` and ``at``), the labels of its two answers (``accept``,
    ``decline``), and what happens when nobody answers in time (``expired``)."""

    kind: Name
    question: Prose
    accept: Label
    decline: Label
    expired: Prose


class EventTemplate(Wire, frozen=True, kw_only=True):
    """How an event ``kind`` reads: a ``template`` over its ``data``'s fields."""

    kind: Name
    template: Prose


class RulesetList(ServerWire, frozen=True, kw_only=True):
    """Every ruleset the server plays; ``ref`` is the ``list_rulesets`` answered (null:
    sent after a ``welcome``).  ``events`` and ``prompts`` are the words every game
    shares (the core's events and prompts, as each ``ruleset`` also carries them), for
    a client with no fight yet."""

    TYPE = "rulesets"
    ref: Seq | None
    rulesets: Annotated[tuple[RulesetName, ...], Meta(max_length=MAX_ITEMS)]
    events: Annotated[tuple[EventTemplate, ...], Meta(max_length=MAX_ITEMS)]
    prompts: Annotated[tuple[PromptDescription, ...], Meta(max_length=MAX_ITEMS)]


class RulesetDescription(ServerWire, frozen=True, kw_only=True):
    """The description of the ruleset ``name``; ``ref`` is the ``describe_ruleset``
    answered (null: sent after a ``welcome``, for the running fight)."""

    TYPE = "ruleset"
    ref: Seq | None
    name: Name
    title: LongName
    time: TimeDescription
    actions: Annotated[tuple[ActionDescription, ...], Meta(max_length=MAX_ITEMS)]
    move_modes: Names
    conditions: Names
    stats: Annotated[tuple[StatDescription, ...], Meta(max_length=MAX_ITEMS)]
    triggers: Annotated[tuple[TriggerDescription, ...], Meta(max_length=MAX_ITEMS)]
    holds: HoldsDescription | None = None
    prompts: Annotated[tuple[PromptDescription, ...], Meta(max_length=MAX_ITEMS)]
    events: Annotated[tuple[EventTemplate, ...], Meta(max_length=MAX_ITEMS)]
