"""The user docs hold together: README.md stays short, and every relative link in the
README, the manual (`docs/`), the ruleset guides, the bench figures and the changes
list resolves to a file that exists and, with a `#fragment`, to a heading in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_MAX_LINES = 300

# Markdown files a user reads; vendored and generated trees are not ours to check.
DOC_FILES = sorted(
    p
    for pattern in (
        "README.md",
        "CHANGES.md",
        "docs/*.md",
        "bench/README.md",
        "engine/rulesets/*/README.md",
        "engine/rulesets/*/*/README.md",
        "protocol/README.md",
        "geometry/README.md",
        "clients/js/README.md",
        "integrations/*/README.md",
    )
    for p in ROOT.glob(pattern)
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.*)$")
FENCE = re.compile(r"^\s*```")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def outside_code(path: Path) -> list[str]:
    """The file's lines that are not inside a fenced code block."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (GitHub's numbering of repeats too)."""
    seen: dict[str, int] = {}
    found = set()
    for line in outside_code(path):
        if m := HEADING.match(line):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file (not URLs, not mail)."""
    return [
        target
        for line in outside_code(path)
        for target in LINK.findall(line)
        if not re.match(r"^[a-z]+:", target)
    ]


def test_the_docs_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in DOC_FILES}
    assert {"README.md", "CHANGES.md", "docs/index.md", "bench/README.md"} <= names
    assert len(DOC_FILES) > 20


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md is {len(lines)} lines"


@pytest.mark.parametrize("doc", DOC_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = []
    for target in links(doc):
        file, _, fragment = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.name}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


def test_user_docs_name_no_internal_issue_numbers() -> None:
    """User docs name the game books, never the project's own issue numbers."""
    pattern = re.compile(r"\bissues? \d+\b", re.IGNORECASE)
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in DOC_FILES
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, found
