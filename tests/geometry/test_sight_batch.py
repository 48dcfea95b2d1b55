"""``creatures_seen``, every sight line of a crowd in one batch, answers as
``creatures_see`` one pair at a time does: on random small scenes of both grid kinds,
with walls, windows, doors and tokens of several sizes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import HexGrid, SquareGrid, Wall, WallSet
from geometry.sight import creatures_see, creatures_seen
from geometry.walls import Door

Grid = SquareGrid | HexGrid

spot = st.tuples(st.integers(0, 9), st.integers(0, 9))
wall = st.tuples(
    spot,
    st.integers(0, 3),
    st.integers(1, 4),
    st.sampled_from(["wall", "window", "open", "closed"]),
)


def _walls(specs: list[tuple[tuple[int, int], int, int, str]]) -> WallSet:
    walls = []
    for (x, y), direction, length, kind in specs:
        dx, dy = ((1, 0), (0, 1), (1, 1), (1, -1))[direction]
        a, b = (float(x), float(y)), (float(x + dx * length), float(y + dy * length))
        if kind == "window":
            walls.append(Wall(a, b, blocks_sight=False))
        elif kind in ("open", "closed"):
            walls.append(Door(a, b, is_open=kind == "open"))
        else:
            walls.append(Wall(a, b))
    return WallSet(walls)


@settings(max_examples=60, deadline=None)
@given(
    hexes=st.booleans(),
    me=spot,
    my_size=st.integers(1, 2),
    others=st.lists(st.tuples(spot, st.integers(1, 2)), max_size=8),
    specs=st.lists(wall, max_size=8),
)
def test_a_batch_of_sight_lines_answers_as_one_pair_at_a_time(
    hexes: bool,
    me: tuple[int, int],
    my_size: int,
    others: list[tuple[tuple[int, int], int]],
    specs: list[tuple[tuple[int, int], int, int, str]],
) -> None:
    grid: Grid = HexGrid(12, 12, 1.0) if hexes else SquareGrid(12, 12)
    walls = _walls(specs)
    expected = [creatures_see(grid, walls, me, b, size_a=my_size, size_b=s) for b, s in others]
    assert creatures_seen(grid, walls, me, others, size_a=my_size) == expected


def test_a_walled_in_token_sees_only_who_shares_its_room() -> None:
    grid = SquareGrid(10, 10)
    room = WallSet(
        [Wall((2, 2), (5, 2)), Wall((5, 2), (5, 5)), Wall((5, 5), (2, 5)), Wall((2, 5), (2, 2))]
    )
    seen = creatures_seen(grid, room, (3, 3), [((4, 4), 1), ((7, 7), 1), ((3, 3), 1), ((0, 0), 2)])
    assert seen == [True, False, True, False]


@settings(max_examples=60, deadline=None)
@given(
    me=spot,
    others=st.lists(spot, max_size=12),
    specs=st.lists(wall, max_size=8),
    cell_size=st.sampled_from([1.0, 1.5, 2.0]),
)
def test_one_square_tokens_on_squares_answer_as_one_pair_at_a_time(
    me: tuple[int, int],
    others: list[tuple[int, int]],
    specs: list[tuple[tuple[int, int], int, int, str]],
    cell_size: float,
) -> None:
    # The numpy path for the commonest scene: every token one square, the mover's own
    # square among the others too.
    grid = SquareGrid(12, 12, cell_size)
    walls = _walls(specs)
    crowd = [(b, 1) for b in [*others, me]]
    expected = [creatures_see(grid, walls, me, b) for b, _ in crowd]
    assert creatures_seen(grid, walls, me, crowd) == expected
