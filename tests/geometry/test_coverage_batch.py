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
@given(before=AREAS, batch=AREAS, names=st.permutations(range(8)))
def test_adding_areas_together_equals_adding_them_one_by_one(
    before: list[frozenset[tuple[int, int]]],
    batch: list[frozenset[tuple[int, int]]],
    names: list[int],
) -> None:
    grid = SquareGrid(6, 6)
    one, many = Coverage(grid), Coverage(grid)
    for i, cells in enumerate(before):
        one.add(f"b{i}", cells)
        many.add(f"b{i}", cells)
    # Ids in any order (add_many sorts them), some sorting before the older ones.
    areas = [(f"{'a' if names[i] % 2 else 'c'}{names[i]}", cells) for i, cells in enumerate(batch)]
    for area_id, cells in areas:
        one.add(area_id, cells)
    many.add_many(areas)
    assert many.cells == one.cells
    # And forgetting them again, one at a time, leaves both as they were.
    for area_id, cells in areas:
        one.remove(area_id, cells)
        many.remove(area_id, cells)
    assert many.cells == one.cells


CHANGES = st.lists(st.tuples(CELLS, CELLS), max_size=8)


@settings(max_examples=300, deadline=None)
@given(before=AREAS, changes=CHANGES)
def test_updating_areas_together_equals_removing_and_adding_each(
    before: list[frozenset[tuple[int, int]]],
    changes: list[tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]],
) -> None:
    # A door's refresh (geometry.index.set_door): some areas leave some of their cells
    # and enter others, all applied at once.
    grid = SquareGrid(6, 6)
    one, many = Coverage(grid), Coverage(grid)
    areas = {f"b{i}": cells for i, cells in enumerate(before)}
    for area_id, cells in areas.items():
        one.add(area_id, cells)
        many.add(area_id, cells)
    batch = []
    for (area_id, cells), (drop, extra) in zip(areas.items(), changes, strict=False):
        left, entered = cells & drop, extra - cells
        batch.append((area_id, left, entered))
        one.remove(area_id, left)
        one.add(area_id, entered)
    many.update_many(batch)
    assert many.cells == one.cells
