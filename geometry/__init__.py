"""Grid geometry for the combat engine: cells, reach, threatened cells and path exits.

Sans-I/O: plain functions and immutable values over shapely geometries.
"""

from geometry.errors import GeometryError
from geometry.path import AreaExit, exit_point, first_exits, validate_path
from geometry.reach import footprint_cells, footprint_polygon, reach_area, threatened_cells
from geometry.square import Cell, Point, SquareGrid

__all__ = [
    "AreaExit",
    "Cell",
    "GeometryError",
    "Point",
    "SquareGrid",
    "exit_point",
    "first_exits",
    "footprint_cells",
    "footprint_polygon",
    "reach_area",
    "threatened_cells",
    "validate_path",
]
