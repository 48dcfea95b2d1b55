"""Large frames made ready in pieces, with the event loop's other work between them.

The largest scene a frame carries (a 1,000 x 1,000 grid, 507 tokens, 104 walls, 63 KB)
costs about 15 ms of Python from its bytes to its log row, and the first question about
it 12 ms more to index it: done in one piece, every other table on the server waits
that long.  None of that work reads the table: parsing and validating the frame,
reading it into its engine command, writing that command's and its event's log forms,
checking the scene and indexing it depend on the frame alone.  So a frame of
:data:`LARGE_FRAME` bytes or more is made ready here (:func:`make_ready`) one piece at
a time, each a few milliseconds, and the loop runs every other callback that is due
between two pieces.  Applying it is left as it was: checking the command against the
table's state (the scene's check then answers from memory,
:func:`engine.scene_checks.check_scene`), applying it, queueing its commit, and taking
the ready index (:meth:`engine.Encounter.adopt_index`).

Not a worker thread: Python's interpreter lock would make the loop wait for it after
every system call the loop makes (a socket write, a poll), up to the switch interval
each time, and the other tables' acknowledgements came out slower than with no worker
at all (``bench.neighbour``'s reload case, 2026-12-02: p99 17 to 152 ms against 10 to
14 ms, and 15 to 17 ms with a 1 ms switch interval).

Order: this connection's own later frames wait for it (a connection's frames are
handled one at a time); another member's frame sent just after it may be answered
first.  The frame takes its place in its table's order when it is ready, as if it had
arrived those few milliseconds later, and a replay, which follows the recorded order,
does the same.  Nothing here is recorded or applied.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

import engine
import protocol
from engine.scene_checks import check_scene
from engine.spatial import build_board, index_in_steps
from vtt_bridge.registry import ROWS
from vtt_bridge.translate import command_to_plain, event_to_plain

#: A frame of this many bytes or more is made ready in pieces: below it, decoding takes
#: well under a millisecond.
LARGE_FRAME: Final = 16 * 1024


@dataclass(frozen=True, slots=True)
class Ready:
    """A large frame's message, and for a command what the loop would otherwise work
    out from it: the engine command (sent by ``participant``), its log form, and for a
    scene load its event's log form and the scene's index (or gridless board; None
    for a scene the load will refuse)."""

    message: protocol.ClientMessage
    participant: str = ""
    command: engine.Command | None = None
    plain: dict[str, Any] | None = None
    events: list[dict[str, Any]] | None = None
    index: Any = None

    def command_for(self, message: protocol.ClientMessage, participant: str) -> Any:
        """The ready engine command if it is ``message``'s sent by ``participant``."""
        if self.message is message and self.participant == participant:
            return self.command
        return None


#: Seconds between two pieces: long enough that what the loop has to do meanwhile (a
#: socket's bytes, a timer) runs between them rather than after two pieces in a row.
PAUSE_S: Final = 0.001


async def _pause() -> None:
    """Let the loop's other work run before the next piece."""
    await asyncio.sleep(PAUSE_S)


async def make_ready(frame: str | bytes, max_bytes: int, participant: str | None) -> Ready:
    """Decode ``frame`` (raising :class:`protocol.ProtocolError` for bad input) and, when
    it is a command a member (``participant``) sends whose engine form needs nothing of
    the table, work that form out too, pausing between the pieces."""
    tree = protocol.parse_frame(frame, max_bytes=max_bytes)
    await _pause()
    message = protocol.client_from_wire(tree)
    row = ROWS.get(type(message))
    if participant is None or row is None or row.kind != "command":
        return Ready(message)
    await _pause()
    try:
        command = row.table_free_command(message, participant)
    except Exception:  # the loop reads it again, and answers whatever it meets
        return Ready(message)
    if command is None:
        return Ready(message)
    await _pause()
    plain = command_to_plain(command)
    if not isinstance(command, engine.LoadScene):
        return Ready(message, participant, command, plain)
    await _pause()
    events = [event_to_plain(engine.events.SceneLoaded(command.scene))]
    await _pause()
    index = await _index_of(command.scene)
    return Ready(message, participant, command, plain, events, index)


async def _index_of(scene: engine.Scene) -> Any:
    """The index a first question about ``scene`` would build (a gridless scene's board),
    once the scene is checked as its load will check it; None for a scene the load
    will refuse (it says why)."""
    try:
        check_scene(scene)
    except engine.CommandRejected:
        return None
    try:
        if scene.grid.gridless:
            await _pause()
            return build_board(scene)
        steps = index_in_steps(scene)
        while True:
            await _pause()
            try:
                next(steps)
            except StopIteration as done:
                return done.value
    except Exception:  # the first question builds it again, and answers what it meets
        return None
