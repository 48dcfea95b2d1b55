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
5. the GM lets players roll (``configure_table {dice: "players"}``), a new scene loads
   and the second fight, a :class:`Night`'s figures, each worked out by hand from the
   game's text where the night is declared (``tests/bridge/test_game_night.py``):

   * :class:`Start`: Alice rolls her token's initiative (``roll_initiative``), Bob
     may not roll it nor she another's token (``dice_refused``); the GM starts the fight
     and Alice's dice are used, in her name: the exact order and scores;
   * ``interrupt``: the game's own interruption of a move (Hero: an attack of
     opportunity; Cyberpunk RED: a held action firing as a token enters an area; M&M,
     which has neither: a step away that provokes nothing);
   * :class:`Reinforcement`: a newcomer joins with the table's dice, tied with someone
     already in the order, placed by the game's tie rule: the exact score and order;
   * :class:`StatChange`: the GM changes a sheet (the order stands, as each game's
     text says) and is refused a statistic the game does not play (``unknown_stat``);
   * ``removed``: the GM takes a token off (``leave_combat`` with ``remove``);
   * the next pass (Round, Phase) runs in the order those figures make;
6. the GM revokes the spectator's token; the recording replays identically
   (``vtt-bridge replay``).

Every refusal leaves the table's fingerprint as it was.
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
from tests.bridge.conftest import Bridge, closed_with, running, table_fingerprint
from tests.demo_table import BINARY, act
from tests.scenario_hands import ROLL_INITIATIVE, SET_STATS
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
class Start:
    """How the second fight starts: Alice's own dice for her token, the GM's for the
    rest, and the order and scores they make."""

    #: Alice's dice for the night's mover (``roll_initiative``).
    own: tuple[int, ...]
    #: A token Alice does not control: she is refused rolling for it.
    refused_for: str
    #: The GM's ``start_combat.rolls``: every other die, in the order the game rolls.
    gm_rolls: tuple[int, ...]
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Reinforcement:
    """A newcomer joining with the table's dice, tied with someone in the order."""

    token: protocol.TokenSpec
    rolls: tuple[int, ...]
    score: int
    order: tuple[str, ...]


@dataclass(frozen=True)
class StatChange:
    """The GM's sheet change mid-fight, and a statistic the game does not play."""

    token: str
    stats: dict[str, Any]
    unplayed: str
    #: A statistic the refusal names among those the game plays.
    named: str


@dataclass(frozen=True)
class Night:
    """One ruleset's game night: its first fight's script, its second scene and the
    second fight's figures (see the module)."""

    ruleset: str
    first_fight: FirstFight
    second_scene: protocol.SceneSpec
    #: Alice's token, which acts first in the second fight.
    mover: str
    start: Start
    #: The game's interruption of a move, played from the mover's first turn.
    interrupt: Hook
    reinforcement: Reinforcement
    stat_change: StatChange
    #: The token the GM takes off the scene.
    removed: str
    start_options: dict[str, Any] = field(default_factory=dict)


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
    """Step 5: the dice policy ``players``, a new scene, a second fight started with a
    player's own initiative dice, its interruption, a tied reinforcement, a stat
    changed and a token removed (see the module)."""
    gm = table.gm
    await act(gm, protocol.ConfigureTable, dice="players", prompt_timeout_ms=None)
    assert table.bridge.hub.tables[table.id].row.dice == "players"
    await act(gm, protocol.LoadScene, scene=night.second_scene)
    await start_with_own_dice(table, night)
    await night.interrupt(table, night)
    await reinforce(table, night)
    await change_stats(table, night.stat_change)
    await remove_token(table, night.removed)
    await next_pass(table, night)


