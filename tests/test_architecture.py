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


# -- no import circles ----------------------------------------------------------------------

# Packages whose modules may not import each other in a circle (``tools`` and ``bench``
# too: a dev tool or a bench is code we keep).
CIRCLE_FREE = (*PACKAGES, "tools", "bench")


def module_imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of ``package`` it imports, type-only
    imports (``if TYPE_CHECKING:``) and imports inside functions included: a circle of
    those is one a reader must follow too.

    An import of one of the module's own packages (``from vtt_bridge import Config`` in
    ``vtt_bridge.hub``) is not counted: a package's ``__init__`` is its facade, loaded
    before any module in it; ``from vtt_bridge import costs`` counts as ``vtt_bridge.costs``.
    """
    modules: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names} & modules.keys()
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{alias.name}" for alias in node.names} & modules.keys()
                found |= subs
                if len(subs) < len(node.names) and node.module in modules:
                    found.add(node.module)
        graph[name] = {m for m in found if m != name and not name.startswith(m + ".")}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: each strongly connected set of two or more modules
    (Tarjan's algorithm, iterative: no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    circles.append(sorted(members))
    return circles


#: Imports a circle may keep, each one way of it and for the type checker alone (inside
#: ``if TYPE_CHECKING:``), with why.  A Protocol and the classes its signatures name
#: refer to each other by nature; at run time the edge does not exist.
TYPE_ONLY_EDGES = {
    # The seam's Protocol names the seam's value types (Context, MovePlan, ...) in its
    # hook signatures; at run time engine.hooks imports only engine.clock.
    ("engine.hooks", "engine.rulesets.base"),
}


def type_only(module: str, imported: str) -> bool:
    """Whether every import of ``imported`` in ``module`` sits under ``if TYPE_CHECKING:``."""
    path = ROOT / Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    imports = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == imported
    ]
    return bool(imports) and all(id(node) in guarded for node in imports)


@pytest.mark.parametrize("package", CIRCLE_FREE)
def test_no_import_circles(package: str) -> None:
    graph = module_imports(package)
    assert graph, f"no modules found in {package}"
    for module, imported in TYPE_ONLY_EDGES:
        if module in graph and imported in graph[module]:
            assert type_only(module, imported), f"{module} imports {imported} at run time"
            graph[module] = graph[module] - {imported}
    circles = import_circles(graph)
    assert not circles, "\n".join(" <-> ".join(circle) for circle in circles)


def test_the_circle_check_bites() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []
    # The bridge's own graph is read: the hub imports the rows that register its messages.
    assert "vtt_bridge.rows" in module_imports("vtt_bridge")["vtt_bridge.hub"]


# -- each game's words stay in its folder --------------------------------------------------

#: Written from every game's own event declarations (``tools/eventstructs.py``), so a
#: client importing the protocol alone reads each game's events: the words are the
#: games' own, and ``tests/test_wiredocs.py`` keeps the file what they declare.
WRITTEN_FROM_GAMES = frozenset({Path("protocol/events.py")})
CORE_SOURCES = sorted(
    p
    for package in ("engine", "protocol")
    for p in (ROOT / package).rglob("*.py")
    if "rulesets" not in p.relative_to(ROOT).parts and p.relative_to(ROOT) not in WRITTEN_FROM_GAMES
)


def named_words(source: str) -> set[str]:
    """The words a module names in code: string constants (not docstrings) and
    identifiers (names, attributes, definitions, arguments, keywords)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.add(node.name)
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            words.add(node.arg)
    return words


def game_rulesets() -> list[object]:
    """Every registered ruleset, the seam's test game included."""
    import tests.toy_ruleset  # noqa: F401  (the seam's test game counts too)
    from engine.rulesets import registered

    return list(registered())


