"""What the user docs tell a reader to type works: the README's two quick-start lines are
the ones CI runs, every ``sh`` block in the manual runs and exits 0 (in a fresh folder,
with ``vtt-bridge`` the package's own command line), every synopsis names only options
the command has, and every JSON message example decodes as a client or server message."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import protocol
from vtt_bridge.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
MANUAL = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(path: Path) -> list[tuple[str, str]]:
    """Every fenced block of a Markdown file: (its language tag, its text)."""
    found: list[tuple[str, str]] = []
    lang: str | None = None
    body: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = FENCE.match(line)
        if m and lang is None:
            lang, body = m.group(1), []
        elif line.strip() == "```" and lang is not None:
            found.append((lang, "\n".join(body)))
            lang = None
        elif lang is not None:
            body.append(line)
    return found


def commands(text: str) -> list[str]:
    """The command lines of a block (continuation lines joined; comments dropped)."""
    joined = text.replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in joined.splitlines() if line.strip()]


def subparsers() -> dict[str, argparse.ArgumentParser]:
    """``vtt-bridge``'s subcommands by name."""
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_ci_runs_the_readme_quick_start_verbatim() -> None:
    sh = [text for lang, text in blocks(ROOT / "README.md") if lang == "sh"]
    assert len(sh) == 2, "the quick start has exactly two command lines"
    serve, check = (commands(text) for text in sh)
    assert len(serve) == len(check) == 1
    assert serve[0].endswith(".venv/bin/vtt-bridge serve --demo")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == check[0]


SH_BLOCKS = [(doc, text) for doc in MANUAL for lang, text in blocks(doc) if lang == "sh"]


@pytest.mark.parametrize(
    ("doc", "text"), SH_BLOCKS, ids=[f"{d.name}:{i}" for i, (d, _) in enumerate(SH_BLOCKS)]
)
def test_every_shell_block_of_the_manual_runs(doc: Path, text: str, tmp_path: Path) -> None:
    for line in commands(text):
        argv = shlex.split(line)
        assert argv[0] == "vtt-bridge", f"{doc.name}: a block runs vtt-bridge commands: {line}"
        done = subprocess.run(
            [sys.executable, "-m", "vtt_bridge", *argv[1:]],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},  # this tree's command line
        )
        assert done.returncode == 0, f"{doc.name}: {line}\n{done.stderr}"
        assert done.stdout.strip(), f"{doc.name}: {line} printed nothing"


SYNOPSES = [
    (doc, line)
    for doc in MANUAL
    for lang, text in blocks(doc)
    if lang == "" and text.startswith("vtt-bridge ")
    for line in commands(text)
    if line.startswith("vtt-bridge ")
]


@pytest.mark.parametrize(("doc", "line"), SYNOPSES, ids=[line for _, line in SYNOPSES])
def test_every_synopsis_names_real_options(doc: Path, line: str) -> None:
    sub = line.split()[1]
    parsers = subparsers()
    assert sub in parsers, f"{doc.name}: no subcommand {sub!r}"
    known = {opt for action in parsers[sub]._actions for opt in action.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", line))
    assert named <= known, f"{doc.name}: {sorted(named - known)} are not options of {sub}"


JSON_EXAMPLES = [
    (doc, line)
    for doc in [ROOT / "README.md", *MANUAL]
    for lang, text in blocks(doc)
    if lang == "json"
    for line in text.splitlines()
    if line.startswith("{")
]


def test_there_are_commands_to_check() -> None:
    assert SH_BLOCKS and SYNOPSES and JSON_EXAMPLES


@pytest.mark.parametrize(("doc", "line"), JSON_EXAMPLES, ids=[d.name for d, _ in JSON_EXAMPLES])
def test_every_message_example_decodes(doc: Path, line: str) -> None:
    try:
        protocol.decode_client(line)
    except protocol.ProtocolError:
        protocol.decode_server(line)
