"""What a client reads in protocol/README.md is what the server sends (issue 13's drift):
the first server ``seq`` is 1, a prompt carries ``deadline_ms`` on the server's wall
clock and ``remaining_ms`` at send time, tokens' ``stats`` arrive as maps, and every
event or prompt kind the README shows exists."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer

import engine
import protocol
from engine.prompts import CORE_PROMPTS
from engine.rulesets import registered
from tests.bridge.test_foundation_path import demo_tokens, fight_started
from tests.scenario import scene_spec
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import CONFIG

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"


def readme_frames() -> list[dict[str, object]]:
    blocks = re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    frames = [json.loads(b) for b in blocks]
    return [m for f in frames for m in (f if isinstance(f, list) else [f])]


def event_kinds() -> set[str]:
    core = {cls.kind for cls in engine.events.Event.__args__}  # type: ignore[attr-defined]
    games = {e.kind for r in registered() for e in type(r).vocabulary.events}
    return core | games


def test_readme_event_and_prompt_kinds_exist() -> None:
    frames = readme_frames()
    shown = {f["body"]["kind"] for f in frames if f["type"] == "event"}  # type: ignore[index]
    assert shown and shown <= event_kinds(), shown - event_kinds()
    prompts = {f["body"]["kind"] for f in frames if f["type"] == "prompt"}  # type: ignore[index]
    assert prompts and prompts <= set(CORE_PROMPTS) | {"delayed_action"}


def test_readme_says_the_first_server_seq_is_1() -> None:
    welcome = [f for f in readme_frames() if f["type"] == "welcome"]
    assert welcome and all(f["seq"] == 1 for f in welcome)
    assert "starts at 1" in README.read_text(encoding="utf-8")


async def test_first_server_seq_is_1_and_stats_arrive_as_maps(tmp_path: Path) -> None:
    app = create_app(Config(database=tmp_path / "db.sqlite3", demo=True))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        gm = await TableClient.connect(http, str(server.make_url("/ws")))
        welcome = await gm.join(demo_tokens(app)["gm"])
        assert welcome.seq == 1
        await gm.send(protocol.LoadScene, scene=scene_spec())
        loaded = await gm.event("scene_loaded")
        sent = {t.id: t.stats for t in scene_spec().tokens}
        for token in wire_data(loaded)["scene"]["tokens"]:
            assert token["stats"] == sent[token["id"]]  # a map, as load_scene took it
        late = await TableClient.connect(http, str(server.make_url("/ws")))
        await late.join(demo_tokens(app)["alice"])
        state = await late.wait_for(protocol.State)
        assert all(isinstance(t["stats"], dict) for t in state.state["scene"]["tokens"])


async def test_a_prompt_says_when_on_the_server_clock_and_how_long_left(tmp_path: Path) -> None:
    async with fight_started(tmp_path, prompt_timeout=20.0) as (app, gm, alice):
        await alice.send(protocol.Move, token="hero", path=((3, 5), (2, 5), (1, 5)))
        prompt = await gm.wait_for(protocol.Prompt)
        assert prompt.remaining_ms == 20_000  # sent as the prompt opened
        # deadline_ms is the server's wall clock (Unix ms) when it will take the default
        assert prompt.deadline_ms - prompt.remaining_ms <= app[CONFIG].clock()
        assert abs(prompt.deadline_ms - 20_000 - time.time() * 1000) < 60_000
