"""The Foundry VTT module's tests (``integrations/foundry/test/*.test.js``) and the demo
fight driven through it and through the Owlbear extension, compared
(``integrations/demo/test/*.test.js``), run with Node's test runner from here so that
``pytest`` (and so ``.ci/run``) runs them.

They start real bridges with this interpreter (``VTT_BRIDGE_PYTHON``).  Without Node the
test is skipped on a workstation and fails on CI (``CI=true``), as for the client library.
"""

from __future__ import annotations

import pytest

from tests.node_suite import ROOT, run_node_suite

SUITES = [ROOT / "integrations" / "foundry" / "test", ROOT / "integrations" / "demo" / "test"]


@pytest.mark.timeout(600)
def test_foundry_module_and_demo() -> None:
    found = [p for d in SUITES for p in d.glob("*.test.js")]
    assert len(found) >= 9, f"expected the module's and the demo's tests, found {found}"
    run_node_suite(*SUITES)
