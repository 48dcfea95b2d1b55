"""Large frames are made ready in pieces (``vtt_bridge.large_frames``): what a
table sees, logs and is answered is exactly what the event loop alone would give, and
the scene's index built then is the one the first question uses."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack
import msgspec

import engine
import protocol
from bench.event_window import big_scene
from engine import Encounter
from geometry import ThreatIndex
from tests.bridge.conftest import running, table_fingerprint
from tests.wsclient import wire_data
from vtt_bridge.large_frames import LARGE_FRAME, make_ready
from vtt_bridge.registry import ROWS
from vtt_bridge.translate import command_from_plain, command_to_plain, event_to_plain

#: 200 tokens: about 25 KB of JSON, above the large-frame threshold.
SCENE = big_scene(200)


def large(message: protocol.ClientMessage) -> str:
    """``message`` as a JSON frame, checked to be a large one."""
    frame = protocol.encode_json(message)
    assert len(frame) >= LARGE_FRAME
    return frame


def test_what_is_made_ready_is_what_the_loop_would_make() -> None:
    message = protocol.LoadScene(seq=3, scene=SCENE)
    ready = asyncio.run(make_ready(large(message), protocol.MAX_FRAME_BYTES, "gm"))
    assert ready.message == message
    command = ROWS[protocol.LoadScene].table_free_command(message, "gm")
    assert ready.command == command and ready.plain == command_to_plain(command)
    assert ready.events == [event_to_plain(engine.events.SceneLoaded(command.scene))]
    assert isinstance(ready.index, ThreatIndex)
    # Not a member yet (no table): only decoded, as the loop would before refusing it.
    outsider = asyncio.run(make_ready(large(message), protocol.MAX_FRAME_BYTES, None))
    assert outsider.message == message and outsider.command is None


async def test_a_large_scene_loads_logs_and_broadcasts_as_the_loop_would(tmp_path: Path) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm", binary=True)
        alice = await bridge.member(table, "alice")
        await gm.send_raw(large(protocol.LoadScene(seq=gm.seq + 1, scene=SCENE)))
        gm.seq += 1
        assert isinstance(await gm.reply_to(gm.seq), protocol.Ack)
        seen = await alice.event("scene_loaded")
        row = bridge.hub.store.log(table.id)[-1]
        command = command_from_plain(row.command)
        assert isinstance(command, engine.LoadScene) and command.actor == "gm"
        assert row.command == command_to_plain(command)
        assert row.events == [event_to_plain(engine.events.SceneLoaded(command.scene))]
        assert wire_data(seen) == row.events[0]["data"]
        # The log replays to the state the table holds.
        assert bridge.hub.full_replay_hash(table.id) == table.encounter.state_hash()


async def test_the_first_question_uses_the_index_made_ready(tmp_path: Path) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        await gm.send_raw(large(protocol.LoadScene(seq=gm.seq + 1, scene=SCENE)))
        gm.seq += 1
        assert isinstance(await gm.reply_to(gm.seq), protocol.Ack)
        spatial = table.encounter._spatial
        built = spatial._index
        assert built is not None and spatial._scene is table.encounter.state.scene
        seq = await gm.send(protocol.AskPath, token="t1", to=(1, 5))
        plan = await gm.wait_for(protocol.PathPlan, lambda m: m.ref == seq)
        assert spatial._index is built  # asked about, not built again
        # The same answer a fresh encounter, building its own index, gives.
        fresh = Encounter(table.encounter.state)
        expected = fresh.plan_path("t1", (1, 5), "gm")
        assert [tuple(cell) for cell in plan.path] == [tuple(c) for c in expected.path]
        assert plan.cost == expected.cost


async def test_large_frames_refused_change_nothing_and_name_their_seq(tmp_path: Path) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm", binary=True)
        before = table_fingerprint(table)
        # Malformed: a field the scene does not have, in a large msgpack frame.
        wire = protocol.to_wire(protocol.LoadScene(seq=gm.seq + 1, scene=SCENE))
        wire["body"]["scene"]["tokens"][7]["colour"] = "red"
        frame = msgpack.packb(wire)
        assert len(frame) >= LARGE_FRAME
        await gm.send_raw(frame)
        gm.seq += 1
        refused = await gm.reply_to(gm.seq)
        assert isinstance(refused, protocol.ErrorMessage)
        assert (refused.code, refused.path) == ("unknown_field", "body.scene.tokens[7].colour")
        # Well formed but not playable (two tokens on one square), twice: the second
        # refusal is the remembered one, word for word.
        plain = msgspec.to_builtins(SCENE)
        plain["tokens"][1]["x"] = 0
        overlapping = protocol.SceneSpec.from_wire(plain)
        answers = []
        for _ in range(2):
            await gm.send_raw(large(protocol.LoadScene(seq=gm.seq + 1, scene=overlapping)))
            gm.seq += 1
            answer = await gm.reply_to(gm.seq)
            assert isinstance(answer, protocol.ErrorMessage)
            answers.append((answer.code, answer.message))
        assert answers[0] == answers[1] and answers[0][0] == "bad_scene"
        assert "overlap" in answers[0][1]
        assert table_fingerprint(table) == before