@pytest.mark.parametrize("path", CORE_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_names_no_games_words(path: Path) -> None:
    named = named_words(path.read_text(encoding="utf-8"))
    bad = []
    for ruleset in game_rulesets():
        for word in sorted(type(ruleset).words() & named):  # type: ignore[attr-defined]
            bad.append(f"{ruleset.name}: {word!r}")  # type: ignore[attr-defined]
    assert not bad, f"{path.relative_to(ROOT)} names a game's vocabulary: {', '.join(bad)}"


def test_the_vocabulary_check_bites() -> None:
    source = 'def f(mode):\n    """zap the sneak"""\n    return mode == "sneak" or ambush\n'
    assert {"sneak", "ambush"} <= named_words(source)
    assert "zap" not in named_words(source)
    words = {w for r in game_rulesets() for w in type(r).words()}  # type: ignore[attr-defined]
    assert {"zap", "sneak", "dazed", "toy_zapped"} <= words


# -- time moves through the walk only ------------------------------------------------------

RULESET_SOURCES = sorted(
    [*(ROOT / "engine" / "rulesets").rglob("*.py"), ROOT / "tests" / "toy_ruleset.py"]
)
# What a ruleset may take from engine.turns: questions about where the walk is, never a
# step.  Time is asked for with engine.clock's requests, which the walk applies.
WALK_QUESTIONS = frozenset({"eligible", "limited", "has_surprise_phase", "next_phase", "Ruleset"})


def clock_misuse(source: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Where ``source`` steps time itself: imports a step from ``engine.turns`` (or the
    module whole), or sets ``acting`` (a keyword ``acting=`` or an assignment)."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "engine.turns":
            steps = {a.name for a in node.names} - WALK_QUESTIONS - allowed
            bad += [f"{node.lineno}: imports engine.turns.{name}" for name in sorted(steps)]
        elif isinstance(node, ast.ImportFrom) and node.module == "engine":
            if any(a.name == "turns" for a in node.names):
                bad.append(f"{node.lineno}: imports engine.turns whole")
        elif isinstance(node, ast.Import) and any(a.name == "engine.turns" for a in node.names):
            bad.append(f"{node.lineno}: imports engine.turns whole")
        elif isinstance(node, ast.keyword) and node.arg == "acting":
            bad.append(f"{node.value.lineno}: sets acting=")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "acting" for t in targets):
                bad.append(f"{node.lineno}: assigns .acting")
    return bad


@pytest.mark.parametrize("path", RULESET_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rulesets_ask_for_time_and_never_step_it(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    bad = clock_misuse(path.read_text(encoding="utf-8"))
    assert not bad, f"{where} steps time itself (return engine.clock requests): {bad}"


def test_the_clock_check_bites() -> None:
    source = (
        "from engine.turns import advance, eligible\n"
        "import engine.turns\n"
        "def f(c):\n    c.acting = 2\n    return replace(c, acting=1)\n"
    )
    assert clock_misuse(source) == [
        "1: imports engine.turns.advance",
        "2: imports engine.turns whole",
        "4: assigns .acting",
        "5: sets acting=",
    ]
    assert clock_misuse("from engine.turns import settle\n", frozenset({"settle"})) == []


# -- and the server names none either, but where it says why --------------------------------

BRIDGE_SOURCES = sorted((ROOT / "vtt_bridge").rglob("*.py"))
# Words the server spells in Python's or aiohttp's sense that a game also uses as one of
# its words: ``transport.abort()``, ``asyncio.shield``, a timer's ``delay``, a future
# that is ``ready``, a middleware named ``guard``.
SERVER_API_WORDS = frozenset({"abort", "delay", "guard", "ready", "shield"})
# Where the server still names a game's words, and why.  A word here that its module no
# longer names fails ``test_the_server_exemptions_are_live``: delete it then.
BRIDGE_NAMES_GAME_WORDS = {
    # The protocol README's example frames are a Hero table's (a token "hero", an ogre
    # stunned, stats with "prone").
    "vtt_bridge/rows.py": frozenset({"hero", "prone", "stunned"}),
    # The wire version each event kind's body last changed in, Hero's kinds among them.
    "vtt_bridge/event_types.py": frozenset(
        {"aborted", "identity_changed", "power_options_set", "power_used"}
    ),
    # The upgrade steps of older logs' Hero events (until a ruleset registers its own).
    "vtt_bridge/event_upgrades.py": frozenset(
        {"aborted", "defend", "power_options_set", "power_used"}
    ),
}


def game_words() -> dict[str, str]:
    """Every registered ruleset's words (action names, move modes, conditions, event
    kinds), each with the ruleset that declares it."""
    return {
        word: ruleset.name  # type: ignore[attr-defined]
        for ruleset in game_rulesets()
        for word in type(ruleset).words()  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize("path", BRIDGE_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_server_names_no_games_words(path: Path) -> None:
    relative = path.relative_to(ROOT).as_posix()
    allowed = SERVER_API_WORDS | BRIDGE_NAMES_GAME_WORDS.get(relative, frozenset())
    words = game_words()
    named = named_words(path.read_text(encoding="utf-8")) - allowed
    bad = [f"{words[word]}: {word!r}" for word in sorted(named & words.keys())]
    assert not bad, f"{relative} names a game's vocabulary: {', '.join(bad)}"


def test_the_server_exemptions_are_live() -> None:
    words = game_words()
    everywhere = set().union(*(named_words(p.read_text(encoding="utf-8")) for p in BRIDGE_SOURCES))
    dead = sorted(w for w in SERVER_API_WORDS if w not in words or w not in everywhere)
    for relative, exempt in BRIDGE_NAMES_GAME_WORDS.items():
        named = named_words((ROOT / relative).read_text(encoding="utf-8"))
        dead += [f"{relative}: {w}" for w in sorted(exempt) if w not in words or w not in named]
    assert not dead, f"exemptions that match nothing any more (delete them): {dead}"
