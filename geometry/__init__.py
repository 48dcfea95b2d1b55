"""Grid geometry for the combat engine: grids, reach, walls, terrain, paths and sight.

Sans-I/O: plain functions and values over shapely geometries; the only stateful object,
:class:`ThreatIndex`, changes only when told to.  See ``geometry/README.md``.
"""

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.hexgrid import HexGrid, HexOrientation, HexParity
from geometry.hexshapes import HexShape
from geometry.index import MoveResolution, ThreatIndex, Token
from geometry.lines import LineRule, direct_path, trace_waypoints, traced_steps
from geometry.path import (
    AreaExit,
    Crossing,
    CrossingKind,
    crossings,
    exit_point,
    first_exits,
    validate_path,
)
from geometry.reach import (
    footprint_cells,
    footprint_polygon,
    reach_area,
    reach_steps,
    threatened_cells,
)
from geometry.square import Cell, DiagonalRule, Point, SquareGrid
from geometry.steps import StepBlocker, cells_near_walls
from geometry.terrain import CostRule, TerrainKind, TerrainMap, TerrainRegion, jump_cost
from geometry.walls import BlockMode, Door, Wall, WallSet

__all__ = [
    "AreaExit",
    "BlockMode",
    "Cell",
    "CostRule",
    "Crossing",
    "CrossingKind",
    "DiagonalRule",
    "Door",
    "GeometryError",
    "Grid",
    "HexGrid",
    "HexOrientation",
    "HexParity",
    "HexShape",
    "LineRule",
    "MoveResolution",
    "Point",
    "SquareGrid",
    "StepBlocker",
    "TerrainKind",
    "TerrainMap",
    "TerrainRegion",
    "ThreatIndex",
    "Token",
    "Wall",
    "WallSet",
    "cells_near_walls",
    "crossings",
    "direct_path",
    "exit_point",
    "first_exits",
    "footprint_cells",
    "footprint_polygon",
    "jump_cost",
    "reach_area",
    "reach_steps",
    "threatened_cells",
    "trace_waypoints",
    "traced_steps",
    "validate_path",
]
