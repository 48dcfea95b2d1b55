"""Run a folder's ``node --test`` files from pytest, so ``pytest`` (and ``.ci/run``) runs them.

The Node suites start real bridges with this interpreter (``VTT_BRIDGE_PYTHON``).  Without
Node the test is skipped on a workstation and fails on CI (``CI=true``), so a CI image that
lost Node cannot pass silently.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Node 20 has ``WebSocket`` behind a flag; 22 has it on.
MIN_NODE = 20


def node() -> tuple[str, int]:
    """The ``node`` executable and its major version (skip, or fail on CI, without it)."""
    found = shutil.which("node")
    if found is None:
        message = f"node (Node.js >= {MIN_NODE}) is not installed: apt-get install nodejs"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)
        pytest.skip(message)
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=True)
    match = re.match(r"v(\d+)\.", version.stdout.strip())
    assert match, f"unexpected node --version output {version.stdout!r}"
    major = int(match.group(1))
    assert major >= MIN_NODE, f"Node.js {version.stdout.strip()} is too old, need >= {MIN_NODE}"
    return found, major


def run_node_suite(*folders: Path, timeout: float = 540) -> None:
    """Run every ``*.test.js`` in ``folders`` with one ``node --test``; fail unless all pass."""
    executable, major = node()
    flags = ["--experimental-websocket"] if major < 22 else []
    files = sorted(str(p.relative_to(ROOT)) for f in folders for p in f.glob("*.test.js"))
    assert files, f"no JavaScript tests found in {folders}"
    result = subprocess.run(
        [executable, *flags, "--test", *files],
        cwd=ROOT,
        env={**os.environ, "VTT_BRIDGE_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    summary = re.findall(r"^# (tests|pass|fail) (\d+)$", result.stdout, re.MULTILINE)
    assert result.returncode == 0, f"{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    counts = dict(summary)
    assert int(counts["fail"]) == 0 and int(counts["pass"]) == int(counts["tests"]) > 0
