"""A whole fight of each ruleset played through the table view alone, in Chromium.

The GM picks the game from the server's list, loads its demo scene and starts; the
players act from the action bar (``ask_options`` and the ruleset's description: targets
and areas picked on the board, choices and numbers in the form), answer prompts with
their buttons, and the GM ends the fight.  No player's action goes over the wire from
the test: the test only reads the pages' views to know whose turn the dice made it.
Screenshots of each ruleset's page go to ``docs/table-view-<ruleset>.png`` when
``VTT_BRIDGE_DOC_SCREENSHOTS`` is set, else to the test's temporary directory.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from engine.rulesets.base import registered
from tests.bridge.conftest import token_of
from tests.browser.pages import Page, expect, view_of

VIEW = Path(__file__).parent.parent.parent / "vtt_bridge" / "static" / "view"
DOCS_IMAGES = Path(__file__).parent.parent.parent / "docs"


def _demo(ruleset: str) -> dict[str, Any]:
    own = VIEW / f"demo-scene-{ruleset}.json"
    return dict(json.loads((own if own.exists() else VIEW / "demo-scene.json").read_text()))


def _shot(tmp_path: Path, ruleset: str) -> Path:
    folder = DOCS_IMAGES if os.environ.get("VTT_BRIDGE_DOC_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"table-view-{ruleset}.png"


async def _set_up(gm: Page, alice: Page, ruleset: str) -> dict[str, Any]:
    """The GM picks ``ruleset``, loads its demo scene and starts the fight."""
    await gm.get_by_label("Ruleset").select_option(ruleset)
    await gm.get_by_role("button", name="Load the demo scene").click()
    scene = _demo(ruleset)
    await expect(alice.locator(f'[data-token="{scene["tokens"][0]["id"]}"]')).to_be_visible()
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_have_count(1)
    return scene


async def _end_turn(gm: Page) -> str:
    """The GM ends the acting token's Turn or Phase with its button; returns who it was."""
    actor = str(await view_of(gm, ".combat.actor"))
    name = await view_of(gm, f".tokens[{json.dumps(actor)}].name")
    await gm.get_by_role("button", name=re.compile(rf"^End {re.escape(name)}'s ")).click()
    await expect(gm.locator("#order li.actor")).not_to_contain_text(name)
    return actor


async def _end_turns_until(gm: Page, wanted: set[str], *, shown: Any = None) -> str:
    """The GM ends the acting token's Turn or Phase with its button until one of
    ``wanted`` acts, or, given ``shown`` (a locator), until it shows; returns the actor
    then."""
    for _ in range(12):
        actor = str(await view_of(gm, ".combat.actor"))
        if (await shown.count()) if shown is not None else actor in wanted:
            return actor
        await _end_turn(gm)
    raise AssertionError(f"none of {wanted} came to act")


async def _choose_action(page: Page, token: str, action: str) -> None:
    """Select ``token`` on the board and open ``action``'s form from the action bar."""
    await page.locator(f'[data-token="{token}"]').click()
    await page.locator(f'#action-bar button[data-action="{action}"]').click()
    await expect(page.locator("#action-form")).to_be_visible()


#: Every control on a page without an accessible name: no aria-label, no label, no text.
UNNAMED_CONTROLS = """() => [...document.querySelectorAll("button, select, input")]
  .filter((c) => !c.hidden && c.offsetParent !== null)
  .filter((c) => !(c.getAttribute("aria-label") || c.textContent.trim()
    || [...(c.labels ?? [])].some((l) => l.textContent.trim())))
  .map((c) => c.outerHTML)"""


