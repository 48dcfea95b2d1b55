"""The shipped client messages, one row each (see :mod:`vtt_bridge.registry`).

Read across, a row says everything the bridge knows of a message: its wire struct, what
the bridge does with it, who may send it, its rate cost beyond its frame's, its example
(the body ``protocol/README.md`` shows), and for a command the engine command it
becomes, the codes the engine still refuses it with, and its dice fields.

Costs beyond the frame's (:mod:`vtt_bridge.costs`): ``ask_path`` runs a path search (up
to ``engine.options.MAX_EXPANSIONS`` positions), ``resync`` re-sends up to the whole
catch-up window, ``ask_options`` checks every action against the rules, ``ask_threat``
merges the reach area's cells into an outline, ``ask_exits`` resolves a path as a move
would, ``list_rulesets`` and ``describe_ruleset`` send a few kilobytes (a ruleset's
description), ``load_scene`` pays for the scene it carries (:func:`costs.scene_cost`)
and ``edit_scene`` for the walls and terrain it carries, at the same rate.
Everything else, ``ping`` and commands included, costs only its frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
import protocol
from protocol.describe import DescribeRuleset, ListRulesets
from protocol.threat import AskExits, AskThreat
from vtt_bridge import admin, costs, describing, membership, queries
from vtt_bridge.permissions import ACTORS, GM_ONLY, JOINED, NOBODY
from vtt_bridge.registry import MessageRow, command_row, register

if TYPE_CHECKING:
    # A row's handler sees only the parts of the hub a row may use (importing the hub
    # itself would make a circle: the hub imports the rows).
    from vtt_bridge.parts import Dispatcher as Hub
    from vtt_bridge.tables import Session, Table

Frame = str | bytes


# -- what the bridge does with each kind of message ----------------------------------------


async def command(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """A command: applied to the encounter, logged, acknowledged, broadcast."""
    await hub.command(session, message, now_ms)


async def administer(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """A GM's change to the table's settings or join tokens (logged)."""
    await hub.administer(session, message, now_ms)


async def join(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """A join: the connection becomes a member of the token's table."""
    await membership.join(hub, session, message, frame, now_ms)


