"""The Foundry VTT module's tests (``integrations/foundry/test/*.test.js``) and the demo
fight driven through it (``integrations/demo/test/*.test.js``), run with Node's test
runner from here so that ``pytest`` (and so ``.ci/run``) runs them.

They start real bridges with this interpreter (``VTT_BRIDGE_PYTHON``).  Without Node the
test is skipped on a workstation and fails on CI (``CI=true``), as for the client library.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.test_js_client import _node

ROOT = Path(__file__).resolve().parents[2]
SUITES = [ROOT / "integrations" / "foundry" / "test", ROOT / "integrations" / "demo" / "test"]


@pytest.mark.timeout(600)
def test_foundry_module_and_demo() -> None:
    node, major = _node()
    flags = ["--experimental-websocket"] if major < 22 else []
    files = sorted(str(p.relative_to(ROOT)) for d in SUITES for p in d.glob("*.test.js"))
    assert len(files) >= 9, f"expected the module's and the demo's tests, found {files}"
    result = subprocess.run(
        [node, *flags, "--test", *files],
        cwd=ROOT,
        env={**os.environ, "VTT_BRIDGE_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert result.returncode == 0, f"{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    counts = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", result.stdout, re.MULTILINE))
    assert int(counts["fail"]) == 0 and int(counts["pass"]) == int(counts["tests"]) > 0
