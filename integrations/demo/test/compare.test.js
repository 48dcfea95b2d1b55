// The same fight through every registered adapter (adapters.js): Foundry v13, Foundry
// v12 and Owlbear get the same events (all of them, the scene's `grid.vtt` aside: runner.js
// VTT_FIELDS), the same positions and skip the same optional steps.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { ADAPTERS } from "../adapters.js";
import { comparable, runFight } from "../runner.js";

const script = JSON.parse(readFileSync(new URL("../fight.json", import.meta.url), "utf8"));
const names = Object.keys(ADAPTERS);
const table = (name) => name.replace(/[^A-Za-z0-9_-]/g, "-");
let bridge;

before(async () => {
  bridge = await startBridge({ tables: names.map(table) });
});
after(async () => {
  await bridge?.stop();
});

test(`every adapter (${names.join(", ")}) gets the same events and positions`, async () => {
  assert.ok(names.includes("foundry") && names.includes("owlbear"), names.join(", "));
  const raw = {};
  const results = {};
  for (const name of names) {
    raw[name] = await runFight(script, ADAPTERS[name], { bridgeUrl: bridge.url, gmToken: bridge.tables[table(name)].gm });
    results[name] = comparable(raw[name]);
  }
  const [first, ...rest] = names;
  assert.ok(results[first].events.length > 10);
  // The fight happened: the hero paused leaving the ogre's reach, the GM was prompted.
  const kinds = results[first].events.map((e) => e.kind);
  for (const kind of ["combat_started", "move_interrupted", "prompt_opened", "prompt_closed", "attack_rolled", "move_completed"]) {
    assert.ok(kinds.includes(kind), kind);
  }
  // What was left out really is each VTT's own pixel frame, and nothing else differs there.
  assert.equal(raw.foundry.events[0].data.scene.grid.vtt.kind, "foundry");
  assert.equal(raw.owlbear.events[0].data.scene.grid.vtt.kind, "owlbear");
  for (const name of rest) {
    assert.deepEqual(results[name].positions, results[first].positions, `${name} vs ${first}`);
    assert.deepEqual(results[name].events, results[first].events, `${name} vs ${first}`);
    assert.deepEqual(results[name].skipped, results[first].skipped, `${name} vs ${first}`);
  }
});

test("fight.json's drags are what both VTTs can play alike: one drop each, passing no cell corner", () => {
  const at = Object.fromEntries(script.tokens.map((t) => [t.id, t.cell]));
  const size = Object.fromEntries(script.tokens.map((t) => [t.id, t.size]));
  for (const step of script.steps.filter((s) => s.do === "drag")) {
    assert.equal(step.through.length, 1, `${step.token}: Owlbear has no waypoints, a drag is one drop`);
    // The token's centre runs from where it stands to the drop; a corner is a whole point.
    const half = size[step.token] / 2;
    const [x0, y0] = at[step.token].map((v) => v + half);
    const [x1, y1] = step.through[0].map((v) => v + half);
    for (let x = Math.ceil(Math.min(x0, x1)); x <= Math.floor(Math.max(x0, x1)); x++) {
      // An upright drag on a grid line meets a corner if it spans a whole y.
      const onCorner = x1 === x0
        ? Math.ceil(Math.min(y0, y1)) <= Math.floor(Math.max(y0, y1))
        : Number.isInteger(Math.round((y0 + ((x - x0) * (y1 - y0)) / (x1 - x0)) * 1e9) / 1e9);
      assert.ok(!onCorner, `${step.token}'s drag to ${step.through[0]} passes the corner at x = ${x}`);
    }
    at[step.token] = step.through[0].map(Math.round);
  }
});
