"""The browser tests' fixture and helpers: a bridge with one table, and Chromium pages
joined as its GM and as alice (``pages``, re-exported by this folder's conftest).

Needs Debian's ``chromium`` (``scripts/install-test-tools``) and Playwright for Python
(the dev extras), which drives it without a browser of its own.  Without them the tests
are skipped on a workstation and fail on CI (``CI=true``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from tests.bridge.conftest import token_of
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB

__all__ = ["PATIENCE_MS", "Page", "expect", "pages", "view_of"]

#: As the machine's notes run Chromium as root on a closed network: no sandbox (root),
#: and no background connections to refuse.
#: The browser tests' table's secret seed (see :func:`pages`).
TABLE_SEED = 7
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ON_CI = os.environ.get("CI", "").lower() in ("true", "1")
#: Milliseconds a page may take to show something: generous, the machine is shared.
PATIENCE_MS = 30_000


def _missing(what: str) -> None:
    if ON_CI:
        pytest.fail(f"{what} (CI must run the browser tests)")
    pytest.skip(what)


def _chromium() -> str:
    found = os.environ.get("VTT_BRIDGE_CHROMIUM") or shutil.which("chromium")
    if found is None:
        _missing("Debian's chromium is not installed: run scripts/install-test-tools")
    assert found is not None
    return found


try:
    from playwright.async_api import Page, async_playwright, expect
except ImportError:  # pragma: no cover - the dev extras install it
    async_playwright = None


@pytest.fixture
async def pages(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A bridge with one table, and Chromium pages joined as its GM and as alice."""
    if async_playwright is None:
        _missing("playwright is not installed: pip install -e '.[dev]'")
    expect.set_options(timeout=PATIENCE_MS)
    chromium = _chromium()
    config = Config(database=tmp_path / "db.sqlite3")
    async with TestServer(create_app(config), host="127.0.0.1") as server:
        # A fixed secret seed: the page starts fights without one, so the table's seed
        # rolls the initiative, and the same order every run keeps the tests' fights
        # (who holds, who steps into the held area) the same.
        table = server.app[HUB].create_table("view", ["alice", "bob"], seed=TABLE_SEED)
        base = f"http://127.0.0.1:{server.port}/"
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            errors: list[str] = []
            opened: dict[str, Any] = {"errors": errors, "table": table, "server": server}
            try:
                for who in ("gm", "alice"):
                    page = await browser.new_page(viewport={"width": 1280, "height": 800})
                    page.set_default_timeout(PATIENCE_MS)
                    page.on("pageerror", lambda e, who=who: errors.append(f"{who}: {e}"))
                    await page.goto(f"{base}#token={token_of(table, who)}")
                    await expect(page.locator("#status")).to_have_text("joined")
                    opened[who] = page
                yield opened
            finally:
                await browser.close()


async def actor_of(page: Page, ruleset: str) -> str:
    """Who acts now in ``page``'s view of a ``ruleset`` fight, once that fight has
    reached the page (another page started it: its events may still be on the way)."""
    await page.wait_for_function(
        "(r) => { const c = window.vttClient.view.combat;"
        " return c != null && c.ruleset === r && c.actor != null; }",
        arg=ruleset,
    )
    return str(await view_of(page, ".combat.actor"))


async def view_of(page: Page, expression: str) -> Any:
    """A value of the page's client view (the library's folded table)."""
    return await page.evaluate(f"(() => window.vttClient.view{expression})()")
