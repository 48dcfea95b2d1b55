"""A gridless fight in the table view, in Chromium: the GM loads the Hero demo scene
"Without a grid", a player drags nothing and clicks a point, the move leaves the ogre's
reach and pauses at the exact point geometry computes, the GM answers from the prompt,
and the page marks that point; reach is drawn as the bridge's region.  The screenshot
goes to ``docs/table-view-gridless.png`` with ``VTT_BRIDGE_DOC_SCREENSHOTS`` set."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from geometry.gridless import GridlessScene
from geometry.gridless_threat import GridlessThreats
from tests.browser.pages import Page, expect, view_of
from tests.browser.test_every_ruleset import _shot

DEMO = Path(__file__).parent.parent.parent / "vtt_bridge" / "static" / "view" / "demo-scene.json"

#: Scene point -> the page's pixel, through the board's own transform.
TO_SCREEN = """([x, y]) => {
  const svg = document.querySelector("#board");
  const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
}"""


async def _click_point(page: Page, point: tuple[float, float]) -> None:
    x, y = await page.evaluate(TO_SCREEN, list(point))
    await page.mouse.click(x, y)


def _centre(token: dict[str, Any], cell_size: float) -> tuple[float, float]:
    half = token["size"] / 2
    return ((token["x"] + half) * cell_size, (token["y"] + half) * cell_size)


async def _fly_planned_move(gm: Page, alice: Page, unit: str, metres: float) -> Any:
    """Alice types the height at the end beside her planned move and sends it; the GM's
    prompt for the ogre's attack of opportunity it provokes."""
    height = alice.get_by_label(f"Height at the end ({unit})")
    await height.fill(f"{metres:g}")
    await height.dispatch_event("change")
    await alice.get_by_role("button", name="Move there").click()
    prompt = gm.locator("#prompt-list li.mine")
    await expect(prompt).to_contain_text("Ogre may attack Hero, who is leaving its reach")
    return prompt


async def test_a_gridless_move_pauses_at_the_exact_exit(
    pages: dict[str, Any], tmp_path: Path
) -> None:
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = json.loads(DEMO.read_text())
    grid = scene["grid"]
    size = grid["cell_size"]
    tokens = {t["id"]: t for t in scene["tokens"]}
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_label("Without a grid").check()
    await gm.get_by_role("button", name="Load the demo scene").click()
    await expect(alice.locator("#board")).to_have_attribute("data-gridless", "true")
    await expect(alice.locator("[data-cell]")).to_have_count(0)
    # Every token stands on the centre of the cells it covered in the scene with a grid.
    hero_at = _centre(tokens["hero"], size)
    ogre_at = _centre(tokens["ogre"], size)
    assert await view_of(alice, ".tokens.hero.x") == hero_at[0]
    assert await view_of(alice, ".tokens.ogre.y") == ogre_at[1]
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_have_count(1)

    # The ogre's reach, as the bridge answers ask_threat: a region round its centre.
    await alice.locator('[data-token="ogre"]').hover()
    region = alice.locator("circle.threat.region")
    await expect(region).to_have_count(1)
    reach = tokens["ogre"]["reach"] + (tokens["ogre"]["size"] + 1 - 1) * size / 2
    assert float(await region.get_attribute("r") or "nan") == reach
    assert float(await region.get_attribute("cx") or "nan") == ogre_at[0]

    # The hero goes three cells west, straight out of the ogre's reach.
    to = (hero_at[0] - 3 * size, hero_at[1])
    await alice.locator('[data-token="hero"]').click()
    await _click_point(alice, to)
    await expect(alice.locator("polyline.plan")).to_have_count(1)
    await alice.get_by_role("button", name="Move there").click()
    prompt = gm.locator("#prompt-list li.mine")
    await expect(prompt).to_contain_text("Ogre may attack Hero, who is leaving its reach")
    await gm.locator('[data-token="ogre"]').hover()
    await expect(gm.locator("circle.threat.region")).to_have_count(1)
    await gm.screenshot(path=_shot(tmp_path, "gridless"))
    await prompt.get_by_role("button", name="Let them pass").click()
    await expect(alice.locator("#log")).to_contain_text("Hero arrives on")
    at = [await view_of(alice, ".tokens.hero.x"), await view_of(alice, ".tokens.hero.y")]
    assert at == pytest.approx(list(to), abs=1e-9)

    # Where it paused: the exact point the ball's rim crosses the path.
    plane = GridlessScene(grid["width"] * size, grid["height"] * size)
    threats = GridlessThreats(plane)
    threats.set_region("ogre", ogre_at, reach)
    (expected,) = threats.exits([hero_at, to], ignore="hero")
    mark = alice.locator('circle.exit-point[data-exit-by="ogre"]')
    await expect(mark).to_have_count(1)
    x, y = (float(v) for v in (await mark.get_attribute("data-exit-point") or "").split(","))
    assert math.dist((x, y), expected.point) < 1e-6
    assert pages["errors"] == []


