"""The command line: ``vtt-bridge serve``, ``vtt-bridge create-table``, ``vtt-bridge replay``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from aiohttp import web

from vtt_bridge.app import DEMO_TABLE, HUB, create_app
from vtt_bridge.config import Config
from vtt_bridge.hub import Hub
from vtt_bridge.recording import RecordingError, replay
from vtt_bridge.store import Store


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="vtt-bridge", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the WebSocket server")
    serve.add_argument("--host", default=Config.host)
    serve.add_argument("--port", type=int, default=Config.port)
    serve.add_argument("--db", type=Path, default=Config.database, help="SQLite event log")
    serve.add_argument(
        "--demo", action="store_true", help="create a demo table and print its tokens"
    )
    serve.add_argument(
        "--record", type=Path, default=None, help="record every table's traffic here"
    )
    serve.add_argument("--prompt-timeout", type=float, default=Config.prompt_timeout)

    create = sub.add_parser("create-table", help="create a table and print its join tokens")
    create.add_argument("name")
    create.add_argument("--player", action="append", default=[], help="a player id (repeatable)")
    create.add_argument("--spectators", type=int, default=0)
    create.add_argument("--db", type=Path, default=Config.database)
    create.add_argument("--prompt-timeout", type=float, default=Config.prompt_timeout)

    rep = sub.add_parser("replay", help="replay recordings and compare what the bridge sends")
    rep.add_argument("files", nargs="+", type=Path)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    if args.command == "serve":
        return _serve(args)
    if args.command == "create-table":
        return _create_table(args)
    return _replay(args.files)


def _serve(args: argparse.Namespace) -> int:
    config = Config(
        host=args.host,
        port=args.port,
        database=args.db,
        demo=args.demo,
        record_dir=args.record,
        prompt_timeout=args.prompt_timeout,
    )
    app = create_app(config)

    async def announce(app: web.Application) -> None:
        hub = app[HUB]
        print(
            f"vtt-bridge listening on ws://{config.host}:{config.port}/ws (log: {config.database})"
        )
        table = hub.table_by_name(DEMO_TABLE) if config.demo else None
        if table is not None:
            print(f"demo table {table.id}:")
            for grant in sorted(
                table.tokens.values(), key=lambda g: (g.role != "gm", g.participant)
            ):
                print(f"  {grant.role:9} {grant.participant:12} join token {grant.token}")
        sys.stdout.flush()

    app.on_startup.append(announce)
    web.run_app(app, host=config.host, port=config.port, print=None)
    return 0


def _create_table(args: argparse.Namespace) -> int:
    hub = Hub(Store(args.db))
    try:
        table = hub.create_table(
            args.name, args.player, spectators=args.spectators, prompt_timeout=args.prompt_timeout
        )
        print(f"table {table.id} ({table.row.name}):")
        for grant in table.tokens.values():
            print(f"  {grant.role:9} {grant.participant:12} join token {grant.token}")
    finally:
        hub.close()
    return 0


def _replay(files: list[Path]) -> int:
    failed = 0
    for path in files:
        try:
            result = asyncio.run(replay(path))
        except RecordingError as exc:
            print(f"ERROR {exc}")
            failed += 1
            continue
        if result.ok:
            print(f"ok    {path}: {result.compared} messages identical")
        else:
            failed += 1
            print(f"DIFF  {path}:")
            print("\n".join(result.diff))
    return 1 if failed else 0
