"""The JavaScript client library's own tests (``clients/js/test/*.test.js``, Node's test
runner), run from here so that ``pytest`` (and so ``.ci/run``) runs them.

They start real bridges with this interpreter (``VTT_BRIDGE_PYTHON``).  Without Node the
test is skipped on a workstation and fails on CI (``CI=true``), so a CI image that lost
Node cannot pass silently.
"""

from __future__ import annotations

import pytest

from tests.node_suite import ROOT, run_node_suite


@pytest.mark.timeout(600)
def test_js_client_library() -> None:
    run_node_suite(ROOT / "clients" / "js" / "test")
