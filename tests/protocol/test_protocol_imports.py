"""protocol imports only the standard library, msgpack and msgspec, and nothing that does I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "protocol"
FORBIDDEN = {"asyncio", "aiohttp", "socket", "time", "random", "geometry", "engine", "vtt_bridge"}
ALLOWED = (set(sys.stdlib_module_names) - FORBIDDEN) | {"msgpack", "msgspec", "protocol"}


@pytest.mark.parametrize("source", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_imports_are_stdlib_or_msgpack(source: Path) -> None:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in ALLOWED, f"{source.name} imports {name}"
