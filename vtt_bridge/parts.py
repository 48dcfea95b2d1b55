"""The parts of the hub its helpers use, as protocols: :mod:`vtt_bridge.admin`,
:mod:`vtt_bridge.membership` and the message rows take these, not
:class:`vtt_bridge.hub.Hub`, so none of them imports the hub that imports them.

The hub satisfies both structurally (mypy checks it where the hub passes itself); a
helper that needs more of the hub adds it here, where it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from vtt_bridge.committer import Committer, CrashFn
from vtt_bridge.metrics import Metrics
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.tables import Session, Table
from vtt_bridge.token_cache import JoinTokens

__all__ = ["Dispatcher", "HubParts"]


class HubParts(Protocol):
    """What the join, the catch-up and the GM's admin commands use of the hub: its
    commit queue, counters, store, open tables, which table each join token opens,
    the crash test's fault injector, and a connection's leaving."""

    @property
    def committer(self) -> Committer:
        """The commit queue every logged change and ordered reply goes through."""

    @property
    def metrics(self) -> Metrics:
        """The server's counters."""

    @property
    def store(self) -> EventStore:
        """The SQLite log (called only through :attr:`committer`'s database thread)."""

    @property
    def tables(self) -> dict[str, Table]:
        """The open tables by id."""

    @property
    def by_token(self) -> dict[str, Table]:
        """The table each join token memory knows opens."""

    @property
    def join_tokens(self) -> JoinTokens:
        """The join-token rows joins read, kept while the database is unchanged."""

    @property
    def max_connections_per_token(self) -> int:
        """How many connections one join token may hold open at once."""

    @property
    def crash(self) -> CrashFn:
        """The crash test's fault injector (:func:`vtt_bridge.app.crash_hook`)."""

    def leave(self, session: Session, now_ms: int) -> None:
        """The connection closed: stop sending it anything."""

    async def table_created_elsewhere(self, table_id: str) -> Table | None:
        """A table another process created since start-up, loaded now (None: none)."""


class Dispatcher(HubParts, Protocol):
    """What a message row's handler (:mod:`vtt_bridge.rows`) uses of the hub: the parts
    above, and the three ways a message is carried out."""

    async def answer(self, session: Session, action: Callable[[], None], now_ms: int) -> None:
        """Send a reply that changes nothing, in the table's order."""

    async def administer(self, session: Session, message: Any, now_ms: int) -> None:
        """A GM's change to the table's settings or join tokens: logged, answered once."""

    async def command(self, session: Session, message: Any, now_ms: int) -> None:
        """A command: checked, applied, committed, acknowledged and broadcast."""
