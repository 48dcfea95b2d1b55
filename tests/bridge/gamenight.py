"""A whole game night at one table, over the protocol on a running server: the harness.

:func:`play_night` runs one evening as a table would, on a real server on loopback
(real SQLite file, recording on, the operator's credential set):

1. the table is made while the server runs (:data:`MADE_BY`: ``vtt-bridge create-table``
   writing the database, the same command asking the server with ``--server``, or the
   operator's ``create_table`` over HTTP), with the GM and Alice;
2. Bob's token is issued live by the GM (``issue_token``), a spectator's by
   ``vtt-bridge issue-token``; the GM, the players and the spectator join;
3. the first fight: the ruleset's golden-session script (``tests/scenario_*.py``), which
   loads a scene, starts combat and plays it, a newcomer joining on the way;
4. the GM ends it (``end_combat``); everyone sees ``combat_ended``;
5. a new scene loads and a second fight starts; the first to act steps out of an
   enemy's reach: an attack of opportunity where the ruleset's text has one (Hero's
   Combat Reflexes), none where it has none (Cyberpunk RED, M&M: checked, no prompt);
   a reinforcement joins, a token is removed, the GM revokes the spectator's token;
6. the recording replays identically (``vtt-bridge replay``).

The places other work plugs into are the :class:`Night` hooks, each run at its point
of the second fight (None: what exists today runs there):

* ``start_fight``: how the second fight starts.  Today the GM starts it and the server
  rolls every initiative.  Here a player rolls its own initiative where the table
  allows it, and is refused for another's token.
* ``reinforce``: a reinforcement joins.  Today ``join_combat`` with the server's die.
  Here it joins with the table's die and is placed by the game's tie rule.
* ``change_stats``: the GM changes a token's stats mid-fight.  Nothing does that yet,
  so nothing runs.
* ``remove_token``: the GM takes a token out.  Today ``leave_combat`` with ``remove``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import protocol
from tests.bridge.conftest import Bridge, closed_with, running
from tests.demo_table import BINARY, act
from tests.wsclient import TableClient, wire_data

ROOT = Path(__file__).resolve().parents[2]
#: The operator's credential of the night's server (``--ops-token``).
OPS_TOKEN = "game-night-ops-token"
#: How the night's table is made while the server runs.
MADE_BY = ("cli-database", "cli-server", "operator")
END_COMBAT: Any = protocol.CLIENT_MESSAGE_TYPES["end_combat"]

Cell = tuple[int, int]
FirstFight = Callable[[TableClient, TableClient, TableClient], Awaitable[Any]]


@dataclass
class NightTable:
    """The night's table while it plays: its members' connections and what hooks need."""

    bridge: Bridge
    id: str
    gm: TableClient
    alice: TableClient
    bob: TableClient
    spectator: TableClient
    #: The spectator's join token (the GM revokes it at the end).
    spectator_token: str


Hook = Callable[[NightTable, "Night"], Awaitable[None]]


@dataclass(frozen=True)
class Night:
    """One ruleset's game night: its first fight's script, its second scene, and the
    hooks (see the module) where later work plugs in."""

    ruleset: str
    first_fight: FirstFight
    second_scene: protocol.SceneSpec
    #: Alice's token, which acts first in the second fight, and its step out of an
    #: enemy's reach.
    mover: str
    step_away: tuple[Cell, ...]
    #: Whether that step provokes an attack of opportunity (the ruleset's text says).
    provokes: bool
    reinforcement: protocol.TokenSpec
    start_options: dict[str, Any] = field(default_factory=dict)
    start_fight: Hook | None = None
    reinforce: Hook | None = None
    change_stats: Hook | None = None
    remove_token: Hook | None = None


@dataclass
class NightResult:
    """What a night left: every event the GM saw, in order, and the recording."""

    events: list[protocol.Event]
    recording: Path


async def play_night(tmp_path: Path, night: Night, made_by: str) -> NightResult:
    """Play ``night`` on a fresh server in ``tmp_path``, its table made ``made_by``
    (one of :data:`MADE_BY`); the recording is replayed before this returns."""
    rec = tmp_path / "rec"
    options = dict(ops_token=OPS_TOKEN, record_dir=rec, rate_limit=10_000, rate_burst=10_000)
    async with running(tmp_path, **options) as bridge:
        table = await open_table(bridge, made_by)
        await night.first_fight(table.gm, table.alice, table.bob)
        await end_fight(table, "the night goes on")
        await second_fight(table, night)
        await revoke_spectator(table)
        events = [m for m in table.gm.inbox if isinstance(m, protocol.Event)]
        for client in (table.gm, table.alice, table.bob):
            await client.close()
        await asyncio.sleep(0.05)
    (recording,) = rec.glob(f"*-{table.id}-*.jsonl")
    replayed = vtt_bridge("replay", str(recording))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "messages identical" in replayed.stdout
    return NightResult(events, recording)


def vtt_bridge(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line of this tree in its own process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args], capture_output=True, text=True,
        timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def printed_tokens(out: str) -> dict[str, str]:
    """Participant -> join token, from what ``create-table`` / ``issue-token`` print."""
    return {w[1]: w[-1] for w in map(str.split, out.splitlines()) if w[-3:-1] == ["join", "token"]}


async def make_table(bridge: Bridge, made_by: str) -> tuple[str, dict[str, str]]:
    """Make the night's table (the GM and Alice) while ``bridge`` runs, ``made_by``;
    its id and tokens."""
    if made_by == "operator":
        url = bridge.server.make_url("/admin/create_table")
        body = {"name": "game night", "players": ["alice"], "request": "game-night"}
        auth = {"Authorization": f"Bearer {OPS_TOKEN}"}
        async with bridge.http.post(url, json=body, headers=auth) as response:
            made = await response.json()
            assert response.status == 200, made
        return made["table"], {t["participant"]: t["token"] for t in made["tokens"]}
    reach = (
        ["--server", str(bridge.server.make_url("/")), "--ops-token", OPS_TOKEN]
        if made_by == "cli-server"
        else ["--db", str(bridge.config.database)]
    )
    made = await asyncio.to_thread(vtt_bridge, "create-table", "game night", "--player",
                                   "alice", *reach)  # fmt: skip
    assert made.returncode == 0, made.stderr
    return made.stdout.split()[1], printed_tokens(made.stdout)


async def open_table(bridge: Bridge, made_by: str) -> NightTable:
    """Steps 1 and 2: the table made live, Bob's and a spectator's tokens issued live,
    everyone joined."""
    assert made_by in MADE_BY, made_by
    table_id, tokens = await make_table(bridge, made_by)
    members = {}
    for who in ("gm", "alice"):
        members[who] = await bridge.connect(binary=who in BINARY)
        assert (await members[who].join(tokens[who])).table == table_id
    gm = members["gm"]
    seq = await gm.send(protocol.IssueToken, participant="bob", role="player")
    issued = await gm.wait_for(
        (protocol.TokenIssued, protocol.ErrorMessage), lambda m: m.ref == seq
    )
    assert isinstance(issued, protocol.TokenIssued), issued
    shell = await asyncio.to_thread(vtt_bridge, "issue-token", table_id, "carol", "--role",
                                    "spectator", "--db", str(bridge.config.database))  # fmt: skip
    assert shell.returncode == 0, shell.stderr
    watcher = printed_tokens(shell.stdout)["carol"]
    bob, spectator = await bridge.connect(), await bridge.connect()
    assert (await bob.join(issued.token)).participant == "bob"
    assert (await spectator.join(watcher)).role == "spectator"
    return NightTable(bridge, table_id, gm, members["alice"], bob, spectator, watcher)


async def end_fight(table: NightTable, reason: str) -> None:
    """Step 4: the GM ends the fight; every member sees it end."""
    ack = await act(table.gm, END_COMBAT, reason=reason)
    for member in (table.gm, table.alice, table.bob, table.spectator):
        ended = await member.wait_for(
            protocol.Event, lambda e: e.kind == "combat_ended" and e.index == ack.last_event
        )
        assert wire_data(ended) == {"reason": reason}
    assert table.bridge.hub.tables[table.id].encounter.state.combat is None


async def second_fight(table: NightTable, night: Night) -> None:
    """Step 5: a new scene, a second fight, its first step, a reinforcement, a token
    removed (see the module for the hooks)."""
    gm = table.gm
    await act(gm, protocol.LoadScene, scene=night.second_scene)
    mark = len(gm.inbox)
    if night.start_fight is not None:
        await night.start_fight(table, night)
    else:
        await act(gm, protocol.StartCombat, ruleset=night.ruleset, aware=None, seed=None,
                  **night.start_options)  # fmt: skip
    first = await seen(gm, mark, "combatant_acts")
    assert wire_data(first)["combatant"] == night.mover, wire_data(first)
    await step_away(table, night)
    if night.reinforce is not None:
        await night.reinforce(table, night)
    else:
        await act(gm, protocol.JoinCombat, token=night.reinforcement)
        assert wire_data(await gm.event("combatant_joined"))["token"]["id"] == (
            night.reinforcement.id
        )
    if night.change_stats is not None:
        await night.change_stats(table, night)
    if night.remove_token is not None:
        await night.remove_token(table, night)
    else:
        await act(gm, protocol.LeaveCombat, token=night.reinforcement.id, remove=True)
        left = wire_data(await gm.event("combatant_left"))
        assert left == {"combatant": night.reinforcement.id, "removed": True}
    await act(table.alice, protocol.EndPhase, token=night.mover)


async def step_away(table: NightTable, night: Night) -> None:
    """Alice's token steps out of an enemy's reach: the enemy's owner (the GM) is asked
    for its attack of opportunity where the ruleset has one, and the GM takes it."""
    gm, alice = table.gm, table.alice
    mark = len(gm.inbox)
    await act(alice, protocol.Move, token=night.mover, path=night.step_away)
    if night.provokes:
        prompt = await gm.wait_for(protocol.Prompt)
        assert prompt.kind == "attack_of_opportunity", prompt
        await act(gm, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
        if wire_data(await gm.event("attack_rolled"))["hit"]:
            ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
            await act(gm, protocol.AnswerPrompt, prompt=ask.prompt, accept=True, rolls=None)
    completed = await seen(gm, mark, "move_completed")
    assert wire_data(completed)["token"] == night.mover
    if not night.provokes:
        asked = [m for m in gm.inbox[mark:] if isinstance(m, protocol.Prompt)]
        assert asked == [], asked  # the step away provoked nothing: the text has no AoO


async def revoke_spectator(table: NightTable) -> None:
    """The GM revokes the spectator's token over the protocol: it is closed (1008)."""
    gm = table.gm
    seq = await gm.send(protocol.RevokeToken, token=table.spectator_token)
    answer = await gm.wait_for(
        (protocol.TokenRevoked, protocol.ErrorMessage), lambda m: m.ref == seq
    )
    assert isinstance(answer, protocol.TokenRevoked), answer
    assert await closed_with(table.spectator.ws) == 1008


async def seen(client: TableClient, since: int, kind: str) -> protocol.Event:
    """The first event of ``kind`` ``client`` received from inbox position ``since`` on,
    read already or still to come."""
    for message in client.inbox[since:]:
        if isinstance(message, protocol.Event) and message.kind == kind:
            return message
    return await client.event(kind)
