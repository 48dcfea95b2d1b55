"""Gridless scenes in the engine: tokens are discs at points, a move is waypoints, and an
attack of opportunity pauses the move at the exact point where it leaves a reach (the
figure geometry.gridless_threat works out), then resumes from there."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Act,
    AnswerPrompt,
    Combatant,
    CommandRejected,
    Encounter,
    EndPhase,
    GridSpec,
    JoinCombat,
    LoadScene,
    Move,
    MovePoints,
    Scene,
    StartCombat,
    WallSpec,
)
from engine.events import MoveCompleted, MoveInterrupted, PromptOpened
from engine.model import VttSpec
from engine.rulesets.hero.commands import Ready
from geometry.gridless import GridlessScene
from geometry.gridless_threat import GridlessThreats
from tests.engine.helpers import fight, kinds, refused, token


def at(tok: Combatant, x: float, y: float) -> Combatant:
    """``tok`` centred on ``(x, y)``."""
    return replace(tok, x=x, y=y)


def gridless(
    *tokens: Combatant,
    walls: tuple[WallSpec, ...] = (),
    vtt: VttSpec | None = None,
    ruleset: str = "hero-supplement",
    cell_size: float = 1.0,
) -> Encounter:
    """A 20 x 20 cell gridless scene with ``tokens``, combat started."""
    grid = GridSpec(20, 20, cell_size, kind="gridless", vtt=vtt)
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(grid, tuple(tokens), walls)))
    encounter.apply(StartCombat("gm", ruleset, 7, None))
    return encounter


def to_turn_of(encounter: Encounter, who: str) -> None:
    """End Phases until ``who`` acts."""
    while True:
        combat = encounter.state.combat
        assert combat is not None
        if combat.actor == who:
            return
        encounter.apply(EndPhase("gm", combat.actor))


def ogre_and_hero(hx: float = 6.75, hy: float = 5.5) -> Encounter:
    """The ogre centred on (5.5, 5.5), reach 1 m; the hero at (hx, hy), to move."""
    ogre = at(token("ogre", 0, 0, init=20), 5.5, 5.5)
    hero = at(token("hero", 0, 0, owner="alice", init=5), hx, hy)
    encounter = gridless(ogre, hero)
    to_turn_of(encounter, "hero")
    return encounter


def test_leaving_reach_pauses_at_the_exact_exit_point_and_resumes_from_it() -> None:
    encounter = ogre_and_hero()
    path = ((9.0, 5.5), (9.0, 8.25))
    # The geometry's own figure: the ogre's reach is the ball of 1 + 1/2 + 1/2 - 1/2 m.
    threats = GridlessThreats(GridlessScene(20, 20))
    threats.set_region("ogre", (5.5, 5.5), 1.5)
    (expected,) = threats.resolve([(6.75, 5.5), *path]).exits
    assert expected.point == (7.0, 5.5)
    events = encounter.apply(Move("alice", "hero", path))
    interrupted = next(e for e in events if isinstance(e, MoveInterrupted))
    assert (interrupted.by, interrupted.at, interrupted.exit_point) == (
        "ogre",
        (7.0, 5.5),
        (7.0, 5.5),
    )
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    assert prompt.at == expected.point
    scene = encounter.state.scene
    assert scene is not None
    hero = scene.token("hero")
    assert hero is not None and hero.position == (7.0, 5.5)
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    # 2.25 m east, then 2.75 m south: 5 m of the hero's 6 m combat movement.
    assert completed.at == (9.0, 8.25)
    assert completed.cost == pytest.approx(2.25 + 2.75)
    assert completed.movement_left == pytest.approx(12.0 - 5.0)


def test_a_pause_between_waypoints_resumes_along_the_rest() -> None:
    # The exit lies inside the second segment: the walk goes on from there to the end.
    # The hero's disc touches the ogre's (centres 1 m apart); 0.25 m south it is still
    # 1.25 m from the ogre's centre, and heading west it leaves the 1.5 m ball where
    # (x - 5.5)^2 + 1.25^2 = 1.5^2.
    encounter = ogre_and_hero(5.5, 6.5)
    path = ((5.5, 6.75), (3.0, 6.75), (3.0, 9.0))
    events = encounter.apply(Move("alice", "hero", path))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    assert prompt.at == pytest.approx((5.5 - math.sqrt(1.5**2 - 1.25**2), 6.75))
    pending = encounter.state.combat.pending_move  # type: ignore[union-attr]
    assert pending is not None and pending.path == ((5.5, 6.5), *path) and pending.step == 1
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    assert completed.at == (3.0, 9.0)
    assert completed.cost == pytest.approx(0.25 + 2.5 + 2.25)


def test_the_exits_query_gives_the_point_a_move_pauses_at() -> None:
    encounter = ogre_and_hero()
    exits, reason = encounter.path_exits("hero", ((9.0, 5.5),), None, "alice")
    assert reason is None
    assert [(e.kind, e.by, e.at, e.point) for e in exits] == [
        ("attack_of_opportunity", "ogre", (7.0, 5.5), (7.0, 5.5))
    ]


def test_the_threat_query_answers_a_region() -> None:
    encounter = ogre_and_hero()
    found = encounter.threat("ogre")
    assert found.cells == ()
    assert found.region == ((5.5, 5.5), 1.5, 0.0)
    assert found.foes == ("hero",)
    (ring,) = found.outline
    assert all(math.dist(p, (5.5, 5.5)) == pytest.approx(1.5) for p in ring)


def test_a_flier_out_of_reach_in_three_dimensions_is_not_stopped() -> None:
    ogre = at(token("ogre", 0, 0, init=20), 5.5, 5.5)
    hero = replace(at(token("hero", 0, 0, owner="alice", init=5), 6.5, 5.5), elevation=2.0)
    encounter = gridless(ogre, hero)
    to_turn_of(encounter, "hero")
    events = encounter.apply(Move("alice", "hero", ((9.0, 5.5),)))
    assert "prompt_opened" not in kinds(events)
    assert events[-1].kind == "move_completed"


def test_a_wall_blocks_a_token_by_its_width() -> None:
    # A gap of 0.8 m between two walls: a disc 1 m across cannot pass, a point could.
    walls = (
        WallSpec("w1", (10.0, 0.0), (10.0, 5.1)),
        WallSpec("w2", (10.0, 5.9), (10.0, 20.0)),
    )
    hero = at(token("hero", 0, 0, owner="alice", init=20), 8.5, 5.5)
    encounter = gridless(hero, at(token("ogre", 0, 0, init=1), 17.5, 17.5), walls=walls)
    to_turn_of(encounter, "hero")
    message = refused(encounter, Move("alice", "hero", ((11.5, 5.5),)), "illegal_move")
    assert "wall blocks" in message and "1 m across" in message


def test_an_enemy_bars_the_way_and_nobody_may_be_stood_on() -> None:
    hero = at(token("hero", 0, 0, owner="alice", init=20), 2.5, 5.5)
    friend = at(token("friend", 0, 0, owner="alice", init=1), 2.5, 8.5)
    ogre = at(token("ogre", 0, 0, init=2), 8.5, 5.5)
    encounter = gridless(hero, friend, ogre)
    to_turn_of(encounter, "hero")
    assert "enemy 'ogre'" in refused(
        encounter, Move("alice", "hero", ((12.5, 5.5),)), "illegal_move"
    )
    assert "ends on 'friend'" in refused(
        encounter, Move("alice", "hero", ((2.5, 8.0),)), "illegal_move"
    )
    # Through the ally, out the other side.
    events = encounter.apply(Move("alice", "hero", ((2.5, 10.0),)))
    assert events[-1].kind == "move_completed"


def test_a_fractional_cell_on_a_grid_is_refused() -> None:
    encounter = fight(token("hero", 2, 2, owner="alice", init=20), token("ogre", 9, 9))
    message = refused(encounter, Move("alice", "hero", ((3.5, 2),)), "illegal_move")
    assert "not a cell" in message
    # A whole number sent as a float is that cell.
    events = encounter.apply(Move("alice", "hero", ((3.0, 2.0),)))
    assert events[-1] == MoveCompleted("hero", (3, 2), 1.0, 11.0)


@pytest.mark.parametrize(
    ("vtt", "pixels", "expected"),
    [
        # Foundry: the document's top-left corner, 100 px a cell, padding 50 px:
        # (875 - 50) / 100 = 8.25 m, (550 - 50) / 100 = 5 m; plus half the token's width.
        (VttSpec("foundry", 100.0, 50.0, 50.0), (875.0, 550.0), (8.25 + 0.5, 5.0 + 0.5)),
        # Owlbear: the item's centre, 150 px a cell.
        (VttSpec("owlbear", 150.0), (1387.5, 825.0), (9.25, 5.5)),
    ],
)
def test_move_points_converts_pixels_without_snapping(
    vtt: VttSpec, pixels: tuple[float, float], expected: tuple[float, float]
) -> None:
    ogre = at(token("ogre", 0, 0, init=1), 17.5, 17.5)
    hero = at(token("hero", 0, 0, owner="alice", init=20), 6.5, 5.5)
    encounter = gridless(hero, ogre, vtt=vtt)
    to_turn_of(encounter, "hero")
    events = encounter.apply(MovePoints("alice", "hero", (pixels,)))
    assert events[-1].kind == "move_completed"
    assert events[-1].at == pytest.approx(expected)


def test_a_readied_area_fires_where_the_disc_comes_onto_it() -> None:
    elf = at(token("elf", 0, 0, owner="bob", init=15), 6.5, 2.5)
    ogre = at(token("ogre", 0, 0, init=10), 9.5, 5.5)
    encounter = gridless(elf, ogre)
    encounter.apply(Ready("bob", "elf", "attack", area=((6, 5), (5, 5))))
    encounter.apply(EndPhase("bob", "elf"))
    events = encounter.apply(Move("gm", "ogre", ((5.5, 5.5),)))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    # The square (6, 5) spans x 6..7; a disc of radius 0.5 touches it when its centre
    # is at x = 7.5.
    assert prompt.prompt_kind == "readied_action"
    assert prompt.at == pytest.approx((7.5, 5.5))
    encounter.apply(AnswerPrompt("bob", prompt.prompt, True))
    events = encounter.apply(EndPhase("bob", "elf"))
    assert kinds(events)[:2] == ["interjection_ended", "move_completed"]


@settings(max_examples=60, deadline=None)
@given(
    ogre=st.tuples(st.integers(6, 13), st.integers(6, 13)),  # the path stays on the map
    reach=st.sampled_from([1, 2]),
    side=st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]),
    along=st.integers(-1, 1),
    steps=st.integers(1, 3),
)
def test_a_move_along_cell_centres_stops_where_the_square_grid_does(
    ogre: tuple[int, int], reach: int, side: tuple[int, int], along: int, steps: int
) -> None:
    """From a square on the rim of the ogre's threatened squares, straight out along a
    row or column of cell centres: the grid stops the move on the square it leaves, at
    that square's edge; gridless, where the centre leaves the ogre's ball.  In line with
    the ogre the two points are the same; one square aside the ball is round where the
    squares are square, so they lie within half a cell's diagonal.  (The far corners of
    a 2 m reach's 5 x 5 squares lie outside the round reach: a grid counting diagonals
    as one square reaches farther there.)

    (Deeper inside the reach they differ by design: on a grid every threatened square
    left provokes, gridless only leaving the reach does; the Hero guide says why.)"""
    dx, dy = side
    start = (ogre[0] + dx * reach + dy * along, ogre[1] + dy * reach + dx * along)
    cells = tuple((start[0] + dx * k, start[1] + dy * k) for k in range(1, steps + 1))
    ogre_tok = replace(token("ogre", *ogre, init=20), reach=float(reach))
    hero_tok = token("hero", *start, owner="alice", init=5)
    on_grid = fight(ogre_tok, hero_tok)
    to_turn_of(on_grid, "hero")
    grid_exits, _ = on_grid.path_exits("hero", cells, None, "alice")
    centred = [
        at(ogre_tok, ogre[0] + 0.5, ogre[1] + 0.5),
        at(hero_tok, start[0] + 0.5, start[1] + 0.5),
    ]
    off_grid = gridless(*centred)
    to_turn_of(off_grid, "hero")
    points = tuple((x + 0.5, y + 0.5) for x, y in cells)
    gridless_exits, _ = off_grid.path_exits("hero", points, None, "alice")
    assert [(e.by, e.step) for e in gridless_exits] == [(e.by, e.step) for e in grid_exits]
    assert len(grid_exits) == 1
    tolerance = 1e-9 if along == 0 else math.sqrt(2) / 2
    assert math.dist(gridless_exits[0].point, grid_exits[0].point) <= tolerance


def test_a_planned_path_goes_round_a_wall_and_is_a_move_that_is_accepted() -> None:
    # A wall from (10, 0) to (10, 12) between the hero and its goal: the plan goes round
    # its southern end, no nearer than the hero's radius, and the move it gives walks.
    walls = (WallSpec("w1", (10.0, 0.0), (10.0, 12.0)),)
    hero = replace(at(token("hero", 0, 0, owner="alice", init=20), 8.5, 10.5), movement=10.0)
    encounter = gridless(hero, at(token("ogre", 0, 0, init=1), 17.5, 2.5), walls=walls)
    to_turn_of(encounter, "hero")
    plan = encounter.plan_path("hero", (11.5, 10.5), "alice")
    assert plan.reason is None and plan.path[-1] == (11.5, 10.5)
    # Round the end at (10, 12): at least there and back, 2 x hypot(1.5, 2) = 5 m.
    assert 5.0 < plan.cost < 5.6
    assert all(p[1] > 12.0 for p in plan.path[:-1])
    events = encounter.apply(Move("alice", "hero", plan.path))
    assert events[-1] == MoveCompleted("hero", (11.5, 10.5), plan.cost, 20.0 - plan.cost)


def test_a_plan_beyond_the_movement_left_says_so() -> None:
    walls = (WallSpec("w1", (10.0, 0.0), (10.0, 19.0)),)
    hero = at(token("hero", 0, 0, owner="alice", init=20), 8.5, 2.5)
    encounter = gridless(hero, at(token("ogre", 0, 0, init=1), 17.5, 17.5), walls=walls)
    to_turn_of(encounter, "hero")
    plan = encounter.plan_path("hero", (11.5, 2.5), "alice")
    assert plan.path == () and plan.reason is not None and "no open path" in plan.reason


def test_a_flight_pauses_where_it_leaves_the_reach_in_three_dimensions() -> None:
    ogre = at(token("ogre", 0, 0, init=20), 5.5, 5.5)
    hero = at(token("hero", 0, 0, owner="alice", init=5, extra={"flight": 10.0}), 6.5, 5.5)
    encounter = gridless(ogre, hero)
    to_turn_of(encounter, "hero")
    threats = GridlessThreats(GridlessScene(20, 20))
    threats.set_region("ogre", (5.5, 5.5), 1.5)
    (expected,) = threats.resolve([(6.5, 5.5), (8.5, 5.5)], [0.0, 2.0]).exits
    events = encounter.apply(Move("alice", "hero", ((8.5, 5.5),), elevations=(2.0,)))
    started = next(e for e in events if e.kind == "move_started")
    assert started.elevations == (2.0,)  # type: ignore[union-attr]
    interrupted = next(e for e in events if isinstance(e, MoveInterrupted))
    assert interrupted.at == expected.point
    assert interrupted.elevation == pytest.approx(expected.elevation)
    # 1 + 2t east and 2t up leaves the 1.5 m ball where 8t^2 + 4t - 1.25 = 0.
    t = (-4 + math.sqrt(16 + 40)) / 16
    assert expected.point == pytest.approx((6.5 + 2 * t, 5.5))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    assert completed.elevation == 2.0
    assert completed.cost == pytest.approx(math.hypot(2.0, 2.0))
    scene = encounter.state.scene
    assert scene is not None and scene.token("hero").elevation == 2.0  # type: ignore[union-attr]


def test_a_token_its_game_gives_no_flight_is_refused_a_change_of_height() -> None:
    encounter = ogre_and_hero()
    message = refused(
        encounter, Move("alice", "hero", ((9.0, 5.5),), elevations=(3.0,)), "illegal_move"
    )
    assert "no Flight" in message
    # Level all along is a move like any other.
    events = encounter.apply(Move("alice", "hero", ((9.0, 5.5),), elevations=(0.0,)))
    assert "move_started" in kinds(events)


def test_cyberpunk_red_changes_height_only_by_climbing() -> None:
    stats = (("move", 4), ("ref", 8))
    rex = replace(at(token("rex", 0, 0, owner="bob"), 5.0, 5.0), stats=stats, reach=2.0)
    goon = replace(at(token("goon", 0, 0), 33.0, 17.0), stats=(("move", 3), ("ref", 3)))
    encounter = gridless(rex, goon, ruleset="cyberpunk-red", cell_size=2.0)
    to_turn_of(encounter, "rex")
    message = refused(
        encounter, Move("bob", "rex", ((7.0, 5.0),), elevations=(2.0,)), "illegal_move"
    )
    assert "climb" in message
    events = encounter.apply(Move("bob", "rex", ((7.0, 5.0),), "climb", elevations=(2.0,)))
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    assert completed.cost == pytest.approx(2 * math.hypot(2.0, 2.0))  # 2 m per 1 m climbed
    assert completed.elevation == 2.0


def test_mutants_masterminds_flies_with_a_flight_rank() -> None:
    base = (("dexterity", 2), ("dodge", 5), ("parry", 5))
    flier = replace(at(token("flier", 0, 0, owner="alice"), 2.5, 2.5), stats=(*base, ("flight", 2)))
    walker = replace(at(token("walker", 0, 0, owner="alice"), 2.5, 6.5), stats=base)
    foe = replace(at(token("foe", 0, 0), 15.5, 15.5), stats=base)
    encounter = gridless(flier, walker, foe, ruleset="mm3e")
    for who, up in (("walker", False), ("flier", True)):
        to_turn_of(encounter, who)
        move = Move(
            "alice", who, ((4.5, 4.5) if who == "flier" else (4.5, 8.5),), elevations=(3.0,)
        )
        if up:
            events = encounter.apply(move)
            assert events[-1] == MoveCompleted(
                who, (4.5, 4.5), math.hypot(2, 2, 3), 6.0 - math.hypot(2, 2, 3), 3.0
            )
        else:
            assert "no Flight" in refused(encounter, move, "illegal_move")
            encounter.apply(EndPhase("alice", who))


def test_a_point_joining_a_grid_fight_is_refused() -> None:
    encounter = fight(token("hero", 2, 2, owner="alice", init=20), token("ogre", 9, 9))
    newcomer = at(token("imp", 0, 0), 3.5, 5)
    message = refused(encounter, JoinCombat("gm", newcomer), "bad_scene")
    assert "whole cells" in message


def test_the_exits_query_of_a_flight_gives_the_point_and_refuses_what_a_move_would() -> None:
    ogre = at(token("ogre", 0, 0, init=20), 5.5, 5.5)
    hero = at(token("hero", 0, 0, owner="alice", init=5, extra={"flight": 10.0}), 6.5, 5.5)
    walker = at(token("walker", 0, 0, owner="alice", init=4), 6.5, 8.5)
    encounter = gridless(ogre, hero, walker)
    to_turn_of(encounter, "hero")
    exits, _ = encounter.path_exits("hero", ((8.5, 5.5),), None, "alice", elevations=(2.0,))
    events = encounter.apply(Move("alice", "hero", ((8.5, 5.5),), elevations=(2.0,)))
    interrupted = next(e for e in events if isinstance(e, MoveInterrupted))
    assert [(e.by, e.point) for e in exits] == [("ogre", interrupted.exit_point)]
    with pytest.raises(CommandRejected) as refusal:
        encounter.path_exits("walker", ((6.5, 10.0),), None, "alice", elevations=(1.0,))
    assert refusal.value.code == "illegal_move" and "no Flight" in refusal.value.message


def test_cyberpunk_red_a_shot_held_for_sight_fires_where_the_goon_comes_into_view() -> None:
    # A wall from (10, 0) to (10, 10) hides the goon at (14, 9) from Rex at (4, 5); the
    # goon walks south, and the line from Rex's centre clears the wall's end once the
    # goon's centre is past the line through (4, 5) and (10, 10): at y = 5 + 5 * 10 / 6.
    wall = (WallSpec("w1", (10.0, 0.0), (10.0, 10.0)),)
    rifle = (("hand.right", "rifle"), ("move", 4), ("ref", 8), ("weapon.rifle", 1))
    rex = replace(at(token("rex", 0, 0, owner="bob"), 4.0, 5.0), stats=rifle, reach=2.0)
    goon = replace(at(token("goon", 0, 0), 14.0, 9.0), stats=(("move", 4), ("ref", 3)))
    encounter = gridless(rex, goon, walls=wall, ruleset="cyberpunk-red", cell_size=2.0)
    to_turn_of(encounter, "rex")
    encounter.apply(
        Act(
            "bob",
            "rex",
            "hold_action",
            {
                "action": "attack",
                "trigger": "in_sight",
                "token": "goon",
                "params": {"target": "goon", "weapon": "rifle", "base": 13},
            },
        )
    )
    encounter.apply(EndPhase("bob", "rex"))
    to_turn_of(encounter, "goon")
    events = encounter.apply(Move("gm", "goon", ((14.0, 16.0),)))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    assert prompt.prompt_kind == "readied_action"
    x, y = prompt.at
    exact = 5 + 5 * 10 / 6
    # Sampled eight times a 2 m square: the first sample in view, within 0.25 m after.
    assert x == 14.0 and exact < y <= exact + 2.0 / 8 + 1e-9


@settings(max_examples=40, deadline=None)
@given(
    ogres=st.lists(st.tuples(st.floats(3.0, 17.0), st.floats(3.0, 17.0)), min_size=1, max_size=3),
    waypoints=st.lists(
        st.tuples(st.floats(1.0, 19.0), st.floats(1.0, 19.0)), min_size=1, max_size=4
    ),
)
def test_every_pause_resumes_and_the_move_ends_where_it_was_sent_at_its_length(
    ogres: list[tuple[float, float]], waypoints: list[tuple[float, float]]
) -> None:
    """Declining every prompt, a move reaches its last waypoint with the cost of its
    whole length, however many times it paused, and pauses only where it leaves a reach."""
    hero = replace(at(token("hero", 0, 0, owner="alice", init=1), 10.0, 10.0), movement=50.0)
    foes = [at(token(f"ogre{i}", 0, 0, init=20 + i), x, y) for i, (x, y) in enumerate(ogres)]
    try:
        encounter = gridless(*foes, hero)
    except CommandRejected:
        return  # ogres overlapping each other or the hero
    to_turn_of(encounter, "hero")
    path = tuple(waypoints)
    try:
        events = encounter.apply(Move("alice", "hero", path))
    except CommandRejected:
        return  # through an ogre, or ending on one
    pauses = 0
    while not any(isinstance(e, MoveCompleted) for e in events):
        prompt = next(e for e in events if isinstance(e, PromptOpened))
        (ogre,) = [f for f in foes if f.id == prompt.attacker]
        assert math.dist(prompt.at, centre_of(ogre)) == pytest.approx(1.5, abs=1e-6)
        pauses += 1
        events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    assert pauses <= len(foes)
    completed = next(e for e in events if isinstance(e, MoveCompleted))
    length = sum(math.dist(p, q) for p, q in zip(((10.0, 10.0), *path), path, strict=False))
    assert completed.at == path[-1]
    assert completed.cost == pytest.approx(length)


def centre_of(tok: Combatant) -> tuple[float, float]:
    """Where ``tok`` stands."""
    return (float(tok.x), float(tok.y))


def test_a_flier_may_hover_over_a_token_and_end_a_flight_there() -> None:
    ogre = at(token("ogre", 0, 0, init=1), 12.5, 12.5)
    hero = at(token("hero", 0, 0, owner="alice", init=20, extra={"flight": 10.0}), 4.5, 4.5)
    bird = replace(at(token("bird", 0, 0, owner="alice", init=2), 4.5, 4.5), elevation=3.0)
    encounter = gridless(ogre, hero, bird)  # the bird hovers 3 m over the hero: apart
    to_turn_of(encounter, "hero")
    # Over the ogre at 2 m: its 1 m height is below the hero's base all the way there.
    path = ((8.5, 8.5), (12.5, 12.5))
    events = encounter.apply(Move("alice", "hero", path, elevations=(2.0, 2.0)))
    while not isinstance(events[-1], MoveCompleted):
        prompt = next(e for e in events if isinstance(e, PromptOpened))
        events = encounter.apply(AnswerPrompt("gm", prompt.prompt, False))
    assert (events[-1].at, events[-1].elevation) == ((12.5, 12.5), 2.0)
    with pytest.raises(CommandRejected):
        # Half a metre over the ogre: in its way (each as tall as it is wide).
        gridless(ogre, replace(bird, x=12.5, y=12.5, elevation=0.5))


def test_nobody_reaches_through_a_wall_gridless() -> None:
    """A wall east of the ogre: the hero behind it is out of reach (no attack from there,
    no attack of opportunity leaving from behind it), and stepping from the open side
    into the wall's shadow pauses at the shadow's edge, as geometry works it out."""
    ogre = at(token("ogre", 0, 0, init=20, reach=4.0), 10.0, 10.0)
    wall = WallSpec("w", (12.0, 8.0), (12.0, 14.0))
    behind = at(token("hero", 0, 0, owner="alice", init=5), 13.0, 10.0)
    encounter = gridless(ogre, behind, walls=(wall,))
    to_turn_of(encounter, "hero")
    # 3 m from the ogre's centre, well within its 4.5 m ball, but behind the wall: the
    # reach drawn is the ball less the wall's shadow, which holds the hero's centre.
    drawn = encounter.threat("ogre").outline
    assert len(drawn) == 1 and not _inside_ring((13.0, 10.0), drawn[0])
    assert _inside_ring((8.0, 10.0), drawn[0])
    events = encounter.apply(Move("alice", "hero", ((13.0, 12.0),)))
    assert "prompt_opened" not in kinds(events)
    # From the open north side into the wall's shadow: the edge is the line from the
    # ogre's centre (10, 10) through the wall's end (12, 8), crossing x = 13 at y = 7.
    open_north = at(token("hero", 0, 0, owner="alice", init=5), 13.0, 6.8)
    encounter = gridless(ogre, open_north, walls=(wall,))
    to_turn_of(encounter, "hero")
    events = encounter.apply(Move("alice", "hero", ((13.0, 9.0),)))
    prompt = next(e for e in events if isinstance(e, PromptOpened))
    assert prompt.at == pytest.approx((13.0, 7.0))


def _inside_ring(p: tuple[float, float], ring: tuple[tuple[float, float], ...]) -> bool:
    """Even-odd point in polygon."""
    x, y = p
    hit = False
    for (xi, yi), (xj, yj) in zip(ring, ring[-1:] + ring[:-1], strict=True):
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
    return hit
