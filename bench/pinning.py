"""``--pin``: the bridge on one core, every client on the other.

On a 2-core machine the bench's clients (the load's driver, a storm's 500 clients)
share the server's cores and take CPU from it: the nearest thing here to clients on
another host is to pin the server to core 0 and this process, with every thread and
process it starts from then on, to core 1 (``os.sched_setaffinity``).  Linux sets a
thread's affinity, inherited by the threads and processes it creates: the driver is
pinned before it starts any, and each of the bridge's threads is pinned once it runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: The server's core and the clients'.
SERVER_CORE = 0
CLIENTS_CORE = 1


def can_pin() -> bool:
    """Whether this machine lets the bench pin (two cores to this process at least)."""
    return hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2


def pin_clients() -> None:
    """This thread (the driver's main thread, before it starts any other) and what it
    starts from now on: on the clients' core."""
    os.sched_setaffinity(0, {CLIENTS_CORE})


def pin_server(pid: int) -> None:
    """Every thread of process ``pid`` on the server's core (the ones it starts later
    inherit it from its main thread)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {SERVER_CORE})


def load() -> dict[str, Any]:
    """The machine's load averages now (what ``uptime`` prints), beside each run."""
    one, five, fifteen = os.getloadavg()
    return {"1m": round(one, 2), "5m": round(five, 2), "15m": round(fifteen, 2)}
