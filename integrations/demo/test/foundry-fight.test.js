// The scripted fight (fight.json) through the Foundry adapter against a real bridge:
// Foundry-shaped documents, drags with unsnapped waypoints, the module's own hooks.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { makeFoundryAdapter } from "../foundry-adapter.js";
import { runFight } from "../runner.js";

const script = JSON.parse(readFileSync(new URL("../fight.json", import.meta.url), "utf8"));
let bridge;

before(async () => {
  bridge = await startBridge({ tables: ["demo"] });
});
after(async () => {
  await bridge?.stop();
});

test("the fight through Foundry: the bridge decides, Foundry shows it", async () => {
  const result = await runFight(script, makeFoundryAdapter, { bridgeUrl: bridge.url, gmToken: bridge.tables.demo.gm });
  const kinds = result.events.map((e) => e.kind);
  assert.equal(kinds[0], "scene_loaded");
  assert.ok(kinds.includes("combat_started"));
  // The hero left the ogre's reach: paused, the GM prompted, then the move went on.
  const interrupted = result.events.find((e) => e.kind === "move_interrupted");
  assert.equal(interrupted.data.token, "hero");
  assert.equal(interrupted.data.by, "ogre");
  const opened = result.events.find((e) => e.kind === "prompt_opened");
  assert.equal(opened.data.controller, "gm");
  assert.ok(kinds.indexOf("prompt_closed") > kinds.indexOf("move_interrupted"));
  // Every token stands in Foundry where the bridge put it.
  const moved = {};
  for (const e of result.events) {
    if (e.kind === "move_completed" || e.kind === "move_stopped" || e.kind === "token_placed") moved[e.data.token] = e.data.at;
  }
  for (const [token, at] of Object.entries(moved)) assert.deepEqual(result.positions[token], at, token);
  assert.ok(Object.keys(moved).length >= 3, JSON.stringify(moved));
});
