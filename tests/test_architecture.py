"""The layering DEVELOPERS.md promises, read off the source: sans-I/O cores, one-way imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORES = ("protocol", "geometry", "engine")
PACKAGES = (*CORES, "vtt_bridge")

# Modules a sans-I/O package must never import: I/O, clocks, unseeded randomness.
FORBIDDEN = {
    "asyncio", "aiohttp", "socket", "ssl", "selectors", "http", "urllib", "sqlite3",
    "threading", "subprocess", "multiprocessing", "time", "datetime", "random", "secrets",
}  # fmt: skip

# Which of our packages each package may import.
ALLOWED = {
    "protocol": set(),
    "geometry": set(),
    "engine": {"geometry"},
    "vtt_bridge": {"protocol", "geometry", "engine"},
}


def imports_of(package: str) -> list[tuple[Path, int, str]]:
    """Every (file, line, top-level module) imported anywhere in ``package``."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(path, node.lineno, alias.name.split(".")[0]) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("package", CORES)
def test_cores_are_sans_io(package: str) -> None:
    bad = [
        f"{p.relative_to(ROOT)}:{line} imports {mod}"
        for p, line, mod in imports_of(package)
        if mod in FORBIDDEN
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_point_one_way(package: str) -> None:
    ours = set(PACKAGES)
    bad = [
        f"{p.relative_to(ROOT)}:{line} imports {mod}"
        for p, line, mod in imports_of(package)
        if mod in ours and mod != package and mod not in ALLOWED[package]
    ]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    # The rule must bite: an import of time inside a function is still found.
    source = "def f():\n    import time\n    return time.time()\n"
    tree = ast.parse(source)
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert "time" in names and "time" in FORBIDDEN


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_is_typed(package: str) -> None:
    assert (ROOT / package / "py.typed").exists()
