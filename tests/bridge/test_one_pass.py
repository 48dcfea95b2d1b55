"""One pass per command: a ``move`` and a ``move_points``, traced through a real bridge.

A profiler (:func:`sys.setprofile`) watches the server's side of one command, from the
frame's arrival to its acknowledgement and broadcast, and counts what ran: each check the
issue names (who controls the token, open prompts, the turn, the fight's ruleset, the
move mode), the shapes the command and its events are converted through, and the calls
that cross from one of our modules into another (module hops).  The checks must each run
once.  ``python -m tests.bridge.test_one_pass`` prints the whole count (the table in
``docs/development.md``, "One pass per command").
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import protocol
from tests.bridge.conftest import Bridge, running, token_of
from tests.bridge.test_fair_turns import walled_scene
from tests.wsclient import TableClient

OURS = ("protocol", "geometry", "engine", "vtt_bridge")
#: The checks one move ran twice before the one pass (controlled_token and friends).
CHECKS = ("controlled_token", "require_no_prompts", "require_turn", "find_ruleset", "move_mode")
#: Where a command or its events change shape: (module, function) -> what it makes.
CONVERSIONS = {
    ("protocol.codec", "decode_client"): "frame -> wire struct",
    # Any engine command built (read from its wire struct, or rebuilt as another).
    ("engine.commands", "__init__"): "engine command built",
    ("vtt_bridge.replies", "message_digest"): "wire struct -> digest",
    ("vtt_bridge.translate", "command_to_plain"): "engine command -> log map",
    ("vtt_bridge.translate", "event_to_plain"): "engine event -> plain map",
    ("protocol.wire", "trusted"): "plain map -> protocol message",
    ("vtt_bridge.fanout", "encode_json"): "protocol message -> frame",
    ("vtt_bridge.fanout", "encode_msgpack"): "protocol message -> frame",
    ("protocol.codec", "encode"): "protocol message -> frame",
}


RESUMABLE = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR


def _root(name: str | None) -> bool:
    return name is not None and name.split(".")[0] in OURS


@dataclass
class Trace:
    """What ran on the server's side while the profiler watched."""

    calls: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    conversions: Counter[str] = field(default_factory=Counter)
    hops: int = 0
    modules: set[str] = field(default_factory=set)
    #: Calls into the hub from another module (how often the command re-enters it).
    hub_entries: int = 0


async def traced(client_task: asyncio.Task[Any] | None, work: Awaitable[Any]) -> Trace:
    """Run ``work`` (the client's side: send and wait for the answers) with the server's
    calls counted; the client's own task is left out."""
    trace = Trace()
    # A coroutine's frame reports a "call" each time it resumes: counted once.
    resumable: set[FrameType] = set()

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__")
        if not _root(module):
            return
        if asyncio.current_task() is client_task:
            return
        if frame.f_code.co_flags & RESUMABLE:
            if frame in resumable:
                return
            resumable.add(frame)
        name = frame.f_code.co_name
        assert module is not None
        trace.modules.add(module)
        trace.calls[f"{module}.{name}"] += 1
        if name in CHECKS:
            trace.checks[name] += 1
        if (module, name) in CONVERSIONS:
            trace.conversions[CONVERSIONS[module, name]] += 1
        caller = frame.f_back
        caller_module = caller.f_globals.get("__name__") if caller is not None else None
        if _root(caller_module) and caller_module != module:
            trace.hops += 1
            trace.hub_entries += module == "vtt_bridge.hub"

    sys.setprofile(watch)
    try:
        await work
    finally:
        sys.setprofile(None)
    return trace


async def _fight(bridge: Bridge) -> tuple[TableClient, TableClient]:
    """A Hero fight on a Foundry-pixel scene, the GM's ``hero`` acting first; the GM
    and a player joined."""
    table = bridge.table("one-pass", ["alice"])
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice")
    for message, body in (
        (protocol.LoadScene, {"scene": walled_scene()}),
        (protocol.StartCombat, {"ruleset": "hero-supplement", "aware": None, "seed": 7}),
    ):
        seq = await gm.send(message, **body)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
    assert token_of(table, "gm")
    state = table.encounter.state
    assert state.combat is not None and state.combat.actor == "hero", state.combat
    return gm, alice


async def _command(
    gm: TableClient, alice: TableClient, message: type[Any], body: dict[str, Any]
) -> Trace:
    async def send_and_see() -> None:
        seq = await gm.send(message, **body)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        await alice.event("move_started")

    return await traced(asyncio.current_task(), send_and_see())


async def measure(bridge: Bridge) -> dict[str, Trace]:
    """One ``move`` and one ``move_points`` (a step west, then one east) by the GM."""
    gm, alice = await _fight(bridge)
    # A first move builds the scene's indexes (once a scene, not per command): untraced.
    await _command(gm, alice, protocol.Move, {"token": "hero", "path": [[6, 5]]})
    move = await _command(gm, alice, protocol.Move, {"token": "hero", "path": [[5, 5]]})
    points = await _command(
        gm, alice, protocol.MovePoints, {"token": "hero", "points": [[650.0, 550.0]]}
    )
    return {"move": move, "move_points": points}


async def test_a_move_and_a_move_points_run_each_check_once(bridge: Bridge) -> None:
    traces = await measure(bridge)
    for name, trace in traces.items():
        assert trace.checks == Counter(dict.fromkeys(CHECKS, 1)), (name, trace.checks)
        # Made once, each: the engine command, its log line, the broadcast message.
        assert trace.conversions["engine command built"] == 1, name
        assert trace.conversions["engine command -> log map"] == 1, name


def report(traces: dict[str, Trace]) -> str:
    """The counts as the docs' table gives them."""
    lines = ["| | " + " | ".join(f"`{n}`" for n in traces) + " |"]
    lines.append("|---|" + "---|" * len(traces))
    rows: dict[str, Callable[[Trace], object]] = {
        "module hops (calls from one of our modules into another)": lambda t: t.hops,
        "our modules run": lambda t: len(t.modules),
        "entries into the hub from another module": lambda t: t.hub_entries,
        "conversions": lambda t: sum(t.conversions.values()),
        **{f"`{c}` runs": (lambda t, c=c: t.checks[c]) for c in CHECKS},  # type: ignore[misc]
    }
    for label, value in rows.items():
        lines.append(f"| {label} | " + " | ".join(str(value(t)) for t in traces.values()) + " |")
    for name, trace in traces.items():
        lines.append("")
        lines.append(f"{name}: " + ", ".join(f"{k} x{v}" for k, v in trace.conversions.items()))
    return "\n".join(lines)


async def _main(top: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with running(Path(folder), rate_limit=10_000, rate_burst=10_000) as bridge:
            traces = await measure(bridge)
            print(report(traces))
            for name, trace in traces.items() if top else ():
                print(f"\n{name}, the {top} most called:")
                for call, count in trace.calls.most_common(top):
                    print(f"  {count:4} {call}")


if __name__ == "__main__":
    asyncio.run(_main(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
