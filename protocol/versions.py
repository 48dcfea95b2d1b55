"""The wire version: the shape of what the bridge sends, within protocol version 1.

:data:`protocol.PROTOCOL_VERSION` is the envelope a client speaks and only changes when
old clients can no longer talk to the server.  :data:`WIRE_VERSION` counts every change
of what a message or an event carries, compatible or not (a new field in an event is
one): the bridge's log stores events as they went out, and a client catching up on old
events gets them from the log.  Bump it with any such change, and register the step
that rewrites an event logged under the old version into what this release would send::

    @event_upgrade(1)            # turns a version-1 event into version 2
    def _moves_name_their_mode(event: dict[str, Any], command: dict[str, Any]) -> dict:
        ...  # ``command`` is the logged command that caused it (plain form)

A version with no step needs none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: The version of the message and event shapes this release sends.
#: Version 1: every release up to commit 84cb153 (the ``tests/fixtures/db_v1`` fixture).
#: Version 2: ``move_started`` names its movement ``mode``; ``aborted`` names its
#: ``action`` (issue 10).
#: Version 3 (issue 12): a game's actions are ``act``; ``join_combat``, ``leave_combat``,
#: ``set_effect``, ``end_effect`` and their events are new.  Events logged before keep
#: their shape (no step needed).
#: Version 4 (issue 13): a token's ``stats`` in ``scene_loaded`` and ``combatant_joined``
#: is a map, no longer sorted ``[name, value]`` pairs (``vtt_bridge.event_upgrades``).
#: Version 5 (issue 26): the Hero ruleset's ``power_used`` names the ``advantages`` and
#: ``limitations`` that applied, ``power_options_set`` carries ``toggle_freely``, and
#: ``identity_changed`` is new.
#: Version 6 (issue 24): ``end_combat`` and its ``combat_ended`` event are new; events
#: logged before keep their shape (no step needed).
#: Version 7: each game's own clock.  ``phase_started {turn, phase, surprise}`` is
#: ``pass_started {clock, surprise}``; ``combatant_acts``, ``combatant_done`` and
#: ``combatant_skipped`` carry ``clock`` instead of ``turn`` and ``phase``;
#: ``effect_started``'s ``ends`` is a clock; ``options`` and a state's ``combat`` carry
#: the ``clock`` too.  A clock is ``{at: {unit: n, ...}, label}`` in the fight's
#: ruleset's units (``{"round": 2}``, ``{"turn": 1, "phase": 3}``), so the step needs
#: the ruleset of the fight an event was logged in (``fight``).
#: Also in version 7: ``list_rulesets``, ``describe_ruleset`` and their answers
#: ``rulesets`` and ``ruleset`` are new, and ``join`` takes ``describe``; no event
#: changed (no step needed).
#: Version 8: ``join_combat`` takes the table's ``rolls``; ``set_stats``,
#: ``edit_scene`` and ``roll_initiative`` and their events ``stats_changed``,
#: ``scene_edited`` and ``initiative_rolled`` are new; the dice policy ``players``.
#: No logged event changed shape (no step needed).
#: Also in version 8: a token may carry an ``elevation`` (``load_scene``, and the
#: tokens of ``scene_loaded`` and ``combatant_joined`` when it is not 0).  Events logged
#: before carry none: they read as on the ground (no step needed).
#: Version 9: the ``options`` answer's ``refused`` pairs are ``unavailable``, each
#: ``{action, code, reason}``, and list every action the game knows (also when it is not
#: the token's action).  A reply, not an event: nothing logged changes (no step needed).
#: Also in version 9 (several bridge processes on one PostgreSQL database): the
#: server message ``redirect`` is new; no event changed (no step needed).
#: Version 10 (gridless scenes): ``grid.kind`` may be ``gridless``; a token's ``x``/``y``
#: there is its centre in scene units (fractional allowed; on grids a fractional one is
#: refused); ``move``'s ``path``, ``ask_exits``' ``path``, ``ask_path``'s ``to`` and
#: ``path_plan``'s ``to`` and ``path`` take such points, as do the ``at`` of ``prompt``,
#: ``exits`` and the move events (``move_started``, ``move_interrupted``,
#: ``move_completed``, ``move_stopped``, ``token_placed``, ``prompt_opened``) on a
#: gridless scene; ``threat`` carries ``region``.  ``move``, ``move_points`` and
#: ``ask_exits`` take ``elevations`` (a flight, on any scene), and ``move_started``
#: (``elevations``), ``move_interrupted``, ``move_completed`` and ``token_placed``
#: (``elevation``) carry them for a flight only.
#: Every event logged before is on a grid and keeps its shape (no step needed).
#: Also in version 10: the server message ``prompt_waiting`` is new: every member but an open
#: prompt's controller is told its kind, whom it waits on and its deadline (the
#: countdown for the whole table).  No event changed (no step needed).
#: Also in version 10: ``rulesets`` entries and ``ruleset`` carry ``holds``, how a
#: client follows the game's held actions (the events that declare, fire and drop one
#: and where their parts are); replies, not events: nothing logged changes.
WIRE_VERSION = 10

EventUpgrade = Callable[..., dict[str, Any]]
#: ``EVENT_UPGRADES[v]`` turns a logged event (``{"kind", "data"}``) of wire version
#: ``v`` into version ``v + 1``, given the plain command that caused it (and, for a
#: step registered with ``fight=True``, the ruleset name of the fight it was logged in).
EVENT_UPGRADES: dict[int, EventUpgrade] = {}
#: The versions whose step also takes the fight's ruleset.
NEEDS_FIGHT: set[int] = set()


def event_upgrade(version: int, *, fight: bool = False) -> Callable[[EventUpgrade], EventUpgrade]:
    """Register the step from a logged event of ``version`` to ``version + 1``; with
    ``fight`` the step is called ``step(event, command, fight)``, ``fight`` the ruleset
    the table's fight was under when the event was logged (None: unknown)."""

    def add(step: EventUpgrade) -> EventUpgrade:
        if version in EVENT_UPGRADES:
            raise ValueError(f"an event upgrade from version {version} is already registered")
        EVENT_UPGRADES[version] = step
        if fight:
            NEEDS_FIGHT.add(version)
        return step

    return add


def upgrade_events(
    events: list[dict[str, Any]],
    command: dict[str, Any],
    version: int,
    fight: str | None = None,
) -> list[dict[str, Any]]:
    """Events logged under wire ``version`` as this release would send them; ``fight``
    names the ruleset of the fight they were logged in (None: no fight, or unknown)."""
    if version > WIRE_VERSION:
        raise ValueError(
            f"events written under wire version {version}; this release knows up to {WIRE_VERSION}"
        )
    for step in range(version, WIRE_VERSION):
        if step in EVENT_UPGRADES:
            upgrade = EVENT_UPGRADES[step]
            if step in NEEDS_FIGHT:
                events = [upgrade(event, command, fight) for event in events]
            else:
                events = [upgrade(event, command) for event in events]
    return events


def fight_after(command: dict[str, Any], before: str | None) -> str | None:
    """The ruleset of the fight a logged ``command`` ran in, given the one running before
    it: a ``start_combat`` names its own."""
    if command.get("type") == "start_combat" and isinstance(command.get("ruleset"), str):
        return str(command["ruleset"])
    return before