async def ping(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """Answered with ``pong``."""
    await hub.answer(
        session, lambda: session.send(protocol.Pong(seq=session.next_seq()), now_ms), now_ms
    )


async def resync(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """The events after ``after`` again."""
    await membership.resync(hub, session, message.after, now_ms)


async def ask_options(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """Answered with ``options``."""
    await hub.answer(session, lambda: queries.answer_options(session, message, now_ms), now_ms)


async def ask_path(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """Answered with ``path_plan``."""
    await hub.answer(session, lambda: queries.answer_path(session, message, now_ms), now_ms)


async def ask_geometry(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """``ask_threat`` and ``ask_exits``: answered with ``threat`` and ``exits``."""
    metrics = hub.metrics
    await hub.answer(
        session, lambda: queries.answer_geometry(session, message, metrics, now_ms), now_ms
    )


async def list_tokens(hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int) -> None:
    """Answered with ``token_list``."""
    await hub.answer(session, lambda: admin.list_tokens(session, message, now_ms), now_ms)


async def list_rulesets(
    hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int
) -> None:
    """Answered with ``rulesets``."""
    await hub.answer(session, lambda: describing.answer_list(session, message, now_ms), now_ms)


async def describe_ruleset(
    hub: Hub, session: Session, message: Any, frame: Frame, now_ms: int
) -> None:
    """Answered with ``ruleset``."""
    metrics = hub.metrics
    await hub.answer(
        session, lambda: describing.answer_describe(session, message, metrics, now_ms), now_ms
    )


def load_scene_cost(message: protocol.LoadScene) -> int:
    """A scene load pays for its scene (:func:`costs.scene_cost`)."""
    return costs.scene_cost(message.scene)


def edit_scene_cost(message: protocol.EditScene) -> int:
    """A scene edit pays for the walls and terrain it carries, as a load does (its
    walls are indexed again, like a loaded scene's)."""
    return (len(message.walls or ()) + len(message.terrain or ())) // costs.SCENE_WALLS_PER_TOKEN


def start_combat_seed(message: protocol.StartCombat, table: Table) -> dict[str, Any]:
    """A fight that names no dice seed gets the table's (worked out only then: a hash)."""
    return {"seed": table.combat_seed()} if message.seed is None else {}


_TOKEN = {
    "id": "ganger2", "name": "Ganger", "owner": "gm", "side": "gang", "x": 9, "y": 2,
    "size": 1, "reach": 2, "movement": 8, "stats": {"ref": 6},
}  # fmt: skip
_SCENE = {
    "grid": {"kind": "square", "cell_size": 5, "unit": "ft", "width": 30, "height": 20},
    "tokens": [
        {
            "id": "pc.alice", "name": "Alice", "owner": "alice", "side": "party", "x": 3,
            "y": 4, "size": 1, "reach": 5, "movement": 30,
            "stats": {"hp": 24, "ac": 16, "prone": False},
        },
        {
            "id": "ogre-1", "name": "Ogre", "owner": "gm", "side": "monsters", "x": 10, "y": 4,
            "size": 2, "reach": 10, "movement": 40, "stats": {},
        },
    ],
}  # fmt: skip
_ACT = {
    "token": "hero", "action": "attack",
    "params": {"target": "ogre", "maneuver": {"name": "strike"}, "ocv_bonus": 1},
}  # fmt: skip

#: The shipped rows, in the order ``protocol/README.md`` lists the messages.
SHIPPED: tuple[MessageRow, ...] = (
    MessageRow(
        protocol.Join, "session", join, frozenset({NOBODY}),
        example={"token": "table-7f3a:alice", "last_event": None},
    ),
    command_row(
        engine.LoadScene, command, roles=GM_ONLY, example={"scene": _SCENE},
        engine="gm_only, combat_active, bad_scene", cost=load_scene_cost,
    ),
    command_row(
        engine.StartCombat, command, roles=GM_ONLY,
        example={"ruleset": "dnd5e", "aware": ["pc.alice"], "seed": 12345},
        engine="gm_only, combat_active, no_scene, bad_rolls (+ dice policy)",
        fill=start_combat_seed,
    ),
    command_row(
        engine.Move, command, roles=ACTORS,
        example={"token": "pc.alice", "path": [[4, 4], [5, 4], [6, 5]]},
        engine="not_your_token, not_your_turn, over_budget (+ dice policy)",
    ),
    command_row(
        engine.AnswerPrompt, command, roles=ACTORS,
        example={"prompt": "oa-17", "accept": True, "rolls": [14, 6]},
        engine="unknown_prompt, not_your_prompt, bad_rolls (+ dice policy)",
    ),
    command_row(
        engine.EndPhase, command, roles=ACTORS, example={"token": "pc.alice"},
        engine="not_your_token, not_your_turn, prompt_pending",
    ),
    MessageRow(protocol.Resync, "session", resync, JOINED, cost=9, example={"after": 41}),
    MessageRow(protocol.Ping, "session", ping, JOINED, example={}),
    MessageRow(
        protocol.IssueToken, "admin", administer, GM_ONLY,
        example={"participant": "carol", "role": "player"},
    ),
    MessageRow(
        protocol.RevokeToken, "admin", administer, GM_ONLY,
        example={"token": "Zq1uJ0w9bXk6sJ3tQm7lN2cV"},
    ),
    MessageRow(
        protocol.ConfigureTable, "admin", administer, GM_ONLY,
        example={"dice": "gm", "prompt_timeout_ms": 20000},
    ),
    MessageRow(protocol.ListTokens, "session", list_tokens, GM_ONLY, example={"offset": 0}),
    command_row(
        engine.MovePoints, command, roles=ACTORS,
        example={"token": "hero", "points": [[650, 450]], "mode": "combat"},
        engine="not_your_token, illegal_move, not_your_turn (+ dice policy)",
    ),
    command_row(
        engine.SetDoor, command, roles=GM_ONLY, example={"wall": "d1", "open": True},
        engine="gm_only, unknown_door, prompt_pending",
    ),
    command_row(
        engine.SetCondition, command, roles=GM_ONLY,
        example={"token": "ogre", "condition": "stunned", "on": True},
        engine="gm_only, unknown_token",
    ),
    command_row(
        engine.Act, command, roles=ACTORS, example=_ACT,
        engine=(
            "unknown_action, not_your_token, not_your_turn, the action's own"
            " (+ params, dice policy)"
        ),
    ),
    command_row(
        engine.JoinCombat, command, roles=GM_ONLY, example={"token": _TOKEN, "rolls": [7]},
        engine="gm_only, no_combat, not_in_combat, bad_scene, bad_rolls (+ dice policy)",
    ),
    command_row(
        engine.LeaveCombat, command, roles=GM_ONLY, example={"token": "ganger2", "remove": True},
        engine="gm_only, no_combat, not_in_combat",
    ),
    command_row(
        engine.EditScene, command, roles=GM_ONLY,
        example={"walls": [{"id": "w9", "a": [10, 0], "b": [10, 20], "blocks_move": True,
                            "blocks_sight": True, "door": "none"}]},
        engine="gm_only, bad_scene, prompt_pending, illegal_action (a move under way)",
        cost=edit_scene_cost,
    ),
    command_row(
        engine.SetEffect, command, roles=GM_ONLY,
        example={"name": "smoke", "token": None, "rounds": 2},
        engine="gm_only, no_combat, unknown_token",
    ),
    command_row(
        engine.EndEffect, command, roles=GM_ONLY, example={"effect": "e1"},
        engine="gm_only, no_combat, unknown_effect",
    ),
    MessageRow(protocol.AskOptions, "session", ask_options, JOINED, cost=1,
               example={"token": "hero"}),
    MessageRow(protocol.AskPath, "session", ask_path, JOINED, cost=9,
               example={"token": "hero", "to": [8, 5]}),
    MessageRow(AskThreat, "session", ask_geometry, JOINED, cost=2, example={"token": "ogre"}),
    MessageRow(
        AskExits, "session", ask_geometry, JOINED, cost=2,
        example={"token": "hero", "path": [[3, 5], [2, 5], [1, 5]]},
    ),
    MessageRow(ListRulesets, "session", list_rulesets, JOINED, cost=1, example={}),
    MessageRow(
        DescribeRuleset, "session", describe_ruleset, JOINED, cost=4,
        example={"ruleset": "cyberpunk-red"},
    ),
    command_row(
        engine.EndCombat, command, roles=GM_ONLY, example={"reason": "the ogres fled"},
        engine="gm_only, no_combat",
    ),
    command_row(
        engine.RollInitiative, command, roles=ACTORS,
        example={"token": "pc.alice", "rolls": [7]},
        engine="not_your_token, combat_active, bad_rolls (+ dice policy)",
    ),
    command_row(
        engine.SetStats, command, roles=GM_ONLY, example={"token": "ganger2", "stats": {"ref": 7}},
        engine="gm_only, no_combat, not_in_combat, unknown_stat, prompt_pending, bad_scene",
    ),
)  # fmt: skip

for _row in SHIPPED:
    register(_row)
