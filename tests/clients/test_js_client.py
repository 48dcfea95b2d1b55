"""The JavaScript client library's own tests (``clients/js/test/*.test.js``, Node's test
runner), run from here so that ``pytest`` (and so ``.ci/run``) runs them.

They start real bridges with this interpreter (``VTT_BRIDGE_PYTHON``).  Without Node the
test is skipped on a workstation and fails on CI (``CI=true``), so a CI image that lost
Node cannot pass silently.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "clients" / "js" / "test"
#: Node 20 has ``WebSocket`` behind a flag; 22 has it on.
MIN_NODE = 20


def _node() -> tuple[str, int]:
    node = shutil.which("node")
    if node is None:
        message = f"node (Node.js >= {MIN_NODE}) is not installed: apt-get install nodejs"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)
        pytest.skip(message)
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    found = re.match(r"v(\d+)\.", version.stdout.strip())
    assert found, f"unexpected node --version output {version.stdout!r}"
    major = int(found.group(1))
    assert major >= MIN_NODE, f"Node.js {version.stdout.strip()} is too old, need >= {MIN_NODE}"
    return node, major


def run_node_tests(files: list[str]) -> None:
    """Run ``files`` (paths from the repository root) with Node's test runner; fail
    with its output unless every test passed."""
    node, major = _node()
    flags = ["--experimental-websocket"] if major < 22 else []
    result = subprocess.run(
        [node, *flags, "--test", *files],
        cwd=ROOT,
        env={**os.environ, "VTT_BRIDGE_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=540,
    )
    summary = re.findall(r"^# (tests|pass|fail) (\d+)$", result.stdout, re.MULTILINE)
    assert result.returncode == 0, f"{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    counts = dict(summary)
    assert int(counts["fail"]) == 0 and int(counts["pass"]) == int(counts["tests"]) > 0


@pytest.mark.timeout(600)
def test_js_client_library() -> None:
    files = sorted(str(p.relative_to(ROOT)) for p in JS_TESTS.glob("*.test.js"))
    assert files, "no JavaScript tests found"
    run_node_tests(files)
