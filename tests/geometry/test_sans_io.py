"""The geometry package imports only the standard library, shapely and numpy."""

from __future__ import annotations

import ast
import pathlib

import geometry

ALLOWED_THIRD_PARTY = {"shapely", "numpy"}
FORBIDDEN = {
    "asyncio",
    "aiohttp",
    "socket",
    "time",
    "datetime",
    "random",
    "protocol",
    "engine",
    "vtt_bridge",
}


def test_geometry_imports_are_sans_io() -> None:
    root = pathlib.Path(geometry.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path.name} imports {name}"
                assert (
                    top in ALLOWED_THIRD_PARTY | {"geometry", "__future__"}
                    or top in __import__("sys").stdlib_module_names
                ), f"{path.name} imports {name}"
