"""Server administration: the operator creates and archives tables on a running server.

These are not table messages: nobody joined to a table may send them (a table's GM
administers its own table with :mod:`protocol.admin`).  They travel as the JSON body of
``POST /admin/<type>`` on the operations endpoint, behind its bearer token
(``--ops-token``; ``docs/tables.md``), and are answered with the JSON of
:class:`TableCreated` / :class:`TableArchived` or of :class:`OperatorRefusal`.

``create_table`` is idempotent by its ``request``: sent again with the same ``request``
and the same settings it answers with the table (and tokens) made the first time, also
after a restart; with other settings it is refused (``request_reused``).
``archive_table`` is idempotent by nature: archiving an archived table answers as the
first time did.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Final

from msgspec import Meta

from protocol.admin import MAX_PROMPT_TIMEOUT_MS, MIN_PROMPT_TIMEOUT_MS, DicePolicy, ListedToken
from protocol.wire import LongName, Name, Wire

#: The most players and spectators one ``create_table`` names.
MAX_TABLE_SEATS: Final = 64
#: Codes an operator request is refused with, beside the protocol's own (a body that
#: does not parse: ``bad_value``, ``missing_field``, ...).
OPERATOR_ERROR_CODES: Final = frozenset(
    {
        "unauthorized",  # no or a wrong bearer token
        "no_credential",  # the server has no --ops-token: nobody may administer over HTTP
        "unknown_table",  # archive_table naming no table
        "request_reused",  # create_table's request already made a table with other settings
        "table_archived",  # create_table's request made a table since archived
        "reserved_participant",  # a player called "gm" or "system"
        "internal",  # the database could not be written; nothing changed
    }
)


class CreateTable(Wire, frozen=True, kw_only=True):
    """Operator: make a table named ``name`` with a GM token, one player token per id
    in ``players`` and ``spectators`` spectator tokens; it joins at once.  ``dice`` and
    ``prompt_timeout_ms`` are its first settings (the GM may change them later with
    ``configure_table``).  ``request``, when given, makes it idempotent (see the module)."""

    TYPE: ClassVar[str] = "create_table"
    #: Every field but ``name`` may be left out (the protocol's mark for that).
    LATER: ClassVar[tuple[str, ...]] = (
        "players", "spectators", "dice", "prompt_timeout_ms", "request",
    )  # fmt: skip
    name: LongName
    players: Annotated[tuple[Name, ...], Meta(max_length=MAX_TABLE_SEATS)] = ()
    spectators: Annotated[int, Meta(ge=0, le=MAX_TABLE_SEATS)] = 0
    dice: DicePolicy = "gm"
    prompt_timeout_ms: (
        Annotated[int, Meta(ge=MIN_PROMPT_TIMEOUT_MS, le=MAX_PROMPT_TIMEOUT_MS)] | None
    ) = None
    request: Name | None = None


class ArchiveTable(Wire, frozen=True, kw_only=True):
    """Operator: archive the table ``table`` (its id): its members are closed (1008,
    "table archived"), its tokens stop joining (``table_archived``), its log stays."""

    TYPE: ClassVar[str] = "archive_table"
    table: Name


class TableCreated(Wire, frozen=True, kw_only=True):
    """Answer to ``create_table``: the table's id and name and every join token it was
    made with (the GM's first)."""

    TYPE: ClassVar[str] = "table_created"
    table: Name
    name: LongName
    tokens: tuple[ListedToken, ...]


class TableArchived(Wire, frozen=True, kw_only=True):
    """Answer to ``archive_table``: ``table`` is archived; ``closed`` connections were
    closed by this request (0 when it was archived already)."""

    TYPE: ClassVar[str] = "table_archived"
    table: Name
    name: LongName
    closed: int


class OperatorRefusal(Wire, frozen=True, kw_only=True):
    """An operator request refused, changing nothing: ``code`` (one of
    :data:`OPERATOR_ERROR_CODES` or the protocol's), what went wrong, and where."""

    TYPE: ClassVar[str] = "error"
    LATER: ClassVar[tuple[str, ...]] = ("path",)
    code: Name
    message: str
    path: str | None = None


#: The operator requests, by their ``TYPE`` (the last part of their URL).
OPERATOR_REQUESTS: Final[dict[str, type[CreateTable] | type[ArchiveTable]]] = {
    CreateTable.TYPE: CreateTable,
    ArchiveTable.TYPE: ArchiveTable,
}
