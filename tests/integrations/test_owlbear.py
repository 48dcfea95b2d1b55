"""The Owlbear Rodeo extension (``integrations/owlbear``), from pytest so ``.ci/run`` runs it.

* its ``node --test`` suite: the adapter against a fake room shaped like the SDK's types,
  conversions checked against ``geometry/vtt_coords.py``, and a fight against real bridges
  started with this interpreter (``VTT_BRIDGE_PYTHON``);
* ``vite build`` (after ``npm ci`` when ``node_modules`` is absent, as in a clean clone),
  and the manifest's pages and icon present in the build;
* the built pages in headless Chromium, outside Owlbear: they load with no error; and
  inside a stand-in for Owlbear's page (``integrations/owlbear/test/host.html``, which
  answers the bundled SDK's messages): a player's move and the GM's popover.

Without Node, npm or Chromium the tests are skipped on a workstation and fail on CI
(``CI=true``), so a CI image that lost one cannot pass silently.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

import protocol
from tests import wsclient
from tests.bridge.conftest import token_of
from tests.browser.pages import CHROMIUM_ARGS, PATIENCE_MS, _chromium, _missing
from tests.node_suite import ROOT, node, run_node_suite
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.describing import description

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


# -- the built extension in a stand-in for Owlbear's page ---------------------------------

#: Token images as Owlbear's own: a 300 dpi square image whose grid offset is its centre.
_TOKEN_DPI = 300


def _token_item(token: dict[str, Any], creator: str, *, linked: bool) -> dict[str, Any]:
    """The Image item (SDK 3.1.0 types/items/Image.d.ts, Item.d.ts) for the bridge's
    ``token`` (a TokenSpec) on its cell, with the GM's link in its metadata if ``linked``."""
    link = {k: token[k] for k in ("owner", "side", "reach", "movement", "stats")}
    return _image_item(
        token["id"],
        token["name"],
        "CHARACTER",
        creator,
        {"x": (token["x"] + 0.5) * 150, "y": (token["y"] + 0.5) * 150},
        {"width": 300, "height": 300, "dpi": _TOKEN_DPI, "offset": 150},
        {"com.vtt-bridge/token": link} if linked else {},
    )


def _map_item(creator: str) -> dict[str, Any]:
    """A 12 x 12 cell map image (1200 px at 100 dpi) with its top-left corner at (0, 0)."""
    size = {"width": 1200, "height": 1200, "dpi": 100, "offset": 0}
    return _image_item("map", "Map", "MAP", creator, {"x": 0, "y": 0}, size, {})


def _image_item(
    item_id: str,
    name: str,
    layer: str,
    creator: str,
    position: dict[str, float],
    image: dict[str, Any],
    metadata: dict[str, Any],
) -> dict[str, Any]:
    """An Image item as SDK 3.1.0 declares it (types/items/Image.d.ts, Item.d.ts)."""
    return {
        "id": item_id,
        "type": "IMAGE",
        "name": name,
        "visible": True,
        "locked": False,
        "createdUserId": creator,
        "zIndex": 1,
        "lastModified": "2026-01-01T00:00:00.000Z",
        "lastModifiedUserId": creator,
        "position": position,
        "rotation": 0,
        "scale": {"x": 1, "y": 1},
        "metadata": metadata,
        "layer": layer,
        "image": {
            "width": image["width"],
            "height": image["height"],
            "mime": "image/webp",
            "url": "data:,",
        },
        "grid": {"offset": {"x": image["offset"], "y": image["offset"]}, "dpi": image["dpi"]},
        "text": {
            "richText": [],
            "plainText": "",
            "style": {},
            "type": "PLAIN",
            "width": "AUTO",
            "height": "AUTO",
        },
        "textItemType": "LABEL",
    }


