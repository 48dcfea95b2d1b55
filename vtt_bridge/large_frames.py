"""Large frames made ready off the event loop.

The largest scene a frame carries (a 1,000 x 1,000 grid, 507 tokens, 104 walls, 63 KB)
costs about 15 ms of Python from its bytes to its log row, and the first question about
it 12 ms more to index it: done on the event loop, every other table on the server
waits that long, as one stretch.  None of that work reads the table: parsing and
validating the frame, reading it into its engine command, writing that command's and
its event's log forms, and indexing the scene depend on the frame alone.  So a frame
of :data:`LARGE_FRAME` bytes or more is made ready here, on one worker thread
(:class:`LargeFrames`), and the loop only applies what it gets back.

The worker holds Python's interpreter lock while it runs, but gives it up every
switch interval (``sys.getswitchinterval()``, 5 ms by default), so the loop runs its
callbacks between the worker's stretches instead of after the whole.  What stays on
the loop is what must: checking the command against the table's state, applying it,
queueing its commit, and taking the ready index (:meth:`engine.Encounter.adopt_index`).

Order: this connection's own later frames wait for it (a connection's frames are
handled one at a time); another member's frame sent just after it may be answered
first.  The frame takes its place in its table's order when it is ready, as if it had
arrived those few milliseconds later, and a replay, which follows the recorded order,
does the same.  Nothing here is recorded or applied.
"""

from __future__ import annotations

import concurrent.futures
import logging
from dataclasses import dataclass
from typing import Any, Final

import engine
import protocol
from engine.scene_checks import check_scene
from engine.spatial import build_board, build_index
from vtt_bridge.registry import ROWS
from vtt_bridge.translate import command_to_plain, event_to_plain

log = logging.getLogger("vtt_bridge")

#: A frame of this many bytes or more is made ready on the worker: below it, decoding
#: takes well under a millisecond and the hand-off would cost more than it saves.
LARGE_FRAME: Final = 16 * 1024


@dataclass(frozen=True, slots=True)
class Ready:
    """A large frame's message, and for a command what the loop would otherwise work
    out from it: the engine command (sent by ``participant``), its log form, and for a
    scene load its event's log form and the scene's index (or gridless board)."""

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


def make_ready(frame: str | bytes, max_bytes: int, participant: str | None) -> Ready:
    """Decode ``frame`` (raising :class:`protocol.ProtocolError` for bad input) and, when
    it is a command a member (``participant``) sends whose engine form needs nothing of
    the table, work that form out too.  Runs on the worker thread: pure."""
    message = protocol.decode_client(frame, max_bytes=max_bytes)
    row = ROWS.get(type(message))
    if participant is None or row is None or row.kind != "command":
        return Ready(message)
    try:
        command = row.table_free_command(message, participant)
    except Exception:  # the loop reads it again, and answers whatever it meets
        return Ready(message)
    if command is None:
        return Ready(message)
    plain = command_to_plain(command)
    if not isinstance(command, engine.LoadScene):
        return Ready(message, participant, command, plain)
    events = [event_to_plain(engine.events.SceneLoaded(command.scene))]
    return Ready(message, participant, command, plain, events, _index_of(command.scene))


def _index_of(scene: engine.Scene) -> Any:
    """The index a first question about ``scene`` would build (a gridless scene's board),
    once the scene is checked as its load will check it (:func:`check_scene`, which then
    answers the load at once); None for a scene the load will refuse."""
    try:
        check_scene(scene)
        return build_board(scene) if scene.grid.gridless else build_index(scene)
    except Exception:  # refused: the load says why, on the loop
        return None


class LargeFrames:
    """The one worker thread large frames are made ready on (see the module)."""

    def __init__(self) -> None:
        self._worker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="vtt-large-frames"
        )

    def submit(
        self, frame: str | bytes, max_bytes: int, participant: str | None
    ) -> concurrent.futures.Future[Ready]:
        """Make ``frame`` ready on the worker (:func:`make_ready`)."""
        return self._worker.submit(make_ready, frame, max_bytes, participant)

    def close(self) -> None:
        """Stop the worker once what it was given is done."""
        self._worker.shutdown(wait=True)
