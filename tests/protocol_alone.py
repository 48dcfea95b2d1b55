"""What a Python client that imports the protocol alone sees: a fresh interpreter with
no engine, no server and no geometry loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def protocol_alone(expression: str) -> str:
    """What ``print(expression)`` prints after a bare ``import protocol``, checking that
    nothing but the protocol was imported for it."""
    probe = (
        "import sys, protocol; "
        "assert not {'engine', 'vtt_bridge', 'geometry'} & set(sys.modules), sys.modules; "
        f"print({expression})"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    return done.stdout.strip()
