"""A ruleset's description: what a client needs to play it, read from its declarations.

:func:`describe` reads a registered ruleset: its name and title, its clock's words
(``time_words``), its actions (:class:`~engine.rulesets.base.ActionSpec`: when each
may be taken, its params' shapes by :mod:`engine.param_shapes`, whether it names a
target, an area, the table's dice or one of several choices), its move modes, its
conditions, and its
:class:`~engine.words.Wording` (the stats a token needs, its held actions' trigger
words, its prompts' and events' words) together with the core's.  Nothing in it is kept
by hand a second time: ``tests/engine/test_describe.py`` checks that every event kind a
ruleset can emit has a template naming only that event's fields.

The description is a plain value; the bridge sends it as the ``ruleset`` message
(:mod:`protocol.describe`).  Sans-I/O, like the rest of the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args, get_type_hints

from engine.combat_state import Combat
from engine.events import Event
from engine.param_shapes import ParamShape, param_shapes
from engine.params import dice_fields
from engine.rulesets.base import NoParams, Ruleset, find_ruleset, registered
from engine.timewords import TimeWords
from engine.words import CORE_EVENTS, CORE_PROMPTS, HoldFields, PromptWords, StatWords


@dataclass(frozen=True, slots=True)
class ActionDescription:
    """One action: ``when`` it may be taken (``turn``, ``any``: also out of turn, a
    reaction such as an abort; ``gm``: the GM's tool), its ``doc``, its ``params``, and
    what those ask for: a ``target`` (a token param), an ``area`` (a list of cells),
    the table's own ``dice`` (the dice params' names) and ``choices`` (the action names
    one of several things, listed by ``ask_options`` as ``action:choice``)."""

    name: str
    when: str
    doc: str
    params: tuple[ParamShape, ...]
    target: bool
    area: bool
    dice: tuple[str, ...]
    choices: bool


@dataclass(frozen=True, slots=True)
class EventWords:
    """How an event ``kind`` reads: its ``template`` (:mod:`engine.templates`)."""

    kind: str
    template: str


@dataclass(frozen=True, slots=True)
class TriggerWords:
    """A held action's trigger word and what sets it off."""

    name: str
    doc: str


@dataclass(frozen=True, slots=True)
class HoldsDescription:
    """How a client follows a ruleset's held actions (:class:`~engine.words.HoldWords`,
    its classes as their event kinds): the kinds of the events that declare, fire and
    drop one, where their parts are in the declaring event (``event``), where the
    state's ``combat`` lists those under way (``listed``) and their parts in each entry
    (``entry``), and the word for a hold whose records name no kind."""

    declared: str
    fired: str | None
    dropped: tuple[str, ...]
    event: HoldFields
    listed: str
    entry: HoldFields
    kind: str | None


@dataclass(frozen=True, slots=True)
class RulesetDescription:
    """Everything a client needs to play ``name`` without knowing the game."""

    name: str
    title: str
    time: TimeWords
    actions: tuple[ActionDescription, ...]
    move_modes: tuple[str, ...]
    conditions: tuple[str, ...]
    stats: tuple[StatWords, ...]
    triggers: tuple[TriggerWords, ...]
    holds: HoldsDescription | None
    prompts: tuple[PromptWords, ...]
    events: tuple[EventWords, ...]


def describe(name: str) -> RulesetDescription:
    """The description of the ruleset registered as ``name`` (``UnsupportedRuleset``
    otherwise)."""
    ruleset = find_ruleset(name)
    kind = type(ruleset)
    wording = kind.wording
    return RulesetDescription(
        name=kind.name,
        title=kind.title,
        time=kind.time_words,
        actions=tuple(_action(spec) for spec in kind.actions.values()),
        move_modes=tuple(kind.move_modes),
        conditions=tuple(kind.vocabulary.conditions),
        stats=tuple(wording.stats),
        triggers=tuple(TriggerWords(n, d) for n, d in wording.triggers.items()),
        holds=holds_of(name),
        prompts=(*CORE_PROMPTS, *wording.prompts),
        events=tuple(EventWords(k, t) for k, t in templates(ruleset).items()),
    )