async def _gm_send(gm: TableClient, message_type: str, body: dict[str, Any]) -> None:
    gm.seq += 1
    await gm.send_raw(json.dumps({"v": 1, "type": message_type, "seq": gm.seq, "body": body}))
    reply = await gm.reply_to(gm.seq)
    assert isinstance(reply, protocol.Ack), reply


@dataclass
class StandIn:
    """A bridge, the built extension on its own origin, and a Chromium page of the stand-in
    Owlbear (test/host.html) loading it; ``problems`` collects every error the page logs."""

    page: Any
    url: str
    table: Any
    problems: list[str]

    async def open_player(self, user_id: str, participant: str, frames: str) -> Any:
        """Open ``user_id``'s background page and action popover (frame names ``frames``-bg,
        ``frames``-action), and connect through the popover's form with ``participant``'s
        join token; returns the popover's frame once it says who joined."""
        await self.page.evaluate(
            "([user, name]) => { host.open(name + '-bg', '/background.html', user);"
            " host.open(name + '-action', '/popover.html', user); }",
            [user_id, frames],
        )
        popover = self.page.frame_locator(f"iframe[name='{frames}-action']")
        await popover.locator("input[name='url']").fill(self.url)
        await popover.locator("input[name='token']").fill(token_of(self.table, participant))
        await popover.get_by_role("button", name="Save and connect").click()
        await popover.locator("#table").get_by_text(f"You are {participant}").wait_for()
        return popover


@pytest.fixture
async def stand_in(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[StandIn]:
    """The built pages, with the real SDK bundled, in a page that answers the SDK's
    messages as Owlbear's does (test/host.html), next to a real bridge with table ``owl``
    (gm and alice) that admits the extension's origin."""
    if async_playwright is None:
        _missing("playwright is not installed: pip install -e '.[dev]'")
    chromium = _chromium()
    monkeypatch.setattr(wsclient, "TIMEOUT", 60.0)
    extension = web.Application()
    extension.router.add_static("/", built)
    host = web.Application()
    host_page = (OWLBEAR / "test" / "host.html").read_bytes()

    async def host_handler(_: web.Request) -> web.Response:
        return web.Response(body=host_page, content_type="text/html")

    host.router.add_get("/", host_handler)
    async with (
        TestServer(extension, host="127.0.0.1") as ext_server,
        TestServer(host, host="127.0.0.1") as host_server,
    ):
        ext_origin = f"http://127.0.0.1:{ext_server.port}"
        config = Config(database=tmp_path / "db.sqlite3", allowed_origins=(ext_origin,))
        async with TestServer(create_app(config), host="127.0.0.1") as bridge:
            table = bridge.app[HUB].create_table("owl", ["alice"])
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_ARGS
                )
                try:
                    page = await browser.new_page(viewport={"width": 1200, "height": 700})
                    page.set_default_timeout(PATIENCE_MS)
                    found = StandIn(page, f"ws://127.0.0.1:{bridge.port}/ws", table, [])
                    page.on("pageerror", lambda e: found.problems.append(f"page error: {e}"))
                    page.on("console", lambda m: _console(found.problems, "host", m))
                    await page.goto(f"http://127.0.0.1:{host_server.port}/?ext={ext_origin}")
                    await page.wait_for_selector("body[data-ready='true']", state="attached")
                    yield found
                finally:
                    await browser.close()


_TOKENS = [
    {"id": "ogre", "name": "Ogre", "owner": "gm", "side": "monsters", "x": 5, "y": 5,
     "size": 1, "reach": 1, "movement": 6, "stats": {"ocv": 5, "dcv": 3, "init": 12}},
    {"id": "hero", "name": "Hero", "owner": "alice", "side": "heroes", "x": 4, "y": 5,
     "size": 1, "reach": 1, "movement": 6, "stats": {"ocv": 6, "dcv": 4, "init": 14}},
]  # fmt: skip


