"""Questions a client may ask without changing anything, and their answers.

``ask_options`` -> ``options``: what may this token do now?  The answer lists the
actions the rules allow and, for every other action the game knows, the refusal it
would get (its code and the rule that forbids it), so a VTT can grey out a button with
a reason.  ``ask_path`` -> ``path_plan``: the cheapest way there.
"""

from __future__ import annotations

from typing import Annotated, Final

from msgspec import Meta

from protocol.wire import ClientWire, Length, Name, Prose, Seq, ServerWire, TokenId, Waypoint, Wire

#: The most entries one list of an ``options`` answer holds (a Hero character with many
#: Powers lists each Power under each Power action).
MAX_LISTED: Final = 256


class AskOptions(ClientWire, frozen=True, kw_only=True):
    """Ask what ``token`` may do now; answered with ``options`` (``ref`` = this seq)."""

    TYPE = "ask_options"
    token: TokenId


class Clock(Wire, frozen=True, kw_only=True):
    """A moment of the fight in its game's words: ``at`` counts each of the ruleset's
    units of time, largest first (``{"round": 2}``, ``{"turn": 1, "phase": 3}``),
    ``label`` says it as the game's table does ("Round 2", "Turn 1, Phase 3")."""

    at: Annotated[dict[Name, int], Meta(max_length=4)]
    label: Prose


class Unavailable(Wire, frozen=True, kw_only=True):
    """An action the game knows that the token cannot take now: the ``code`` and the
    ``reason`` the ``act`` (or ``move``, ``end_phase``) would be refused with, which
    names the rule that stops it."""

    action: Name
    code: Name
    reason: Prose


class Options(ServerWire, frozen=True, kw_only=True):
    """The answer to ``ask_options`` ``ref``: whether ``token`` may act now (else
    ``reason``: whose action it is, or the rule that keeps it idle), how far it may
    still move, the ``available`` actions (each one its command would accept now), the
    ``unavailable`` ones, each with the refusal it would get, the prompts waiting on
    the asker, and the fight's moment (``clock``; null with no fight)."""

    TYPE = "options"
    ref: Seq
    token: TokenId
    can_act: bool
    reason: Prose | None
    movement_left: Length
    available: Annotated[tuple[Name, ...], Meta(max_length=MAX_LISTED)]
    unavailable: Annotated[tuple[Unavailable, ...], Meta(max_length=MAX_LISTED)]
    prompts: Annotated[tuple[str, ...], Meta(max_length=MAX_LISTED)]
    clock: Clock | None = None


class AskPath(ClientWire, frozen=True, kw_only=True):
    """Ask for the cheapest path for ``token`` to cell ``to`` (gridless: the point ``to``
    in scene units); answered with ``path_plan``."""

    TYPE = "ask_path"
    token: TokenId
    to: Waypoint


class PathPlan(ServerWire, frozen=True, kw_only=True):
    """The answer to ``ask_path`` ``ref``: the cheapest ``path`` (cells after the token's
    own, gridless the waypoints; empty when there is none, then ``reason`` says why)
    and its ``cost``, within
    ``budget`` (the movement the token has left now; null: no limit)."""

    TYPE = "path_plan"
    ref: Seq
    token: TokenId
    to: Waypoint
    path: tuple[Waypoint, ...]
    cost: Length
    budget: Length | None
    reason: Prose | None