async def test_the_picker_lists_the_servers_rulesets(pages: dict[str, Any]) -> None:
    """The GM's picker is the server's list (never the page's), a player has none; a
    player who selects a token out of turn reads "Not your turn" before any plan."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    listed = (
        await gm.get_by_label("Ruleset")
        .locator("option")
        .evaluate_all("(os) => os.map((o) => o.value)")
    )
    assert sorted(listed) == sorted(r.name for r in registered())
    await expect(alice.get_by_label("Ruleset")).to_have_count(0)
    scene = await _set_up(gm, alice, "hero-supplement")
    await _end_turns_until(gm, {"ogre"})
    await alice.locator('[data-token="hero"]').click()
    await expect(alice.locator("#hint")).to_contain_text("Not your turn: it is 'ogre''s Phase")
    await alice.locator('[data-cell="2,2"]').click(force=True)
    await expect(alice.locator("#hint")).to_contain_text("Not your turn")
    await expect(alice.locator("polyline.plan")).to_have_count(0)
    assert scene["tokens"]
    assert pages["errors"] == []


async def test_hero_a_whole_fight(pages: dict[str, Any], tmp_path: Path) -> None:
    """Hero: the hero leaves the ogre's reach (its attack of opportunity is declined from
    the GM's page), then attacks it from the action bar, target clicked on the board;
    the log shows the roll's arithmetic; Esc cancels a plan, Enter commits one.  In a
    later Phase the hero readies an attack against the ogre's action and takes it when
    the ogre's Phase comes; in the next it uses a Power at an amount typed in the form."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    await _set_up(gm, alice, "hero-supplement")
    await alice.locator('[data-token="hero"]').click()
    await alice.locator('[data-cell="6,9"]').click(force=True)
    await expect(alice.locator("polyline.plan")).to_have_count(1)
    await alice.keyboard.press("Escape")
    await expect(alice.locator("polyline.plan")).to_have_count(0)
    await alice.locator('[data-cell="3,6"]').click(force=True)
    await expect(alice.locator("#hint")).to_contain_text(re.compile(r"Path to 3,6: cost \d"))
    # The ruler: each waypoint's distance, and the bridge's cost to it.
    await expect(alice.locator('.ruler text[data-ruler-cell="3,6"]')).to_have_attribute(
        "data-cost", re.compile(r"^\d")
    )
    await alice.locator("#board").focus()
    await alice.keyboard.press("Enter")
    prompt = gm.locator("#prompt-list li.mine")
    await expect(prompt).to_contain_text("Ogre may attack Hero, who is leaving its reach")
    await prompt.get_by_role("button", name="Let them pass").click()
    await expect(alice.locator("#log")).to_contain_text("Hero arrives on (3, 6)")
    await _choose_action(alice, "hero", "attack")
    await alice.locator('[data-token="ogre"]').click()
    await alice.get_by_label("ranged (optional)").check()
    await alice.get_by_label("range (optional)").fill("10")
    for page in (gm, alice):  # the action form, the picker and the turn's buttons
        assert await page.evaluate(UNNAMED_CONTROLS) == []
    await alice.get_by_role("button", name="Do it: Attack").click()
    line = re.compile(r"Hero attacks Ogre.*: 3d6 \d+ \(\d, \d, \d\) \+ OCV 6 = \d+ vs")
    for page in (gm, alice):
        await expect(page.locator("#log li", has_text=line)).to_have_count(1)
    await alice.screenshot(path=_shot(tmp_path, "hero-supplement"))
    # Then a readied attack: in the hero's next Phase it readies against the ogre's
    # action, listed in the order; when the ogre's Phase comes, the hero's player is
    # asked, takes it, and the hero attacks out of turn from the action bar.
    if await view_of(gm, ".combat.actor") == "hero":
        await _end_turn(gm)
    await _end_turns_until(gm, {"hero"})
    await _choose_action(alice, "hero", "ready")
    await alice.get_by_label("action", exact=True).select_option("attack")
    await alice.get_by_label("trigger by (optional)", exact=True).select_option("ogre")
    await alice.get_by_role("button", name="Do it: Ready").click()
    for page in (gm, alice):
        await expect(page.locator("#order")).to_contain_text("(ready attack, on Ogre's action)")
    readied = alice.locator("#prompt-list li.mine", has_text="held action is set off by Ogre")
    await _end_turns_until(gm, {"ogre"}, shown=readied)
    await readied.get_by_role("button", name="Take the held action now").click()
    await expect(alice.locator("#order")).not_to_contain_text("ready attack")
    await _choose_action(alice, "hero", "attack")
    await alice.locator('[data-token="ogre"]').click()
    await alice.get_by_label("ranged (optional)").check()
    await alice.get_by_label("range (optional)").fill("10")
    await alice.get_by_role("button", name="Do it: Attack").click()
    for page in (gm, alice):
        await expect(page.locator("#log li", has_text=line)).to_have_count(2)
    # In its next Phase the hero uses its Blast (the demo scene's Power) at 3d6 of its
    # 6d6, the amount typed into the form: the log says the dice and the END it cost.
    await _end_turn(gm)  # the readied attack's own limited Phase
    await _end_turns_until(gm, {"hero"})
    await _choose_action(alice, "hero", "use_power:Blast")
    await alice.get_by_label("dice (optional)", exact=True).fill("3d6")
    await alice.get_by_label("target (optional)", exact=True).select_option("ogre")
    await alice.get_by_role("button", name="Do it: Use power: Blast").click()
    blast = re.compile(
        r"^Hero uses Blast \(3d6, 15 Active Points\) on Ogre .*END \d+ \(\d+ left\)$"
    )
    for page in (gm, alice):
        await expect(page.locator("#log li", has_text=blast)).to_have_count(1)
    await gm.get_by_role("button", name="End combat").click()
    await expect(alice.locator("#log")).to_contain_text("The fight is over")
    assert pages["errors"] == []