async def _fight_on_linked_items(
    session: aiohttp.ClientSession, stand_in: StandIn, tokens: list[dict[str, Any]]
) -> TableClient:
    """The GM, over the protocol, loads a 12 x 12 Owlbear scene of ``tokens`` and starts a
    Hero fight; the stand-in's room gets them as items the GM linked.  Returns the GM."""
    gm = await TableClient.connect(session, stand_in.url)
    await gm.join(token_of(stand_in.table, "gm"))
    grid = {"kind": "square", "cell_size": 1, "unit": "m", "width": 12, "height": 12}
    grid["vtt"] = {"kind": "owlbear", "grid_size": 150}
    await _gm_send(gm, "load_scene", {"scene": {"grid": grid, "tokens": tokens}})
    combat = {"ruleset": "hero-supplement", "aware": None, "seed": 7}
    await _gm_send(gm, "start_combat", combat)
    items = [_token_item(t, "obr-gm", linked=True) for t in tokens]
    await stand_in.page.evaluate("(items) => host.addItems(items)", items)
    return gm


@pytest.mark.timeout(600)
async def test_built_extension_plays_a_move_in_a_stand_in_owlbear(stand_in: StandIn) -> None:
    """A player enters the settings in the popover, the background joins the bridge from
    the browser, a drop out of the ogre's reach is paused, the GM (over the protocol)
    attacks, the token ends on the drop cell."""
    page = stand_in.page
    async with aiohttp.ClientSession() as session:
        gm = await _fight_on_linked_items(session, stand_in, _TOKENS)
        popover = await stand_in.open_player("obr-alice", "alice", "alice")
        await popover.locator("#table").get_by_text("Hero (acting)").wait_for()

        # Alice drops the hero's centre at (2.62, 4.31) cells: cell [2, 4].
        await page.evaluate("() => host.drag('obr-alice', 'hero', {x: 393, y: 646.5})")
        paused = await gm.event("move_interrupted")
        at = wire_data(paused)["at"]
        opened = await gm.event("prompt_opened")
        # The background put the item where the bridge paused the move.
        await _item_at(page, "hero", ((at[0] + 0.5) * 150, (at[1] + 0.5) * 150))
        answer = {"prompt": wire_data(opened)["prompt"], "accept": True, "rolls": None}
        await _gm_send(gm, "answer_prompt", answer)
        done = await gm.event("move_completed")
        assert wire_data(done)["at"] == [2, 4]
        await _item_at(page, "hero", (2.5 * 150, 4.5 * 150))
        sent = await page.evaluate("() => host.calls.map((c) => c.id)")
        assert not [c for c in sent if "SET_METADATA" in c], sent
        await gm.close()
    assert stand_in.problems == []


#: Set before the extension's pages load: every frame's ``Date.now`` ten minutes fast.
_CLOCK_TEN_MINUTES_FAST = "(() => { const now = Date.now; Date.now = () => now() + 600000; })()"


@pytest.mark.timeout(600)
async def test_prompt_popover_counts_down_the_bridges_time_with_a_fast_computer_clock(
    stand_in: StandIn,
) -> None:
    """Alice's computer clock is ten minutes fast: by it the bridge's ``deadline_ms`` has
    passed, yet the prompt popover the background opens counts the table's 30 s timeout
    down from ``remaining_ms``; its decline button (the game's words) answers."""
    page = stand_in.page
    await page.add_init_script(_CLOCK_TEN_MINUTES_FAST)
    # The GM's hero walks out of the reach of alice's ogre: alice is asked.
    tokens = [dict(t, owner="alice" if t["id"] == "ogre" else "gm") for t in _TOKENS]
    async with aiohttp.ClientSession() as session:
        gm = await _fight_on_linked_items(session, stand_in, tokens)
        panel = await stand_in.open_player("obr-alice", "alice", "alice")
        # The pages' wall clock is minutes past the moment they loaded.
        fast = "() => Date.now() - performance.timeOrigin > 500000"
        assert await panel.locator("body").evaluate(fast)
        await _gm_send(gm, "move", {"token": "hero", "path": [[3, 5], [2, 5]]})
        opened = await gm.event("prompt_opened")
        assert wire_data(opened)["controller"] == "alice"
        prompt = page.frame_locator("iframe[name='com.vtt-bridge/prompt']")
        left = prompt.locator(".deadline")
        await left.wait_for()
        text = await left.inner_text()
        found = re.match(r"(\d+) s left", text)
        assert found and 20 < int(found.group(1)) <= 30, text
        # The answer's label is the ruleset description's (the popover names no game).
        words = {p.kind: p for p in description("hero-supplement", None).prompts}
        decline = words["attack_of_opportunity"].decline
        await prompt.get_by_role("button", name=decline).click()
        closed = await gm.event("prompt_closed")
        assert wire_data(closed)["prompt"] == wire_data(opened)["prompt"]
        await gm.close()
    assert stand_in.problems == []