async def start_with_own_dice(table: NightTable, night: Night) -> None:
    """Alice rolls her token's initiative herself (``roll_initiative``); Bob may not
    roll it, nor she another's token (``dice_refused``, nothing changed); the GM
    starts the fight with the rest of the dice and Alice's are used, in her name."""
    gm, alice, bob, start = table.gm, table.alice, table.bob, night.start
    for who, token in ((bob, night.mover), (alice, start.refused_for)):
        no = await refused(table, who, ROLL_INITIATIVE, token=token, rolls=list(start.own))
        assert no.code == "dice_refused", no
    ack = await act(alice, ROLL_INITIATIVE, token=night.mover, rolls=list(start.own))
    (rolled,) = await caused(gm, ack)
    assert rolled == ("initiative_rolled",
                      {"token": night.mover, "by": "alice", "rolls": list(start.own)})  # fmt: skip
    ack = await act(gm, protocol.StartCombat, ruleset=night.ruleset, aware=None, seed=None,
                    rolls=start.gm_rolls, **night.start_options)  # fmt: skip
    events = await caused(gm, ack)
    dice = [d for k, d in events if k == "dice_rolled"]
    own = [(d["results"], d["source"]) for d in dice if d["by"] == "alice"]
    assert own == [(list(start.own), "table")], dice
    assert all(d["by"] == "gm" for d in dice if d["by"] != "alice"), dice
    assert last(events, "initiative_order") == {
        "order": list(start.order), "scores": [list(s) for s in start.scores],
    }  # fmt: skip
    assert last(events, "combatant_acts")["combatant"] == night.mover


async def reinforce(table: NightTable, night: Night) -> None:
    """A reinforcement joins with the table's dice, tied with someone already in the
    order, and the game's tie rule places it: the exact score and order (everyone else
    keeping the score they started with)."""
    newcomer = night.reinforcement
    ack = await act(table.gm, protocol.JoinCombat, token=newcomer.token, rolls=newcomer.rolls)
    events = await caused(table.gm, ack)
    dice = [d["results"] for k, d in events if k == "dice_rolled"]
    assert [die for results in dice for die in results] == list(newcomer.rolls), dice
    joined = last(events, "combatant_joined")
    assert (joined["combatant"], joined["score"]) == (newcomer.token.id, newcomer.score)
    score_of = {**dict(night.start.scores), newcomer.token.id: newcomer.score}
    assert last(events, "initiative_order") == {
        "order": list(newcomer.order),
        "scores": [[cid, score_of[cid]] for cid in newcomer.order],
    }


async def change_stats(table: NightTable, change: StatChange) -> None:
    """The GM changes a sheet mid-fight: a statistic the game does not play is refused
    (``unknown_stat``, naming those it does, nothing changed); a played one changes
    with the game's stated effect on the order (it stands, for all three games)."""
    gm = table.gm
    unplayed = {change.unplayed: 3}
    no = await refused(table, gm, SET_STATS, token=change.token, stats=unplayed)
    assert no.code == "unknown_stat" and change.named in no.message, no
    before = table.bridge.hub.tables[table.id].encounter.state.combat
    assert before is not None
    ack = await act(gm, SET_STATS, token=change.token, stats=change.stats)
    events = await caused(gm, ack)
    changed = [[k, v] for k, v in change.stats.items()]
    stated = {"combatant": change.token, "stats": changed, "order_kept": True}
    assert events == [("stats_changed", stated)]
    state = table.bridge.hub.tables[table.id].encounter.state
    assert state.combat is not None and state.combat.order == before.order
    assert state.scene is not None
    (sheet,) = [dict(t.stats) for t in state.scene.tokens if t.id == change.token]
    assert {k: sheet[k] for k in change.stats} == change.stats


async def remove_token(table: NightTable, token: str) -> None:
    """The GM takes ``token`` out of the fight and off the scene (``leave_combat``
    with ``remove``): it leaves the order, and the scene no longer holds it."""
    gm = table.gm
    ack = await act(gm, protocol.LeaveCombat, token=token, remove=True)
    events = await caused(gm, ack)
    assert ("combatant_left", {"combatant": token, "removed": True}) in events, events
    state = table.bridge.hub.tables[table.id].encounter.state
    assert state.combat is not None and token not in state.combat.order
    assert state.scene is not None and token not in [t.id for t in state.scene.tokens]
    moved = await gm.reply_to(await gm.send(protocol.Move, token=token, path=((0, 0),)))
    assert isinstance(moved, protocol.ErrorMessage) and moved.code == "unknown_token", moved