async def test_a_flight_from_the_page(pages: dict[str, Any]) -> None:
    """The hero (Flight 12 in the demo scene) flies out of the ogre's reach from the
    page: its height at the end typed beside the plan, the move paused where it leaves
    the ogre's ball in three dimensions, and its height shown under its name after."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = json.loads(DEMO.read_text())
    grid = scene["grid"]
    size = grid["cell_size"]
    tokens = {t["id"]: t for t in scene["tokens"]}
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_label("Without a grid").check()
    await gm.get_by_role("button", name="Load the demo scene").click()
    await expect(alice.locator("#board")).to_have_attribute("data-gridless", "true")
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_have_count(1)
    hero_at, ogre_at = _centre(tokens["hero"], size), _centre(tokens["ogre"], size)
    to = (hero_at[0] - 3 * size, hero_at[1])
    await alice.locator('[data-token="hero"]').click()
    await _click_point(alice, to)
    await expect(alice.locator("polyline.plan")).to_have_count(1)
    prompt = await _fly_planned_move(gm, alice, grid["unit"], 4)
    # Where it paused: where the climbing path leaves the ogre's ball.
    reach = tokens["ogre"]["reach"] + tokens["ogre"]["size"] * size / 2
    threats = GridlessThreats(GridlessScene(grid["width"] * size, grid["height"] * size))
    threats.set_region("ogre", ogre_at, reach)
    (expected,) = threats.exits([hero_at, to], [0.0, 4.0], ignore="hero")
    mark = alice.locator('circle.exit-point[data-exit-by="ogre"]')
    await expect(mark).to_have_count(1)
    x, y = (float(v) for v in (await mark.get_attribute("data-exit-point") or "").split(","))
    assert math.dist((x, y), expected.point) < 1e-6
    await prompt.get_by_role("button", name="Let them pass").click()
    await expect(alice.locator('[data-token="hero"] text.elevation')).to_have_text("\u2191 4 m")
    assert await view_of(alice, ".tokens.hero.elevation") == 4
    assert pages["errors"] == []


async def test_a_flight_on_the_grid_from_the_page(pages: dict[str, Any]) -> None:
    """The same flight on the demo scene's square grid: the height typed beside the
    plan goes out one per cell, the move pauses as the hero leaves the ogre's square at
    the ground, and the hero lands 4 m up."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = json.loads(DEMO.read_text())
    hero = next(t for t in scene["tokens"] if t["id"] == "hero")
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_role("button", name="Load the demo scene").click()
    await expect(alice.locator("[data-cell]").first).to_be_visible()
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_have_count(1)
    await alice.locator('[data-token="hero"]').click()
    await alice.locator(f'[data-cell="{hero["x"] - 3},{hero["y"]}"]').click()
    await expect(alice.locator("polyline.plan")).to_have_count(1)
    prompt = await _fly_planned_move(gm, alice, scene["grid"]["unit"], 4)
    await prompt.get_by_role("button", name="Let them pass").click()
    await expect(alice.locator('[data-token="hero"] text.elevation')).to_have_text("\u2191 4 m")
    assert await view_of(alice, ".tokens.hero.elevation") == 4
    assert await view_of(alice, ".tokens.hero.x") == hero["x"] - 3
    assert pages["errors"] == []
