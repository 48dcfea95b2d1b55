"""``Coverage.add_many`` (a crowd's threats indexed together, ``geometry.index``) leaves
exactly the reverse map that adding the same areas one at a time leaves, over whatever
was indexed before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import SquareGrid
from geometry.coverage import Coverage

CELLS = st.frozensets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=20)
AREAS = st.lists(CELLS, max_size=8)


@settings(max_examples=300, deadline=None)
@given(before=AREAS, batch=AREAS)
def test_adding_areas_together_equals_adding_them_one_by_one(
    before: list[frozenset[tuple[int, int]]], batch: list[frozenset[tuple[int, int]]]
) -> None:
    grid = SquareGrid(6, 6)
    one, many = Coverage(grid), Coverage(grid)
    for i, cells in enumerate(before):
        one.add(f"b{i}", cells)
        many.add(f"b{i}", cells)
    areas = [(f"a{i:02}", cells) for i, cells in enumerate(batch)]
    for area_id, cells in areas:
        one.add(area_id, cells)
    many.add_many(areas)
    assert many.cells == one.cells
    # And forgetting them again, one at a time, leaves both as they were.
    for area_id, cells in areas:
        one.remove(area_id, cells)
        many.remove(area_id, cells)
    assert many.cells == one.cells
