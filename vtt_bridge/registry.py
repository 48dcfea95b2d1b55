"""Every client message in one row: its wire struct, its engine command, its handler,
who may send it, what it costs, and an example.

Theory of operation.  The row *is* the dispatch (as h11's event classes and aiohttp's
route tables are): :meth:`vtt_bridge.hub.Hub.receive` looks up the decoded message's
row once, charges its :attr:`MessageRow.cost`, checks its :attr:`MessageRow.roles`
(:mod:`vtt_bridge.permissions`), and calls its :attr:`MessageRow.handle`.  A command's
row also makes its engine command (:meth:`MessageRow.to_command`, by field name, see
:mod:`vtt_bridge.derive`), so no list elsewhere names the message again.

The shipped rows are in :mod:`vtt_bridge.rows`.  A new command is one module: its engine
dataclass (bounds as ``Annotated`` marks), its handler, and a :func:`command_row` that
derives its wire struct from the dataclass; :func:`register` (or :func:`registered`, for
a test) adds it to the protocol's decoder, the engine's handlers and this table.  Once
shipped (imported by :mod:`vtt_bridge.rows`), ``python -m tools.wiredocs --write``
writes its struct into :mod:`protocol.commands` too, so ``import protocol`` alone
decodes it; the row then holds that copy.

Fail closed: a row whose ``roles`` are empty is refused to everyone, and a decoded
message with no row is refused (``not_permitted``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import typing
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

import protocol
from engine.handlers import Handler as EngineHandler
from engine.handlers import register_command, unregister_command
from engine.params import dice_fields
from protocol.commands import DERIVED
from protocol.messages import register_client_message, unregister_client_message
from protocol.wire import ClientWire
from vtt_bridge import derive
from vtt_bridge.derive import engine_fields, struct_reader, wire_command

if TYPE_CHECKING:
    from vtt_bridge.parts import Dispatcher
    from vtt_bridge.tables import Session, Table

#: ``(hub, session, message, frame, now_ms)``: what the bridge does with a message.
Handle = Callable[["Dispatcher", "Session", Any, "str | bytes", int], Awaitable[None]]
#: ``session``: the bridge answers it; ``command``: the engine applies it, logged;
#: ``admin``: the table's settings and join tokens, logged.
Kind = Literal["session", "command", "admin"]


def _free(message: Any) -> int:
    return 0


@dataclass(frozen=True, slots=True)
class MessageRow:
    """One client message, everything the bridge knows of it.

    ``wire``: its declaration on the wire (``TYPE`` is its name).  ``roles``: who may
    send it (empty: nobody, fail closed).  ``handle``: what the bridge does with it.
    ``cost``: rate-limit tokens on top of its frame's, a number or a function of the
    message.  ``example``: a body the protocol README's frame shows.  ``command``: the
    engine command a ``command`` row becomes, ``engine``: the codes the engine still
    refuses it with behind the row.  ``dice``: the fields holding the table's own dice
    (the dice policy applies).  ``fill``: fields the bridge supplies that the message
    may leave out (a fight's seed), from the table."""

    wire: type[ClientWire]
    kind: Kind
    handle: Handle
    roles: frozenset[str] = frozenset()
    cost: int | Callable[[Any], int] = 0
    example: dict[str, Any] = field(default_factory=dict)
    command: type | None = None
    engine: str = ""
    dice: tuple[str, ...] = ()
    fill: Callable[[Any, Table], dict[str, Any]] | None = None
    #: Derived: the message's extra cost as a function, and its command's reader.
    price: Callable[[Any], int] = field(init=False, repr=False, compare=False)
    _read: Callable[..., Any] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cost = self.cost
        price = (lambda message: cost) if isinstance(cost, int) and cost else cost
        object.__setattr__(self, "price", _free if cost == 0 else price)
        reader = None
        if self.command is not None:
            reader = struct_reader(self.command, ("actor",))
        object.__setattr__(self, "_read", reader)

    @property
    def name(self) -> str:
        """The wire ``type``."""
        return self.wire.TYPE

    def table_free_command(self, message: Any, actor: str) -> Any:
        """The engine command for ``message`` sent by ``actor``, for a row whose command
        needs nothing of the table (no ``fill``); None for any other row."""
        if self._read is None or self.fill is not None:
            return None
        return self._read(message, actor)

    def to_command(self, message: Any, actor: str, table: Table) -> Any:
        """The engine command for ``message`` sent by ``actor`` at ``table``."""
        assert self._read is not None, f"{self.name!r} is not a command"
        if self.fill is not None:
            extra = self.fill(message, table)
            if extra:
                command = self._read(message, actor)
                return dataclasses.replace(command, **extra)
        return self._read(message, actor)


#: Every client message class the bridge accepts, to its row.
ROWS: Final[dict[type, MessageRow]] = {}


def row_for(message: object) -> MessageRow | None:
    """The row of ``message``'s class, or None (which means: refuse)."""
    return ROWS.get(type(message))


def rows() -> list[MessageRow]:
    """Every row, in the order registered."""
    return list(ROWS.values())


def register(row: MessageRow, *, handler: EngineHandler | None = None) -> MessageRow:
    """Add ``row`` to the table and its wire struct to the protocol's decoder; a command
    row's engine command with its ``handler`` to the engine (unless shipped there)."""
    if row.wire in ROWS:
        raise ValueError(f"{row.name!r} already has a row")
    # The protocol's own messages are there already; anything else is added (and a
    # second struct under a type already taken is refused there).
    if protocol.CLIENT_MESSAGE_TYPES.get(row.wire.TYPE) is not row.wire:
        register_client_message(row.wire)
    if handler is not None:
        assert row.command is not None
        register_command(row.command, handler)
    ROWS[row.wire] = row
    return row


def unregister(row: MessageRow) -> None:
    """Take ``row`` (and what :func:`register` added with it) out again."""
    ROWS.pop(row.wire, None)
    unregister_client_message(row.wire)
    if row.command is not None:
        unregister_command(row.command)


@contextlib.contextmanager
def registered(row: MessageRow, handler: EngineHandler) -> Iterator[MessageRow]:
    """``row`` and its engine ``handler`` registered for the ``with`` block (a test's
    toy command), then taken out."""
    register(row, handler=handler)
    try:
        yield row
    finally:
        unregister(row)


def command_row(
    command: type,
    handle: Handle,
    *,
    roles: frozenset[str],
    example: dict[str, Any],
    cost: int | Callable[[Any], int] = 0,
    engine: str = "",
    fill: Callable[[Any, Table], dict[str, Any]] | None = None,
) -> MessageRow:
    """The row of an engine command: its wire struct derived from the dataclass
    (:func:`vtt_bridge.derive.wire_command`; a shipped one's is the protocol's copy of
    it, ``protocol.SetDoor``, written by ``tools/wirestructs.py``), its dice fields
    from its ``DICE`` marks."""
    kind: str = typing.cast(Any, command).kind
    shipped = next((struct for struct in DERIVED if kind == struct.TYPE), None)
    wire = shipped if shipped is not None else wire_command(command)
    return MessageRow(
        wire,
        "command",
        handle,
        roles=roles,
        cost=cost,
        example=example,
        command=command,
        engine=engine,
        dice=dice_fields(command),
        fill=fill,
    )


def derived(row: MessageRow) -> bool:
    """Whether ``row``'s wire struct is derived from its engine command (the protocol's
    written copy, or one the bridge derived itself)."""
    return row.wire in DERIVED or row.wire.__module__ == derive.__name__


def check_row(row: MessageRow) -> list[str]:
    """What ``row`` lacks or gets wrong (empty: nothing): the test of every row."""
    problems = []
    if not row.wire.__doc__:
        problems.append("its wire struct has no docstring")
    if not row.roles:
        problems.append("no role may send it")
    if not isinstance(row.cost, int) and not callable(row.cost):
        problems.append("no cost")
    try:
        protocol.codec.client_from_wire(
            {"v": protocol.PROTOCOL_VERSION, "type": row.name, "seq": 1, "body": row.example}
        )
    except protocol.ProtocolError as exc:
        problems.append(f"its example does not decode: {exc}")
    if row.kind == "command":
        if row.command is None:
            problems.append("a command row names no engine command")
        else:
            carried = set(row.wire.__struct_fields__) - {"seq"}
            wanted = set(engine_fields(row.command, ("actor",)))
            if carried != wanted:
                problems.append(f"wire fields {sorted(carried)} != engine's {sorted(wanted)}")
    return problems