@pytest.mark.timeout(600)
async def test_gm_links_tokens_sends_the_scene_and_starts_combat_from_the_popover(
    stand_in: StandIn,
) -> None:
    """The GM's popover: link the selected tokens, Send scene, Start combat; a player
    connected over the protocol sees the scene with the tokens on their cells."""
    page = stand_in.page
    items = [_map_item("obr-gm"), *(_token_item(t, "obr-gm", linked=False) for t in _TOKENS)]
    await page.evaluate("(items) => host.addItems(items)", items)
    async with aiohttp.ClientSession() as session:
        alice = await TableClient.connect(session, stand_in.url)
        await alice.join(token_of(stand_in.table, "alice"))
        popover = await stand_in.open_player("obr-gm", "gm", "gm")
        link = popover.locator("#link")
        for token in _TOKENS:
            await page.evaluate("(id) => host.select([id])", token["id"])
            for field in ("owner", "side", "reach", "movement"):
                await link.locator(f"input[name='{field}']").fill(str(token[field]))
            await link.locator("input[name='stats']").fill(json.dumps(token["stats"]))
            await link.get_by_role("button", name="Link").click()
            await popover.locator("#link-note").get_by_text("Linked 1 token(s)").wait_for()
            await popover.locator("#link-note").evaluate("(note) => { note.textContent = ''; }")
        await popover.get_by_role("button", name="Send scene").click()
        loaded = await alice.event("scene_loaded")
        scene = wire_data(loaded)["scene"]
        assert [scene["grid"]["width"], scene["grid"]["height"]] == [12, 12]
        assert scene["grid"]["vtt"]["kind"] == "owlbear"
        assert sorted((t["id"], t["owner"], t["x"], t["y"]) for t in scene["tokens"]) == [
            ("hero", "alice", 4, 5),
            ("ogre", "gm", 5, 5),
        ]
        # The choice lists the bridge's rulesets by title; the GM picks one.
        choice = popover.locator("#ruleset")
        pairs = "(os) => os.map((o) => [o.value, o.text])"
        titles = dict(await choice.locator("option").evaluate_all(pairs))
        assert titles["hero-supplement"] == description("hero-supplement", None).title, titles
        await choice.select_option("hero-supplement")
        await popover.get_by_role("button", name="Start combat").click()
        started = await alice.event("combat_started")
        assert wire_data(started)["ruleset"] == "hero-supplement"
        await popover.locator("#table").get_by_text("Hero (acting)").wait_for()
        await alice.close()
    assert stand_in.problems == []


async def _item_at(page: Any, item_id: str, position: tuple[float, float]) -> None:
    """Wait until the stand-in Owlbear's item ``item_id`` is at ``position``."""
    for _ in range(PATIENCE_MS // 50):
        found = await page.evaluate("(id) => host.item(id).position", item_id)
        if abs(found["x"] - position[0]) < 1e-6 and abs(found["y"] - position[1]) < 1e-6:
            return
        await page.wait_for_timeout(50)
    raise AssertionError(f"{item_id} is at {found}, not {position}")
