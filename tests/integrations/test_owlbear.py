"""The Owlbear Rodeo extension (``integrations/owlbear``), from pytest so ``.ci/run`` runs it.

* its ``node --test`` suite: the adapter against a fake room shaped like the SDK's types,
  conversions checked against ``geometry/vtt_coords.py``, and a fight against real bridges
  started with this interpreter (``VTT_BRIDGE_PYTHON``);
* ``vite build`` (after ``npm ci`` when ``node_modules`` is absent, as in a clean clone),
  and the manifest's pages and icon present in the build;
* the built pages in headless Chromium, outside Owlbear: they load with no error.

Without Node, npm or Chromium the tests are skipped on a workstation and fail on CI
(``CI=true``), so a CI image that lost one cannot pass silently.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.browser.test_table_view import CHROMIUM_ARGS, PATIENCE_MS, _chromium, _missing
from tests.node_suite import ROOT, node, run_node_suite

OWLBEAR = ROOT / "integrations" / "owlbear"

try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - the dev extras install it
    async_playwright = None  # type: ignore[assignment]


#: Vite 8 runs on Node 20.19 or newer.
MIN_VITE_NODE = (20, 19)


def _node_for_vite(executable: str) -> None:
    version = subprocess.run([executable, "--version"], capture_output=True, text=True, check=True)
    found = re.match(r"v(\d+)\.(\d+)\.", version.stdout.strip())
    assert found, f"unexpected node --version output {version.stdout!r}"
    if (int(found.group(1)), int(found.group(2))) < MIN_VITE_NODE:
        _missing(f"Vite 8 needs Node.js 20.19 or newer, found {version.stdout.strip()}")


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        _missing("npm is not installed: run scripts/install-test-tools (apt-get install npm)")
    assert npm is not None
    return npm


@pytest.mark.timeout(600)
def test_owlbear_node_suite() -> None:
    run_node_suite(OWLBEAR / "test")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``vite build`` into a temporary directory; ``npm ci`` first in a clean clone."""
    executable, _ = node()
    _node_for_vite(executable)
    if not (OWLBEAR / "node_modules" / "vite").is_dir():
        npm = _npm()
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=OWLBEAR, check=True, timeout=480)
    out = tmp_path_factory.mktemp("owlbear-dist")
    vite = OWLBEAR / "node_modules" / "vite" / "bin" / "vite.js"
    result = subprocess.run(
        [executable, str(vite), "build", "--outDir", str(out), "--emptyOutDir"],
        cwd=OWLBEAR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"vite build failed:\n{result.stdout}\n{result.stderr}"
    yield out


@pytest.mark.timeout(600)
def test_vite_build_has_the_manifests_pages(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["manifest_version"] == 1
    assert len(manifest["name"]) <= 45 and len(manifest["description"]) <= 128
    paths = [manifest["icon"], manifest["action"]["icon"], manifest["action"]["popover"]]
    paths.append(manifest["background_url"])
    for path in paths:
        assert (built / path.lstrip("/").split("?")[0]).is_file(), path
    # Everything is bundled: no bare module specifier is left for a browser to resolve.
    scripts = list((built / "assets").glob("*.js"))
    assert scripts
    for script in scripts:
        assert "@owlbear-rodeo/sdk" not in script.read_text(), script.name


@pytest.mark.timeout(600)
async def test_built_pages_load_in_chromium_outside_owlbear(built: Path) -> None:
    if async_playwright is None:
        _missing("playwright is not installed: pip install -e '.[dev]'")
    chromium = _chromium()
    app = web.Application()
    app.router.add_static("/", built)
    problems: list[str] = []
    async with TestServer(app, host="127.0.0.1") as server, async_playwright() as playwright:
        base = f"http://127.0.0.1:{server.port}"
        browser = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for page_path, ready in (
                ("/popover.html", "#table"),
                ("/popover.html?view=prompt", "#table"),
                ("/background.html", "body[data-state='outside-owlbear']"),
            ):
                page = await browser.new_page()
                page.set_default_timeout(PATIENCE_MS)
                page.on("pageerror", lambda e, p=page_path: problems.append(f"{p}: {e}"))
                page.on("console", lambda m, p=page_path: _console(problems, p, m))
                page.on("requestfailed", lambda r, p=page_path: problems.append(f"{p}: {r.url}"))
                response = await page.goto(base + page_path, wait_until="load")
                assert response is not None and response.ok, page_path
                await page.wait_for_selector(ready, state="attached")
                if page_path.startswith("/popover"):
                    text = await page.locator("#table").inner_text()
                    assert "extension for Owlbear Rodeo" in text, text
                await page.close()
        finally:
            await browser.close()
    assert problems == []


def _console(problems: list[str], page: str, message: Any) -> None:
    if message.type in ("error", "warning"):
        problems.append(f"{page}: console {message.type}: {message.text}")
