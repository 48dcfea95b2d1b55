"""Nothing a table sends is accepted and ignored: every condition a ruleset lists is
played (each with a probe below showing what it changes) and any other is refused;
every token statistic it lists is read (a value of the wrong type is refused, so the
ruleset looks at it) and any other is refused, at ``start_combat`` and ``join_combat``.

The walk is over each ruleset's own declarations (``vocabulary.conditions``,
``token_stats``, ``token_stat_prefixes``): a condition or statistic added to a ruleset
without a probe here, or without a check, fails this file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import Combatant, Encounter, GridSpec, LoadScene, Scene, StartCombat
from engine.commands import Act, EndPhase, JoinCombat, Move, SetCondition
from engine.rulesets import find_ruleset
from tests.engine.cyberpunk_red.helpers import cpr
from tests.engine.helpers import refused, token
from tests.engine.mutants_masterminds.helpers import mm
from tests.toy_ruleset import ToyDuel

assert ToyDuel.name == "toy-duel"  # the import registers the toy ruleset

Token = Callable[[str, int, int], Combatant]


def _toy(tid: str, x: int, y: int) -> Combatant:
    return Combatant(tid, tid.title(), "gm", tid, x, y, movement=4.0, stats=(("speed", 9 - x),))


#: Each ruleset (the tests' toy one too) with a builder of a valid token of it (id, x, y),
#: on a 1 m grid.
RULESETS: dict[str, Token] = {
    "toy-duel": _toy,
    "hero-supplement": lambda tid, x, y: token(tid, x, y, side=tid),
    "cyberpunk-red": lambda tid, x, y: replace(cpr(tid, x, y), side=tid),
    "mm3e": lambda tid, x, y: mm(tid, x, y, side=tid),
}

#: A value no statistic of any ruleset takes.
NONSENSE = "no such value"


def _with_stat(combatant: Combatant, name: str, value: Any) -> Combatant:
    stats = dict(combatant.stats)
    stats[name] = value
    return replace(combatant, stats=tuple(sorted(stats.items())))


def _fight(name: str, *tokens: Combatant, seed: int = 3) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), tokens)))
    encounter.apply(StartCombat("gm", name, seed))
    return encounter


def _declared_stats(name: str) -> list[str]:
    ruleset = find_ruleset(name)
    return [*ruleset.token_stats, *(f"{p}x" for p in ruleset.token_stat_prefixes)]


# -- statistics ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_statistic_the_ruleset_does_not_play_is_refused_naming_those_it_does(
    name: str,
) -> None:
    make = RULESETS[name]
    odd = _with_stat(make("a", 0, 0), "charisma", 12)
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), (odd, make("b", 3, 3)))))
    message = refused(encounter, StartCombat("gm", name, 3), "bad_scene")
    ruleset = find_ruleset(name)
    assert "plays no stat 'charisma'" in message
    for played in ruleset.token_stats:
        assert played in message
    # The same newcomer joining a running fight is refused the same way.
    running = _fight(name, make("a", 0, 0), make("b", 3, 3))
    newcomer = _with_stat(make("c", 6, 6), "charisma", 12)
    assert refused(running, JoinCombat("gm", newcomer), "bad_scene") == message.replace(
        "'a'", "'c'"
    )


@pytest.mark.parametrize(
    ("name", "stat"), [(name, stat) for name in sorted(RULESETS) for stat in _declared_stats(name)]
)
def test_every_statistic_the_ruleset_lists_is_read(name: str, stat: str) -> None:
    # A value of the wrong type is refused: the ruleset reads the statistic (a listed
    # one it never looked at would take any value).
    make = RULESETS[name]
    bad = _with_stat(make("a", 0, 0), stat, NONSENSE)
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), (bad, make("b", 3, 3)))))
    message = refused(encounter, StartCombat("gm", name, 3), "bad_scene")
    assert stat.split(":")[0].split(".")[0] in message


# -- conditions ---------------------------------------------------------------------------


def _set(encounter: Encounter, who: str, condition: str, on: bool = True) -> None:
    encounter.apply(SetCondition("gm", who, condition, on))


def _actor(encounter: Encounter) -> str:
    combat = encounter.state.combat
    assert combat is not None
    return combat.actor or ""


def _attack_dc(encounter: Encounter, attacker: str, target: str, **params: Any) -> Any:
    (check,) = [
        e
        for e in encounter.apply(Act("gm", attacker, "attack", {"target": target, **params}))
        if e.kind in ("attack_check", "attack_rolled")
    ]
    return check


def _hero_pair() -> Encounter:
    # "a" (INIT 20) beside "b" (INIT 5); it is a's Phase.
    return _fight(
        "hero-supplement", token("a", 4, 5, init=20, side="x"), token("b", 5, 5, init=5, side="y")
    )


PROBES: dict[tuple[str, str], Callable[[], None]] = {}


def probe(name: str, *conditions: str) -> Callable[[Callable[[str], None]], Callable[[str], None]]:
    """Register a probe showing what ``conditions`` of ruleset ``name`` change."""

    def add(fn: Callable[[str], None]) -> Callable[[str], None]:
        for condition in conditions:
            PROBES[(name, condition)] = lambda c=condition: fn(c)  # type: ignore[misc]
        return fn

    return add


@probe("hero-supplement", "stunned", "underwater")
def _hero_dcv(condition: str) -> None:
    # Stunned halves DCV, underwater -2 (Hero 6E's figures; seed 000 names them).
    plain, marked = _hero_pair(), _hero_pair()
    _set(marked, "b", condition)
    before = _attack_dc(plain, "a", "b", rolls=[3, 3, 3])
    after = _attack_dc(marked, "a", "b", rolls=[3, 3, 3])
    assert (before.dcv, after.dcv) == (5, {"stunned": 2, "underwater": 3}[condition])


@probe("hero-supplement", "prone")
def _hero_prone(condition: str) -> None:
    plain, marked = _hero_pair(), _hero_pair()
    _set(marked, "a", condition)
    assert "stand_up" not in plain.options("a").available
    assert "stand_up" in marked.options("a").available


@probe("hero-supplement", "cannot_act")
def _hero_cannot_act(condition: str) -> None:
    plain, marked = _hero_pair(), _hero_pair()
    _set(marked, "b", condition)
    plain.apply(EndPhase("gm", "a"))
    marked.apply(EndPhase("gm", "a"))
    assert _actor(plain) == "b"
    assert _actor(marked) != "b"


@probe("hero-supplement", "darkness")
def _hero_darkness(condition: str) -> None:
    # No 1 m step in darkness.
    plain, marked = _hero_pair(), _hero_pair()
    _set(marked, "a", condition)
    plain.apply(Move("gm", "a", ((4, 4),), mode="step"))
    assert "darkness" in refused(marked, Move("gm", "a", ((4, 4),), mode="step"), "over_budget")


@probe("hero-supplement", "invisible")
def _hero_invisible(condition: str) -> None:
    # A withdrawing character is not threatened by an adjacent opponent it can see; one
    # it cannot see (invisible) still gets its attack of opportunity.
    plain, marked = _hero_pair(), _hero_pair()
    _set(marked, "b", condition)
    walk = Move("gm", "a", ((3, 5), (2, 5)), mode="withdraw")
    assert not [e for e in plain.apply(walk) if e.kind == "prompt_opened"]
    assert [e for e in marked.apply(walk) if e.kind == "prompt_opened"]


@probe("hero-supplement", "no_recovery")
def _hero_no_recovery(condition: str) -> None:
    hero = find_ruleset("hero-supplement")
    plain = _fight(
        "hero-supplement",
        token("a", 0, 0, init=20, side="x", extra={"rec": 3, "end": 20, "stun": 20}),
        token("b", 5, 5, init=5, side="y"),
    )
    marked = Encounter(plain.state)
    _set(marked, "a", condition)
    a = plain.state.scene.token("a")  # type: ignore[union-attr]
    assert plain.state.combat is not None and marked.state.combat is not None and a is not None
    assert hero.recovers(plain.state.combat, a)  # type: ignore[attr-defined]
    assert not hero.recovers(marked.state.combat, a)  # type: ignore[attr-defined]


@probe("hero-supplement", "grabbed", "entangled")
def _hero_held(condition: str) -> None:
    # Seed 002: Casual Use to escape "from a Grab, Entangle, or the like" needs a hold.
    from tests.engine.test_hero_powers_actions import duel, use

    plain, marked = duel(), duel()
    _set(marked, "kas", condition)
    escape = Act("bob", "kas", "use_power", {"power": "STR", "casual": True,
                                             "object": "crate", "escape": True})  # fmt: skip
    refused(plain, escape, "illegal_action")
    assert [e.kind for e in use(marked, power="STR", casual=True, object="crate", escape=True)][
        -1
    ] == "power_used"


@probe("toy-duel", "dazed")
def _toy_dazed(condition: str) -> None:
    # The toy's dazed combatant is skipped (the GM's daze and set_condition alike).
    encounter = _fight("toy-duel", _toy("a", 0, 0), _toy("b", 5, 5))
    _set(encounter, "b", condition)
    encounter.apply(EndPhase("gm", "a"))
    assert _actor(encounter) == "a"


@probe("mm3e", "flat_footed", "incapacitated")
def _mm_defence(condition: str) -> None:
    # Seed 003: a flat-footed defender "can't use" its Dodge or Parry; incapacitated is
    # defenceless too.  "a" acts first (Dex 40); by its second turn b is not flat-footed.
    def pair() -> Encounter:
        encounter = _fight("mm3e", mm("a", 0, 0, dex=40, side="x"), mm("b", 1, 0, dex=0, side="y"))
        encounter.apply(EndPhase("gm", "a"))  # b's first regular turn ends flat-footed
        encounter.apply(EndPhase("gm", "b"))  # a again
        return encounter

    plain, marked = pair(), pair()
    _set(marked, "b", condition)
    before = _attack_dc(plain, "a", "b", rolls=[10])
    after = _attack_dc(marked, "a", "b", rolls=[10])
    assert (before.defence_rank, before.dc) == (5, 15)
    assert (after.defence_rank, after.dc) == (0, 10)


@probe("mm3e", "incapacitated")
def _mm_incapacitated_skipped(condition: str) -> None:
    encounter = _fight("mm3e", mm("a", 0, 0, dex=40, side="x"), mm("b", 1, 0, dex=0, side="y"))
    _set(encounter, "b", condition)
    encounter.apply(EndPhase("gm", "a"))
    assert _actor(encounter) == "a"  # b is skipped at its count
    # Set during its own turn, it can do nothing more.
    _set(encounter, "a", condition)
    refused(encounter, Act("gm", "a", "free_action", {"what": "shout"}), "illegal_action")
    refused(encounter, Move("gm", "a", ((0, 1),)), "over_budget")


@probe("cyberpunk-red", "prone", "mortally_wounded")
def _cpr_movement(condition: str) -> None:
    # "You can't move while prone: first take the Get Up action"; being Mortally
    # Wounded lowers MOVE.
    def one() -> Encounter:
        return _fight(
            "cyberpunk-red",
            replace(cpr("a", 0, 0, ref=20, move=4), side="x"),
            replace(cpr("b", 9, 9, ref=1), side="y"),
        )

    plain, marked = one(), one()
    _set(marked, "a", condition)
    before, after = plain.options("a"), marked.options("a")
    if condition == "prone":
        assert "walk" in before.available and "get_up" not in before.available
        assert "walk" not in after.available and "get_up" in after.available
    else:
        assert after.movement_left < before.movement_left


ALL_CONDITIONS = [
    (name, condition)
    for name in sorted(RULESETS)
    for condition in find_ruleset(name).vocabulary.conditions
]


@pytest.mark.parametrize(("name", "condition"), ALL_CONDITIONS)
def test_every_condition_the_ruleset_lists_changes_what_happens(name: str, condition: str) -> None:
    assert (name, condition) in PROBES, f"no probe shows what {name}'s {condition} does"
    PROBES[(name, condition)]()


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_condition_the_ruleset_does_not_play_is_refused_naming_those_it_does(
    name: str,
) -> None:
    make = RULESETS[name]
    encounter = _fight(name, make("a", 0, 0), make("b", 3, 3))
    message = refused(encounter, SetCondition("gm", "b", "petrified", True), "illegal_action")
    assert "'petrified'" in message
    for played in find_ruleset(name).vocabulary.conditions:
        assert played in message


# -- options: every action's params ---------------------------------------------------------


ALL_ACTIONS = [(name, action) for name in sorted(RULESETS) for action in find_ruleset(name).actions]


@pytest.mark.parametrize(("name", "action"), ALL_ACTIONS)
def test_an_option_an_action_does_not_take_is_refused_naming_it(name: str, action: str) -> None:
    # Table options (Hero's power_options) and every other action's params alike.
    make = RULESETS[name]
    encounter = _fight(name, make("a", 0, 0), make("b", 3, 3))
    message = refused(
        encounter, Act("gm", _actor(encounter), action, {"house_rule": True}), "bad_params"
    )
    assert "house_rule" in message


# -- the guides say what each condition does ----------------------------------------------

GUIDES = {  # the toy ruleset has no guide
    "hero-supplement": "hero",
    "cyberpunk-red": "cyberpunk_red",
    "mm3e": "mutants_masterminds",
}


@pytest.mark.parametrize(("name", "condition"), [c for c in ALL_CONDITIONS if c[0] in GUIDES])
def test_the_rulesets_guide_says_what_each_condition_does(name: str, condition: str) -> None:
    root = Path(__file__).resolve().parents[2]
    guide = (root / "engine" / "rulesets" / GUIDES[name] / "README.md").read_text("utf-8")
    table = guide.split("## Conditions", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith(f"| `{condition}`")]
    rows += [line for line in table.splitlines() if f"`{condition}` |" in line]
    assert rows, f"{name}'s guide has no row for {condition}"