def holds_of(name: str) -> HoldsDescription | None:
    """How a client follows the held actions of the ruleset registered as ``name``
    (None: it has none); see :func:`describe_holds`."""
    return describe_holds(type(find_ruleset(name)))


def describe_holds(kind: type[Ruleset]) -> HoldsDescription | None:
    """How a client follows ruleset class ``kind``'s held actions (its
    ``wording.holds``; None: it has none).  Every path is checked against the classes
    it reads (the events', the state entries', the fight state's): a ``ValueError``
    names one that is not there."""
    holds, name = kind.wording.holds, kind.name
    if holds is None:
        return None
    for cls in (holds.declared, *([holds.fired] if holds.fired else []), *holds.dropped):
        _check_path(name, cls, holds.event.holder)
    # The list is the core's (``triggers``) or in the ruleset's own fight state.
    head, _, rest = holds.listed.partition(".")
    if head == "rules" and rest:
        _check_path(name, kind.fight_state or object, rest)
    else:
        _check_path(name, Combat, holds.listed)
    for fields, cls in ((holds.event, holds.declared), (holds.entry, holds.entry_type)):
        for path in dataclasses.astuple(fields):
            if path is not None:
                _check_path(name, cls, path)
    return HoldsDescription(
        declared=holds.declared.kind,
        fired=holds.fired.kind if holds.fired else None,
        dropped=tuple(cls.kind for cls in holds.dropped),
        event=holds.event,
        listed=holds.listed,
        entry=holds.entry,
        kind=holds.kind,
    )


def _check_path(ruleset: str, cls: type, path: str) -> None:
    """``path`` (``trigger.area``) names a field of dataclass ``cls``, then of each
    field's dataclass in turn."""
    here: Any = cls
    for part in path.split("."):
        hints = get_type_hints(here) if dataclasses.is_dataclass(here) else {}
        if part not in hints:
            raise ValueError(
                f"ruleset {ruleset!r}: its holds name {path!r}, which {cls.__name__} has not"
            )
        here = hints[part]


def catalogue() -> tuple[tuple[str, str], ...]:
    """Every registered ruleset as ``(name, title)``, by name."""
    return tuple((type(r).name, type(r).title) for r in registered())


def core_words() -> tuple[tuple[EventWords, ...], tuple[PromptWords, ...]]:
    """The words every game shares: the core's events' templates and prompts' words, for
    a client with no fight (a scene loaded, a token placed) before any description."""
    return tuple(EventWords(k, t) for k, t in CORE_EVENTS.items()), CORE_PROMPTS


def templates(ruleset: Ruleset) -> dict[str, str]:
    """Every event kind ``ruleset`` can emit -> its template: the core's (a pass reads
    as its clock's label, already in the game's words), then the ruleset's."""
    core = {
        **CORE_EVENTS,
        "combat_started": f"The fight begins ({type(ruleset).title})[; aware: {{aware:tokens}}]",
    }
    return {**core, **type(ruleset).wording.events}


def emitted(ruleset: Ruleset) -> dict[str, Mapping[str, str]]:
    """Every event kind ``ruleset`` can emit -> its fields (name -> type in words): the
    core's events, then the ruleset's own (``vocabulary.events``)."""
    classes = [*get_args(Event), *type(ruleset).vocabulary.events]
    return {cls.kind: _fields(cls) for cls in classes}


def _fields(cls: type) -> dict[str, str]:
    hints = get_type_hints(cls)
    return {f.name: str(hints[f.name]) for f in dataclasses.fields(cls)}


def _action(spec: Any) -> ActionDescription:
    shapes = param_shapes(spec.params)
    return ActionDescription(
        name=spec.name,
        when=spec.when,
        # The action's own words, else its params' docstring, on one line.
        doc=" ".join(
            (spec.doc or ("" if spec.params is NoParams else spec.params.__doc__ or "")).split()
        ),
        params=shapes,
        target=any(s.type == "token" for s in shapes),
        area=any(
            s.type == "list" and s.items is not None and s.items.type == "cell" for s in shapes
        ),
        dice=dice_fields(spec.params),
        choices=spec.choices is not None,
    )