async def next_pass(table: NightTable, night: Night) -> None:
    """The fight goes on to its next pass (a Round, a Phase), which runs in the order
    the night's figures say: the reinforcement where its tie put it, the changed stat
    moving nobody, the removed token gone.  The GM ends each turn."""
    gm = table.gm
    expected = [c for c in night.reinforcement.order if c != night.removed]
    so_far = [(e.kind, wire_data(e)) for e in gm.inbox if isinstance(e, protocol.Event)]
    actor, started = last(so_far, "combatant_acts")["combatant"], False
    went: list[str] = []
    while len(went) < len(expected):
        for kind, data in await caused(gm, await act(gm, protocol.EndPhase, token=actor)):
            started = started or kind == "pass_started"
            if kind == "combatant_acts":
                actor = data["combatant"]
                went += [actor] if started else []
    assert went == expected, went


async def step_away(
    table: NightTable, mover: str, path: tuple[Cell, ...], attacker: str | None
) -> None:
    """Alice's ``mover`` steps out of an enemy's reach along ``path``: where the ruleset
    has attacks of opportunity, ``attacker``'s owner (the GM) is asked for one at the
    mover's first cell and takes it; where it has none (None) nobody is asked."""
    gm, alice = table.gm, table.alice
    mark = len(gm.inbox)
    await act(alice, protocol.Move, token=mover, path=path)
    if attacker is not None:
        prompt = await gm.wait_for(protocol.Prompt)
        asked = (prompt.kind, prompt.attacker, prompt.target)
        assert asked == ("attack_of_opportunity", attacker, mover), prompt
        ack = await act(gm, protocol.AnswerPrompt, prompt=prompt.prompt, accept=True, rolls=None)
        rolled = last(await caused(gm, ack), "attack_rolled")
        assert (rolled["attacker"], rolled["target"]) == (attacker, mover), rolled
        if rolled["hit"]:
            ask = await gm.wait_for(protocol.Prompt, lambda p: p.kind == "continue_after_hit")
            await act(gm, protocol.AnswerPrompt, prompt=ask.prompt, accept=True, rolls=None)
    completed = await seen(gm, mark, "move_completed")
    assert wire_data(completed)["token"] == mover
    if attacker is None:
        prompts = [m for m in gm.inbox[mark:] if isinstance(m, protocol.Prompt)]
        assert prompts == [], prompts  # the step away provoked nothing: the text has no AoO


async def refused(
    table: NightTable, client: TableClient, message: Any, **body: Any
) -> protocol.ErrorMessage:
    """Send a command that must be refused, leaving the table as it was."""
    before = table_fingerprint(table.bridge.hub.tables[table.id])
    answer = await client.reply_to(await client.send(message, **body))
    assert isinstance(answer, protocol.ErrorMessage), answer
    assert table_fingerprint(table.bridge.hub.tables[table.id]) == before
    return answer


async def caused(client: TableClient, ack: protocol.Ack) -> list[tuple[str, Any]]:
    """The events the command ``ack`` answers caused, as ``client`` received them:
    (kind, wire data) each, in order."""
    assert ack.first_event is not None and ack.last_event is not None, ack
    first, last_ = ack.first_event, ack.last_event
    if not any(isinstance(m, protocol.Event) and m.index == last_ for m in client.inbox):
        await client.wait_for(protocol.Event, lambda e: e.index == last_)
    return [
        (m.kind, wire_data(m))
        for m in client.inbox
        if isinstance(m, protocol.Event) and first <= m.index <= last_
    ]


def last(events: list[tuple[str, Any]], kind: str) -> Any:
    """The wire data of the last event of ``kind`` in ``events``."""
    found = [data for k, data in events if k == kind]
    assert found, (kind, events)
    return found[-1]


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
