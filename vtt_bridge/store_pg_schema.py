"""The PostgreSQL event log's tables (see :mod:`vtt_bridge.store_pg`).

The same tables as SQLite's (:data:`vtt_bridge.store.SCHEMA`), with the values a
lookup needs kept in columns of their own (a log row's client, seq, participant,
digest and event count, read from its ``meta`` when it is written) rather than read
out of JSON: the JSON columns stay text, exactly as written, so a row reads back as
SQLite's does (``jsonb`` would rewrite ``1e16`` as an integer).  ``n`` columns keep
the insertion order SQLite's ``rowid`` gave.

Two tables are PostgreSQL's alone: ``bridges``, the processes serving from the
database with each one's heartbeat on the database's clock, and ``owners``, each
table's owner and lease epoch (:mod:`vtt_bridge.store_pg_leases`); every log row keeps
the epoch it was written under.
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed BIGINT NOT NULL,
    prompt_timeout DOUBLE PRECISION NOT NULL,
    created_ms BIGINT NOT NULL,
    dice TEXT NOT NULL DEFAULT 'gm',
    archived BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS join_tokens (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    participant TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
    revoked BOOLEAN NOT NULL DEFAULT false,
    n BIGSERIAL NOT NULL
);
CREATE INDEX IF NOT EXISTS join_tokens_by_table ON join_tokens (table_id, n);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL REFERENCES tables(id),
    position BIGINT NOT NULL,
    events BIGINT NOT NULL,
    state TEXT NOT NULL,
    hash TEXT NOT NULL,
    rules_version INTEGER NOT NULL DEFAULT 1,
    deadlines TEXT,
    PRIMARY KEY (table_id, position)
);
CREATE TABLE IF NOT EXISTS admin_replies (
    table_id TEXT NOT NULL REFERENCES tables(id),
    participant TEXT NOT NULL,
    client TEXT NOT NULL,
    ref BIGINT NOT NULL,
    digest TEXT NOT NULL,
    reply TEXT NOT NULL,
    n BIGSERIAL NOT NULL,
    PRIMARY KEY (table_id, participant, client, ref)
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    position BIGINT NOT NULL,
    first_event BIGINT NOT NULL,
    command TEXT NOT NULL,
    events TEXT NOT NULL,
    meta TEXT NOT NULL,
    rules_version INTEGER NOT NULL DEFAULT 1,
    wire_version INTEGER NOT NULL DEFAULT 1,
    client TEXT,
    ref BIGINT,
    participant TEXT,
    digest TEXT,
    event_count INTEGER NOT NULL,
    epoch BIGINT NOT NULL,
    PRIMARY KEY (table_id, position)
);
CREATE INDEX IF NOT EXISTS log_by_client ON log (table_id, client, ref);
CREATE INDEX IF NOT EXISTS log_by_event ON log (table_id, first_event);
CREATE TABLE IF NOT EXISTS revision (
    one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
    n BIGINT NOT NULL
);
INSERT INTO revision VALUES (true, 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS bridges (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    lease_s DOUBLE PRECISION NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS owners (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS owners_by_owner ON owners (owner);
"""
#: Serialises schema creation: two processes starting on a new database at once would
#: otherwise race on ``CREATE TABLE IF NOT EXISTS`` (a catalogue unique violation).
#: Held only around the DDL, never as a fence.
SCHEMA_LOCK_KEY = 0x76_74_74_62  # "vttb"