async def test_cyberpunk_red_a_whole_fight(pages: dict[str, Any], tmp_path: Path) -> None:
    """Cyberpunk RED: the Round's first fighter holds an attack for two cells beside a
    foe, drawn on the board as they are picked; the foe steps in, the holder's
    controller fires it from the prompt (its arithmetic in the log); the GM ends the
    fight.  The dice order the fight, so the test reads who acts first from the view."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = await _set_up(gm, alice, "cyberpunk-red")
    tokens = {t["id"]: t for t in scene["tokens"]}
    order = await view_of(gm, ".combat.order")
    holder = order[0]
    mover = next(t for t in order[1:] if tokens[t]["side"] != tokens[holder]["side"])
    page = alice if tokens[holder]["owner"] == "alice" else gm
    x, y = tokens[mover]["x"], tokens[mover]["y"]
    area = [(x - 1, y), (x - 2, y)] if x >= 2 else [(x + 1, y), (x + 2, y)]
    await _choose_action(page, holder, "hold_action")
    await page.get_by_label("action", exact=True).fill("attack")
    await page.get_by_label("trigger", exact=True).select_option("enters")
    await page.get_by_role("button", name="Pick area (optional) cells on the board").click()
    for cell in area:
        await page.locator(f'[data-cell="{cell[0]},{cell[1]}"]').click(force=True)
    await expect(page.locator("g.picked polygon")).to_have_count(len(area))
    await page.get_by_label("params: target (optional)").fill(mover)
    await page.get_by_label("params: weapon (optional)").fill(tokens[holder]["stats"]["hand.right"])
    await page.get_by_label("params: base (optional)").fill("12")
    await page.get_by_role("button", name="Do it: Hold action").click()
    held = f'g.trigger.hold[data-hold="{holder}"] polygon'
    await expect(alice.locator(held)).to_have_count(len(area))
    await _end_turns_until(gm, {mover})
    # The mover steps into the area: the hold's prompt, answered by its controller.
    mover_page = alice if tokens[mover]["owner"] == "alice" else gm
    await mover_page.locator(f'[data-token="{mover}"]').click()
    await mover_page.locator(f'[data-cell="{area[0][0]},{area[0][1]}"]').click(force=True)
    await mover_page.get_by_role("button", name="Move there").click()
    prompt = page.locator("#prompt-list li.mine")
    await expect(prompt).to_have_count(1)
    await alice.screenshot(path=_shot(tmp_path, "cyberpunk-red"))  # the area, the paused move
    await prompt.get_by_role("button").first.click()
    holder_name, mover_name = tokens[holder]["name"], tokens[mover]["name"]
    fired = re.compile(rf"{holder_name} attacks {mover_name} with .+: d10 \d+ \+ base 12 = \d+")
    await expect(alice.locator("#log li", has_text=fired)).to_have_count(1)
    await gm.get_by_role("button", name="End combat").click()
    await expect(alice.locator("#log")).to_contain_text("The fight is over")
    assert pages["errors"] == []


async def test_mm3e_a_whole_fight(pages: dict[str, Any], tmp_path: Path) -> None:
    """Mutants & Masterminds on a 5 ft grid: the hero moves (nothing provokes in this
    game) and makes a close attack from the action bar, its choice a select; the log
    shows the check against the DC; lines are drawn in screen pixels."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    await _set_up(gm, alice, "mm3e")
    await _end_turns_until(gm, {"hero"})
    await alice.locator('[data-token="hero"]').click()
    await alice.locator('[data-cell="6,5"]').click(force=True)
    await expect(alice.locator("#hint")).to_contain_text("Path to 6,5: cost 5")
    await expect(alice.locator('.ruler text[data-ruler-cell="6,5"]')).to_contain_text("5 ft")
    await alice.get_by_role("button", name="Move there").click()
    await expect(alice.locator("#log")).to_contain_text("Hero arrives on (6, 5)")
    await _choose_action(alice, "hero", "attack")
    await alice.locator('[data-token="villain"]').click()
    await alice.get_by_label("reach (optional)").select_option("close")
    await alice.get_by_role("button", name="Do it: Attack").click()
    line = re.compile(
        r"Hero makes a close attack on Villain: d20 \d+ \+ 8 = \d+ "
        r"vs DC 10 \+ parry \d+ = \d+.*: (hit|miss)"
    )
    await expect(alice.locator("#log li", has_text=line)).to_have_count(1)
    # A 5 ft cell is five scene units: its outline is still one screen pixel wide.
    # (Polled: the board may be redrawn under the read, leaving a detached cell.)
    cell = alice.locator('[data-cell="0,0"]')
    await expect(cell).to_have_css("vector-effect", "non-scaling-stroke")
    await expect(cell).to_have_css("stroke-width", "1px")
    await alice.screenshot(path=_shot(tmp_path, "mm3e"))
    await gm.get_by_role("button", name="End combat").click()
    await expect(alice.locator("#log")).to_contain_text("The fight is over")
    assert pages["errors"] == []


async def test_a_refused_token_lets_you_paste_another(pages: dict[str, Any]) -> None:
    """A bad join token ends on the join form again, with why, not a dead end."""
    alice: Page = pages["alice"]
    server = pages["server"]
    await alice.goto(f"http://127.0.0.1:{server.port}/#token=not-a-token")
    await alice.reload()  # a new fragment alone does not load the page again
    await expect(alice.locator("#join-error")).to_contain_text("Paste another one")
    field = alice.get_by_label("Join token")
    await expect(field).to_be_visible()
    await field.fill(token_of(pages["table"], "alice"))
    await alice.get_by_role("button", name="Join").click()
    await expect(alice.locator("#status")).to_have_text("joined")
    assert pages["errors"] == []
