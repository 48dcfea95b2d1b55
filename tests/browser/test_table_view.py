"""The table view in a real headless Chromium, a player's page and the GM's side by side.

The GM loads the demo scene and starts combat from the page; the player hovers the ogre
and sees its reach and threatened cells as the bridge answers ``ask_threat``; selects the
hero, clicks a cell and sees the bridge's planned path and cost; then drags the hero out
of the ogre's reach, sees the plan for where the drag ended, and moves;
the GM's page (its clock ten minutes fast) shows the attack of opportunity prompt with
its countdown from the bridge's ``remaining_ms`` and answers it, while the player's page
counts the same prompt down (``prompt_waiting``);
both pages show the attack and, after the player ends the Phase, the initiative marker
moved on, with the move's path and the exact point where it left the ogre's reach still
drawn.  A second test declares a Cyberpunk RED Hold Action and sees its trigger area on
the player's page, from the events and again from a fresh join's state.  Screenshots of
both pages go to ``$VTT_BRIDGE_SCREENSHOTS`` (default: the test's temporary directory).

Needs Debian's ``chromium`` (``scripts/install-test-tools``) and Playwright for Python (the dev
extras), which drives it without a browser of its own.  Without them the test is skipped
on a workstation and fails on CI (``CI=true``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import aiohttp

import protocol
from tests.bridge.conftest import token_of
from tests.browser.pages import PATIENCE_MS, Page, actor_of, expect, view_of
from tests.demo_table import act
from tests.scenario_cpr import SEED, street
from tests.wsclient import TableClient


def _js_numbers(point: tuple[float, ...]) -> str:
    """``point`` as JavaScript writes a list of numbers (``String([6, 5.5])``)."""
    return ",".join(repr(v) if v != int(v) else str(int(v)) for v in point)


async def _centre(page: Page, selector: str) -> tuple[float, float]:
    # The board is redrawn whole on every change: an element read mid-redraw is gone for
    # that moment, so the box is asked again until the page shows one (5 s at most).
    for _ in range(50):
        box = await page.locator(selector).bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        await asyncio.sleep(0.1)
    raise AssertionError(f"{selector} is not on the page")


async def _drag(page: Page, start: str, cells: list[str]) -> None:
    """Press on ``start``, move the mouse through the centres of ``cells``, release."""
    await page.mouse.move(*await _centre(page, start))
    await page.mouse.down()
    for cell in cells:
        await page.mouse.move(*await _centre(page, f'[data-cell="{cell}"]'), steps=4)
    await page.mouse.up()


async def test_a_fight_played_from_the_pages(pages: dict[str, Any], tmp_path: Path) -> None:
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    shots = Path(os.environ.get("VTT_BRIDGE_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)

    # The GM sets the table up from the page.
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_role("button", name="Load the demo scene").click()
    await expect(alice.locator('[data-token="hero"]')).to_be_visible()
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#time")).to_have_text("Turn 1, Phase 1")
    await expect(alice.locator("#order li.actor")).to_contain_text("Hero")

    # Hovering the ogre shows its reach and the cells it threatens, as the bridge says.
    table = pages["table"]
    threat = table.encounter.threat("ogre", state=table.committed)
    assert threat.cells and "hero" in threat.attacks
    scene = table.committed.scene
    names = ", ".join(scene.token(who).name for who in threat.attacks)
    await alice.locator('[data-token="ogre"]').hover()
    drawn = alice.locator('[data-threat-of="ogre"]')
    await expect(drawn.locator("path.reach")).to_have_count(1)
    await expect(drawn.locator("polygon.threat")).to_have_count(len(threat.cells))
    cells = await drawn.locator("polygon.threat").evaluate_all(
        "(ps) => ps.map((p) => p.dataset.threatCell)"
    )
    assert sorted(cells) == sorted(f"{c},{r}" for c, r in threat.cells)
    await expect(alice.locator("#threat-info")).to_contain_text(
        f"Ogre threatens {len(threat.cells)} cells; attacks of opportunity left on {names}."
    )

    # The player selects the hero and clicks a cell: the bridge's plan, nothing moved.
    await alice.locator('[data-token="hero"]').click()
    await expect(alice.locator('[data-threat-of="hero"]')).to_have_count(1)
    await alice.locator('[data-cell="6,9"]').click(force=True)
    await expect(alice.locator("#hint")).to_contain_text(re.compile(r"Path to 6,9: cost \d"))
    await alice.get_by_role("button", name="Cancel").click()

    # Then drags the hero out of the ogre's reach: the plan follows the drag.
    await _drag(alice, '[data-token="hero"]', ["5,6", "4,6", "3,6"])
    await expect(alice.locator("#hint")).to_contain_text(re.compile(r"Path to 3,6: cost \d"))
    await expect(alice.locator("polyline.plan")).to_have_count(1)
    # ... and where the move would be stopped, as the bridge answers ask_exits.
    exits, _ = table.encounter.path_exits("hero", ((5, 6), (4, 6), (3, 6)), state=table.committed)
    assert [e.by for e in exits] == ["ogre"]
    await expect(alice.locator('circle.plan-exit[data-exit-by="ogre"]')).to_have_count(1)
    point = ", ".join(f"{v:g}" for v in exits[0].point)
    await expect(alice.locator("#hint")).to_contain_text(f"Leaves Ogre's reach at ({point})")
    assert await view_of(alice, ".tokens.hero.x") == 6, "planning moves nothing"
    await alice.screenshot(path=shots / "alice-drag.png")
    # The GM's computer clock is ten minutes fast: by it the prompt's deadline_ms has
    # passed before the prompt arrives.
    await gm.evaluate("(() => { const now = Date.now; Date.now = () => now() + 600000; })()")
    await alice.get_by_role("button", name="Move there").click()

    # The GM's page shows the prompt with a countdown (the table's 30 s, from the
    # prompt's remaining_ms, whatever the GM's clock says); the player's shows it as theirs.
    prompt = gm.locator("#prompt-list li.mine")
    # Worded by the ruleset's description: the question, and what each answer does.
    await expect(prompt).to_contain_text("Ogre may attack Hero, who is leaving its reach")
    await expect(prompt).to_contain_text("if nobody does, they pass unattacked")
    await expect(prompt.get_by_role("button", name="Let them pass")).to_have_count(1)
    await expect(prompt.locator(".countdown")).to_have_text(re.compile(r"^([12]\d|30) s$"))
    theirs = alice.locator("#prompt-list li.theirs")
    await expect(theirs).to_contain_text("gm decides")
    # The mover waits on the GM's answer and sees the same countdown (prompt_waiting),
    # with no buttons: only the GM answers.
    await expect(theirs.locator(".countdown")).to_have_text(re.compile(r"^([12]\d|30) s$"))
    await expect(theirs.get_by_role("button")).to_have_count(0)
    await expect(alice.locator("polyline.moving")).to_have_count(1)
    # Where it stopped is marked at the bridge's exact exit point, on both pages.
    exit_at = _js_numbers(exits[0].point)
    exit_mark = f'circle.exit-point[data-exit-by="ogre"][data-exit-point="{exit_at}"]'
    for page in (gm, alice):
        await expect(page.locator(exit_mark)).to_have_count(1)
    # The GM looks at the ogre's reach: the hero stands on its edge.
    await gm.locator('[data-token="ogre"]').hover()
    await expect(gm.locator('[data-threat-of="ogre"] path.reach')).to_have_count(1)
    await gm.screenshot(path=shots / "gm-prompt.png")
    await alice.screenshot(path=shots / "alice-prompt.png")

    # The GM attacks; after a hit it also says whether the hero can go on: yes.
    await prompt.get_by_role("button", name="Attack").click()
    # The log names the tokens and shows the Attack Roll's arithmetic.
    await expect(alice.locator("#log")).to_contain_text(
        re.compile(r"Ogre attacks Hero \(attack of opportunity\): 3d6 \d+ \(\d, \d, \d\) \+ OCV")
    )
    arrived = alice.locator("#log li", has_text="Hero arrives on (3, 6)")
    follow_up = gm.locator("#prompt-list li.mine", has_text="can Hero finish its move?")
    for _ in range(PATIENCE_MS // 50):
        if await arrived.count():
            break
        if await follow_up.count():
            await follow_up.get_by_role("button", name="Let them finish the move").click()
        await asyncio.sleep(0.05)
    await expect(arrived).to_have_count(1)
    assert await view_of(alice, ".tokens.hero.x") == 3

    # The player ends the Phase: the marker moves on, on both pages; the move's path and
    # where it left the ogre's reach stay drawn until the next move.
    await alice.get_by_role("button", name="End Hero's Phase").click()
    for page in (gm, alice):
        await expect(page.locator("#order li.actor")).to_contain_text("Elf")
        await expect(page.locator('[data-token="elf"]')).to_have_class(re.compile(r"\bactor\b"))
        await expect(page.locator('polyline.last-move[data-last-move="hero"]')).to_have_count(1)
        await expect(page.locator(exit_mark)).to_have_count(1)
        await expect(page.locator("#last-move")).to_contain_text(f"Left Ogre's reach at ({point})")
    await gm.screenshot(path=shots / "gm.png")
    await alice.screenshot(path=shots / "alice.png")
    for name in ("gm-prompt.png", "alice-prompt.png", "alice-drag.png", "gm.png", "alice.png"):
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pages["errors"] == []


def _recorded_command(recording: str, kind: str) -> dict[str, Any]:
    """The body of the first ``kind`` command sent in ``tests/recordings/recording``."""
    path = Path(__file__).parent.parent / "recordings" / recording
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record.get("record") == "in" and "text" in record:
            message = json.loads(record["text"])
            if message["type"] == kind:
                return dict(message["body"])
    raise AssertionError(f"no {kind} in {recording}")


async def test_another_rulesets_held_action_and_its_trigger_area(
    pages: dict[str, Any], tmp_path: Path
) -> None:
    """Cyberpunk RED's Hold Action, declared from the GM's page, is drawn on the player's
    with its trigger area, and listed in the initiative order; the page knows it only
    from the bridge's events."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = _recorded_command("cpr_fight.jsonl", "load_scene")["scene"]
    start = _recorded_command("cpr_fight.jsonl", "start_combat")
    await gm.evaluate(
        "async ([scene, seed]) => { await window.vttClient.loadScene(scene);"
        " await window.vttClient.startCombat('cyberpunk-red', { seed }); }",
        [scene, start["seed"]],
    )
    actor = await actor_of(alice, "cyberpunk-red")
    foe = next(t["id"] for t in scene["tokens"] if t["side"] != _side(scene, actor))
    area = [[0, 0], [0, 1], [1, 1]]
    weapon = scene_stat(scene, actor, "hand.right")
    hold = {
        "action": "attack",
        "trigger": "enters",
        "area": area,
        "params": {"target": foe, "weapon": weapon, "base": 12},
    }
    await gm.evaluate("([t, p]) => window.vttClient.act(t, 'hold_action', p)", [actor, hold])
    drawn = f'g.trigger.hold[data-hold="{actor}"] polygon'
    await expect(alice.locator(drawn)).to_have_count(len(area))
    cells = await alice.locator(drawn).evaluate_all("(ps) => ps.map((p) => p.dataset.triggerCell)")
    assert sorted(cells) == sorted(f"{c},{r}" for c, r in area)
    # The trigger in the game's words, from its description's trigger words.
    listed = "hold attack, when someone enters the area"
    await expect(alice.locator("#order")).to_contain_text(listed)
    # The bridge's own state says the same: a fresh join folds it from the state message.
    table = pages["table"]
    assert [h.holder for h in table.committed.combat.rules.holds] == [actor]
    await alice.reload()
    await expect(alice.locator("#status")).to_have_text("joined")
    await expect(alice.locator(drawn)).to_have_count(len(area))
    shots = Path(os.environ.get("VTT_BRIDGE_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    await alice.screenshot(path=shots / "alice-cpr-hold.png")
    assert pages["errors"] == []


def _side(scene: dict[str, Any], token: str) -> str:
    return str(next(t["side"] for t in scene["tokens"] if t["id"] == token))


def scene_stat(scene: dict[str, Any], token: str, stat: str) -> Any:
    """``token``'s ``stat`` in a scene as sent on the wire."""
    stats = next(t["stats"] for t in scene["tokens"] if t["id"] == token)
    return dict(stats)[stat] if isinstance(stats, list) else stats[stat]


async def test_the_gm_ends_the_fight_from_the_page(pages: dict[str, Any]) -> None:
    """An "End combat" button on the GM's page during a fight (never on a player's):
    clicked, both pages drop the fight and the GM may start another."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_role("button", name="Load the demo scene").click()
    await expect(alice.locator('[data-token="hero"]')).to_be_visible()
    end = gm.get_by_role("button", name="End combat")
    await expect(end).to_have_count(0)  # no fight yet
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#time")).to_have_text("Turn 1, Phase 1")
    await expect(alice.get_by_role("button", name="End combat")).to_have_count(0)
    await end.click()
    for page in (gm, alice):
        await expect(page.locator("#log")).to_contain_text(
            "The fight is over: ended from the table view"
        )
        assert await view_of(page, ".combat") is None
    await expect(end).to_have_count(0)
    await expect(gm.get_by_role("button", name=re.compile("Start combat"))).to_be_visible()
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_contain_text("Hero")
    assert pages["errors"] == []


async def test_a_cyberpunk_red_fight_reads_in_rounds_on_the_pages(pages: dict[str, Any]) -> None:
    """The header, the End button and the log say the game's own clock, as the bridge
    labels it: a Cyberpunk RED Round of turns, not Hero's Turns and Phases."""
    alice: Page = pages["alice"]
    server = pages["server"]
    async with aiohttp.ClientSession() as http:
        gm = await TableClient.connect(http, str(server.make_url("/ws")))
        await gm.join(token_of(pages["table"], "gm"))
        await act(gm, protocol.LoadScene, scene=street())
        await act(gm, protocol.StartCombat, ruleset="cyberpunk-red", aware=None, seed=SEED)
        await expect(alice.locator("#time")).to_have_text("Round 1")
        # Gina (alice's) acts first: her turn ends with her button.
        end = alice.get_by_role("button", name="End Gina's Turn")
        await expect(end).to_be_visible()
        assert await alice.get_by_role("button", name=re.compile("Phase")).count() == 0
        await end.click()
        await expect(alice.locator("#log")).to_contain_text("Gina is done")
        for who in ("boss", "rex", "goon"):  # the rest of Round 1 (the GM ends them all)
            await act(gm, protocol.EndPhase, token=who)
        await expect(alice.locator("#time")).to_have_text("Round 2")
        await expect(alice.locator("#log")).to_contain_text("Round 2")
        await gm.close()
    assert pages["errors"] == []


async def test_the_log_reads_each_games_events_in_its_words(pages: dict[str, Any]) -> None:
    """A Cyberpunk RED attack and a Mutants & Masterminds attack check, from their golden
    recordings' fights, read in the log with names and the dice arithmetic: the page
    words no event itself, the server's description of each ruleset does."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    for recording, ruleset in (("cpr_fight.jsonl", "cyberpunk-red"), ("mm3e_fight.jsonl", "mm3e")):
        scene = _recorded_command(recording, "load_scene")["scene"]
        start = _recorded_command(recording, "start_combat")
        await gm.evaluate(
            "async ([scene, ruleset, seed]) => { const c = window.vttClient;"
            " if (c.view.combat) await c.endCombat(); await c.loadScene(scene);"
            " await c.startCombat(ruleset, { seed }); }",
            [scene, ruleset, start["seed"]],
        )
        actor = await actor_of(alice, ruleset)
        foe = next(t["id"] for t in scene["tokens"] if t["side"] != _side(scene, actor))
        if ruleset == "cyberpunk-red":
            weapon = scene_stat(scene, actor, "hand.right")
            params = {"target": foe, "weapon": weapon, "base": 12}
        else:
            params = {"target": foe, "reach": "ranged"}
        await gm.evaluate("([t, p]) => window.vttClient.act(t, 'attack', p)", [actor, params])
        names = {t["id"]: t["name"] for t in scene["tokens"]}
        if ruleset == "cyberpunk-red":
            line = re.compile(
                rf"{names[actor]} attacks {names[params['target']]} with .+: "
                r"d10 \d+ \+ base \d+ = \d+ \(attack 1\)"
            )
        else:
            line = re.compile(
                rf"{names[actor]} makes a \w+ attack on {names[params['target']]}: d20 \d+ "
                r"\+ -?\d+ = -?\d+ vs DC 10 \+ \w+ \d+ = \d+.*: (hit|miss)"
            )
        for page in (gm, alice):
            await expect(page.locator("#log li", has_text=line)).to_have_count(1)
    await expect(alice.locator("#log")).not_to_contain_text("cpr_attack {")
    await expect(alice.locator("#log")).not_to_contain_text("attack_check {")
    assert pages["errors"] == []


async def test_a_game_no_page_file_names_reads_and_prompts_in_its_words(
    pages: dict[str, Any],
) -> None:
    """The tests' toy ruleset, which no page or client file names: its zap reads in the
    log in its own words, its attack of opportunity prompt asks with the core's, and its
    ambush is drawn with its trigger area and listed in the order."""
    import tests.toy_ruleset  # noqa: F401  (registers "toy-duel" in this server)

    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    scene = {
        "grid": {"kind": "square", "cell_size": 1, "unit": "m", "width": 8, "height": 8},
        "tokens": [
            {"id": "ann", "name": "Ann", "owner": "alice", "side": "a", "x": 2, "y": 2,
             "size": 1, "reach": 1, "movement": 4, "stats": {"speed": 9}},
            {"id": "bo", "name": "Bo", "owner": "gm", "side": "b", "x": 3, "y": 2,
             "size": 1, "reach": 1, "movement": 4, "stats": {"speed": 0}},
        ],
        "walls": [],
        "terrain": [],
    }  # fmt: skip
    await gm.evaluate(
        "async (scene) => { await window.vttClient.loadScene(scene);"
        " await window.vttClient.startCombat('toy-duel', { seed: 5 }); }",
        scene,
    )
    await alice.evaluate("() => window.vttClient.act('ann', 'zap', { target: 'bo' })")
    for page in (gm, alice):
        await expect(
            page.locator("#log li", has_text=re.compile(r"^Ann zaps Bo: 1d6 \d, a (hit|miss)$"))
        ).to_have_count(1)
    await alice.evaluate("() => window.vttClient.move('ann', [[1, 2], [0, 2]], { mode: 'stride' })")
    prompt = gm.locator("#prompt-list li.mine")
    await expect(prompt).to_contain_text("Bo may attack Ann, who is leaving its reach")
    await prompt.get_by_role("button", name="Let them pass").click()
    await expect(alice.locator("#log")).to_contain_text("Ann arrives on (0, 2) (cost 2, 2 left)")
    # Bo lies in ambush: its trigger area is drawn and the order says it, in the toy's
    # words (its description's holds and trigger words), on both pages.
    await alice.evaluate("() => window.vttClient.endPhase('ann')")
    await gm.evaluate(
        "() => window.vttClient.act('bo', 'ambush', { on: 'enter', area: [[5, 5], [5, 6]] })"
    )
    for page in (gm, alice):
        await expect(page.locator('g.trigger.ambush[data-hold="bo"] polygon')).to_have_count(2)
        await expect(page.locator("#order")).to_contain_text(
            "(ambush, when a token enters the area)"
        )
        await expect(page.locator("#log")).to_contain_text(
            "Bo lies in ambush until enter in 2 cells"
        )
    assert pages["errors"] == []


async def test_a_paused_move_its_prompts_and_the_log_after_a_reload(
    pages: dict[str, Any],
) -> None:
    """While a prompt pauses the hero's move its player's page says the move is paused
    (not the movement left before it); the follow-up prompt's buttons say what each
    answer does; once the prompts closed the options are asked again.  A reloaded page
    joins asking for the events the bridge keeps: its log shows the fight's past again,
    the same lines in the same words, then goes on with new ones."""
    gm: Page = pages["gm"]
    alice: Page = pages["alice"]
    await gm.get_by_label("Ruleset").select_option("hero-supplement")
    await gm.get_by_role("button", name="Load the demo scene").click()
    await gm.get_by_role("button", name=re.compile("Start combat")).click()
    await expect(alice.locator("#order li.actor")).to_contain_text("Hero")
    await alice.locator('[data-token="hero"]').click()
    await expect(alice.locator("#hint")).to_contain_text("Movement left: 12.")
    # The step provokes the ogre: while the GM decides, the hero's move is paused.
    await alice.evaluate("() => window.vttClient.move('hero', [[6, 5]])")
    prompt = gm.locator("#prompt-list li.mine")
    await expect(prompt).to_contain_text("Ogre may attack Hero")
    await expect(alice.locator("#hint")).to_contain_text("Its move is paused")
    await expect(alice.locator("#hint")).not_to_contain_text("Movement left")
    await prompt.get_by_role("button", name="Attack").click()
    # The table's seed makes it a hit: the follow-up asks in the description's words,
    # its buttons saying what each answer does (never a bare Accept / Decline).
    question = "Ogre hit Hero: can Hero finish its move?"
    follow_up = gm.locator("#prompt-list li.mine", has_text=question)
    await expect(follow_up.get_by_role("button")).to_have_text(
        ["Let them finish the move", "Stop them here"]
    )
    await expect(alice.locator("#prompt-list li.theirs")).to_contain_text(question)
    await follow_up.get_by_role("button", name="Let them finish the move").click()
    await expect(alice.locator("#log")).to_contain_text("Hero arrives on (6, 5)")
    # The prompt closed and the move ended: the options are asked again.
    await expect(alice.locator("#hint")).to_contain_text(re.compile(r"Movement left: \d"))
    await expect(alice.locator("#hint")).not_to_contain_text("waiting for prompt answers")
    await alice.get_by_role("button", name="End Hero's Phase").click()
    await expect(alice.locator("#order li.actor")).to_contain_text("Elf")
    lines = alice.locator("#log li.event")
    before = await lines.all_inner_texts()
    assert any("Hero arrives" in line for line in before)
    assert any(re.search(r"3d6 \d+ \(\d, \d, \d\) \+ OCV 5", line) for line in before)
    await alice.reload()
    await expect(alice.locator("#status")).to_have_text("joined")
    await expect(lines).to_have_text(before)
    # The GM's page, which never reloaded, reads the same.
    await expect(gm.locator("#log li.event")).to_have_text(before)
    await gm.get_by_role("button", name="End Elf's Phase").click()
    await alice.wait_for_function(
        "(n) => document.querySelectorAll('#log li.event').length > n", arg=len(before)
    )
    assert (await lines.all_inner_texts())[: len(before)] == before
    assert pages["errors"] == []
