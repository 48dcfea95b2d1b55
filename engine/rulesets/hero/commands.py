"""The Hero supplement's actions as engine commands, for library callers and tests:
each builds the generic :class:`~engine.commands.Act` with the action's params, as a
client's ``act`` message would.  ``Attack("alice", "hero", "ogre", rolls=(3, 4, 5))``
is ``Act("alice", "hero", "attack", {"target": "ogre", ..., "rolls": [3, 4, 5]})``."""

from __future__ import annotations

from typing import Any

from engine.commands import Act
from engine.rulesets.hero.state import Maneuver
from geometry import Cell


def _maneuver(maneuver: Maneuver | None) -> dict[str, Any] | None:
    if maneuver is None:
        return None
    return {"name": maneuver.name, "ocv": maneuver.ocv, "dcv": maneuver.dcv}


def _rolls(rolls: tuple[int, ...] | None) -> list[int] | None:
    return None if rolls is None else list(rolls)


def Attack(
    actor: str,
    token: str,
    target: str,
    ranged: bool = False,
    range: float = 0.0,
    maneuver: Maneuver | None = None,
    ocv_bonus: int = 0,
    rolls: tuple[int, ...] | None = None,
) -> Act:
    """An attack action on ``target``."""
    params = {
        "target": target,
        "ranged": ranged,
        "range": range,
        "maneuver": _maneuver(maneuver),
        "ocv_bonus": ocv_bonus,
        "rolls": _rolls(rolls),
    }
    return Act(actor, token, "attack", params)


def TakeAction(
    actor: str,
    token: str,
    action: str,
    detail: str | None = None,
    maneuver: Maneuver | None = None,
) -> Act:
    """A named action (``draw_focus``, ``stand_up``, ``defend`` ...)."""
    return Act(actor, token, action, {"detail": detail, "maneuver": _maneuver(maneuver)})


def Delay(actor: str, token: str, before: str | None = None) -> Act:
    """Delay, maybe to just before ``before``."""
    return Act(actor, token, "delay", {"before": before})


def TakeDelayed(actor: str, token: str) -> Act:
    """Take the delayed action now."""
    return Act(actor, token, "take_delayed", {})


def Ready(
    actor: str,
    token: str,
    action: str,
    trigger_by: str | None = None,
    area: tuple[Cell, ...] = (),
) -> Act:
    """Ready an ``action`` for a trigger."""
    params = {"action": action, "trigger_by": trigger_by, "area": [list(c) for c in area]}
    return Act(actor, token, "ready", params)


def Abort(actor: str, token: str, maneuver: Maneuver | None, action: str = "defend") -> Act:
    """Abort to a defensive manoeuvre, or to a move action."""
    return Act(actor, token, "abort", {"maneuver": _maneuver(maneuver), "action": action})


def SetVitals(actor: str, token: str, end: int, stun: int) -> Act:
    """The GM's END and STUN."""
    return Act(actor, token, "set_vitals", {"end": end, "stun": stun})
