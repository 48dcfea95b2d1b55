"""The README's table of M&M actions is the actions' own declaration, rendered: a param
added, renamed or retyped in the folder and not in the README fails here.
(``python -m tests.engine.mutants_masterminds.test_mm_docs`` prints the table.)"""

from __future__ import annotations

from pathlib import Path

from engine.params import describe_params
from engine.rulesets import find_ruleset

README = (
    Path(__file__).resolve().parents[3]
    / "engine"
    / "rulesets"
    / "mutants_masterminds"
    / "README.md"
)


def action_table() -> str:
    """The markdown table of ``mm3e``'s actions and their params."""
    rows = ["| action | who, when | what it is | params |", "|---|---|---|---|"]
    who = {"turn": "on its turn", "any": "any time", "gm": "the GM"}
    for name, spec in find_ruleset("mm3e").actions.items():
        params = "; ".join(
            f"`{d.name}`: {d.type}" + ("" if d.default is None else f" (default `{d.default}`)")
            for d in describe_params(spec.params)
        )
        rows.append(f"| `{name}` | {who[spec.when]} | {spec.doc} | {params or 'none'} |")
    return "\n".join(rows) + "\n"


def test_the_readme_lists_every_action_as_declared() -> None:
    assert action_table() in README.read_text(encoding="utf-8")


if __name__ == "__main__":
    print(action_table(), end="")
