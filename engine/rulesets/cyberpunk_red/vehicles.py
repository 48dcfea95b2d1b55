"""Vehicle actions (seed 001, *List of Actions*): Board, Start, Maneuver, and the free
exit.

- Board a vehicle: a vehicle within reach, not aboard one, a free wheel to drive.
  Start: at the wheel of one not running (moves to the front of the queue: the caller
  shifts the queue).  Maneuver: at the wheel of a running one (the manoeuvre is the
  table's: vehicle combat is not in this text).
- Free: get out of a vehicle.

Each ``needs_*`` here is what the action asks beyond the checks its row of
:data:`.actions.ACTIONS` puts first (an open Action, for all but the exit).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.rulesets.cyberpunk_red.action_spec import (
    ManeuverParams,
    Result,
    VehicleParams,
    World,
    done,
    reach_refusal,
    spend,
)
from engine.rulesets.cyberpunk_red.state import Arena, Fighter
from engine.tray import DiceTray

# -- needs ------------------------------------------------------------------------------


def needs_board(arena: Arena, world: World, f: Fighter, p: VehicleParams | None) -> str | None:
    """Why ``f`` cannot board (``p.vehicle``), or None."""
    if f.vehicle:
        return f"already aboard {f.vehicle}"
    if p is None:
        return (
            None
            if any(world.in_reach(f.id, v.id) for v in arena.vehicles)
            else ("no vehicle within reach")
        )
    vehicle = arena.vehicle(p.vehicle)
    if vehicle is None:
        return f"{p.vehicle!r} is not a vehicle"
    why = reach_refusal(world, f, p.vehicle)
    if why:
        return why
    if p.driver and vehicle.driver:
        return f"{vehicle.driver} is at the wheel of {p.vehicle}"
    return None


def needs_start(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` has no stopped vehicle to start, or None."""
    if not f.driver or f.vehicle is None:
        return "not at the wheel of a vehicle"
    vehicle = arena.vehicle(f.vehicle)
    assert vehicle is not None
    return f"{vehicle.id} is already running" if vehicle.started else None


def needs_maneuver(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` has no running vehicle to maneuver, or None."""
    vehicle = arena.vehicle(f.vehicle) if f.vehicle and f.driver else None
    if vehicle is None:
        return "not at the wheel of a vehicle"
    return None if vehicle.started else f"{vehicle.id} is not running: start it first"


def needs_exit(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` has no vehicle to get out of, or None."""
    return None if f.vehicle else "not in a vehicle"


# -- effects ----------------------------------------------------------------------------


def board(arena: Arena, world: World, f: Fighter, p: VehicleParams, tray: DiceTray) -> Result:
    """Board ``p.vehicle``, taking the wheel if ``p.driver``."""
    vehicle = arena.vehicle(p.vehicle)
    assert vehicle is not None
    f = replace(spend(f, "board_vehicle"), vehicle=p.vehicle, driver=p.driver)
    if p.driver:
        arena = arena.with_vehicle(replace(vehicle, driver=f.id))
    note = "at the wheel" if p.driver else "as a passenger"
    return done(arena, f, "board_vehicle", item=p.vehicle, note=note)


def start(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Start the vehicle ``f`` drives (the caller moves ``f`` to the front of the queue)."""
    vehicle = arena.vehicle(f.vehicle or "")
    assert vehicle is not None
    arena = arena.with_vehicle(replace(vehicle, started=True))
    note = "the driver moves to the front of the Initiative Queue"
    return done(arena, spend(f, "start_vehicle"), "start_vehicle", item=vehicle.id, note=note)


def maneuver(arena: Arena, world: World, f: Fighter, p: ManeuverParams, tray: DiceTray) -> Result:
    """Spend the Action on the table's manoeuvre."""
    f = spend(f, "maneuver_vehicle")
    return done(arena, f, "maneuver_vehicle", item=f.vehicle, note=p.maneuver)


def exit_vehicle(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Get out of the vehicle, leaving the wheel free if ``f`` drove."""
    vehicle = arena.vehicle(f.vehicle or "")
    assert vehicle is not None
    if vehicle.driver == f.id:
        arena = arena.with_vehicle(replace(vehicle, driver=None))
    f = replace(f, vehicle=None, driver=False)
    return done(arena, f, "exit_vehicle", cost="free", item=vehicle.id)
